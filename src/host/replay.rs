//! Replay: a fresh engine (no scripts, no mods, no providers) re-applies a command log.
//!
//! Between-step calls are applied as they are read; the records of a step (agents' actions,
//! callbacks' calls, the agent systems' decisions and queued calls) are gathered until the
//! step's marker and handed to the step, which applies each at the point of the tick it was
//! recorded in (`apply_replayed`), where live it would have run scripts and providers.
//! Calls run with the permissions recorded for them, policy decisions are not re-taken (the
//! live run took them; a denied call never reached the log), and each must end as it did live.
//! With `verify`, every checkpoint's hash is compared; the first that differs stops the replay
//! and is reported with the last command before it.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mlua::Lua;

use super::parts::{Journal, Parts};
use super::{Engine, EngineConfig, EngineError, Output};
use crate::durable::feed::{Divergence, ReplayFeed, caller_of, record_phase};
use crate::durable::{CallOutcome, CallerRecord, CommandLog, Header, LogError, LogReader, Phase, Record};

/// Records one replayed step may hold (a live step's calls are bounded by the call budgets; a
/// crafted log is not).
const MAX_STEP_RECORDS: usize = 262_144;
/// Bytes of log text one replayed step may hold: a step's records are kept parsed until the
/// step runs, at many times their text (about 17×), so this bounds a crafted log's step to
/// about a gigabyte; a live step's calls arrive through transports that cap each at 4 MiB.
const MAX_STEP_BYTES: usize = 64 << 20;

/// The highest tick a log may start at (far beyond any run; keeps `tick + 1` exact).
const MAX_START_TICK: u64 = 1 << 53;

/// How to replay.
#[derive(Debug, Clone)]
pub struct ReplayOptions {
    /// Compare every checkpoint's hash (off: checkpoints are skipped, replay is faster).
    pub verify: bool,
    /// Stop once the engine's tick reaches this (before that tick's between-step calls).
    pub until: Option<u64>,
    /// Folder models (`three.loadGLTF`) are read from, as in the live run.
    pub project: PathBuf,
}

