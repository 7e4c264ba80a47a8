//! Snapshots of an engine: captured from its parts, restored into them (the file format and its
//! checks are `snapshot`'s). Taken between steps only: halfway through a step the world holds
//! some of the step's effects and not others, and a restored engine would run the whole step
//! again.

use std::path::Path;

use super::Engine;
use super::parts::Parts;
use crate::script::random::LuauRandom;
use crate::snapshot::{EngineSection, MAX_SNAPSHOT_BYTES, Saved, SnapshotError, SnapshotWritten, read_snapshot_file};

/// Reads a RefCell that a caller may be holding (a snapshot can be asked for from a skill).
fn read<'a, T>(cell: &'a std::cell::RefCell<T>, part: &'static str) -> Result<std::cell::Ref<'a, T>, SnapshotError> {
    cell.try_borrow().map_err(|_| SnapshotError::Busy { part })
}

/// The engine's parts as a snapshot file's bytes (`snapshot`'s module docs: what is in it).
pub(crate) fn capture(p: &Parts) -> Result<Vec<u8>, SnapshotError> {
    if p.sim.stepping.get() {
        return Err(SnapshotError::InsideStep { tick: p.sim.tick.get() });
    }
    let trace = read(&p.journal.trace, "trace")?;
    let agents = read(&p.sim.agents, "agents")?;
    let memory = p.agents.agent_memory(&agents, &trace);
    let engine = EngineSection { tick: p.sim.tick.get(), rng: p.sim.rng.get().state(), trace_seq: trace.last_seq() };
    crate::snapshot::encode(&Saved {
        engine,
        world: &*read(&p.sim.world, "world")?,
        agents: &agents,
        policy: &*read(&p.rules.policy, "policy")?,
        memory: &memory,
    })
}

/// Makes the parts the ones `bytes` describes, or changes nothing and says why not.
pub(crate) fn restore(p: &Parts, bytes: &[u8]) -> Result<(), SnapshotError> {
    if p.sim.stepping.get() {
        return Err(SnapshotError::Stepping { tick: p.sim.tick.get() });
    }
    let capacity = read(&p.sim.world, "world")?.capacity();
    let limits = read(&p.sim.agents, "agents")?.scheduler;
    // Everything is decoded and checked into new objects first.
    let decoded = crate::snapshot::decode(bytes, capacity, &limits)?;
    // Then swapped in. Only the agents can still refuse (a connected client holds one of their
    // ids), and they go first, so a refusal changes nothing.
    let busy = |part| move |_| SnapshotError::Busy { part };
    let mut live_agents = p.sim.agents.try_borrow_mut().map_err(busy("agents"))?;
    let mut live_world = p.sim.world.try_borrow_mut().map_err(busy("world"))?;
    let mut live_policy = p.rules.policy.try_borrow_mut().map_err(busy("policy"))?;
    let mut audio = p.outputs.audio_sounds.try_borrow_mut().map_err(busy("audio"))?;
    let mut trace = p.journal.trace.try_borrow_mut().map_err(busy("trace"))?;
    let crate::snapshot::Decoded { engine, world, records, next_agent, scheduler, policy, memory } = decoded;
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
    p.agents.restore_agent_memory(memory, &trace);
    drop((live_agents, live_world, live_policy, audio, trace));
    p.sim.tick.set(engine.tick);
    p.sim.rng.set(LuauRandom::from_state(engine.rng));
    Ok(())
}

/// Writes a snapshot to `path` atomically. With a command log, the log names the snapshot once
/// it is on disk: a replay or recovery can start from it (`capture` refuses mid-step, so it is
/// always at a point the log's records can continue from).
pub(crate) fn write_snapshot(p: &Parts, path: &Path) -> Result<SnapshotWritten, SnapshotError> {
    let bytes = capture(p)?;
    crate::snapshot::write_atomic(path, &bytes).map_err(|e| SnapshotError::io(path, &e))?;
    Ok(written(p, path, bytes.len()))
}

/// `world.snapshot`: writes `<snapshots dir>/<name>.snap` (see `snapshot::named_path`).
pub(crate) fn write_named_snapshot(p: &Parts, name: Option<&str>) -> Result<SnapshotWritten, SnapshotError> {
    let path = crate::snapshot::named_path(&p.journal.snapshots_dir, name, p.sim.tick.get())?;
    let bytes = capture(p)?;
    crate::snapshot::write_named(&path, &bytes)?;
    Ok(written(p, &path, bytes.len()))
}

/// A snapshot of `bytes` bytes is on disk at `path`: the log names it.
fn written(p: &Parts, path: &Path, bytes: usize) -> SnapshotWritten {
    let world_hash = p.sim.world_hash();
    let tick = p.sim.tick.get();
    if let Some(log) = p.journal.log.borrow_mut().as_mut() {
        log.snapshot_written(tick, path, &world_hash);
    }
    SnapshotWritten { path: path.to_path_buf(), tick, bytes: bytes as u64, world_hash }
}

impl Engine {
    /// The whole engine as a snapshot file's bytes: the world, its physics, the agents, the
    /// policy state, the tick and `math.random`'s state (`snapshot`'s module docs: what is and is
    /// not in it).
    pub fn snapshot(&self) -> Result<Vec<u8>, SnapshotError> {
        capture(self.parts())
    }

    /// Makes this engine (freshly built: no script needs to run) the one `bytes` describes:
    /// world, agents, policy state, tick and RNG are replaced. A snapshot that is not one, is of
    /// another format or engine version, is cut off, corrupt or malformed is refused with the
    /// reason, and the engine is left exactly as it was.
    pub fn restore(&self, bytes: &[u8]) -> Result<(), SnapshotError> {
        restore(self.parts(), bytes)
    }

    /// Writes a snapshot to `path` (atomically: `write_atomic`).
    pub fn write_snapshot(&self, path: &Path) -> Result<SnapshotWritten, SnapshotError> {
        write_snapshot(self.parts(), path)
    }

    /// Restores the snapshot in the file at `path` (at most `MAX_SNAPSHOT_BYTES`).
    pub fn read_snapshot(&self, path: &Path) -> Result<(), SnapshotError> {
        self.restore(&read_snapshot_file(path, MAX_SNAPSHOT_BYTES)?)
    }
}
