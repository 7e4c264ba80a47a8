//! Writing the command log: records gather in memory during a tick and reach the file at the
//! tick's end (one `write` per tick); `fdatasync` runs on a thread of its own at least every
//! `fsync_interval`, so the loop never waits on the disk for it. A client that must know its
//! call is durable before it is answered (MCP) asks for `make_durable`, which writes and syncs
//! on the spot.
//!
//! A write or sync that fails is not retried into a half-written line: the log stops taking
//! records, the error is kept, and every later `make_durable` reports it, so nothing is
//! acknowledged as durable that is not.

use std::fs::File;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::Value;

use super::record::{CallLine, CallerLine, Header, Phase, QueuedLine, Record};
use crate::skills::{Caller, Skill};

/// How often the log reaches the disk.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FlushPolicy {
    /// `fdatasync` at least this often while records are written (zero: at every tick).
    pub fsync_interval: Duration,
}

impl Default for FlushPolicy {
    fn default() -> Self {
        Self { fsync_interval: Duration::from_millis(100) }
    }
}

/// What a run logs and where.
#[derive(Debug, Clone, PartialEq)]
pub struct LogConfig {
    pub path: PathBuf,
    /// Ticks between world-hash checkpoints (at least 1).
    pub checkpoint_every: u64,
    /// Ticks between snapshots written beside the log (None: none).
    pub snapshot_every: Option<u64>,
    pub flush: FlushPolicy,
}

impl LogConfig {
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self { path: path.into(), checkpoint_every: 60, snapshot_every: None, flush: FlushPolicy::default() }
    }
}

/// The open command log of a running engine.
pub(crate) struct CommandLog {
    path: PathBuf,
    file: File,
    buffer: Vec<u8>,
    /// Bytes handed to the file so far (the position of the next record).
    written: u64,
    /// Bytes known to be on disk.
    synced: Arc<Mutex<SyncState>>,
    sync_requests: Option<mpsc::Sender<u64>>,
    sync_thread: Option<std::thread::JoinHandle<()>>,
    last_sync_request: Instant,
    policy: FlushPolicy,
    pub(crate) checkpoint_every: u64,
    snapshot_every: Option<u64>,
    /// Calls of recordable skills now running: only the outermost is recorded (a nested call is
    /// replayed by replaying the outer one).
    depth: u32,
    /// Scheduled snapshots still kept, oldest first.
    kept_snapshots: std::collections::VecDeque<PathBuf>,
    /// Records not yet on disk that a client may be waiting on.
    unsynced: bool,
    failed: Option<String>,
}

#[derive(Debug, Default)]
struct SyncState {
    durable: u64,
    error: Option<String>,
}

impl std::fmt::Debug for CommandLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CommandLog").field("path", &self.path).field("written", &self.written).finish()
    }
}

/// A recorded call whose handler returned: what its record says.
#[derive(Debug, Clone, Copy)]
pub(crate) struct EndedCall<'a> {
    pub tick: u64,
    pub phase: Phase,
    pub caller: &'a Caller,
    pub skill: &'a Skill,
    pub input: &'a Value,
    /// `ok`, or the error code it ended with.
    pub outcome: &'a str,
}

/// A recordable call in progress (see `CommandLog::begin`).
#[derive(Debug)]
pub(crate) struct Nesting {
    outermost: bool,
}

