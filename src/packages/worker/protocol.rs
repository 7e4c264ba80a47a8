//! The frames between the engine and a package worker, and how they cross the pipes.
//!
//! A frame is a 4-byte big-endian length and that many bytes of JSON. Both sides refuse a
//! length over the bound they were given before reading the body, so a worker announcing a
//! 4 GiB frame costs the engine four bytes, not an allocation. The engine never trusts a
//! worker to be prompt: `Pipe` reads and writes with a deadline (`poll(2)`, the worker's stdin
//! non-blocking), so a worker that stops reading or answering ends the call at the deadline
//! instead of hanging the tick. The worker's side is plain blocking I/O: it trusts its engine.

use std::io::{Read, Write};
use std::os::fd::AsFd;
use std::process::{ChildStdin, ChildStdout};
use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::packages::manifest::Limits;
use crate::policy::PermissionSet;

/// Most bytes of a `Load` frame (the package's files, which discovery already bounds) and of a
/// `Loaded` frame (the skill definitions, each converted within the package's value budget).
pub(crate) const LOAD_FRAME: usize = 64 << 20;

/// Most bytes of a frame carrying one value of a package whose value budget is `value_bytes`:
/// JSON escaping can grow text up to six times (`\u0000`), plus room for the envelope.
pub(crate) fn value_frame(value_bytes: usize) -> usize {
    value_bytes.saturating_mul(6).saturating_add(64 << 10)
}

/// What the worker needs to build the package's VM: everything, since after confinement it
/// cannot open a file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct LoadSpec {
    pub reference: String,
    /// `untrusted` or `verified`.
    pub trust: String,
    pub limits: Limits,
    pub capabilities: PermissionSet,
    pub folder: bool,
    pub files: Vec<(String, String)>,
    /// The package's path as clients see it (chunk names).
    pub shown: String,
    pub entry: String,
}

/// Who is calling, as the handler's `ctx` shows it. Permissions stay with the engine: a
/// worker's `host.invoke` runs as the caller the engine holds for the call, never as one the
/// worker names.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct CallCtx {
    pub agent_id: String,
    pub session_id: String,
    pub profile: String,
    pub tick: u64,
    pub decision_id: Option<String>,
}

/// A misbehaviour a test asks a worker for, armed for its next call. Only the engine writes
/// the worker's stdin, so no package code can reach these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TestHook {
    /// Opens a socket: outside the allow-list, so the filter kills the worker.
    ForbiddenSyscall,
    /// Spins in native code, where no interrupt runs: only `RLIMIT_CPU` ends it.
    NativeSpin,
    /// Allocates twice the address-space limit natively: the allocation fails and the worker
    /// aborts.
    NativeAllocate,
    /// Writes a frame announcing 4 GiB.
    GiantFrame,
    /// Writes bytes that are not a frame of JSON.
    Garbage,
    /// Never answers (sleeps without using CPU).
    Silence,
    /// Answers with `Loaded`, a frame the engine never expects during a call.
    OutOfOrder,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "camelCase")]
pub(crate) enum ToWorker {
    Load(Box<LoadSpec>),
    Call {
        skill: String,
        input: Value,
        ctx: CallCtx,
    },
    InvokeResult {
        response: Value,
    },
    /// The answer to `Secret`: the value, or why not.
    SecretResult {
        value: Result<String, String>,
    },
    Hook {
        hook: TestHook,
    },
}

/// How a call ended in the worker.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "camelCase")]
pub(crate) enum Outcome {
    Ok { result: Value },
    Err { code: String, message: String },
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "camelCase")]
pub(crate) enum FromWorker {
    /// The package loaded: its skill definitions as JSON (handlers marked, not sent).
    Loaded {
        skills: Vec<Value>,
    },
    LoadFailed {
        message: String,
    },
    /// `host.invoke(skill, input)` from the running call.
    Invoke {
        skill: String,
        input: Value,
    },
    /// `host.secret(name)` from the running call.
    Secret {
        name: String,
    },
    /// The runtime's `package.violation` (a limit the VM enforced itself).
    Violation {
        kind: String,
        message: String,
    },
    /// The call's end, with the worker's CPU time so far and its VM rebuild count.
    Done {
        outcome: Outcome,
        cpu_ms: f64,
        rebuilds: u64,
    },
}

