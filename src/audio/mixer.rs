//! The mixer: one fixed step's worth of stereo samples (735 frames at 44.1 kHz) from the world's
//! sounds, each through its sound volume, its bus volume, the master bus and its spatial gains
//! relative to the listener. What a sound contributes at a frame depends only on the frame's
//! distance from the tick the sound started, so the same world gives the same samples.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError};

use super::spatial::{self, Listener};
use super::synth::{self, FRAMES_PER_TICK};
use super::tts::{self, Speech};
use crate::world::sound::{Bus, Sound, SoundKind};

/// The master limiter: linear up to 0.75, then a smooth knee that reaches 1 only at infinity, so
/// loud moments are compressed instead of clipped.
fn limit(x: f32) -> f32 {
    const KNEE: f32 = 0.75;
    let a = x.abs();
    if a <= KNEE {
        return x;
    }
    let over = (a - KNEE) / (1.0 - KNEE);
    (KNEE + (1.0 - KNEE) * over.tanh()).copysign(x)
}

/// The sounds of a step as the mixer is handed them: shared, each and all.
pub type SoundSnapshot = Arc<Vec<Arc<Sound>>>;

/// One step's mixing input: the sounds playing, the buses and the listener.
#[derive(Debug, Clone)]
pub struct MixFrame {
    pub tick: u64,
    pub listener: Listener,
    pub bus_volumes: [f64; 4],
    /// Shared between steps while nothing changes (the loop hands over a pointer, not a copy).
    pub sounds: SoundSnapshot,
}

/// A spoken line's samples, once synthesized, and the tick it starts playing at.
enum Voice {
    Pending(Receiver<Result<Speech, tts::TtsError>>),
    Ready {
        speech: Arc<Speech>,
        from_tick: u64,
    },
    Failed,
    /// Handed to the system voice (feature `tts`), which plays it itself.
    #[cfg(feature = "tts")]
    System,
}

/// How spoken lines are waited for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpeechTiming {
    /// Synthesize on first sight and wait (rendering to a file: exact and repeatable).
    Wait,
    /// Synthesize in the background; the line starts when its samples are ready (a device).
    Background,
}

/// Lines synthesized at once in the background; more wait their turn (each is a process).
const MAX_SYNTHESES: usize = 4;

pub struct Mixer {
    voices: HashMap<u64, Voice>,
    /// With feature `tts` and `LIMINA_TTS=system` in real time: lines go to the system voice.
    #[cfg(feature = "tts")]
    system: Option<super::system_voice::SystemVoice>,
    /// Background syntheses still running.
    in_flight: Arc<AtomicUsize>,
    timing: SpeechTiming,
    /// Lines that failed to synthesize, with the reason, for the caller to report once.
    pub failures: Vec<(u64, String)>,
}

impl Mixer {
    pub fn new(timing: SpeechTiming) -> Self {
        Self {
            voices: HashMap::new(),
            #[cfg(feature = "tts")]
            system: (timing == SpeechTiming::Background && super::system_voice::wanted()).then(super::system_voice::SystemVoice::start),
            in_flight: Arc::new(AtomicUsize::new(0)),
            timing,
            failures: Vec::new(),
        }
    }