#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error(transparent)]
    Log(#[from] LogError),
    #[error("cannot build the replay engine: {0}")]
    Engine(#[from] EngineError),
    #[error("{path}:{line}: {message}")]
    Order { path: String, line: u64, message: String },
    #[error("{path}: {message}")]
    Snapshot { path: String, message: String },
}

/// What a replay did.
#[derive(Debug, Clone)]
pub struct ReplayReport {
    /// The engine's tick at the end.
    pub tick: u64,
    pub steps: u64,
    pub commands: u64,
    /// Checkpoints compared (all matched unless `divergence`).
    pub checkpoints: u64,
    pub divergence: Option<Divergence>,
    /// The log ended in a line cut short (a killed run); it was left out.
    pub torn_tail: bool,
    pub elapsed: Duration,
}

/// A log header that asks for an engine this one will not build.
#[derive(Debug, thiserror::Error)]
pub enum HeaderError {
    #[error("the log starts at tick {tick}, beyond the limit {limit}")]
    StartTick { tick: u64, limit: u64 },
    #[error("the log's scheduler budgets: {0}")]
    Scheduler(#[source] serde_json::Error),
    #[error("the log's scheduler budgets: the default agent budget's {0}")]
    AgentBudget(#[source] crate::agents::budget::BudgetError),
}

/// An engine configured as the log's run was, with nothing loaded.
pub(crate) fn replay_engine(header: &Header, project: &Path) -> Result<Engine, EngineError> {
    if header.start_tick > MAX_START_TICK {
        return Err(HeaderError::StartTick { tick: header.start_tick, limit: MAX_START_TICK }.into());
    }
    let mut scheduler = crate::agents::budget::SchedulerBudget::default();
    if !header.scheduler.is_null() {
        scheduler =
            serde_json::from_value::<crate::agents::budget::SchedulerBudget>(header.scheduler.clone()).map_err(HeaderError::Scheduler)?;
        // The agents a replay spawns get this budget: one a spawn call could have set.
        crate::agents::budget::BudgetBounds::check(&scheduler.default_agent_budget).map_err(HeaderError::AgentBudget)?;
    }
    let config = EngineConfig {
        seed: header.seed,
        output: Output::Silent,
        // Policy decisions were taken live; replayed calls carry the permissions they had.
        policy: false,
        entity_capacity: header.entity_capacity,
        scheduler,
        ..EngineConfig::new(project)
    };
    let engine = Engine::new(config)?;
    engine.parts().sim.tick.set(header.start_tick);
    engine.parts().sim.agents.borrow_mut().replaying = true;
    Ok(engine)
}

/// Replays the log at `path` into a fresh engine (a resumed run's segment: into its base
/// snapshot, beside the log).
pub fn replay(path: &Path, options: &ReplayOptions) -> Result<(Engine, ReplayReport), ReplayError> {
    let mut reader = LogReader::open(path)?;
    if let Some(base) = reader.header.base.clone() {
        drop(reader);
        return super::recover::replay_from_base(path, &base, options);
    }
    let engine = replay_engine(&reader.header, &options.project)?;
    let report = drive(&engine, &mut reader, options, None)?;
    Ok((engine, report))
}

/// Applies the records of `reader` to `engine` from where it is. With `after_snapshot` (a file
/// and the line of its marker), records are skipped up to and including that marker (the engine
/// was restored from it; a name written twice has two markers, and only this one is its
/// file's). Records of a step that never completed (after the last step marker, or before a
/// take-over's `owner` record) are left out; between-step calls after it are applied (a client
/// was told they succeeded).
pub(crate) fn drive(
    engine: &Engine,
    reader: &mut LogReader,
    options: &ReplayOptions,
    after_snapshot: Option<(&str, u64)>,
) -> Result<ReplayReport, ReplayError> {
    let started = Instant::now();
    let shared = engine.parts();
    let lua = engine.lua();
    shared.journal.replay.replace(Some(ReplayFeed::default()));
    let mut report =
        ReplayReport { tick: 0, steps: 0, commands: 0, checkpoints: 0, divergence: None, torn_tail: false, elapsed: Duration::ZERO };
    let mut skipping = after_snapshot;
    let mut step: Vec<(u64, Record)> = Vec::new();
    let mut step_bytes = 0usize;
    let shown = reader.path().display().to_string();
    let order = |line: u64, message: String| ReplayError::Order { path: shown.clone(), line, message };
    while let Some(record) = reader.next_record()? {
        let line = reader.line();
        if let Some((file, at)) = skipping {
            if line >= at {
                if !matches!(&record, Record::Snapshot { file: f, .. } if f == file) {
                    return Err(order(line, format!("the log's line {at} is not the marker of snapshot {file}")));
                }
                skipping = None;
            }
            continue;
        }
        if options.until.is_some_and(|until| shared.sim.tick.get() >= until) {
            break;
        }
        let tick = shared.sim.tick.get();
        match record {
            Record::Call { tick: t, phase: Phase::Between, .. } => {
                if t != tick {
                    return Err(order(line, format!("a between-step call of tick {t} while the replay is at tick {tick}")));
                }
                apply_one(lua, shared, line, record);
            }
            Record::Call { tick: t, .. } | Record::Decided { tick: t, .. } | Record::Queued { tick: t, .. } => {
                if t != tick {
                    return Err(order(line, format!("a record of the step of tick {t} while the replay is at tick {tick}")));
                }
                if step.len() == MAX_STEP_RECORDS {
                    return Err(order(line, format!("more than {MAX_STEP_RECORDS} records in the step of tick {tick}")));
                }
                step_bytes += reader.line_bytes();
                if step_bytes > MAX_STEP_BYTES {
                    return Err(order(line, format!("more than {MAX_STEP_BYTES} bytes of records in the step of tick {tick}")));
                }
                step.push((line, record));
            }
            Record::Step { now } => {
                if tick.checked_add(1) != Some(now) {
                    return Err(order(line, format!("a step to tick {now} from tick {tick}")));
                }
                run_step(engine, line, std::mem::take(&mut step), false)?;
                step_bytes = 0;
                report.steps += 1;
            }
            Record::Aborted { tick: t } => {
                if t != tick {
                    return Err(order(line, format!("an aborted step of tick {t} while the replay is at tick {tick}")));
                }
                run_step(engine, line, std::mem::take(&mut step), true)?;
                step_bytes = 0;
            }
            Record::Checkpoint { tick: t, hash } => {
                if t != tick {
                    return Err(order(line, format!("a checkpoint of tick {t} while the replay is at tick {tick}")));
                }
                if options.verify {
                    report.checkpoints += 1;
                    let found = engine.world_hash();
                    if found != hash {
                        diverge(&shared.journal, t, line, format!("the world hash is {found}, the log's checkpoint says {hash}"));
                    }
                }
            }
            Record::Snapshot { .. } => {}
            Record::Owner { tick: t, .. } => {
                if t != tick {
                    return Err(order(line, format!("a take-over at tick {t} while the replay is at tick {tick}")));
                }
                // The previous owner stopped mid-step: that step never happened (the new owner
                // recovered without it), so its records go, as a torn tail's would.
                step.clear();
                step_bytes = 0;
            }
            Record::Header(_) => unreachable!("the reader refuses a second header"),
        }
        if shared.journal.replay.borrow().as_ref().is_some_and(|f| f.divergence.is_some()) {
            break;
        }
    }
    if let Some((file, _)) = skipping {
        return Err(order(reader.line(), format!("the log names no snapshot {file}: the replay cannot start from it")));
    }
    let feed = shared.journal.replay.take().unwrap_or_default();
    report.tick = shared.sim.tick.get();
    report.commands = feed.commands;
    report.divergence = feed.divergence;
    report.torn_tail = reader.torn_tail;
    report.elapsed = started.elapsed();
    Ok(report)
}

/// Runs one replayed step with its records; records the step did not take are a divergence.
fn run_step(engine: &Engine, line: u64, records: Vec<(u64, Record)>, aborted: bool) -> Result<(), ReplayError> {
    let shared = engine.parts();
    let tick = shared.sim.tick.get();
    if let Some(feed) = shared.journal.replay.borrow_mut().as_mut() {
        feed.pending = records.into();
        feed.abort_after_callbacks = aborted;
    }
    if let Err(e) = engine.step(1) {
        diverge(&shared.journal, tick, line, format!("the step failed: {}", e.message));
        return Ok(());
    }
    let left = shared.journal.replay.borrow_mut().as_mut().and_then(|f| {
        f.abort_after_callbacks = false;
        let left = f.pending.front().map(|(l, r)| (*l, r.describe()));
        f.pending.clear();
        left
    });
    if let Some((at, what)) = left {
        diverge(&shared.journal, tick, at, format!("{what} was recorded in a phase this step never reached"));
    }
    Ok(())
}

fn diverge(journal: &Journal, tick: u64, line: u64, reason: String) {
    if let Some(feed) = journal.replay.borrow_mut().as_mut()
        && feed.divergence.is_none()
    {
        feed.divergence = Some(Divergence { tick, line, reason, last_command: feed.last_command.clone() });
    }
}

/// Applies the pending records of `phase` (the step calls this where, live, that phase's
/// scripts and systems run).
pub(crate) fn apply_replayed(lua: &Lua, p: &Parts, phase: Phase) {
    loop {
        let next = {
            let mut feed = p.journal.replay.borrow_mut();
            let Some(feed) = feed.as_mut() else { return };
            if feed.divergence.is_some() {
                return;
            }
            match feed.pending.front() {
                Some((_, record)) if record_phase(record) == Some(phase) => feed.pending.pop_front(),
                _ => None,
            }
        };
        let Some((line, record)) = next else { return };
        apply_one(lua, p, line, record);
    }
}

/// The replayed step aborted live after its callbacks (a script error): it stops there.
pub(crate) fn abort_replayed_step(journal: &Journal) -> bool {
    journal.replay.borrow().as_ref().is_some_and(|f| f.abort_after_callbacks)
}

fn apply_one(lua: &Lua, p: &Parts, line: u64, record: Record) {
    let tick = p.sim.tick.get();
    let description = record.describe();
    let problem = match record {
        Record::Call { caller, skill, version, input, outcome, .. } => apply_call(lua, p, &caller, &skill, &version, input, outcome),
        Record::Decided { agent, .. } => match p.sim.agents.borrow_mut().get_mut(&agent) {
            Some(r) => {
                r.last_decision_tick = Some(tick);
                None
            }
            None => Some(format!("no agent {agent} to decide")),
        },
        Record::Queued { agent, tool, input, decision, .. } => match p.sim.agents.borrow_mut().get_mut(&agent) {
            Some(r) => {
                r.queue.push_back(crate::agents::record::QueuedAction { tool, input, decision_event: std::rc::Rc::from(decision) });
                None
            }
            None => Some(format!("no agent {agent} to queue {tool} for")),
        },
        _ => None,
    };
    match problem {
        Some(reason) => diverge(&p.journal, tick, line, format!("{description}: {reason}")),
        None => {
            if let Some(feed) = p.journal.replay.borrow_mut().as_mut() {
                feed.commands += 1;
                feed.last_command = Some((line, description));
            }
        }
    }
}

fn apply_call(
    lua: &Lua,
    p: &Parts,
    caller: &CallerRecord,
    skill: &str,
    version: &str,
    input: serde_json::Value,
    outcome: CallOutcome,
) -> Option<String> {
    let mut caller = match caller_of(caller) {
        Ok(c) => c,
        Err(e) => return Some(e.to_string()),
    };
    // An in-world agent's call acts for its spawners, as it did live (`step`'s door): a lease
    // its spawner holds lets it write, and a replay must let it again.
    let acting_for = p.sim.agents.borrow().acting_for(&caller.agent_id);
    caller.acting_for = (!acting_for.is_empty()).then_some(acting_for);
    match p.rules.registry.borrow().get(skill) {
        // A log only holds calls of skills it records: anything else (a file writer, a code
        // loader) in a log was put there by hand, and is not run.
        Some(s) if !CommandLog::records(&s) => {
            return Some(format!("{skill} is not a skill a command log records; it is not run"));
        }
        Some(s) if s.version != version => {
            return Some(format!("the log has version {version}, this engine has {}", s.version));
        }
        Some(_) => {}
        None => return Some(format!("this engine has no skill {skill}")),
    }
    let response = p.invoke(lua, &caller, skill, input);
    let got = response.error.as_ref().map_or(CallOutcome::Ok, |e| CallOutcome::Failed(e.code));
    (got != outcome).then(|| {
        let detail = response.error.map(|e| format!(": {}", e.message)).unwrap_or_default();
        format!("it ended {got}{detail}, the log says {outcome}")
    })
}