/// Why a frame could not be read or written.
#[derive(Debug, thiserror::Error)]
pub(crate) enum FrameError {
    #[error("it did not answer in time")]
    Timeout,
    #[error("its pipe closed")]
    Closed,
    #[error("it announced a frame of {got} bytes, over the {max}-byte bound")]
    TooLarge { got: u64, max: usize },
    #[error("it sent a frame that is not one of the protocol's: {0}")]
    Garbage(String),
    #[error("pipe error: {0}")]
    Io(#[from] std::io::Error),
}

fn encode<T: Serialize>(frame: &T) -> Vec<u8> {
    let body = serde_json::to_vec(frame).unwrap_or_default();
    let mut out = Vec::with_capacity(body.len() + 4);
    out.extend_from_slice(&(body.len() as u32).to_be_bytes());
    out.extend_from_slice(&body);
    out
}

fn decode<T: for<'de> Deserialize<'de>>(body: &[u8]) -> Result<T, FrameError> {
    serde_json::from_slice(body).map_err(|e| FrameError::Garbage(e.to_string()))
}

/// Blocking read of one frame (the worker's side).
pub(crate) fn read_blocking<T: for<'de> Deserialize<'de>>(input: &mut impl Read, max: usize) -> Result<T, FrameError> {
    let mut header = [0u8; 4];
    input.read_exact(&mut header).map_err(|e| match e.kind() {
        std::io::ErrorKind::UnexpectedEof => FrameError::Closed,
        _ => FrameError::Io(e),
    })?;
    let len = u32::from_be_bytes(header) as u64;
    if len > max as u64 {
        return Err(FrameError::TooLarge { got: len, max });
    }
    let mut body = vec![0u8; len as usize];
    input.read_exact(&mut body).map_err(|_| FrameError::Closed)?;
    decode(&body)
}

/// Blocking write of one frame (the worker's side).
pub(crate) fn write_blocking<T: Serialize>(output: &mut impl Write, frame: &T) -> Result<(), FrameError> {
    output.write_all(&encode(frame))?;
    output.flush()?;
    Ok(())
}

/// Writes raw bytes (the worker's protocol-attack hooks).
pub(crate) fn write_raw(output: &mut impl Write, bytes: &[u8]) {
    let _ = output.write_all(bytes).and_then(|_| output.flush());
}

/// The engine's end of a worker's pipes: every read and write bounded by a deadline.
pub(crate) struct Pipe {
    to: ChildStdin,
    from: ChildStdout,
    /// Bytes read past the last frame.
    buffer: Vec<u8>,
}

impl std::fmt::Debug for Pipe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pipe").field("buffered", &self.buffer.len()).finish()
    }
}

/// Waits until `fd` is ready for `flags` or `deadline` passes.
fn wait(fd: impl AsFd, flags: rustix::event::PollFlags, deadline: Instant) -> Result<(), FrameError> {
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(FrameError::Timeout);
        }
        let timeout = rustix::event::Timespec { tv_sec: left.as_secs() as i64, tv_nsec: left.subsec_nanos() as i64 };
        let mut fds = [rustix::event::PollFd::new(&fd, flags)];
        match rustix::event::poll(&mut fds, Some(&timeout)) {
            Ok(0) => continue,
            Ok(_) => return Ok(()),
            Err(rustix::io::Errno::INTR) => continue,
            Err(e) => return Err(FrameError::Io(e.into())),
        }
    }
}

impl Pipe {
    pub fn new(to: ChildStdin, from: ChildStdout) -> Result<Self, FrameError> {
        // Writes must never block: a worker that stops reading would hold the engine's thread.
        let flags = rustix::fs::fcntl_getfl(&to).map_err(std::io::Error::from)?;
        rustix::fs::fcntl_setfl(&to, flags | rustix::fs::OFlags::NONBLOCK).map_err(std::io::Error::from)?;
        Ok(Self { to, from, buffer: Vec::new() })
    }

