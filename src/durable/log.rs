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
use super::remote::RemoteLog;
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
    /// The log file; without `file`, only where its snapshots go (beside it) and how they are
    /// named.
    pub path: PathBuf,
    /// Ticks between world-hash checkpoints (at least 1).
    pub checkpoint_every: u64,
    /// Ticks between snapshots written beside the log (None: none).
    pub snapshot_every: Option<u64>,
    pub flush: FlushPolicy,
    /// Write the log to `path` (true unless the remote holds it alone).
    pub file: bool,
    /// A second home for the log's bytes and its snapshots (`--nats`), acknowledged on its own.
    pub remote: Option<super::remote::RemoteTarget>,
}

impl LogConfig {
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self { path: path.into(), checkpoint_every: 60, snapshot_every: None, flush: FlushPolicy::default(), file: true, remote: None }
    }

    /// Where the log is, as messages name it.
    pub fn describe(&self) -> String {
        match (&self.remote, self.file) {
            (Some(remote), true) => format!("{} and {}", self.path.display(), remote.describe()),
            (Some(remote), false) => remote.describe(),
            (None, _) => self.path.display().to_string(),
        }
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
    /// The remote refused what was handed to it, or lost it (another writer took the log).
    Remote,
    /// The remote did not acknowledge in time (it may yet).
    RemoteWait,
}

impl std::fmt::Display for LogStep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LogStep::Write => "cannot be written",
            LogStep::Sync => "cannot be synced",
            LogStep::BackgroundSync => "could not be synced",
            LogStep::Remote => "is no longer taken by its remote",
            LogStep::RemoteWait => "was not acknowledged by its remote in time",
        })
    }
}

/// The open command log of a running engine.
pub(crate) struct CommandLog {
    path: PathBuf,
    /// The local file, when the log is kept in one.
    file: Option<FileSink>,
    /// The second home of the log's bytes, acknowledged on its own (`--nats`).
    remote: Option<Box<dyn RemoteLog>>,
    buffer: Vec<u8>,
    /// Bytes handed to the file and the remote so far (the position of the next record).
    written: u64,
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

/// The log's file and the thread that syncs it in the background.
struct FileSink {
    file: File,
    /// Bytes known to be on disk.
    synced: Arc<Mutex<SyncState>>,
    sync_requests: Option<mpsc::Sender<u64>>,
    sync_thread: Option<std::thread::JoinHandle<()>>,
    last_sync_request: Instant,
}

#[derive(Debug, Default)]
struct SyncState {
    durable: u64,
    error: Option<Arc<io::Error>>,
}

impl FileSink {
    /// Creates the file (never over an existing one: a log is one run's account).
    fn create(path: &std::path::Path) -> io::Result<FileSink> {
        let file = std::fs::OpenOptions::new().write(true).create_new(true).open(path).map_err(|e| {
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
        Ok(FileSink { file, synced, sync_requests: Some(tx), sync_thread: Some(sync_thread), last_sync_request: Instant::now() })
    }

    fn request_sync(&mut self, upto: u64) {
        self.last_sync_request = Instant::now();
        if let Some(tx) = &self.sync_requests {
            let _ = tx.send(upto);
        }
    }

    fn durable(&self) -> u64 {
        self.synced.lock().map(|s| s.durable).unwrap_or(0)
    }

    fn background_error(&self) -> Option<Arc<io::Error>> {
        self.synced.lock().ok().and_then(|s| s.error.clone())
    }

    fn sync_now(&mut self, upto: u64) -> io::Result<()> {
        self.file.sync_data()?;
        let mut s = self.synced.lock().unwrap_or_else(|p| p.into_inner());
        s.durable = s.durable.max(upto);
        Ok(())
    }
}

impl Drop for FileSink {
    fn drop(&mut self) {
        self.sync_requests = None;
        if let Some(thread) = self.sync_thread.take() {
            let _ = thread.join();
        }
    }
}

impl std::fmt::Debug for CommandLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CommandLog").field("path", &self.path).field("written", &self.written).finish()
    }
}

/// How far a log with a remote has come (`CommandLog::progress`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogProgress {
    /// Bytes handed to the remote.
    pub written: u64,
    /// Bytes the remote acknowledged.
    pub acknowledged: u64,
    /// Whether the remote takes records now; why not otherwise.
    pub writable: Result<(), String>,
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