    /// The samples of line `id` and the tick they play from: in `Wait` timing the tick the sound
    /// started (so a line first heard late is heard from where it is, not from its beginning);
    /// in `Background` timing the tick its samples became ready.
    fn voice(&mut self, id: u64, text: &str, started: u64, tick: u64) -> Option<(Arc<Speech>, u64)> {
        #[cfg(feature = "tts")]
        if let Some(system) = &self.system {
            if !self.voices.contains_key(&id) {
                system.speak(text);
                self.voices.insert(id, Voice::System);
            }
            return None;
        }
        if !self.voices.contains_key(&id) {
            let voice = match self.timing {
                SpeechTiming::Wait => match tts::synthesize(text) {
                    Ok(speech) => Voice::Ready { speech: Arc::new(speech), from_tick: started },
                    Err(e) => {
                        self.failures.push((id, e.to_string()));
                        Voice::Failed
                    }
                },
                SpeechTiming::Background => {
                    // Counted until each synthesis ends, even one whose sound was stopped.
                    if self.in_flight.load(Ordering::Acquire) >= MAX_SYNTHESES {
                        return None; // tried again next step
                    }
                    let (tx, rx) = std::sync::mpsc::channel();
                    let text = text.to_string();
                    let in_flight = Arc::clone(&self.in_flight);
                    in_flight.fetch_add(1, Ordering::AcqRel);
                    std::thread::spawn(move || {
                        let _ = tx.send(tts::synthesize(&text));
                        in_flight.fetch_sub(1, Ordering::AcqRel);
                    });
                    Voice::Pending(rx)
                }
            };
            self.voices.insert(id, voice);
        }
        let voice = self.voices.get_mut(&id).expect("inserted above");
        if let Voice::Pending(rx) = voice {
            match rx.try_recv() {
                Ok(Ok(speech)) => *voice = Voice::Ready { speech: Arc::new(speech), from_tick: tick },
                Ok(Err(e)) => {
                    self.failures.push((id, e.to_string()));
                    *voice = Voice::Failed;
                }
                Err(TryRecvError::Empty) => {}
                Err(TryRecvError::Disconnected) => *voice = Voice::Failed,
            }
        }
        match voice {
            Voice::Ready { speech, from_tick } => Some((Arc::clone(speech), *from_tick)),
            _ => None,
        }
    }

    /// Mixes one step into `out` (interleaved stereo, `FRAMES_PER_TICK` frames, overwritten).
    pub fn mix(&mut self, frame: &MixFrame, out: &mut Vec<f32>) {
        out.clear();
        out.resize(FRAMES_PER_TICK * 2, 0.0);
        let master = frame.bus_volumes[Bus::Master.index()];
        for sound in frame.sounds.iter() {
            // A sound queued to start later (a spoken line waiting its turn) is not heard yet.
            if sound.started_tick > frame.tick {
                continue;
            }
            let bus = if sound.bus == Bus::Master { 1.0 } else { frame.bus_volumes[sound.bus.index()] };
            let Some((left, right)) = spatial::gains(&frame.listener, sound.position, sound.max_distance) else { continue };
            let level = sound.volume * bus * master;
            if level <= 0.0 {
                continue;
            }
            let (gl, gr) = ((left * level) as f32, (right * level) as f32);
            let start = frame.tick.saturating_sub(sound.started_tick) * FRAMES_PER_TICK as u64;
            match &sound.kind {
                SoundKind::Blip { freq, secs } => {
                    for f in 0..FRAMES_PER_TICK {
                        let s = synth::blip(*freq, *secs, start + f as u64);
                        out[2 * f] += s * gl;
                        out[2 * f + 1] += s * gr;
                    }
                }
                SoundKind::Ambient => {
                    for f in 0..FRAMES_PER_TICK {
                        let s = synth::ambient(start + f as u64);
                        out[2 * f] += s * gl;
                        out[2 * f + 1] += s * gr;
                    }
                }
                SoundKind::Speech { text, id } => {
                    let Some((speech, from_tick)) = self.voice(*id, text, sound.started_tick, frame.tick) else { continue };
                    let start = frame.tick.saturating_sub(from_tick) * FRAMES_PER_TICK as u64;
                    for f in 0..FRAMES_PER_TICK {
                        let s = synth::resampled(&speech.samples, speech.rate, start + f as u64);
                        out[2 * f] += s * gl;
                        out[2 * f + 1] += s * gr;
                    }
                }
            }
        }
        for s in out.iter_mut() {
            *s = limit(*s);
        }
        // Voices of sounds no longer playing are dropped.
        self.voices.retain(|id, _| frame.sounds.iter().any(|s| matches!(&s.kind, SoundKind::Speech { id: i, .. } if i == id)));
    }
}
