//! Sounds as world state: what plays, where, on which bus, since which tick — made and changed
//! only by the `audio.*` skills, shown by the inspector and folded into the world hash.
//!
//! A sound's samples are never stored here: a blip and an ambience bed are synthesized from their
//! parameters, and a spoken line's samples live with the audio backend. What the mixer plays at any
//! sample is a pure function of this table, the camera (the listener) and the tick, which is what
//! makes a rendered WAV the same for the same script and seed.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::ui::Writer;

/// Ticks per second of the fixed step.
const TICKS_PER_SECOND: f64 = 60.0;
/// Live sounds one world may hold (each is mixed every sample).
pub const MAX_SOUNDS: usize = 256;
/// Characters of a spoken line the world keeps a sound for, at most (the catalog's bound).
pub const MAX_SPEECH_CHARS: usize = 500;
/// A spoken line is expected to take about this long per character (espeak-ng's default rate is
/// ~175 words a minute); with a second of slack it bounds how long the world keeps the sound.
const SPEECH_MS_PER_CHAR: f64 = 75.0;

/// The mixer's buses; every sound plays on one, every bus into master.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Bus {
    Master,
    Sfx,
    Ambience,
    Voice,
}

impl Bus {
    pub const ALL: [Bus; 4] = [Bus::Master, Bus::Sfx, Bus::Ambience, Bus::Voice];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn parse(text: &str) -> Option<Bus> {
        Bus::ALL.into_iter().find(|b| b.as_str() == text)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Bus::Master => "master",
            Bus::Sfx => "sfx",
            Bus::Ambience => "ambience",
            Bus::Voice => "voice",
        }
    }
}

/// What a sound is made of.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum SoundKind {
    /// A sine at `freq` Hz with a short attack and an exponential decay over `secs`.
    Blip { freq: f64, secs: f64 },
    /// A looping synthesized bed (filtered noise and a low drone), until stopped.
    Ambient,
    /// A line of text spoken by the TTS voice; `id` names its samples in the audio backend.
    Speech { text: String, id: u64 },
}

/// One live sound.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Sound {
    pub handle: String,
    #[serde(flatten)]
    pub kind: SoundKind,
    pub bus: Bus,
    pub volume: f64,
    /// Where it plays from (positional sounds); None plays centred at full level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<[f64; 3]>,
    /// Beyond this distance from the listener it is silent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_distance: Option<f64>,
    pub started_tick: u64,
    pub owner: String,
}

impl Sound {
    /// The tick after which it has finished (None: plays until stopped).
    pub fn ends_at(&self) -> Option<u64> {
        let secs = match &self.kind {
            SoundKind::Blip { secs, .. } => *secs,
            SoundKind::Ambient => return None,
            SoundKind::Speech { text, .. } => text.chars().count() as f64 * SPEECH_MS_PER_CHAR / 1000.0 + 1.0,
        };
        Some(self.started_tick + (secs * TICKS_PER_SECOND).ceil() as u64)
    }
}

/// Why an `audio.*` change was refused (nothing changed).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SoundError {
    #[error("no sound {handle}: {why}")]
    NotFound { handle: String, why: &'static str },
    #[error("{MAX_SOUNDS} sounds are already playing; stop some first")]
    Full,
    #[error("{handle} belongs to {owner}; only its owner or the operator may change it")]
    NotYours { handle: String, owner: String },
}

/// Every live sound of a world and the bus volumes.
#[derive(Debug, Clone)]
pub struct SoundTable {
    sounds: BTreeMap<u64, Sound>,
    next: u64,
    next_speech: u64,
    /// Bus volumes, by `Bus::index`.
    pub bus_volumes: [f64; 4],
    /// The tick the world is at (set by the engine each step).
    pub tick: u64,
    /// Bumped by every change, so the mixer is handed a new copy only when something changed.
    pub revision: u64,
}

impl Default for SoundTable {
    fn default() -> Self {
        Self { sounds: BTreeMap::new(), next: 0, next_speech: 0, bus_volumes: [1.0; 4], tick: 0, revision: 0 }
    }
}

