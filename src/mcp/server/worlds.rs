//! The worlds one network server serves. Each world has its own engine on its own thread (the
//! engine is `!Send`: it is built there and never leaves), its own registry state, trace, command
//! log, admission limits and HTTP sessions; clients pick one by path (`/w/{world}/mcp`, a
//! WebSocket upgrade under `/w/{world}/`), and the paths without a world (`/mcp`, `/`) reach the
//! default world, `main`, so a one-world server looks as it always did.
//!
//! A world that panics stops alone: its thread catches the panic, marks the world failed (with
//! the message), cuts its connections and ends; the process and every other world go on. The
//! operator adds and retires worlds at run time through the admin path (`admin`); a retired
//! world answers what it still holds with an error, makes its log durable and reports its final
//! tick and hash.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock, Weak, mpsc};
use std::time::{Duration, Instant};

use super::admission::Admission;
use super::engine_loop::{EngineLoop, EngineMsg, Fault, WorldReport};
use super::http::HttpState;
use super::transport::{Cutoff, Shared};
use crate::mcp::{McpServerError, ToolsMode, WorldStart};
use crate::policy::Profile;

/// A world's name: `[a-z0-9][a-z0-9_-]{0,62}`. It is a path segment, a folder name and (later) a
/// NATS subject token as it is: no dots, no slashes, no case to fold.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct WorldName(Arc<str>);

/// Why a text is no world name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{shown}' is not a world name: {why} (names are 1 to 63 of a-z, 0-9, '_' and '-', starting with a letter or digit)")]
pub(crate) struct BadWorldName {
    shown: String,
    why: &'static str,
}

impl WorldName {
    /// The default world: the one a server without `--world` serves, and the one the paths
    /// without a world reach.
    pub const MAIN: &'static str = "main";
    pub const MAX_LEN: usize = 63;

    pub fn parse(text: &str) -> Result<Self, BadWorldName> {
        let bad = |why| Err(BadWorldName { shown: crate::clip::shown(text).to_string(), why });
        let Some(first) = text.bytes().next() else { return bad("it is empty") };
        if text.len() > Self::MAX_LEN {
            return bad("it is too long");
        }
        if !(first.is_ascii_lowercase() || first.is_ascii_digit()) {
            return bad("it must start with a-z or 0-9");
        }
        if !text.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-') {
            return bad("it holds a character outside a-z, 0-9, '_' and '-'");
        }
        Ok(Self(Arc::from(text)))
    }

    pub fn main() -> Self {
        Self(Arc::from(Self::MAIN))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn is_main(&self) -> bool {
        &*self.0 == Self::MAIN
    }
}

impl std::fmt::Display for WorldName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Where a world's state starts.
#[derive(Debug, Clone)]
pub(crate) enum Origin {
    /// Already resolved (the command line's `--scene`, `--resume`, `--empty`).
    Start(WorldStart),
    /// A snapshot file or a logged run's folder, read (and recovered) on the world's own thread,
    /// so a long recovery stalls no other world and no socket.
    ResumeFrom(PathBuf),
}

/// One world to start.
#[derive(Debug, Clone)]
pub(crate) struct WorldSpec {
    pub name: WorldName,
    pub origin: Origin,
    pub paused: bool,
    /// Call time per fixed step.
    pub call_budget: Duration,
    /// A fault to inject (tests, with `LIMINA_FAULTS=1` in the server's environment).
    pub fault: Option<Fault>,
    /// In a fleet: the lease it is served under, and where its log continues (`fleet`).
    pub ownership: Option<Ownership>,
}

/// A fleet world's lease, and (taken over) the message its log continues after.
#[derive(Debug, Clone)]
pub(crate) struct Ownership {
    pub hold: Arc<crate::nats::LeaseHold>,
    pub after: Option<u64>,
}

