//! What native libraries print on stderr by themselves while limina probes the GPU or the sound
//! card, kept off a run that succeeded.
//!
//! Two C libraries write to file descriptor 2 directly, where no Rust log filter reaches them:
//! libwayland prints `error: XDG_RUNTIME_DIR is invalid or not set in the environment.` when
//! Mesa's Vulkan device-select layer looks for a Wayland compositor during adapter enumeration
//! (wgpu enables the Wayland surface extension whenever the driver offers it, which is what
//! makes the layer look), and alsa-lib prints `ALSA lib …` lines while cpal searches a machine
//! without a sound card. Both are harmless here and read as failures. The environment switches
//! that silence them (`NODEVICE_SELECT`, `XDG_RUNTIME_DIR`) would have to be set inside the
//! process, which Rust 2024 makes `unsafe`, and this crate forbids `unsafe`.
//!
//! So `quiet` runs a probe with fd 2 pointed at an anonymous temporary file, puts fd 2 back, and
//! then sorts what was written: lines of known noise become one `info` log line (`-v` shows
//! it), and every other line — a real driver error, or another thread's log line written
//! meanwhile — goes to stderr unchanged, after the probe. fd 2 is one per process, so probes
//! take turns (a mutex); one that cannot set up the capture runs uncaptured.

use std::io::{Read, Seek, Write};
use std::sync::{Mutex, PoisonError};

/// Probes take turns: each points the one fd 2 somewhere else for a while.
static CAPTURING: Mutex<()> = Mutex::new(());

/// At most this much captured output is read back (a probe prints a few lines).
const MAX_CAPTURED: u64 = 1 << 20;

/// Runs `probe` (named `what` in the log line) with native stderr noise kept off the terminal.
pub(crate) fn quiet<T>(what: &str, probe: impl FnOnce() -> T) -> T {
    let _turn = CAPTURING.lock().unwrap_or_else(PoisonError::into_inner);
    let Some(capture) = Capture::start() else { return probe() };
    let out = probe();
    let text = capture.finish();
    let (noise, rest) = sort(&text);
    if !noise.is_empty() {
        tracing::info!("{what}: native libraries printed {} line(s) of known noise: {}", noise.len(), noise.join(" | "));
    }
    if !rest.is_empty() {
        let _ = std::io::stderr().lock().write_all(rest.as_bytes());
    }
    out
}

/// Whether a line is one of the known harmless ones (module doc).
fn is_noise(line: &str) -> bool {
    line.contains("XDG_RUNTIME_DIR is invalid or not set") || line.starts_with("ALSA lib ")
}

/// Splits captured text into the noise lines and everything else (kept as written).
fn sort(text: &str) -> (Vec<&str>, String) {
    let mut noise = Vec::new();
    let mut rest = String::new();
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_end();
        if is_noise(trimmed) {
            noise.push(trimmed);
        } else {
            rest.push_str(line);
        }
    }
    (noise, rest)
}

/// A new file, private to this user, already removed from its folder (it lives while open).
fn unlinked_file() -> Option<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let path = std::env::temp_dir().join(format!("limina-stderr-{}", crate::unguessable::hex(12)));
    let file = std::fs::OpenOptions::new().read(true).write(true).create_new(true).mode(0o600).open(&path).ok()?;
    let _ = std::fs::remove_file(&path);
    Some(file)
}

/// fd 2 pointed at a temporary file until `finish` (or drop) points it back.
struct Capture {
    saved: std::os::fd::OwnedFd,
    file: std::fs::File,
    restored: bool,
}

impl Capture {
    fn start() -> Option<Capture> {
        let stderr = std::io::stderr();
        let saved = rustix::io::fcntl_dupfd_cloexec(&stderr, 3).ok()?;
        let file = unlinked_file()?;
        let _flushed = stderr.lock().flush();
        rustix::stdio::dup2_stderr(&file).ok()?;
        Some(Capture { saved, file, restored: false })
    }

    /// Points fd 2 back and returns what was written meanwhile (lossy UTF-8, capped).
    fn finish(mut self) -> String {
        self.restore();
        let mut bytes = Vec::new();
        if self.file.rewind().is_ok() {
            let _read = (&self.file).take(MAX_CAPTURED).read_to_end(&mut bytes);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    }

    fn restore(&mut self) {
        if !self.restored {
            self.restored = true;
            let _ = rustix::stdio::dup2_stderr(&self.saved);
        }
    }
}

impl Drop for Capture {
    /// A probe that panics still gets stderr back.
    fn drop(&mut self) {
        self.restore();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_noise_is_sorted_out_and_everything_else_kept_as_written() {
        let text = "error: XDG_RUNTIME_DIR is invalid or not set in the environment.\n\
                    ALSA lib confmisc.c:855:(parse_card) cannot find card '0'\n\
                    WARN limina: a real warning\n\
                    error: XDG_RUNTIME_DIR is invalid or not set in the environment.\n\
                    tail without newline";
        let (noise, rest) = sort(text);
        assert_eq!(noise.len(), 3, "{noise:?}");
        assert_eq!(rest, "WARN limina: a real warning\ntail without newline");
    }

    #[test]
    fn what_a_probe_writes_to_fd_2_is_captured_and_fd_2_comes_back() {
        // Written through the fd, as a C library would (not through the test harness's capture).
        let captured = {
            let _turn = CAPTURING.lock().unwrap_or_else(PoisonError::into_inner);
            let capture = Capture::start().expect("capture");
            let _ = std::io::stderr().lock().write_all(b"ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default\n");
            capture.finish()
        };
        assert!(captured.contains("ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default\n"), "{captured:?}");
        // fd 2 is the original again: a fresh capture starts from a new, empty file.
        let _turn = CAPTURING.lock().unwrap_or_else(PoisonError::into_inner);
        let again = Capture::start().expect("capture").finish();
        assert!(!again.contains("ALSA lib"), "{again:?}");
    }
}
