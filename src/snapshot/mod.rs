//! Snapshots: the whole state of an engine in one versioned, checksummed file, and the way back
//! into a freshly built engine.
//!
//! A snapshot holds everything that decides what the world does next: the tick; `math.random`'s
//! generator (`script::random`); the world (every entity with every component, the entity
//! table's counter and destroyed window, models, lighting, camera, UI, sounds) and its physics
//! whole (rapier's bodies, colliders, joints, islands, broad phase and narrow phase with their
//! contact manifolds and warm-start impulses, so the solver continues exactly); the agents
//! (records, queues, budgets, walks, the id counter, the scheduler budget) and what the agent
//! systems remember for their next perceptions; and the policy engine (revocations, quota
//! windows, budgets and their usage). Stepping a restored engine gives the same world hashes as
//! stepping the one saved.
//!
//! Not in it: the Luau VM (scripts' callbacks, their locals, scripted agent policies: the host
//! script registers them again), the world log's events (`trace`; only its numbering: a
//! restored engine's events take the ids the saved engine's next events would have had, which
//! queued agent actions carry into the world hash), decisions in flight (dropped: the agent
//! decides again on its cadence, as after a timeout), collision events not yet read, loaded
//! model meshes and spoken lines' samples (renderer and audio caches keyed by the ids the
//! snapshot does hold), connected clients.
//!
//! Snapshots are taken between steps (one asked for inside a step is refused: half a step's
//! effects cannot be continued exactly). Restore into a freshly built engine: one whose log
//! already holds more events than the saved engine's goes on numbering from its own, so its
//! agents' next decision ids (and the world hash) differ from the saved engine's.
//!
//! `restore` decodes and checks everything into new objects first and swaps them in only when
//! all of it holds: a refused snapshot (wrong magic, another format or engine version, cut off,
//! corrupt, malformed) leaves the engine exactly as it was. The file format is in `format`;
//! files are written with `write_atomic`. Cold: nothing here runs in a step.

mod agents;
mod error;
mod format;

use std::io::Read;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use crate::atomic_file::write_atomic;
pub use error::SnapshotError;
pub use format::{ENGINE_VERSION, FORMAT_VERSION, MAGIC, MAX_SNAPSHOT_BYTES};

use crate::host::{AgentMemory, Engine, Shared};
use crate::policy::PolicyEngine;
use crate::script::random::LuauRandom;
use crate::world::World;

/// The engine's own counters.
#[derive(Debug, Serialize, Deserialize)]
struct EngineSection {
    tick: u64,
    rng: u64,
    /// The seq of the last event traced: a restored engine numbers its events after it, so their
    /// ids (which queued agent actions carry, and the world hash with them) are the ones the
    /// saved engine would have given.
    trace_seq: u64,
}

/// What `write_snapshot` (and `world.snapshot`) wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotWritten {
    pub path: PathBuf,
    pub tick: u64,
    pub bytes: u64,
    /// The world hash at the tick saved (what a restored engine reports).
    pub world_hash: String,
}

fn take<'a, T: Deserialize<'a>>(bytes: &'a [u8], section: &'static str) -> Result<(T, &'a [u8]), SnapshotError> {
    postcard::take_from_bytes(bytes).map_err(|error| SnapshotError::Decode { section, error })
}

fn put<T: Serialize + ?Sized>(value: &T, out: Vec<u8>, section: &'static str) -> Result<Vec<u8>, SnapshotError> {
    postcard::to_extend(value, out).map_err(|error| SnapshotError::EncodeSection { section, error })
}

/// Reads a RefCell that a caller may be holding (a snapshot can be asked for from a skill).
fn read<'a, T>(cell: &'a std::cell::RefCell<T>, part: &'static str) -> Result<std::cell::Ref<'a, T>, SnapshotError> {
    cell.try_borrow().map_err(|_| SnapshotError::Busy { part })
}

/// A snapshot's body, decoded and checked, not yet anyone's.
struct Decoded {
    engine: EngineSection,
    world: World,
    records: Vec<crate::agents::record::AgentRecord>,
    next_agent: u64,
    scheduler: crate::agents::budget::SchedulerBudget,
    policy: PolicyEngine,
    memory: AgentMemory,
}

impl Decoded {
    /// The sections in the order `Shared::snapshot` writes them; nothing may follow the last.
    /// `scheduler` is the restoring engine's own, which the snapshot's may not exceed.
    fn from_body(body: &[u8], capacity: usize, scheduler: &crate::agents::budget::SchedulerBudget) -> Result<Decoded, SnapshotError> {
        let (engine, rest): (EngineSection, _) = take(body, "engine counters")?;
        let (world, rest) = World::load(rest, capacity)?;
        let (agents, rest): (agents::AgentsState, _) = take(rest, "agents")?;
        let (records, next_agent, scheduler) = agents.into_records(scheduler)?;
        let (policy, rest): (PolicyEngine, _) = take(rest, "policy")?;
        let (memory, rest): (AgentMemory, _) = take(rest, "agent memory")?;
        memory.check()?;
        if !rest.is_empty() {
            return Err(SnapshotError::TrailingSections { extra: rest.len() });
        }
        Ok(Decoded { engine, world, records, next_agent, scheduler, policy, memory })
    }
}