/// What every world of a server shares: how engines are built and what clients are granted.
#[derive(Clone)]
pub(crate) struct WorldDefaults {
    pub project: PathBuf,
    pub profile: Profile,
    pub scripts: Option<PathBuf>,
    pub tools: ToolsMode,
    pub publish_deltas: bool,
    /// The default world's command log (`--log FILE`).
    pub main_log: Option<crate::durable::LogConfig>,
    /// Every world logs to `DIR/{name}/world.log` (`--log-dir`), with these settings.
    pub log_dir: Option<crate::durable::LogConfig>,
    /// Every world's log goes to JetStream as well (`--nats`).
    pub nats: Option<crate::nats::JetStream>,
    /// The settings of a log on JetStream alone; `{path}/{name}/` stages its snapshots.
    pub nats_log: Option<crate::durable::LogConfig>,
}

impl WorldDefaults {
    /// Where a world's traces, snapshots and saved scenes go: `main` keeps the project's own
    /// folders (as a one-world server always did); another world gets `worlds/{name}/`, so no
    /// world reads or overwrites another's files.
    fn data_dir(&self, name: &WorldName) -> Option<PathBuf> {
        (!name.is_main()).then(|| self.project.join("worlds").join(name.as_str()))
    }

    /// Makes a world's own folder (and its `scenes/`, where `scene.save` writes) and checks that
    /// it, and the folders in it, are where they seem: inside the project, not links out of it.
    fn prepare_data_dir(&self, name: &WorldName) -> Result<(), String> {
        let Some(dir) = self.data_dir(name) else { return Ok(()) };
        let root = std::fs::canonicalize(&self.project).map_err(|e| format!("the project {}: {e}", self.project.display()))?;
        // Checked before anything is made in them, and again after (a folder made meanwhile).
        let check = || {
            for folder in
                [dir.parent().unwrap_or(&dir).to_path_buf(), dir.clone(), dir.join("scenes"), dir.join("traces"), dir.join("snapshots")]
            {
                let Ok(meta) = std::fs::symlink_metadata(&folder) else { continue };
                if meta.file_type().is_symlink() || !std::fs::canonicalize(&folder).is_ok_and(|real| real.starts_with(&root)) {
                    return Err(format!("its folder {} leads out of the project (a link); remove the link", folder.display()));
                }
            }
            Ok(())
        };
        check()?;
        std::fs::create_dir_all(dir.join("scenes")).map_err(|e| format!("cannot make its folder {}: {e}", dir.display()))?;
        check()
    }

    /// The world's command log, if it keeps one. A `--log-dir` world's folder must hold no log
    /// yet: a folder holds one run's log (`limina recover DIR/name`).
    fn log_for(&self, name: &WorldName, ownership: Option<&Ownership>) -> Result<Option<crate::durable::LogConfig>, String> {
        let remote = self.nats.as_ref().map(|js| {
            let mut remote = crate::nats::NatsRemote::new(js.clone(), name.to_string());
            if let Some(owned) = ownership {
                remote.lease = Some(Arc::clone(&owned.hold));
                remote.after = owned.after;
            }
            crate::durable::RemoteTarget(Arc::new(remote))
        });
        if let (Some(owned), Some(template)) = (ownership, &self.nats_log) {
            // A fleet world's log is on JetStream alone; each lease stages its snapshots in a
            // folder of its own, under names no other owner of the world uses.
            let folder = template.path.join(name.as_str()).join(format!("e{}", owned.hold.epoch));
            std::fs::create_dir_all(&folder).map_err(|e| format!("cannot make the snapshot folder {}: {e}", folder.display()))?;
            let path = folder.join(format!("world-e{}.log", owned.hold.epoch));
            return Ok(Some(crate::durable::LogConfig { path, file: false, remote, ..template.clone() }));
        }
        let with_remote = |config: crate::durable::LogConfig| crate::durable::LogConfig { remote: remote.clone(), ..config };
        if let Some(template) = &self.log_dir {
            let folder = template.path.join(name.as_str());
            std::fs::create_dir_all(&folder).map_err(|e| format!("cannot make the log folder {}: {e}", folder.display()))?;
            let base = std::fs::canonicalize(&template.path).map_err(|e| format!("the log folder {}: {e}", template.path.display()))?;
            let linked = std::fs::symlink_metadata(&folder).is_ok_and(|m| m.file_type().is_symlink());
            if linked || !std::fs::canonicalize(&folder).is_ok_and(|real| real.parent() == Some(base.as_path())) {
                return Err(format!(
                    "the log folder {} leads out of {} (a link); remove the link",
                    folder.display(),
                    template.path.display()
                ));
            }
            let used = std::fs::read_dir(&folder)
                .map_err(|e| format!("cannot read the log folder {}: {e}", folder.display()))?
                .filter_map(Result::ok)
                .any(|e| e.path().extension().is_some_and(|x| x == "log"));
            if used {
                return Err(format!(
                    "the log folder {} already holds a run's log (a world of this name ran before); move it away, or give the world another name",
                    folder.display()
                ));
            }
            return Ok(Some(with_remote(crate::durable::LogConfig { path: folder.join("world.log"), ..template.clone() })));
        }
        if name.is_main()
            && let Some(log) = &self.main_log
        {
            return Ok(Some(with_remote(log.clone())));
        }
        match &self.nats_log {
            // On JetStream alone: snapshots are staged in a folder of the world's own.
            Some(template) if remote.is_some() => {
                let folder = template.path.join(name.as_str());
                std::fs::create_dir_all(&folder).map_err(|e| format!("cannot make the snapshot folder {}: {e}", folder.display()))?;
                Ok(Some(with_remote(crate::durable::LogConfig { path: folder.join("world.log"), ..template.clone() })))
            }
            _ => Ok(None),
        }
    }
}