    /// Creates the log (never over an existing file: a log is one run's account), opens its
    /// remote, and writes its header durably to both — unless the remote continues a log it
    /// holds (a world taken over), which gets no second header.
    pub(crate) fn create(config: &LogConfig, header: &Header) -> io::Result<CommandLog> {
        let continues = config.remote.as_ref().is_some_and(|r| r.continues());
        if continues && config.file {
            return Err(io::Error::other(format!(
                "{}: a log continued from its remote is kept there alone, not also in {}",
                config.describe(),
                config.path.display()
            )));
        }
        let file = if config.file { Some(FileSink::create(&config.path)?) } else { None };
        let remote = match &config.remote {
            Some(target) => Some(target.open().map_err(|why| {
                if file.is_some() {
                    // Made a moment ago by this run, and not yet written: it goes with the run.
                    let _ = std::fs::remove_file(&config.path);
                }
                io::Error::other(why)
            })?),
            None => None,
        };
        let mut log = CommandLog {
            path: config.path.clone(),
            file,
            remote,
            buffer: Vec::with_capacity(64 * 1024),
            written: 0,
            policy: config.flush,
            checkpoint_every: config.checkpoint_every.max(1),
            snapshot_every: config.snapshot_every.filter(|n| *n > 0),
            depth: 0,
            kept_snapshots: Default::default(),
            unsynced: false,
            failed: None,
        };
        // A continued log has its header (and all before this run) on the remote already.
        if !continues {
            log.line(&Record::Header(header.clone()));
        }
        log.make_durable().map_err(|failure| io::Error::new(failure.error.kind(), failure.to_string()))?;
        Ok(log)
    }

