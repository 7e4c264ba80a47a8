//! Sounds as world state: what plays, where, on which bus, since which tick — made and changed
//! only by the `audio.*` skills, shown by the inspector and folded into the world hash.
//!
//! A sound's samples are never stored here: a blip and an ambience bed are synthesized from their
//! parameters, and a spoken line's samples live with the audio backend. What the mixer plays at any
//! sample is a pure function of this table, the camera (the listener) and the tick, which is what
//! makes a rendered WAV the same for the same script and seed.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::ui::Writer;

/// Ticks per second of the fixed step.
const TICKS_PER_SECOND: f64 = 60.0;
/// Live sounds one world may hold (each is mixed every sample).
pub const MAX_SOUNDS: usize = 256;
/// Characters of a spoken line the world keeps a sound for, at most (the catalog's bound).
pub const MAX_SPEECH_CHARS: usize = 500;
/// How long the world keeps a spoken line: generously per character (numbers and other scripts
/// are read out at length: "$1,234" is six words), plus slack, at most the voice's own cap. The
/// voice is cut where the sound ends; a line that finishes sooner is silence until then.
const SPEECH_MS_PER_CHAR: f64 = 200.0;
const SPEECH_SLACK_MS: f64 = 2000.0;
const SPEECH_MAX_MS: f64 = 30_000.0;
/// Spoken lines playing at once, at most (each holds its samples: up to 30 s of audio).
pub const MAX_SPEECH: usize = 32;
/// Sounds one caller may have playing at once (the operator excepted).
pub const MAX_SOUNDS_PER_OWNER: usize = 32;
/// Room kept past `MAX_SOUNDS` for voices handed over by `social.say`.
pub const VOICE_RESERVE: usize = 64;

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
    /// The entity it moves with (a voice follows its speaker); its position is kept up to date
    /// each step, and stays where the entity was last when the entity goes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub follows: Option<super::EntityId>,
    pub started_tick: u64,
    pub owner: String,
}