impl Shared {
    /// The engine as a snapshot file's bytes (see the module docs for what it holds).
    pub(crate) fn snapshot(&self) -> Result<Vec<u8>, SnapshotError> {
        // Halfway through a step the world holds some of the step's effects and not others; a
        // restored engine would run the whole step again.
        if self.stepping.get() {
            return Err(SnapshotError::InsideStep { tick: self.tick.get() });
        }
        let trace_seq = read(&self.trace, "trace")?.last_seq();
        let engine = EngineSection { tick: self.tick.get(), rng: self.rng.get().state(), trace_seq };
        let body = put(&engine, Vec::new(), "engine counters")?;
        let body = read(&self.world, "world")?.save(body)?;
        let agents = agents::AgentsState::capture(&*read(&self.agents, "agents")?)?;
        let body = put(&agents, body, "agents")?;
        let body = put(&*read(&self.policy, "policy")?, body, "policy")?;
        drop(read(&self.trace, "trace")?);
        let body = put(&self.agent_memory(), body, "agent memory")?;
        Ok(format::seal(&body))
    }

    /// Makes this engine the one `bytes` describes, or changes nothing and says why not.
    pub(crate) fn restore(&self, bytes: &[u8]) -> Result<(), SnapshotError> {
        if self.stepping.get() {
            return Err(SnapshotError::Stepping { tick: self.tick.get() });
        }
        let body = format::open(bytes)?;
        let capacity = read(&self.world, "world")?.capacity();
        let limits = read(&self.agents, "agents")?.scheduler;
        // Everything is decoded and checked into new objects first. The checksum vouches for the
        // bytes, not for who wrote them: a crafted body that makes a decoder panic is refused
        // like any other malformed body (nothing live has been touched yet).
        let decoded = crate::isolate::catch(|| Decoded::from_body(body, capacity, &limits))
            .map_err(|panic| SnapshotError::Invalid(format!("decoding it panicked: {panic}")))??;
        // Then swapped in. Only the agents can still refuse (a connected client holds one of
        // their ids), and they go first, so a refusal changes nothing.
        let busy = |part| move |_| SnapshotError::Busy { part };
        let mut live_agents = self.agents.try_borrow_mut().map_err(busy("agents"))?;
        let mut live_world = self.world.try_borrow_mut().map_err(busy("world"))?;
        let mut live_policy = self.policy.try_borrow_mut().map_err(busy("policy"))?;
        let mut audio = self.audio_sounds.try_borrow_mut().map_err(busy("audio"))?;
        let mut trace = self.trace.try_borrow_mut().map_err(busy("trace"))?;
        let Decoded { engine, world, records, next_agent, scheduler, policy, memory } = decoded;
        live_agents.replace_records(records, next_agent, scheduler)?;
        *live_world = world;
        *live_policy = policy;
        // The mixer is handed the restored sounds at the next step, whatever revision they carry.
        *audio = (0, None);
        if !trace.continue_after(engine.trace_seq) {
            tracing::warn!(
                saved = engine.trace_seq,
                here = trace.last_seq(),
                "this engine had traced more events than the snapshot's; new event ids go on from its own"
            );
        }
        drop((live_agents, live_world, live_policy, audio, trace));
        self.tick.set(engine.tick);
        self.rng.set(LuauRandom::from_state(engine.rng));
        self.restore_agent_memory(memory);
        Ok(())
    }

    /// Writes a snapshot to `path` atomically.
    /// With a command log, the log names the snapshot once it is on disk: a replay or recovery
    /// can start from it (`Shared::snapshot` refuses mid-step, so it is always at a point the
    /// log's records can continue from).
    pub(crate) fn write_snapshot(&self, path: &Path) -> Result<SnapshotWritten, SnapshotError> {
        let bytes = self.snapshot()?;
        write_atomic(path, &bytes).map_err(|e| SnapshotError::io(path, &e))?;
        Ok(self.snapshot_written(path, bytes.len()))
    }

    /// A snapshot of `bytes` bytes is on disk at `path`: the log names it.
    fn snapshot_written(&self, path: &Path, bytes: usize) -> SnapshotWritten {
        let world_hash = self.world_hash();
        if let (Some(log), Some(file)) = (self.log.borrow_mut().as_mut(), path.file_name()) {
            log.snapshot_written(self.tick.get(), &file.to_string_lossy(), &world_hash);
        }
        SnapshotWritten { path: path.to_path_buf(), tick: self.tick.get(), bytes: bytes as u64, world_hash }
    }