/// A world's life, as the other threads see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum WorldState {
    Serving,
    /// Its engine panicked: the message, and the tick it reached.
    Failed(String),
    Retired,
}

impl WorldState {
    pub fn as_str(&self) -> &'static str {
        match self {
            WorldState::Serving => "serving",
            WorldState::Failed(_) => "failed",
            WorldState::Retired => "retired",
        }
    }
}

/// What a world's engine thread publishes for the rest of the process: its state, its tick and
/// how many steps it ran in the last second (`/health`), and its WebSocket connections (cut when
/// it stops).
#[derive(Debug)]
pub(crate) struct WorldStatus {
    state: Mutex<WorldState>,
    tick: AtomicU64,
    /// Steps per second over the last whole second, in thousandths.
    rate_milli: AtomicU64,
    window: Mutex<(Instant, u64)>,
    /// When the engine thread last came round its loop, and when the tick last moved (or the
    /// world was paused, when it need not move).
    turns: Mutex<Turns>,
    /// How far the log's remote has acknowledged, as of the last turn (None: no remote).
    log: Mutex<Option<crate::durable::LogProgress>>,
    connections: Mutex<Vec<Weak<Cutoff>>>,
}

#[derive(Debug, Clone, Copy)]
struct Turns {
    last_turn: Instant,
    last_advance: Instant,
    tick: u64,
}

/// How long a world may go without its loop coming round, or (running) without its tick
/// moving, before `/health` calls it stalled.
pub(crate) const STALL_AFTER: Duration = Duration::from_secs(5);

/// A world's condition as `/health` reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Condition {
    Serving,
    /// Its thread is busy or stuck, or its steps fail: why.
    Stalled(String),
    Failed(String),
    Retired,
}

impl Condition {
    pub fn as_str(&self) -> &'static str {
        match self {
            Condition::Serving => "serving",
            Condition::Stalled(_) => "stalled",
            Condition::Failed(_) => "failed",
            Condition::Retired => "retired",
        }
    }

    pub fn why(&self) -> Option<&str> {
        match self {
            Condition::Stalled(why) | Condition::Failed(why) => Some(why),
            Condition::Serving | Condition::Retired => None,
        }
    }
}

impl WorldStatus {
    fn new() -> Self {
        Self {
            state: Mutex::new(WorldState::Serving),
            tick: AtomicU64::new(0),
            rate_milli: AtomicU64::new(0),
            window: Mutex::new((Instant::now(), 0)),
            turns: Mutex::new(Turns { last_turn: Instant::now(), last_advance: Instant::now(), tick: 0 }),
            log: Mutex::new(None),
            connections: Mutex::new(Vec::new()),
        }
    }

