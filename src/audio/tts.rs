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

/// `text` without control characters (newlines and tabs become spaces) and without square
/// brackets (`[` reads as `(`, `]` as `)`). One pass over characters, each mapped on its own:
/// the output holds no `[` at all, so no removal or neighbour can make the `[[` that switches
/// espeak-ng to phoneme input (splitting pairs, as this did before, left `[[[` as `[ [[`).
pub fn clean(text: &str) -> String {
    text.chars()
        .filter_map(|c| match c {
            '\n' | '\t' => Some(' '),
            '[' => Some('('),
            ']' => Some(')'),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect()
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
        assert_eq!(clean("\u{1}200A loud\nline [[QQQ]]"), "200A loud line ((QQQ))");
        assert_eq!(clean("[[[x]]]"), "(((x)))");
        assert_eq!(clean("[\u{1}[p]\u{7}]"), "((p))", "a control character between brackets is no way around it");
    }

    /// Many generated lines built from the characters that matter (brackets, controls, spaces,
    /// multi-byte letters): none comes out with a bracket or a control character, and every
    /// other character comes out as it went in.
    #[test]
    fn no_generated_input_reaches_espeak_with_a_bracket_or_a_control() {
        const ALPHABET: [char; 14] = ['[', ']', '[', '\u{1}', '\u{7f}', '\u{85}', '\n', '\t', ' ', 'a', 'Q', 'é', '【', '\u{200b}'];
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            // xorshift64*: deterministic, so a failure reproduces.
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            state.wrapping_mul(0x2545_f491_4f6c_dd1d)
        };
        for _ in 0..20_000 {
            let len = (next() % 24) as usize;
            let text: String = (0..len).map(|_| ALPHABET[(next() % ALPHABET.len() as u64) as usize]).collect();
            let out = clean(&text);
            assert!(!out.contains('[') && !out.contains(']'), "{text:?} -> {out:?}");
            assert!(!out.chars().any(char::is_control), "{text:?} -> {out:?}");
            let kept: String = text.chars().filter(|c| !c.is_control() && !matches!(c, '[' | ']')).collect();
            let out_kept: String = out.chars().filter(|c| !matches!(c, '(' | ')' | ' ')).collect();
            assert_eq!(out_kept, kept.replace(' ', ""), "{text:?} -> {out:?}");
        }
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
