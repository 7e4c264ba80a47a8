//! Sound: a mixer with four buses (master, sfx, ambience, voice), synthesized blips and
//! ambience, spatial playback relative to the camera, and espeak-ng speech — running on its own
//! thread, fed one step at a time with what the world says is playing (`world::sound`).
//!
//! Backends: `Null` (silent: `LIMINA_AUDIO=null`, headless runs, or no device), `Wav` (every step
//! mixed sample-accurately on the audio thread and written to a file when the run ends: the same
//! script and seed give the same bytes) and `Device` (the default output device through rodio, in
//! real time; no device is reported once and plays silence, never a crash or a hang). Playing in
//! real time the loop never waits for audio; rendering to a file it waits only when the mixer is
//! 64 steps behind, so memory stays bounded.

#[cfg(feature = "audio-device")]
mod device;
#[cfg(feature = "tts")]
pub mod system_voice;

mod mixer;
pub mod spatial;
pub mod synth;
pub mod tts;

pub use mixer::{MixFrame, Mixer, SoundSnapshot, SpeechTiming};
pub use spatial::Listener;

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

/// Where the engine's sound goes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum AudioBackend {
    /// Nothing is mixed.
    #[default]
    Null,
    /// Mixed to a WAV file (44.1 kHz, 16-bit stereo), written when the engine finishes.
    Wav(PathBuf),
    /// Played on the default output device in real time.
    Device,
}

impl AudioBackend {
    /// The backend for a real-time run: the device, unless `LIMINA_AUDIO=null` asks for silence
    /// (or limina was built without `audio-device`).
    pub fn real_time() -> AudioBackend {
        Self::real_time_with(std::env::var("LIMINA_AUDIO").ok().as_deref())
    }

    /// `real_time` for a given `LIMINA_AUDIO` value.
    pub fn real_time_with(limina_audio: Option<&str>) -> AudioBackend {
        let null = limina_audio.is_some_and(|v| v.eq_ignore_ascii_case("null"));
        if null || cfg!(not(feature = "audio-device")) { AudioBackend::Null } else { AudioBackend::Device }
    }
}

enum Msg {
    Frame(Box<MixFrame>),
    Finish,
}

/// What the audio thread reports when it stops.
#[derive(Debug, Default)]
pub struct AudioReport {
    pub frames: u64,
    pub peak: f32,
    /// Spoken lines that could not be synthesized, with the reason.
    pub speech_failures: Vec<String>,
    pub error: Option<String>,
}

/// Steps queued for the audio thread at most. Rendering to a file, a full queue makes the loop
/// wait (an offline render must not lose or pile up steps: memory stays bounded however far
/// the mixer falls behind); playing in real time, a step that finds it full is dropped instead
/// (a glitch in the sound, never a stalled loop).
const QUEUED_STEPS: usize = 64;

/// The audio thread and the channel the loop feeds it through.
#[derive(Debug)]
pub struct AudioOut {
    tx: SyncSender<Msg>,
    /// Whether a full queue waits (a file) rather than drops the step (a device).
    wait_when_full: bool,
    thread: Option<JoinHandle<AudioReport>>,
}

impl AudioOut {
    /// Starts the audio thread for `backend`; None for `Null` (nothing to run).
    pub fn start(backend: &AudioBackend) -> Option<AudioOut> {
        let (tx, rx) = sync_channel(QUEUED_STEPS);
        let builder = std::thread::Builder::new().name("limina-audio".into());
        let thread = match backend {
            AudioBackend::Null => return None,
            AudioBackend::Wav(path) => {
                let path = path.clone();
                builder.spawn(move || render_to_wav(rx, &path)).ok()?
            }
            AudioBackend::Device => builder.spawn(move || play_on_device(rx)).ok()?,
        };
        Some(AudioOut { tx, wait_when_full: matches!(backend, AudioBackend::Wav(_)), thread: Some(thread) })
    }

    /// Hands one step to the mixer (see `QUEUED_STEPS` for what happens when it is behind).
    pub fn send(&self, frame: MixFrame) {
        let msg = Msg::Frame(Box::new(frame));
        if self.wait_when_full {
            let _ = self.tx.send(msg);
        } else {
            let _ = self.tx.try_send(msg);
        }
    }

    /// Mixes what is queued, writes the output and returns the thread's report.
    pub fn finish(mut self) -> AudioReport {
        self.stop()
    }

    fn stop(&mut self) -> AudioReport {
        let _ = self.tx.send(Msg::Finish);
        self.thread
            .take()
            .map(|t| t.join().unwrap_or_else(|_| AudioReport { error: Some("the audio thread panicked".into()), ..Default::default() }))
            .unwrap_or_default()
    }
}

impl Drop for AudioOut {
    fn drop(&mut self) {
        if self.thread.is_some() {
            self.stop();
        }
    }
}