    pub fn state(&self) -> WorldState {
        self.state.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    fn set_state(&self, state: WorldState) {
        *self.state.lock().unwrap_or_else(|p| p.into_inner()) = state;
    }

    pub fn tick(&self) -> u64 {
        self.tick.load(Ordering::Relaxed)
    }

    pub fn steps_per_second(&self) -> f64 {
        self.rate_milli.load(Ordering::Relaxed) as f64 / 1000.0
    }

    /// The world's condition now: its state, or stalled when its thread has not come round for
    /// `STALL_AFTER`, or its tick has not moved for that long while it runs.
    pub fn condition(&self, now: Instant) -> Condition {
        match self.state() {
            WorldState::Failed(why) => return Condition::Failed(why),
            WorldState::Retired => return Condition::Retired,
            WorldState::Serving => {}
        }
        let turns = *self.turns.lock().unwrap_or_else(|p| p.into_inner());
        let quiet = now.saturating_duration_since(turns.last_turn);
        if quiet >= STALL_AFTER {
            return Condition::Stalled(format!(
                "its engine thread has not come round for {:.0} s (a long call, or a script that never returns)",
                quiet.as_secs_f64()
            ));
        }
        let still = now.saturating_duration_since(turns.last_advance);
        if still >= STALL_AFTER {
            return Condition::Stalled(format!(
                "its tick has stayed at {} for {:.0} s while it runs (a step that fails each time: see the server's log)",
                turns.tick,
                still.as_secs_f64()
            ));
        }
        Condition::Serving
    }

    /// Called by the engine thread at each due step, whether it ran (`paused`: it need not).
    pub fn stepped(&self, tick: u64, paused: bool, now: Instant) {
        {
            let mut turns = self.turns.lock().unwrap_or_else(|p| p.into_inner());
            turns.last_turn = now;
            if paused || tick != turns.tick {
                turns.last_advance = now;
                turns.tick = tick;
            }
        }
        self.tick.store(tick, Ordering::Relaxed);
        let mut window = self.window.lock().unwrap_or_else(|p| p.into_inner());
        let elapsed = now.saturating_duration_since(window.0);
        if elapsed >= Duration::from_secs(1) {
            let steps = tick.saturating_sub(window.1) as f64;
            self.rate_milli.store((steps / elapsed.as_secs_f64() * 1000.0) as u64, Ordering::Relaxed);
            *window = (now, tick);
        }
    }

    /// Notes how far the log's remote has come (the engine thread, each turn that stepped).
    pub fn logged(&self, progress: Option<crate::durable::LogProgress>) {
        *self.log.lock().unwrap_or_else(|p| p.into_inner()) = progress;
    }

    pub fn log_progress(&self) -> Option<crate::durable::LogProgress> {
        self.log.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// A WebSocket connection to this world (cut when the world stops).
    pub fn connected(&self, cutoff: &Arc<Cutoff>) {
        let mut connections = self.connections.lock().unwrap_or_else(|p| p.into_inner());
        connections.retain(|c| c.strong_count() > 0);
        connections.push(Arc::downgrade(cutoff));
    }

    fn cut_connections(&self, why: &str) {
        let connections = std::mem::take(&mut *self.connections.lock().unwrap_or_else(|p| p.into_inner()));
        for cutoff in connections.iter().filter_map(Weak::upgrade) {
            cutoff.cut(why);
        }
    }
}

/// What every world's clients are checked against, and the process's connection numbers.
#[derive(Clone)]
pub(crate) struct Access {
    pub tokens: Option<Arc<super::tokens::Tokens>>,
    /// What clients get without a tokens file (`--profile`, `--grant`).
    pub default_grant: crate::policy::Grant,
    pub next: Arc<AtomicU64>,
}

/// One served world: where its work goes and what serves its clients.
pub(crate) struct World {
    pub name: WorldName,
    /// Its engine's queue, the process's tokens and grant.
    pub shared: Shared,
    pub http: Arc<HttpState>,
    pub admission: Arc<Admission>,
    pub status: Arc<WorldStatus>,
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
}

impl World {
    /// Asks the engine thread for its tick and hash (computed there, between steps).
    pub async fn report(&self) -> Result<WorldReport, String> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        if self.shared.engine.send(EngineMsg::Status { reply }).is_err() {
            return Err(self.stopped());
        }
        answer.await.map_err(|_| self.stopped())
    }

    /// Why a world takes no work: what its state says.
    pub fn stopped(&self) -> String {
        match self.status.state() {
            WorldState::Failed(why) => format!("world '{}' stopped: {why}", self.name),
            WorldState::Retired => format!("world '{}' was retired", self.name),
            WorldState::Serving => format!("world '{}' has stopped", self.name),
        }
    }
}

/// The worlds of a server, by name. Reads (every request) take the read lock for a map look-up;
/// only creating and retiring a world writes.
pub(crate) struct WorldSet {
    worlds: RwLock<BTreeMap<WorldName, Arc<World>>>,
    /// Names whose engines are being built.
    starting: Mutex<std::collections::BTreeSet<WorldName>>,
    /// Retired worlds whose threads had not stopped when asked (`WorldError::Stuck`).
    stuck: Mutex<Vec<Arc<World>>>,
    defaults: WorldDefaults,
    /// The process's tokens and default grant, and its connection numbers.
    access: Access,
    /// `LIMINA_FAULTS=1` in the server's environment: worlds may be created with a fault.
    pub faults: bool,
}

/// Worlds one server holds at most: each is a thread, an engine and its memory.
pub(crate) const MAX_WORLDS: usize = 256;

/// Why a world could not be started or retired.
#[derive(Debug, thiserror::Error)]
pub(crate) enum WorldError {
    #[error("world '{0}' exists already")]
    Exists(WorldName),
    #[error("no world '{0}'")]
    Missing(WorldName),
    #[error("this server holds {MAX_WORLDS} worlds, its limit; retire one first")]
    Full,
    #[error("world '{name}' could not start: {why}")]
    Start { name: WorldName, why: String },
    #[error("the default world 'main' is served as long as the server runs (its paths are /mcp and /); stop the server to end it")]
    Main,
    #[error(
        "world '{name}' did not stop within {secs} s: its engine thread is busy (a long call, or a script that never returns); it takes no more requests, and stops when its thread comes round",
        secs = RETIRE_WAIT.as_secs()
    )]
    Stuck { name: WorldName },
}

