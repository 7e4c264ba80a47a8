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

use super::record::{CallLine, CallerLine, Header, QueuedLine, Record};
use crate::skills::Skill;
use crate::skills::record::{CallRecorder, EndedCall};

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

/// The command log can no longer be written: nothing after this is acknowledged as durable.
#[derive(Debug, Clone, thiserror::Error)]
#[error("the command log {} {step}: {error}", path.display())]
pub struct LogFailure {
    pub path: PathBuf,
    pub step: LogStep,
    #[source]
    pub error: Arc<io::Error>,
}

/// Which write of the log failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogStep {
    Write,
    Sync,
    /// The sync thread's sync: what it covered may not be on disk.
    BackgroundSync,
}

impl std::fmt::Display for LogStep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LogStep::Write => "cannot be written",
            LogStep::Sync => "cannot be synced",
            LogStep::BackgroundSync => "could not be synced",
        })
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
    failed: Option<LogFailure>,
}

#[derive(Debug, Default)]
struct SyncState {
    durable: u64,
    error: Option<Arc<io::Error>>,
}

impl std::fmt::Debug for CommandLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CommandLog").field("path", &self.path).field("written", &self.written).finish()
    }
}

impl CommandLog {
    /// The file name scheduled snapshots get beside this log: `<log stem>-<tick>.snap`, so two
    /// logs in one folder never write over each other's snapshots.
    pub(crate) fn snapshot_name(&self, tick: u64) -> String {
        Self::snapshot_file_name(&self.path, tick)
    }

    /// `snapshot_name` of a log at `path`.
    pub(crate) fn snapshot_file_name(path: &std::path::Path, tick: u64) -> String {
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "world".into());
        format!("{stem}-{tick:012}.snap")
    }

    /// Creates the log (never over an existing file: a log is one run's account) and writes its
    /// header durably.
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
                    Err(e) => s.error = Some(Arc::new(e)),
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
        log.make_durable().map_err(|failure| io::Error::new(failure.error.kind(), failure.to_string()))?;
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
    /// they make, so replay never depends on files that may have changed since. Time control
    /// (`world.pause`, `world.step`) is not recorded either: it changes when the world steps, not
    /// what it holds, and the steps it causes are in the log as step markers.
    pub(crate) fn records(skill: &Skill) -> bool {
        skill.builtin
            && skill.effects.mutates_world()
            && !skill.effects.contains(crate::skills::Effect::Filesystem)
            && !skill.permissions.contains(&crate::policy::Permission::WorldTime)
    }

    /// A recordable call reached its handler; `end` it when the handler is done.
    fn begin(&mut self) {
        self.depth += 1;
    }

    /// The handler returned: only the outermost call is written (replaying it makes the calls
    /// its handler made).
    fn end(&mut self, call: &EndedCall<'_>) {
        self.depth = self.depth.saturating_sub(1);
        if self.depth > 0 {
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
    fn abandon(&mut self) {
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
                self.failed = Some(self.failure(LogStep::Write, e));
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
    pub(crate) fn make_durable(&mut self) -> Result<(), LogFailure> {
        if let Some(failed) = &self.failed {
            return Err(failed.clone());
        }
        // A background sync that failed means what it covered may not be on disk.
        if let Some(error) = self.synced.lock().ok().and_then(|s| s.error.clone()) {
            let failure = LogFailure { path: self.path.clone(), step: LogStep::BackgroundSync, error };
            self.failed = Some(failure.clone());
            return Err(failure);
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
                let failure = self.failure(LogStep::Sync, e);
                self.failed = Some(failure.clone());
                Err(failure)
            }
        }
    }

    fn failure(&self, step: LogStep, error: io::Error) -> LogFailure {
        LogFailure { path: self.path.clone(), step, error: Arc::new(error) }
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

/// The pipeline's recorder is the engine's log slot: empty when the run keeps no log.
impl CallRecorder for std::cell::RefCell<Option<CommandLog>> {
    fn records(&self, skill: &Skill) -> bool {
        self.borrow().is_some() && CommandLog::records(skill)
    }

    fn begin(&self) {
        if let Some(log) = self.borrow_mut().as_mut() {
            log.begin();
        }
    }

    fn end(&self, call: &EndedCall<'_>) {
        if let Some(log) = self.borrow_mut().as_mut() {
            log.end(call);
        }
    }

    fn abandon(&self) {
        // The panic may have struck while the log was borrowed.
        if let Ok(mut log) = self.try_borrow_mut()
            && let Some(log) = log.as_mut()
        {
            log.abandon();
        }
    }
}
