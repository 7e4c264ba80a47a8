//! The TTS voice: espeak-ng (the Debian package of that name), run as a child process off the
//! loop with a timeout, its WAV read from its stdout (no file: a predictable temporary path could
//! be pointed elsewhere by a symlink). `--stdout` writes a bogus length into the header, so the
//! data chunk is read to the end. The text goes in on stdin, so nothing in it is an option, and
//! it is cleaned first: control characters would drive espeak-ng's embedded commands (loudness,
//! rate) and `[[` its phoneme input (which can crash it).

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Longest a line may take to synthesize before it is given up.
const TIMEOUT: Duration = Duration::from_secs(10);

/// A spoken line's samples.
#[derive(Debug, Clone, PartialEq)]
pub struct Speech {
    /// Mono samples in -1..1.
    pub samples: Vec<f32>,
    pub rate: u32,
}

#[derive(Debug, thiserror::Error)]
pub enum TtsError {
    #[error("text-to-speech needs espeak-ng, which is not installed (Debian: apt-get install espeak-ng)")]
    Missing,
    #[error("espeak-ng failed: {0}")]
    Failed(String),
    #[error("espeak-ng took longer than {}s", TIMEOUT.as_secs())]
    Timeout,
    #[error("espeak-ng wrote an unreadable WAV: {0}")]
    Wav(&'static str),
}

/// Whether espeak-ng is on the PATH (checked once; `audio.speak` refuses honestly without it).
pub fn available() -> bool {
    static FOUND: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FOUND.get_or_init(|| {
        Command::new("espeak-ng").arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
    })
}

/// Longest a spoken line is kept, seconds (the rest is cut).
pub const MAX_SPEECH_SECS: u32 = 30;

/// `text` without control characters (newlines and tabs become spaces) and without espeak-ng's
/// phoneme brackets.
pub fn clean(text: &str) -> String {
    let plain: String = text.chars().map(|c| if c == '\n' || c == '\t' { ' ' } else { c }).filter(|c| !c.is_control()).collect();
    plain.replace("[[", "[ [").replace("]]", "] ]")
}

/// Synthesizes `text` (cleaned, read from stdin).
pub fn synthesize(text: &str) -> Result<Speech, TtsError> {
    if !available() {
        return Err(TtsError::Missing);
    }
    let mut child = Command::new("espeak-ng")
        .arg("--stdin")
        .arg("--stdout")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| TtsError::Failed(e.to_string()))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(clean(text).as_bytes()).map_err(|e| TtsError::Failed(e.to_string()))?;
    }
    // Read stdout on a thread so a full pipe cannot deadlock the wait below.
    let mut stdout = child.stdout.take().ok_or_else(|| TtsError::Failed("no stdout".into()))?;
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut bytes).map(|_| bytes)
    });
    let started = Instant::now();
    loop {
        match child.try_wait().map_err(|e| TtsError::Failed(e.to_string()))? {
            Some(status) if status.success() => break,
            Some(status) => return Err(TtsError::Failed(format!("exit status {status}"))),
            None if started.elapsed() > TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(TtsError::Timeout);
            }
            None => std::thread::sleep(Duration::from_millis(2)),
        }
    }
    let bytes =
        reader.join().map_err(|_| TtsError::Failed("reading its output failed".into()))?.map_err(|e| TtsError::Failed(e.to_string()))?;
    let mut speech = parse_wav(&bytes)?;
    speech.samples.truncate((speech.rate * MAX_SPEECH_SECS) as usize);
    Ok(speech)
}

/// Reads a 16-bit PCM mono WAV (what espeak-ng writes).
pub fn parse_wav(bytes: &[u8]) -> Result<Speech, TtsError> {
    if bytes.len() < 12 || &bytes[0..4] != b"RIFF" || &bytes[8..12] != b"WAVE" {
        return Err(TtsError::Wav("not a RIFF/WAVE file"));
    }
    let (mut at, mut rate, mut format_ok) = (12, 0u32, false);
    while at + 8 <= bytes.len() {
        let id = &bytes[at..at + 4];
        let size = u32::from_le_bytes([bytes[at + 4], bytes[at + 5], bytes[at + 6], bytes[at + 7]]) as usize;
        // A streamed WAV's data size is a placeholder: the data runs to the end.
        let size = size.min(bytes.len() - (at + 8));
        let body = &bytes[at + 8..at + 8 + size];
        match id {
            b"fmt " if body.len() >= 16 => {
                let format = u16::from_le_bytes([body[0], body[1]]);
                let channels = u16::from_le_bytes([body[2], body[3]]);
                rate = u32::from_le_bytes([body[4], body[5], body[6], body[7]]);
                let bits = u16::from_le_bytes([body[14], body[15]]);
                format_ok = format == 1 && channels == 1 && bits == 16 && (8000..=96_000).contains(&rate);
            }
            b"data" => {
                if !format_ok {
                    return Err(TtsError::Wav("not 16-bit PCM mono"));
                }
                let samples = body.chunks_exact(2).map(|c| f32::from(i16::from_le_bytes([c[0], c[1]])) / 32768.0).collect();
                return Ok(Speech { samples, rate });
            }
            _ => {}
        }
        at += 8 + size + (size & 1);
    }
    Err(TtsError::Wav("no data chunk"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cleaning_removes_control_characters_and_phoneme_brackets() {
        assert_eq!(clean("\u{1}200A loud\nline [[QQQ]]"), "200A loud line [ [QQQ] ]");
    }

    #[test]
    fn refuses_what_is_not_a_pcm_wav() {
        assert!(matches!(parse_wav(b"nope"), Err(TtsError::Wav(_))));
        let mut stereo = Vec::from(*b"RIFF\0\0\0\0WAVEfmt \x10\0\0\0\x01\0\x02\0\x22\x56\0\0\0\0\0\0\x04\0\x10\0data\0\0\0\0");
        assert!(matches!(parse_wav(&stereo), Err(TtsError::Wav("not 16-bit PCM mono"))));
        stereo[22] = 1;
        assert_eq!(parse_wav(&stereo).unwrap().rate, 22050);
    }
}