/// Longest a retire waits for the world's thread to answer.
pub(crate) const RETIRE_WAIT: Duration = Duration::from_secs(60);

impl WorldSet {
    pub fn new(defaults: WorldDefaults, access: Access) -> Self {
        Self {
            worlds: RwLock::new(BTreeMap::new()),
            starting: Mutex::default(),
            stuck: Mutex::default(),
            defaults,
            access,
            faults: std::env::var("LIMINA_FAULTS").is_ok_and(|v| v == "1"),
        }
    }

    pub fn get(&self, name: &WorldName) -> Option<Arc<World>> {
        self.worlds.read().unwrap_or_else(|p| p.into_inner()).get(name).cloned()
    }

    pub fn all(&self) -> Vec<Arc<World>> {
        self.worlds.read().unwrap_or_else(|p| p.into_inner()).values().cloned().collect()
    }

    /// Names being started now (their engines are being built).
    pub fn starting(&self) -> Vec<WorldName> {
        self.starting.lock().unwrap_or_else(|p| p.into_inner()).iter().cloned().collect()
    }

    /// Retired worlds whose threads have not stopped yet (the finished ones are forgotten).
    pub fn stuck(&self) -> Vec<WorldName> {
        let mut stuck = self.stuck.lock().unwrap_or_else(|p| p.into_inner());
        stuck.retain(|w| w.thread.lock().unwrap_or_else(|p| p.into_inner()).as_ref().is_some_and(|t| !t.is_finished()));
        stuck.iter().map(|w| w.name.clone()).collect()
    }

    pub fn project(&self) -> &Path {
        &self.defaults.project
    }

    /// Starts a world on its own thread and waits until its engine is built (or failed to be).
    /// Blocking: call it off the network threads (`spawn_blocking`) or before they serve.
    pub fn start(&self, spec: WorldSpec, runtime: &tokio::runtime::Handle) -> Result<Arc<World>, WorldError> {
        let name = spec.name.clone();
        {
            // The name is claimed first, so two creations of one name cannot both build an engine
            // (or open one log).
            let worlds = self.worlds.read().unwrap_or_else(|p| p.into_inner());
            let mut starting = self.starting.lock().unwrap_or_else(|p| p.into_inner());
            if worlds.contains_key(&name) || starting.contains(&name) {
                return Err(WorldError::Exists(name));
            }
            if worlds.len() + starting.len() >= MAX_WORLDS {
                return Err(WorldError::Full);
            }
            starting.insert(name.clone());
        }
        let started = self.build(spec, runtime);
        self.starting.lock().unwrap_or_else(|p| p.into_inner()).remove(&name);
        let world = started?;
        self.worlds.write().unwrap_or_else(|p| p.into_inner()).insert(name, Arc::clone(&world));
        Ok(world)
    }