fn parse_handle(text: &str) -> Option<u64> {
    let digits = text.strip_prefix("snd_")?;
    if digits.len() < 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

impl SoundTable {
    pub fn len(&self) -> usize {
        self.sounds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sounds.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Sound> {
        self.sounds.values()
    }

    pub fn get(&self, handle: &str) -> Option<&Sound> {
        self.sounds.get(&parse_handle(handle)?)
    }

    /// Adds a sound starting at `start` (a tick, now or later); see `play`.
    pub fn play_from(
        &mut self,
        start: u64,
        kind: SoundKind,
        bus: Bus,
        volume: f64,
        position: Option<[f64; 3]>,
        owner: &str,
    ) -> Result<String, SoundError> {
        let handle = self.play(kind, bus, volume, position, None, owner)?;
        if let Some(s) = parse_handle(&handle).and_then(|k| self.sounds.get_mut(&k)) {
            s.started_tick = start.max(self.tick);
        }
        self.revision += 1;
        Ok(handle)
    }

    /// Adds a sound starting now; returns its handle. A speech sound's `id` is assigned here.
    pub fn play(
        &mut self,
        mut kind: SoundKind,
        bus: Bus,
        volume: f64,
        position: Option<[f64; 3]>,
        max_distance: Option<f64>,
        owner: &str,
    ) -> Result<String, SoundError> {
        if self.sounds.len() >= MAX_SOUNDS {
            return Err(SoundError::Full);
        }
        if let SoundKind::Speech { id, .. } = &mut kind {
            self.next_speech += 1;
            *id = self.next_speech;
        }
        self.next += 1;
        let handle = format!("snd_{:04}", self.next);
        let sound =
            Sound { handle: handle.clone(), kind, bus, volume, position, max_distance, started_tick: self.tick, owner: owner.to_string() };
        self.sounds.insert(self.next, sound);
        self.revision += 1;
        Ok(handle)
    }

    fn missing(&self, handle: &str) -> SoundError {
        let why = match parse_handle(handle) {
            None => "not a sound handle (snd_0001, ...)",
            Some(n) if n >= 1 && n <= self.next => "it finished or was stopped",
            Some(_) => "it never existed",
        };
        SoundError::NotFound { handle: handle.to_string(), why }
    }

    /// The key of the sound `handle` names, if `writer` may change it (its owner or the operator).
    fn writable(&self, handle: &str, writer: &Writer<'_>) -> Result<u64, SoundError> {
        let key = parse_handle(handle).filter(|k| self.sounds.contains_key(k)).ok_or_else(|| self.missing(handle))?;
        let owner = &self.sounds[&key].owner;
        if !writer.operator && owner != writer.agent {
            return Err(SoundError::NotYours { handle: handle.to_string(), owner: owner.clone() });
        }
        Ok(key)
    }

    pub fn stop(&mut self, handle: &str, writer: &Writer<'_>) -> Result<Sound, SoundError> {
        let key = self.writable(handle, writer)?;
        self.revision += 1;
        Ok(self.sounds.remove(&key).expect("a live key"))
    }

    pub fn set_volume(&mut self, handle: &str, volume: f64, writer: &Writer<'_>) -> Result<(), SoundError> {
        let key = self.writable(handle, writer)?;
        if let Some(s) = self.sounds.get_mut(&key) {
            s.volume = volume.clamp(0.0, 1.0);
        }
        self.revision += 1;
        Ok(())
    }

    pub fn set_bus_volume(&mut self, bus: Bus, volume: f64) {
        self.bus_volumes[bus.index()] = volume.clamp(0.0, 1.0);
        self.revision += 1;
    }

    /// Removes the sounds that have finished by `tick`; returns them in handle order.
    pub fn finish(&mut self, tick: u64) -> Vec<Sound> {
        let done: Vec<u64> = self.sounds.iter().filter(|(_, s)| s.ends_at().is_some_and(|at| at <= tick)).map(|(k, _)| *k).collect();
        if !done.is_empty() {
            self.revision += 1;
        }
        done.into_iter().filter_map(|k| self.sounds.remove(&k)).collect()
    }

    /// The sounds' share of the world hash; None when nothing plays and the buses are at their
    /// defaults (so such a world hashes as it did before sound existed).
    pub fn hash(&self) -> Option<String> {
        if self.sounds.is_empty() && self.bus_volumes == [1.0; 4] {
            return None;
        }
        let sounds: Vec<&Sound> = self.sounds.values().collect();
        let text = serde_json::to_string(&(sounds, self.bus_volumes)).unwrap_or_default();
        Some(crate::digest::sha256_text(&Sha256::digest(text.as_bytes())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blips_finish_and_handles_say_why_they_resolve_to_nothing() {
        let mut t = SoundTable::default();
        let h = t.play(SoundKind::Blip { freq: 440.0, secs: 0.5 }, Bus::Sfx, 1.0, None, None, "a").unwrap();
        assert_eq!(t.get(&h).unwrap().ends_at(), Some(30));
        assert!(t.finish(29).is_empty());
        assert_eq!(t.finish(30)[0].handle, h);
        let me = Writer { agent: "a", operator: false };
        assert!(t.stop(&h, &me).unwrap_err().to_string().contains("finished or was stopped"));
        assert!(t.stop("snd_9999", &me).unwrap_err().to_string().contains("never existed"));
        assert!(t.stop("beep", &me).unwrap_err().to_string().contains("not a sound handle"));
        let mine = t.play(SoundKind::Ambient, Bus::Ambience, 1.0, None, None, "a").unwrap();
        assert!(matches!(t.stop(&mine, &Writer { agent: "b", operator: false }), Err(SoundError::NotYours { .. })));
        assert!(t.set_volume(&mine, 0.5, &Writer { agent: "b", operator: true }).is_ok(), "the operator may");
    }

    #[test]
    fn the_hash_is_none_until_something_plays_or_a_bus_changes() {
        let mut t = SoundTable::default();
        assert!(t.hash().is_none());
        t.set_bus_volume(Bus::Sfx, 0.5);
        assert!(t.hash().is_some());
    }
}