fn render_to_wav(rx: Receiver<Msg>, path: &Path) -> AudioReport {
    let mut mixer = Mixer::new(SpeechTiming::Wait);
    let mut report = AudioReport::default();
    // Streamed to a temporary file (memory stays flat however long the run), renamed into place
    // once its header holds the final length.
    let mut writer = match WavWriter::create(path) {
        Ok(w) => Some(w),
        Err(e) => {
            report.error = Some(format!("cannot write {}: {e}", path.display()));
            None
        }
    };
    let mut block = Vec::new();
    while let Ok(Msg::Frame(frame)) = rx.recv() {
        let Some(w) = writer.as_mut() else { continue };
        mixer.mix(&frame, &mut block);
        for s in &block {
            report.peak = report.peak.max(s.abs());
        }
        if let Err(e) = w.write(&block) {
            report.error = Some(format!("cannot write {}: {e}", path.display()));
            writer = None;
            continue;
        }
        report.frames += synth::FRAMES_PER_TICK as u64;
    }
    report.speech_failures = mixer.failures.iter().map(|(id, e)| format!("line {id}: {e}")).collect();
    if let Some(w) = writer
        && let Err(e) = w.finish()
    {
        report.error = Some(format!("cannot write {}: {e}", path.display()));
    }
    report
}

/// A 16-bit stereo 44.1 kHz WAV written as it is mixed.
struct WavWriter {
    file: std::io::BufWriter<std::fs::File>,
    tmp: PathBuf,
    path: PathBuf,
    data_bytes: u64,
}

impl WavWriter {
    fn create(path: &Path) -> std::io::Result<WavWriter> {
        let tmp = path.with_extension("wav.partial");
        let mut file = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        std::io::Write::write_all(&mut file, &wav_header(0))?;
        Ok(WavWriter { file, tmp, path: path.to_path_buf(), data_bytes: 0 })
    }

    fn write(&mut self, block: &[f32]) -> std::io::Result<()> {
        let mut bytes = Vec::with_capacity(block.len() * 2);
        for s in block {
            bytes.extend_from_slice(&((s * 32767.0).round() as i16).to_le_bytes());
        }
        self.data_bytes += bytes.len() as u64;
        std::io::Write::write_all(&mut self.file, &bytes)
    }

    fn finish(self) -> std::io::Result<()> {
        use std::io::{Seek, Write};
        let len = u32::try_from(self.data_bytes).map_err(|_| std::io::Error::other("over 4 GiB of audio does not fit a WAV file"))?;
        let mut file = self.file.into_inner().map_err(|e| e.into_error())?;
        file.seek(std::io::SeekFrom::Start(0))?;
        file.write_all(&wav_header(len))?;
        file.sync_all()?;
        std::fs::rename(&self.tmp, &self.path)
    }
}

/// The 44-byte header of a 16-bit stereo 44.1 kHz PCM WAV holding `data_len` bytes.
fn wav_header(data_len: u32) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(44);
    bytes.extend_from_slice(b"RIFF");
    bytes.extend_from_slice(&(36u32.saturating_add(data_len)).to_le_bytes());
    bytes.extend_from_slice(b"WAVEfmt ");
    bytes.extend_from_slice(&16u32.to_le_bytes());
    bytes.extend_from_slice(&1u16.to_le_bytes()); // PCM
    bytes.extend_from_slice(&2u16.to_le_bytes()); // stereo
    bytes.extend_from_slice(&synth::SAMPLE_RATE.to_le_bytes());
    bytes.extend_from_slice(&(synth::SAMPLE_RATE * 4).to_le_bytes());
    bytes.extend_from_slice(&4u16.to_le_bytes());
    bytes.extend_from_slice(&16u16.to_le_bytes());
    bytes.extend_from_slice(b"data");
    bytes.extend_from_slice(&data_len.to_le_bytes());
    bytes
}

/// Mixes each step onto the default device; with no device, reports it once and drains the
/// channel silently (the loop keeps sending and never notices).
fn play_on_device(rx: Receiver<Msg>) -> AudioReport {
    let mut report = AudioReport::default();
    #[cfg(feature = "audio-device")]
    let device = match crate::native_noise::quiet("opening the sound card", device::Device::open) {
        Ok(d) => Some(d),
        Err(e) => {
            tracing::warn!("no audio device ({e}); playing silently");
            report.error = Some(format!("no audio device: {e}"));
            None
        }
    };
    #[cfg(not(feature = "audio-device"))]
    let device: Option<()> = None;
    let mut mixer = Mixer::new(SpeechTiming::Background);
    let mut block: Vec<f32> = Vec::new();
    while let Ok(Msg::Frame(frame)) = rx.recv() {
        #[cfg(feature = "audio-device")]
        if let Some(d) = &device {
            mixer.mix(&frame, &mut block);
            d.push(&block);
        }
        #[cfg(not(feature = "audio-device"))]
        let _ = (&device, &frame, &mut mixer, &mut block);
        report.frames += synth::FRAMES_PER_TICK as u64;
    }
    report.speech_failures = mixer.failures.iter().map(|(id, e)| format!("line {id}: {e}")).collect();
    report
}