    fn build(&self, spec: WorldSpec, runtime: &tokio::runtime::Handle) -> Result<Arc<World>, WorldError> {
        let name = spec.name.clone();
        self.defaults.prepare_data_dir(&name).map_err(|why| WorldError::Start { name: name.clone(), why })?;
        let log = self.defaults.log_for(&name, spec.ownership.as_ref()).map_err(|why| WorldError::Start { name: name.clone(), why })?;
        let (tx, rx) = mpsc::channel::<EngineMsg>();
        let status = Arc::new(WorldStatus::new());
        let shared = Shared {
            tokens: self.access.tokens.clone(),
            default_grant: self.access.default_grant,
            engine: tx,
            next: Arc::clone(&self.access.next),
            world: name.clone(),
        };
        let admission = Arc::new(Admission::default());
        let http = HttpState::new(shared.clone(), Arc::clone(&admission));
        let (ready, built) = mpsc::sync_channel::<Result<(), String>>(1);
        let thread = {
            let defaults = self.defaults.clone();
            let status = Arc::clone(&status);
            let wake = shared.engine.clone();
            std::thread::Builder::new()
                .name(format!("limina-w-{name}"))
                .spawn(move || run_world(spec, log, &defaults, (&rx, wake), &status, &ready))
                .map_err(|e| WorldError::Start { name: name.clone(), why: format!("cannot start its thread: {e}") })?
        };
        let started = built.recv().unwrap_or_else(|_| Err("its thread ended before the engine was built".into()));
        if let Err(why) = started {
            let _ = thread.join();
            // A world that never served leaves no log behind to claim its name: the log (and
            // the snapshot a resumed log starts from) were made by this attempt.
            if let Some(log) = self.defaults.log_dir.as_ref().map(|t| t.path.join(name.as_str())) {
                forget_attempt(&log);
            }
            return Err(WorldError::Start { name, why });
        }
        let world = Arc::new(World { name, shared, http, admission, status, thread: Mutex::new(Some(thread)) });
        runtime.spawn(HttpState::expire_sessions(Arc::downgrade(&world.http)));
        Ok(world)
    }

    /// Retires a world: it leaves the set (new requests for it get 404), answers what it still
    /// holds with an error, makes its log durable and reports its final tick and hash; then its
    /// connections are cut. A failed world is only removed (its report is None).
    pub async fn retire(&self, name: &WorldName) -> Result<Option<WorldReport>, WorldError> {
        if name.is_main() {
            return Err(WorldError::Main);
        }
        self.stop(name, &format!("world '{name}' was retired")).await
    }

    /// Stops serving a world here, `main` too (a fleet world another process took over, or one
    /// the fleet retires): as `retire`, with `why` told to its connections.
    pub async fn stop(&self, name: &WorldName, why: &str) -> Result<Option<WorldReport>, WorldError> {
        let world = self.worlds.write().unwrap_or_else(|p| p.into_inner()).remove(name).ok_or_else(|| WorldError::Missing(name.clone()))?;
        let (reply, answer) = tokio::sync::oneshot::channel();
        let report = match world.shared.engine.send(EngineMsg::Retire { reply: Some(reply) }) {
            Ok(()) => match tokio::time::timeout(RETIRE_WAIT, answer).await {
                Ok(answer) => answer.ok(),
                Err(_) => {
                    world.status.set_state(WorldState::Retired);
                    world.status.cut_connections(why);
                    self.stuck.lock().unwrap_or_else(|p| p.into_inner()).push(world);
                    return Err(WorldError::Stuck { name: name.clone() });
                }
            },
            Err(_) => None,
        };
        if world.status.state() == WorldState::Serving {
            world.status.set_state(WorldState::Retired);
        }
        world.status.cut_connections(why);
        let thread = world.thread.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(thread) = thread {
            let _ = tokio::task::spawn_blocking(move || thread.join()).await;
        }
        Ok(report)
    }
}