impl Sound {
    /// The tick after which it has finished (None: plays until stopped).
    pub fn ends_at(&self) -> Option<u64> {
        let secs = match &self.kind {
            SoundKind::Blip { secs, .. } => *secs,
            SoundKind::Ambient => return None,
            SoundKind::Speech { text, .. } => {
                (text.chars().count() as f64 * SPEECH_MS_PER_CHAR + SPEECH_SLACK_MS).min(SPEECH_MAX_MS) / 1000.0
            }
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
    #[error("{owner} already has {MAX_SOUNDS_PER_OWNER} sounds playing; stop some of them first")]
    OwnerFull { owner: String },
    #[error("{MAX_SPEECH} lines are already being spoken; wait for one to finish")]
    SpeechFull,
    #[error("{handle} belongs to {owner}; only its owner or the operator may change it")]
    NotYours { handle: String, owner: String },
}

/// Every live sound of a world and the bus volumes.
#[derive(Debug, Clone)]
pub struct SoundTable {
    /// Shared, so a snapshot for the mixer is a list of pointers, not copies.
    sounds: BTreeMap<u64, Arc<Sound>>,
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

/// The number in a canonical `snd_0001` handle (at least four digits, no extra leading zeros).
fn parse_handle(text: &str) -> Option<u64> {
    let digits = text.strip_prefix("snd_")?;
    if digits.len() < 4 || digits.len() > 19 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u64 = digits.parse().ok()?;
    (format!("{n:04}") == digits).then_some(n)
}

impl SoundTable {
    pub fn len(&self) -> usize {
        self.sounds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sounds.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Sound> {
        self.sounds.values().map(|s| &**s)
    }

    /// The live sounds, shared (what the mixer is handed).
    pub fn snapshot(&self) -> Vec<Arc<Sound>> {
        self.sounds.values().cloned().collect()
    }

    pub fn get(&self, handle: &str) -> Option<&Sound> {
        self.sounds.get(&parse_handle(handle)?).map(|s| &**s)
    }

    /// Adds a voice handed over by `social.say`, starting at `start` (a tick, now or later) and
    /// following `follows`: not held to the per-owner quota, with room kept past `MAX_SOUNDS`.
    #[allow(clippy::too_many_arguments)]
    pub fn play_from(
        &mut self,
        start: u64,
        kind: SoundKind,
        bus: Bus,
        volume: f64,
        position: Option<[f64; 3]>,
        follows: Option<super::EntityId>,
        owner: &str,
    ) -> Result<String, SoundError> {
        let handle = self.add(kind, bus, volume, position, None, owner, MAX_SOUNDS + VOICE_RESERVE)?;
        if let Some(s) = parse_handle(&handle).and_then(|k| self.sounds.get_mut(&k)) {
            let s = Arc::make_mut(s);
            s.started_tick = start.max(self.tick);
            s.follows = follows;
        }
        self.revision += 1;
        Ok(handle)
    }

    /// Adds a sound starting now for `owner` (held to `MAX_SOUNDS_PER_OWNER` unless it is the
    /// operator); returns its handle.
    #[allow(clippy::too_many_arguments)]
    pub fn play(
        &mut self,
        kind: SoundKind,
        bus: Bus,
        volume: f64,
        position: Option<[f64; 3]>,
        max_distance: Option<f64>,
        owner: &Writer<'_>,
    ) -> Result<String, SoundError> {
        if !owner.operator && self.sounds.values().filter(|s| s.owner == owner.agent).count() >= MAX_SOUNDS_PER_OWNER {
            return Err(SoundError::OwnerFull { owner: owner.agent.to_string() });
        }
        self.add(kind, bus, volume, position, max_distance, owner.agent, MAX_SOUNDS)
    }

    /// Adds a sound if there is room under `limit`; a speech sound's `id` is assigned here.
    #[allow(clippy::too_many_arguments)]
    fn add(
        &mut self,
        mut kind: SoundKind,
        bus: Bus,
        volume: f64,
        position: Option<[f64; 3]>,
        max_distance: Option<f64>,
        owner: &str,
        limit: usize,
    ) -> Result<String, SoundError> {
        if self.sounds.len() >= limit {
            return Err(SoundError::Full);
        }
        if matches!(kind, SoundKind::Speech { .. })
            && self.sounds.values().filter(|s| matches!(s.kind, SoundKind::Speech { .. })).count() >= MAX_SPEECH
        {
            return Err(SoundError::SpeechFull);
        }
        if let SoundKind::Speech { id, .. } = &mut kind {
            self.next_speech += 1;
            *id = self.next_speech;
        }
        self.next += 1;
        let handle = format!("snd_{:04}", self.next);
        let sound = Sound {
            handle: handle.clone(),
            kind,
            bus,
            volume,
            position,
            max_distance,
            follows: None,
            started_tick: self.tick,
            owner: owner.to_string(),
        };
        self.sounds.insert(self.next, Arc::new(sound));
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
        Ok(Arc::unwrap_or_clone(self.sounds.remove(&key).expect("a live key")))
    }

    pub fn set_volume(&mut self, handle: &str, volume: f64, writer: &Writer<'_>) -> Result<(), SoundError> {
        let key = self.writable(handle, writer)?;
        if let Some(s) = self.sounds.get_mut(&key) {
            Arc::make_mut(s).volume = volume.clamp(0.0, 1.0);
        }
        self.revision += 1;
        Ok(())
    }

    /// Moves every sound that follows an entity to where `position_of` says it is now.
    pub fn follow(&mut self, position_of: impl Fn(super::EntityId) -> Option<[f32; 3]>) {
        let mut moved = false;
        for s in self.sounds.values_mut() {
            let Some(p) = s.follows.and_then(&position_of) else { continue };
            let p = p.map(f64::from);
            if s.position != Some(p) {
                Arc::make_mut(s).position = Some(p);
                moved = true;
            }
        }
        if moved {
            self.revision += 1;
        }
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
        done.into_iter().filter_map(|k| self.sounds.remove(&k)).map(Arc::unwrap_or_clone).collect()
    }

    /// The sounds' share of the world hash; None when nothing plays and the buses are at their
    /// defaults (so such a world hashes as it did before sound existed).
    pub fn hash(&self) -> Option<String> {
        if self.sounds.is_empty() && self.bus_volumes == [1.0; 4] {
            return None;
        }
        let sounds: Vec<&Sound> = self.iter().collect();
        let text = serde_json::to_string(&(sounds, self.bus_volumes)).unwrap_or_default();
        Some(crate::digest::sha256_text(&Sha256::digest(text.as_bytes())))
    }
}

/// A sound table as snapshot data (a plain mirror: `Sound`'s serde form is JSON-shaped).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct SoundTableState {
    sounds: Vec<SoundState>,
    next: u64,
    next_speech: u64,
    bus_volumes: [f64; 4],
    tick: u64,
    revision: u64,
}

#[derive(Debug, Serialize, Deserialize)]
struct SoundState {
    key: u64,
    kind: SavedKind,
    bus: Bus,
    volume: f64,
    position: Option<[f64; 3]>,
    max_distance: Option<f64>,
    follows: Option<u64>,
    started_tick: u64,
    owner: String,
}

#[derive(Debug, Serialize, Deserialize)]
enum SavedKind {
    Blip { freq: f64, secs: f64 },
    Ambient,
    Speech { text: String, id: u64 },
}

impl SoundTable {
    pub(crate) fn state(&self) -> SoundTableState {
        let sounds = self
            .sounds
            .iter()
            .map(|(key, s)| SoundState {
                key: *key,
                kind: match &s.kind {
                    SoundKind::Blip { freq, secs } => SavedKind::Blip { freq: *freq, secs: *secs },
                    SoundKind::Ambient => SavedKind::Ambient,
                    SoundKind::Speech { text, id } => SavedKind::Speech { text: text.clone(), id: *id },
                },
                bus: s.bus,
                volume: s.volume,
                position: s.position,
                max_distance: s.max_distance,
                follows: s.follows.map(|e| e.0),
                started_tick: s.started_tick,
                owner: s.owner.clone(),
            })
            .collect();
        SoundTableState {
            sounds,
            next: self.next,
            next_speech: self.next_speech,
            bus_volumes: self.bus_volumes,
            tick: self.tick,
            revision: self.revision,
        }
    }

    /// The table `state` describes, held to the limits `audio.*` keeps.
    pub(crate) fn from_state(state: SoundTableState) -> Result<SoundTable, super::state::WorldStateError> {
        use super::state::WorldStateError as E;
        let max = MAX_SOUNDS + VOICE_RESERVE;
        if state.sounds.len() > max {
            return Err(E::TooMany { what: "sounds", count: state.sounds.len(), max });
        }
        let mut sounds = BTreeMap::new();
        for s in state.sounds {
            if s.key == 0 || s.key > state.next || sounds.contains_key(&s.key) {
                return Err(E::BadHandle { what: "sound", key: s.key, next: state.next });
            }
            let kind = match s.kind {
                SavedKind::Blip { freq, secs } => SoundKind::Blip { freq, secs },
                SavedKind::Ambient => SoundKind::Ambient,
                SavedKind::Speech { text, id } => SoundKind::Speech { text, id },
            };
            let sound = Sound {
                handle: format!("snd_{:04}", s.key),
                kind,
                bus: s.bus,
                volume: s.volume,
                position: s.position,
                max_distance: s.max_distance,
                follows: s.follows.map(super::EntityId),
                started_tick: s.started_tick,
                owner: s.owner,
            };
            sounds.insert(s.key, Arc::new(sound));
        }
        Ok(SoundTable {
            sounds,
            next: state.next,
            next_speech: state.next_speech,
            bus_volumes: state.bus_volumes,
            tick: state.tick,
            revision: state.revision,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blips_finish_and_handles_say_why_they_resolve_to_nothing() {
        let mut t = SoundTable::default();
        let me = Writer { agent: "a", operator: false };
        let h = t.play(SoundKind::Blip { freq: 440.0, secs: 0.5 }, Bus::Sfx, 1.0, None, None, &me).unwrap();
        assert_eq!(t.get(&h).unwrap().ends_at(), Some(30));
        assert!(t.finish(29).is_empty());
        assert_eq!(t.finish(30)[0].handle, h);
        assert!(t.stop(&h, &me).unwrap_err().to_string().contains("finished or was stopped"));
        assert!(t.stop("snd_9999", &me).unwrap_err().to_string().contains("never existed"));
        assert!(t.stop("beep", &me).unwrap_err().to_string().contains("not a sound handle"));
        let mine = t.play(SoundKind::Ambient, Bus::Ambience, 1.0, None, None, &me).unwrap();
        assert!(matches!(t.stop(&mine, &Writer { agent: "b", operator: false }), Err(SoundError::NotYours { .. })));
        assert!(t.set_volume(&mine, 0.5, &Writer { agent: "b", operator: true }).is_ok(), "the operator may");
    }

    #[test]
    fn owners_have_a_quota_voices_have_room_kept_and_handles_are_canonical() {
        let mut t = SoundTable::default();
        let npc = Writer { agent: "agt_npc", operator: false };
        for _ in 0..MAX_SOUNDS_PER_OWNER {
            t.play(SoundKind::Ambient, Bus::Ambience, 1.0, None, None, &npc).unwrap();
        }
        assert!(matches!(t.play(SoundKind::Ambient, Bus::Ambience, 1.0, None, None, &npc), Err(SoundError::OwnerFull { .. })));
        let op = Writer { agent: "agt_script", operator: true };
        while t.len() < MAX_SOUNDS {
            t.play(SoundKind::Ambient, Bus::Ambience, 1.0, None, None, &op).unwrap();
        }
        assert!(matches!(t.play(SoundKind::Ambient, Bus::Ambience, 1.0, None, None, &op), Err(SoundError::Full)));
        let voice = SoundKind::Speech { text: "still heard".into(), id: 0 };
        assert!(t.play_from(0, voice, Bus::Voice, 1.0, None, None, "agt_npc").is_ok(), "a voice still fits");
        assert!(t.get("snd_0001").is_some() && t.get("snd_00001").is_none() && t.get("snd_1").is_none());
    }

    #[test]
    fn the_hash_is_none_until_something_plays_or_a_bus_changes() {
        let mut t = SoundTable::default();
        assert!(t.hash().is_none());
        t.set_bus_volume(Bus::Sfx, 0.5);
        assert!(t.hash().is_some());
    }
}