    /// Wakes `waker` (from another thread) whenever the remote acknowledges more.
    pub(crate) fn on_acknowledged(&mut self, waker: Box<dyn Fn() + Send + Sync>) {
        if let Some(remote) = &mut self.remote {
            remote.on_acknowledged(waker);
        }
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

    /// A snapshot is on disk at `path`: the log names it (by file name, beside the log), and
    /// the remote is handed a copy.
    pub(crate) fn snapshot_written(&mut self, tick: u64, path: &std::path::Path, hash: &str) {
        let file = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
        if let Some(remote) = self.remote.as_ref().filter(|_| self.failed.is_none()) {
            remote.put_snapshot(&file, path);
        }
        self.line(&Record::Snapshot { tick, file, hash: hash.to_string() });
        self.unsynced = true;
    }

    pub(crate) fn snapshot_due(&self, now: u64) -> bool {
        self.snapshot_every.is_some_and(|n| now.is_multiple_of(n))
    }

    /// Notes a scheduled snapshot; returns the one to remove when more than three are kept.
    pub(crate) fn keep_snapshot(&mut self, path: PathBuf) -> Option<PathBuf> {
        // A log that stopped names no newer snapshot: the ones it named are all kept.
        if self.failed.is_some() {
            return None;
        }
        self.kept_snapshots.push_back(path);
        let retired = (self.kept_snapshots.len() > 3).then(|| self.kept_snapshots.pop_front()).flatten();
        if let (Some(remote), Some(name)) = (&self.remote, retired.as_ref().and_then(|p| p.file_name())) {
            remote.remove_snapshot(&name.to_string_lossy());
        }
        retired
    }

    /// A step completed (`now` is the new tick): the marker, a checkpoint when one is due, and
    /// the tick's records go to the file; a sync is requested when the last is old enough.
    pub(crate) fn step_done(&mut self, now: u64, hash: Option<String>) {
        self.line(&Record::Step { now });
        if let Some(hash) = hash {
            self.line(&Record::Checkpoint { tick: now, hash });
        }
        self.write_out();
        if let Some(file) = &mut self.file
            && file.last_sync_request.elapsed() >= self.policy.fsync_interval
        {
            file.request_sync(self.written);
        }
    }

    pub(crate) fn checkpoint_due(&self, now: u64) -> bool {
        now.is_multiple_of(self.checkpoint_every)
    }

    /// Hands what the tick (or the calls so far) recorded to the file and the remote.
    pub(crate) fn write_out(&mut self) {
        if self.buffer.is_empty() || self.failed.is_some() {
            return;
        }
        if let Some(file) = &mut self.file
            && let Err(e) = file.file.write_all(&self.buffer)
        {
            tracing::error!(path = %self.path.display(), "the command log cannot be written: {e}; it takes no more records");
            self.failed = Some(self.failure(LogStep::Write, e));
            return;
        }
        if let Some(remote) = &mut self.remote
            && let Err(why) = remote.append(&self.buffer)
        {
            tracing::error!("the command log's remote {} takes no more records: {why}", remote.describe());
            let failure = self.remote_failure(LogStep::Remote, why);
            self.failed = Some(failure);
            return;
        }
        self.written += self.buffer.len() as u64;
        self.buffer.clear();
    }

    /// Writes and syncs everything recorded so far before returning, and waits for the remote
    /// to acknowledge it: what a client is told succeeded is on disk (and on the remote). Cheap
    /// when nothing new was recorded.
    pub(crate) fn make_durable(&mut self) -> Result<(), LogFailure> {
        self.make_locally_durable()?;
        let Some(remote) = &self.remote else { return Ok(()) };
        if remote.acknowledged() >= self.written {
            return Ok(());
        }
        match remote.wait(self.written, REMOTE_WAIT) {
            Ok(()) => Ok(()),
            Err(why) => {
                let failure = self.remote_failure(LogStep::RemoteWait, why);
                // A wait that ran out is not the end: the remote may yet acknowledge.
                if remote.status().is_err() {
                    self.failed = Some(failure.clone());
                }
                Err(failure)
            }
        }
    }

    /// `make_durable` without waiting for the remote: the file is synced, and everything
    /// recorded is handed to the remote (`progress` says how far it has acknowledged).
    pub(crate) fn make_locally_durable(&mut self) -> Result<(), LogFailure> {
        if let Some(failed) = &self.failed {
            return Err(failed.clone());
        }
        // A background sync that failed means what it covered may not be on disk.
        if let Some(error) = self.file.as_ref().and_then(FileSink::background_error) {
            let failure = LogFailure { path: self.path.clone(), step: LogStep::BackgroundSync, error };
            self.failed = Some(failure.clone());
            return Err(failure);
        }
        if let Some(remote) = &self.remote
            && let Err(why) = remote.status()
        {
            let failure = self.remote_failure(LogStep::Remote, why);
            self.failed = Some(failure.clone());
            return Err(failure);
        }
        let on_disk = self.file.as_ref().map_or(u64::MAX, FileSink::durable);
        if !self.unsynced && self.buffer.is_empty() && on_disk >= self.written {
            return Ok(());
        }
        self.write_out();
        if let Some(failed) = &self.failed {
            return Err(failed.clone());
        }
        let written = self.written;
        if let Some(file) = &mut self.file
            && let Err(e) = file.sync_now(written)
        {
            let failure = self.failure(LogStep::Sync, e);
            self.failed = Some(failure.clone());
            return Err(failure);
        }
        self.unsynced = false;
        Ok(())
    }

    /// Why the world must not step now (its remote's `halted`), if it must not.
    pub(crate) fn halted(&self) -> Option<String> {
        self.remote.as_ref()?.halted()
    }

    /// How far the remote has acknowledged what was handed to it (None without a remote).
    pub(crate) fn progress(&self) -> Option<LogProgress> {
        let remote = self.remote.as_ref()?;
        let writable = match (&self.failed, remote.status()) {
            (Some(failed), _) => Err(failed.to_string()),
            (None, Err(why)) => Err(why),
            (None, Ok(())) => remote.writable(),
        };
        Some(LogProgress { written: self.written, acknowledged: remote.acknowledged(), writable })
    }

    fn failure(&self, step: LogStep, error: io::Error) -> LogFailure {
        LogFailure { path: self.path.clone(), step, error: Arc::new(error) }
    }

    fn remote_failure(&self, step: LogStep, why: String) -> LogFailure {
        let place = self.remote.as_ref().map(|r| r.describe()).unwrap_or_default();
        LogFailure { path: PathBuf::from(place), step, error: Arc::new(io::Error::other(why)) }
    }
}

/// Longest `make_durable` waits for the remote before it reports the call not durable.
const REMOTE_WAIT: Duration = Duration::from_secs(5);

impl Drop for CommandLog {
    fn drop(&mut self) {
        let _ = self.make_durable();
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