impl CommandLog {
    /// Creates the log (never over an existing file: a log is one run's account) and writes its
    /// header durably.
    /// The file name scheduled snapshots get beside this log: `<log stem>-<tick>.snap`, so two
    /// logs in one folder never write over each other's snapshots.
    pub(crate) fn snapshot_name(&self, tick: u64) -> String {
        let stem = self.path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "world".into());
        format!("{stem}-{tick:012}.snap")
    }

    pub(crate) fn create(config: &LogConfig, header: &Header) -> io::Result<CommandLog> {
        let file = std::fs::OpenOptions::new().write(true).create_new(true).open(&config.path).map_err(|e| {
            if e.kind() == io::ErrorKind::AlreadyExists {
                io::Error::new(e.kind(), "it exists already (a log holds one run; recover it with `limina recover`, or log to a new file)")
            } else {
                e
            }
        })?;
        let synced = Arc::new(Mutex::new(SyncState::default()));
        let (tx, rx) = mpsc::channel::<u64>();
        let sync_file = file.try_clone()?;
        let state = Arc::clone(&synced);
        let sync_thread = std::thread::Builder::new().name("limina-log-sync".into()).spawn(move || {
            // Requests carry the byte count written before them; one sync covers all of them.
            while let Ok(mut upto) = rx.recv() {
                while let Ok(more) = rx.try_recv() {
                    upto = upto.max(more);
                }
                let result = sync_file.sync_data();
                let mut s = state.lock().unwrap_or_else(|p| p.into_inner());
                match result {
                    Ok(()) => s.durable = s.durable.max(upto),
                    Err(e) => s.error = Some(e.to_string()),
                }
            }
        })?;
        let mut log = CommandLog {
            path: config.path.clone(),
            file,
            buffer: Vec::with_capacity(64 * 1024),
            written: 0,
            synced,
            sync_requests: Some(tx),
            sync_thread: Some(sync_thread),
            last_sync_request: Instant::now(),
            policy: config.flush,
            checkpoint_every: config.checkpoint_every.max(1),
            snapshot_every: config.snapshot_every.filter(|n| *n > 0),
            depth: 0,
            kept_snapshots: Default::default(),
            unsynced: false,
            failed: None,
        };
        log.line(&Record::Header(header.clone()));
        log.make_durable().map_err(io::Error::other)?;
        Ok(log)
    }

    fn line<T: Serialize>(&mut self, record: &T) {
        if self.failed.is_some() {
            return;
        }
        // Our record types over JSON values always serialize.
        if serde_json::to_writer(&mut self.buffer, record).is_ok() {
            self.buffer.push(b'\n');
        }
    }

    /// Whether a call of `skill` is recorded: core skills that change the world, except those
    /// that read files (`scene.load`, `package.load`): what they do is recorded as the calls
    /// they make, so replay never depends on files that may have changed since.
    pub(crate) fn records(skill: &Skill) -> bool {
        skill.builtin && skill.effects.mutates_world() && !skill.effects.contains(crate::skills::Effect::Filesystem)
    }

    /// A recordable call reached its handler; `end` it when the handler is done.
    pub(crate) fn begin(&mut self) -> Nesting {
        self.depth += 1;
        Nesting { outermost: self.depth == 1 }
    }

    pub(crate) fn end(&mut self, nesting: Nesting, call: &EndedCall<'_>) {
        self.depth = self.depth.saturating_sub(1);
        if !nesting.outermost {
            return;
        }
        let EndedCall { tick, phase, caller, skill, input, outcome } = *call;
        let line = CallLine {
            r: "call",
            tick,
            phase,
            caller: CallerLine {
                agent: &caller.agent_id,
                session: &caller.session_id,
                profile: &caller.profile,
                permissions: caller.permissions.names(),
                package: caller.package.as_deref(),
            },
            skill: &skill.name,
            version: &skill.version,
            input,
            outcome,
        };
        self.line(&line);
        self.unsynced = true;
    }

    /// A call that unwound (a panic) never reached `end`: its depth is given back here.
    pub(crate) fn abandon(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    pub(crate) fn decided(&mut self, tick: u64, agent: &str) {
        self.line(&Record::Decided { tick, agent: agent.to_string() });
    }

    pub(crate) fn queued(&mut self, tick: u64, agent: &str, tool: &str, input: &Value, decision: &str) {
        self.line(&QueuedLine { r: "queued", tick, agent, tool, input, decision });
    }

    pub(crate) fn aborted(&mut self, tick: u64) {
        self.line(&Record::Aborted { tick });
        self.write_out();
    }

    pub(crate) fn snapshot_written(&mut self, tick: u64, file: &str, hash: &str) {
        self.line(&Record::Snapshot { tick, file: file.to_string(), hash: hash.to_string() });
        self.unsynced = true;
    }

    pub(crate) fn snapshot_due(&self, now: u64) -> bool {
        self.snapshot_every.is_some_and(|n| now.is_multiple_of(n))
    }

    /// Notes a scheduled snapshot; returns the one to remove when more than three are kept.
    pub(crate) fn keep_snapshot(&mut self, path: PathBuf) -> Option<PathBuf> {
        self.kept_snapshots.push_back(path);
        (self.kept_snapshots.len() > 3).then(|| self.kept_snapshots.pop_front()).flatten()
    }

    /// A step completed (`now` is the new tick): the marker, a checkpoint when one is due, and
    /// the tick's records go to the file; a sync is requested when the last is old enough.
    pub(crate) fn step_done(&mut self, now: u64, hash: Option<String>) {
        self.line(&Record::Step { now });
        if let Some(hash) = hash {
            self.line(&Record::Checkpoint { tick: now, hash });
        }
        self.write_out();
        if self.last_sync_request.elapsed() >= self.policy.fsync_interval {
            self.request_sync();
        }
    }

    pub(crate) fn checkpoint_due(&self, now: u64) -> bool {
        now.is_multiple_of(self.checkpoint_every)
    }

    fn write_out(&mut self) {
        if self.buffer.is_empty() || self.failed.is_some() {
            return;
        }
        match self.file.write_all(&self.buffer) {
            Ok(()) => {
                self.written += self.buffer.len() as u64;
                self.buffer.clear();
            }
            Err(e) => {
                tracing::error!(path = %self.path.display(), "the command log cannot be written: {e}; it takes no more records");
                self.failed = Some(format!("the command log {} cannot be written: {e}", self.path.display()));
            }
        }
    }

    fn request_sync(&mut self) {
        self.last_sync_request = Instant::now();
        if let Some(tx) = &self.sync_requests {
            let _ = tx.send(self.written);
        }
    }

    /// Writes and syncs everything recorded so far before returning: what a client is told
    /// succeeded is on disk. Cheap when nothing new was recorded.
    pub(crate) fn make_durable(&mut self) -> Result<(), String> {
        if let Some(failed) = &self.failed {
            return Err(failed.clone());
        }
        // A background sync that failed means what it covered may not be on disk.
        if let Some(error) = self.synced.lock().ok().and_then(|s| s.error.clone()) {
            self.failed = Some(format!("the command log {} could not be synced: {error}", self.path.display()));
            return Err(self.failed.clone().unwrap_or_default());
        }
        if !self.unsynced && self.buffer.is_empty() && self.durable() >= self.written {
            return Ok(());
        }
        self.write_out();
        if let Some(failed) = &self.failed {
            return Err(failed.clone());
        }
        match self.file.sync_data() {
            Ok(()) => {
                self.unsynced = false;
                let mut s = self.synced.lock().unwrap_or_else(|p| p.into_inner());
                s.durable = s.durable.max(self.written);
                Ok(())
            }
            Err(e) => {
                let message = format!("the command log {} cannot be synced: {e}", self.path.display());
                self.failed = Some(message.clone());
                Err(message)
            }
        }
    }

    /// Bytes known to be on disk.
    pub(crate) fn durable(&self) -> u64 {
        self.synced.lock().map(|s| s.durable).unwrap_or(0)
    }
}

impl Drop for CommandLog {
    fn drop(&mut self) {
        let _ = self.make_durable();
        self.sync_requests = None;
        if let Some(thread) = self.sync_thread.take() {
            let _ = thread.join();
        }
    }
}
