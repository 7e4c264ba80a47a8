//! System voices (feature `tts`, off by default): lines spoken by the operating system's speech
//! service through the `tts` crate (speech-dispatcher on Linux), chosen with `LIMINA_TTS=system`
//! for real-time runs. The service plays the line itself, so it is not mixed: not spatial, not on
//! the voice bus, not in `--audio-out` files (those always use espeak-ng, whose samples the mixer
//! places). The service runs on its own thread, since a wedged daemon can block a call for many
//! seconds; the mixer only ever hands it text.

use std::sync::mpsc::{Sender, channel};

/// The speaking thread.
#[derive(Debug)]
pub struct SystemVoice {
    tx: Sender<String>,
}

impl SystemVoice {
    /// Starts the speaking thread; the speech service is opened there (a failure is logged once,
    /// and lines are then dropped).
    pub fn start() -> SystemVoice {
        let (tx, rx) = channel::<String>();
        std::thread::spawn(move || {
            let mut service = match tts::Tts::default() {
                Ok(t) => t,
                Err(e) => {
                    tracing::warn!("no system voice ({e}); lines are not spoken");
                    return;
                }
            };
            while let Ok(line) = rx.recv() {
                if let Err(e) = service.speak(line, false) {
                    tracing::warn!("the system voice failed: {e}");
                }
            }
        });
        SystemVoice { tx }
    }

    pub fn speak(&self, text: &str) {
        let _ = self.tx.send(super::tts::clean(text));
    }
}

/// Whether `LIMINA_TTS` asks for the system voice.
pub fn wanted() -> bool {
    std::env::var("LIMINA_TTS").is_ok_and(|v| v.eq_ignore_ascii_case("system"))
}
