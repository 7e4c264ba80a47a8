//! Snapshots: the whole state of an engine in one versioned, checksummed file. This module
//! encodes the parts it is given and decodes a file into new parts; the engine captures from
//! and restores into its own parts (`host::snapshots`).
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

use crate::agents::systems::AgentMemory;
use crate::agents::table::Agents;
use crate::policy::PolicyEngine;
use crate::world::World;

/// The engine's own counters.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct EngineSection {
    pub tick: u64,
    pub rng: u64,
    /// The seq of the last event traced: a restored engine numbers its events after it, so their
    /// ids (which queued agent actions carry, and the world hash with them) are the ones the
    /// saved engine would have given.
    pub trace_seq: u64,
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

/// What a snapshot holds, borrowed from the engine's parts.
pub(crate) struct Saved<'a> {
    pub engine: EngineSection,
    pub world: &'a World,
    pub agents: &'a Agents,
    pub policy: &'a PolicyEngine,
    pub memory: &'a AgentMemory,
}

/// The parts as a snapshot file's bytes (see the module docs for what it holds).
pub(crate) fn encode(saved: &Saved<'_>) -> Result<Vec<u8>, SnapshotError> {
    let body = put(&saved.engine, Vec::new(), "engine counters")?;
    let body = saved.world.save(body)?;
    let agents = agents::AgentsState::capture(saved.agents)?;
    let body = put(&agents, body, "agents")?;
    let body = put(saved.policy, body, "policy")?;
    let body = put(saved.memory, body, "agent memory")?;
    Ok(format::seal(&body))
}

/// Decodes and checks a snapshot file into new parts, touching nothing live. `capacity` is the
/// restoring world's entity capacity and `scheduler` its scheduler budget, which the snapshot's
/// may not exceed. The checksum vouches for the bytes, not for who wrote them: a crafted body
/// that makes a decoder panic is refused like any other malformed body.
pub(crate) fn decode(bytes: &[u8], capacity: usize, scheduler: &crate::agents::budget::SchedulerBudget) -> Result<Decoded, SnapshotError> {
    let body = format::open(bytes)?;
    crate::isolate::catch(|| Decoded::from_body(body, capacity, scheduler))
        .map_err(|panic| SnapshotError::Invalid(format!("decoding it panicked: {panic}")))?
}

/// A snapshot's body, decoded and checked, not yet anyone's.
pub(crate) struct Decoded {
    pub engine: EngineSection,
    pub world: World,
    pub records: Vec<crate::agents::record::AgentRecord>,
    pub next_agent: u64,
    pub scheduler: crate::agents::budget::SchedulerBudget,
    pub policy: PolicyEngine,
    pub memory: AgentMemory,
}

impl Decoded {
    /// The sections in the order `encode` writes them; nothing may follow the last.
    /// `scheduler` is the restoring engine's own, which the snapshot's may not exceed.
    fn from_body(body: &[u8], capacity: usize, scheduler: &crate::agents::budget::SchedulerBudget) -> Result<Decoded, SnapshotError> {
        let (engine, rest): (EngineSection, _) = take(body, "engine counters")?;
        let (world, rest) = World::load(rest, capacity)?;
        // A lease must lapse after the snapshot's tick and within what `scene.lease` grants.
        world.leases().check_expiries(engine.tick).map_err(crate::world::WorldStateError::from)?;
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

/// Where `world.snapshot` writes `name` (defaulting to the tick: `tick-0000000120`) in `dir`.
/// The name is a plain word, the folder may not be a symbolic link, and new names stop at
/// `MAX_NAMED_SNAPSHOTS` (clients may write here: no caller fills the disk).
pub(crate) fn named_path(dir: &Path, name: Option<&str>, tick: u64) -> Result<PathBuf, SnapshotError> {
    let name = match name {
        Some(name) => check_name(name)?,
        None => format!("tick-{tick:010}"),
    };
    crate::atomic_file::real_folder(dir).map_err(|e| refusal(dir, &e))?;
    let path = dir.join(format!("{name}.snap"));
    if std::fs::symlink_metadata(&path).is_err()
        && crate::paths::count_files_with_extension(dir, "snap", MAX_NAMED_SNAPSHOTS) >= MAX_NAMED_SNAPSHOTS
    {
        return Err(SnapshotError::TooMany { dir: dir.to_path_buf(), limit: MAX_NAMED_SNAPSHOTS });
    }
    Ok(path)
}

/// Writes `bytes` to a path from `named_path`: the file may not be a symbolic link, and the file
/// it replaces, if any, must be a snapshot (it starts with the snapshot magic), so a snapshot
/// never lands over another kind of file.
pub(crate) fn write_named(path: &Path, bytes: &[u8]) -> Result<(), SnapshotError> {
    let replace = crate::atomic_file::Replace::Checked(&is_snapshot_file);
    crate::atomic_file::write_with(path, replace, |file| std::io::Write::write_all(file, bytes)).map_err(|e| refusal(path, &e))
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