    /// `world.snapshot`: writes `<snapshots dir>/<name>.snap`, `name` defaulting to the tick
    /// (`tick-0000000120`). The name is a plain word, neither the folder nor the file may be a
    /// symbolic link, and the file it replaces, if any, must be a snapshot (it starts with the
    /// snapshot magic): a snapshot never lands outside the folder or over another kind of file.
    pub(crate) fn write_named_snapshot(&self, name: Option<&str>) -> Result<SnapshotWritten, SnapshotError> {
        let name = match name {
            Some(name) => check_name(name)?,
            None => format!("tick-{:010}", self.tick.get()),
        };
        let dir = &self.snapshots_dir;
        crate::atomic_file::real_folder(dir).map_err(|e| refusal(dir, &e))?;
        let path = dir.join(format!("{name}.snap"));
        // Clients may write here: new names stop at a bound, so no caller fills the disk.
        if std::fs::symlink_metadata(&path).is_err()
            && crate::paths::count_files_with_extension(dir, "snap", MAX_NAMED_SNAPSHOTS) >= MAX_NAMED_SNAPSHOTS
        {
            return Err(SnapshotError::TooMany { dir: dir.clone(), limit: MAX_NAMED_SNAPSHOTS });
        }
        let bytes = self.snapshot()?;
        let replace = crate::atomic_file::Replace::Checked(&is_snapshot_file);
        crate::atomic_file::write_with(&path, replace, |file| std::io::Write::write_all(file, &bytes)).map_err(|e| refusal(&path, &e))?;
        Ok(self.snapshot_written(&path, bytes.len()))
    }
}

/// A refused write as the snapshot error that names it (a link, a file that is no snapshot).
fn refusal(path: &Path, e: &std::io::Error) -> SnapshotError {
    if crate::atomic_file::is_refusal(e) && e.kind() == std::io::ErrorKind::PermissionDenied {
        return SnapshotError::Symlink { path: path.to_path_buf() };
    }
    if crate::atomic_file::is_refusal(e) {
        return SnapshotError::NotASnapshot { path: path.to_path_buf() };
    }
    SnapshotError::io(path, e)
}

/// Whether the file at `path` is a snapshot (`world.snapshot` replaces only those).
fn is_snapshot_file(path: &Path) -> bool {
    let mut magic = [0u8; 8];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut magic)).is_ok() && magic == MAGIC
}

/// Snapshot files `world.snapshot` may make in its folder (writing over one of them is allowed).
pub const MAX_NAMED_SNAPSHOTS: usize = 256;

/// A snapshot name: 1 to 64 of `[A-Za-z0-9_-]`.
pub(crate) fn check_name(name: &str) -> Result<String, SnapshotError> {
    let plain = (1..=64).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if plain { Ok(name.to_string()) } else { Err(SnapshotError::BadName { name: crate::clip::shown(name) }) }
}

/// The bytes of a snapshot file, refusing one larger than `max` bytes before reading it.
pub fn read_snapshot_file(path: &Path, max: u64) -> Result<Vec<u8>, SnapshotError> {
    let file = std::fs::File::open(path).map_err(|e| SnapshotError::io(path, &e))?;
    let size = file.metadata().map_err(|e| SnapshotError::io(path, &e))?.len();
    if size > max {
        return Err(SnapshotError::TooLarge { size, max });
    }
    // The file may grow while it is read: never read past the limit.
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(max.saturating_add(1)).read_to_end(&mut bytes).map_err(|e| SnapshotError::io(path, &e))?;
    if bytes.len() as u64 > max {
        return Err(SnapshotError::TooLarge { size: bytes.len() as u64, max });
    }
    Ok(bytes)
}

impl Engine {
    /// The whole engine as a snapshot file's bytes: the world, its physics, the agents, the
    /// policy state, the tick and `math.random`'s state (module docs: what is and is not in it).
    pub fn snapshot(&self) -> Result<Vec<u8>, SnapshotError> {
        self.shared().snapshot()
    }

    /// Makes this engine (freshly built: no script needs to run) the one `bytes` describes:
    /// world, agents, policy state, tick and RNG are replaced. A snapshot that is not one, is of
    /// another format or engine version, is cut off, corrupt or malformed is refused with the
    /// reason, and the engine is left exactly as it was.
    pub fn restore(&self, bytes: &[u8]) -> Result<(), SnapshotError> {
        self.shared().restore(bytes)
    }

    /// Writes a snapshot to `path` (atomically: `write_atomic`).
    pub fn write_snapshot(&self, path: &Path) -> Result<SnapshotWritten, SnapshotError> {
        self.shared().write_snapshot(path)
    }

    /// Restores the snapshot in the file at `path` (at most `MAX_SNAPSHOT_BYTES`).
    pub fn read_snapshot(&self, path: &Path) -> Result<(), SnapshotError> {
        self.restore(&read_snapshot_file(path, MAX_SNAPSHOT_BYTES)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_plain_words() {
        for bad in ["", "../x", "a/b", "..", ".hidden", "a.b", "a b", "x\0", &"n".repeat(65), "é"] {
            assert!(matches!(check_name(bad), Err(SnapshotError::BadName { .. })), "{bad:?}");
        }
        for good in ["a", "run-2_B", &"n".repeat(64)] {
            assert_eq!(check_name(good).unwrap(), good);
        }
    }
}