/// Removes what a failed start wrote in its log folder: `world.log` and the snapshots beside it.
fn forget_attempt(folder: &Path) {
    let Ok(entries) = std::fs::read_dir(folder) else { return };
    for entry in entries.filter_map(Result::ok) {
        let file = entry.file_name().to_string_lossy().into_owned();
        if file == "world.log" || (file.starts_with("world-") && file.ends_with(".snap")) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    // Left only if something else is in it.
    let _ = std::fs::remove_dir(folder);
}

/// A world's engine thread: builds the engine, says so on `ready`, then serves until retired.
/// A panic anywhere in the loop fails this world alone.
fn run_world(
    spec: WorldSpec,
    log: Option<crate::durable::LogConfig>,
    defaults: &WorldDefaults,
    (rx, wake): (&mpsc::Receiver<EngineMsg>, mpsc::Sender<EngineMsg>),
    status: &WorldStatus,
    ready: &mpsc::SyncSender<Result<(), String>>,
) {
    let name = spec.name.clone();
    let built = crate::isolate::catch(|| {
        let start = match &spec.origin {
            Origin::Start(start) => start.clone(),
            Origin::ResumeFrom(path) => {
                let resume = crate::host::Resume::from_path(path, &defaults.project).map_err(|e| e.to_string())?;
                for note in &resume.notes {
                    tracing::warn!("world '{name}': resume: {note}");
                }
                WorldStart::Resume(resume)
            }
        };
        crate::mcp::server_engine(
            &defaults.project,
            defaults.profile,
            defaults.scripts.as_deref(),
            &start,
            log,
            spec.paused,
            defaults.data_dir(&name).as_deref(),
        )
        .map_err(|e: McpServerError| e.to_string())
    });
    let engine = match built {
        Ok(Ok(engine)) => engine,
        Ok(Err(why)) => {
            let _ = ready.send(Err(why));
            return;
        }
        Err(panic) => {
            let _ = ready.send(Err(format!("it panicked while starting: {panic}")));
            return;
        }
    };
    status.stepped(engine.tick(), engine.paused(), Instant::now());
    // Held answers go as soon as the log's remote acknowledges them.
    engine.on_log_acknowledged(Box::new(move || {
        let _ = wake.send(EngineMsg::Acknowledged);
    }));
    let _ = ready.send(Ok(()));
    let served = crate::isolate::catch(|| {
        EngineLoop::new(&engine, defaults.publish_deltas, spec.call_budget)
            .with_tools(defaults.tools)
            .with_status(status, spec.fault)
            .with_spectators(super::spectators::for_world(defaults.nats.as_ref(), &name, &engine))
            .run(rx);
    });
    if let Err(panic) = served {
        let why = format!("it panicked at tick {}: {panic}", engine.tick());
        tracing::error!("world '{name}' {why}; the other worlds go on");
        status.set_state(WorldState::Failed(why));
        status.cut_connections(&format!("world '{name}' stopped: it panicked"));
    }
    // Dropping the engine flushes its log; a second panic there must not take the process.
    if crate::isolate::catch(move || drop(engine)).is_err() {
        tracing::error!("world '{name}': its engine panicked again while closing");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn world_names_are_checked_with_the_rule() {
        for good in ["main", "a", "0", "alpha-2", "room_1", &"x".repeat(63)] {
            assert_eq!(WorldName::parse(good).map(|n| n.as_str().to_string()), Ok(good.to_string()));
        }
        for (bad, why) in [
            ("", "empty"),
            ("-a", "start with"),
            ("_a", "start with"),
            ("Alpha", "start with"),
            ("a.b", "outside"),
            ("a/b", "outside"),
            ("a b", "outside"),
            ("ä", "start with"),
            (&"x".repeat(64), "too long"),
        ] {
            let e = WorldName::parse(bad).unwrap_err().to_string();
            assert!(e.contains(why), "{bad:?}: {e}");
        }
    }
}