    pub fn send<T: Serialize>(&mut self, frame: &T, deadline: Instant) -> Result<(), FrameError> {
        let bytes = encode(frame);
        let mut written = 0;
        while written < bytes.len() {
            match self.to.write(&bytes[written..]) {
                Ok(0) => return Err(FrameError::Closed),
                Ok(n) => written += n,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    wait(&self.to, rustix::event::PollFlags::OUT, deadline)?;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Err(FrameError::Closed),
                Err(e) => return Err(FrameError::Io(e)),
            }
        }
        Ok(())
    }

    /// Reads one frame of at most `max` bytes before `deadline`.
    pub fn receive<T: for<'de> Deserialize<'de>>(&mut self, max: usize, deadline: Instant) -> Result<T, FrameError> {
        self.fill(4, deadline)?;
        let len = u32::from_be_bytes([self.buffer[0], self.buffer[1], self.buffer[2], self.buffer[3]]) as u64;
        if len > max as u64 {
            return Err(FrameError::TooLarge { got: len, max });
        }
        let total = 4 + len as usize;
        self.fill(total, deadline)?;
        let frame = decode(&self.buffer[4..total]);
        self.buffer.drain(..total);
        frame
    }

    /// Reads until the buffer holds `want` bytes.
    fn fill(&mut self, want: usize, deadline: Instant) -> Result<(), FrameError> {
        let mut chunk = [0u8; 64 << 10];
        while self.buffer.len() < want {
            wait(&self.from, rustix::event::PollFlags::IN, deadline)?;
            let room = (want - self.buffer.len()).min(chunk.len());
            match self.from.read(&mut chunk[..room]) {
                Ok(0) => return Err(FrameError::Closed),
                Ok(n) => self.buffer.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(FrameError::Io(e)),
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_round_trips_and_an_oversized_one_is_refused_before_its_body() {
        let frame = FromWorker::Invoke { skill: "scene.query".into(), input: serde_json::json!({"tag": "x"}) };
        let bytes = encode(&frame);
        let back: FromWorker = read_blocking(&mut bytes.as_slice(), 1024).unwrap();
        assert!(matches!(back, FromWorker::Invoke { skill, .. } if skill == "scene.query"));
        let huge = [0xffu8, 0xff, 0xff, 0xff];
        let e = read_blocking::<FromWorker>(&mut huge.as_slice(), 1024).unwrap_err();
        assert!(matches!(e, FrameError::TooLarge { got: 4294967295, max: 1024 }), "{e}");
        let garbage = [0u8, 0, 0, 3, b'{', b'x', b'}'];
        assert!(matches!(read_blocking::<FromWorker>(&mut garbage.as_slice(), 1024), Err(FrameError::Garbage(_))));
        assert!(matches!(read_blocking::<FromWorker>(&mut [0u8, 0].as_slice(), 1024), Err(FrameError::Closed)));
    }

    /// A peer that neither reads nor writes (`sleep`): both directions end at the deadline,
    /// the write one once the pipe's buffer is full.
    #[test]
    fn a_peer_that_stops_reading_or_answering_costs_a_deadline_not_a_hang() {
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut pipe = Pipe::new(child.stdin.take().unwrap(), child.stdout.take().unwrap()).unwrap();
        let soon = || Instant::now() + std::time::Duration::from_millis(100);
        let big = ToWorker::InvokeResult { response: Value::String("x".repeat(4 << 20)) };
        assert!(matches!(pipe.send(&big, soon()), Err(FrameError::Timeout)));
        assert!(matches!(pipe.receive::<FromWorker>(1024, soon()), Err(FrameError::Timeout)));
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(matches!(pipe.receive::<FromWorker>(1024, soon()), Err(FrameError::Closed)));
    }
}
