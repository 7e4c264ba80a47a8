//! The command log's records: one JSON object per line, tagged by `r`.
//!
//! Every world mutation passes through the skill registry, so the calls that reached a core
//! handler (and were not themselves file I/O) are a complete account of what changed the world;
//! the agent systems' own state changes (a decision started, a tool call queued) are recorded
//! beside them, and step markers and hash checkpoints delimit the ticks. JSON lines and not a
//! binary format: a command log is an audit artifact that people read and diff, it is written
//! per tick (not per frame), and the inputs are JSON already.
//!
//! Writing borrows (`CallLine`, no copy of the input on the hot path); reading owns (`Record`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Version of the line format; a log of another version is refused by name.
pub const FORMAT: u32 = 1;

pub use crate::skills::{CallOutcome, Phase};

/// The run's identity and the settings replay must reproduce.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Header {
    pub format: u32,
    pub engine: String,
    pub seed: u64,
    pub entity_capacity: usize,
    /// Ticks between hash checkpoints.
    pub checkpoint_every: u64,
    /// The agent scheduler's budgets (the action system's caps shape which queued calls run).
    pub scheduler: Value,
    /// The tick the log starts at (0 unless the run began from a snapshot).
    pub start_tick: u64,
    /// The snapshot a resumed run started from (`limina run SNAPSHOT`, `limina mcp --resume`):
    /// a copy beside the log, named again by the log's first `snapshot` record. Replay and
    /// recovery restore it instead of starting from an empty world.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<BaseSnapshot>,
}

/// The snapshot a log segment starts from: its file beside the log, its tick and world hash.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BaseSnapshot {
    pub file: String,
    pub tick: u64,
    pub hash: String,
}

/// Who made a call: enough to rebuild the `Caller` the handler saw.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CallerRecord {
    pub agent: String,
    pub session: String,
    pub profile: String,
    /// The permissions it held (a profile's, plus `policy.govern` for the operator's script).
    pub permissions: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
}

/// One line of a command log, as read back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "r", rename_all = "camelCase")]
pub enum Record {
    Header(Header),
    /// A call that reached its handler. `outcome` is `ok` or the error code it ended with
    /// (a handler that failed after changing something is replayed too, and must fail again).
    #[serde(rename_all = "camelCase")]
    Call {
        tick: u64,
        phase: Phase,
        caller: CallerRecord,
        skill: String,
        version: String,
        input: Value,
        outcome: CallOutcome,
    },
    /// The perception system made an agent's decision due-and-started at `tick`.
    Decided {
        tick: u64,
        agent: String,
    },
    /// A decision's validated tool call went into an agent's queue (`decision`: the id of the
    /// decision's event, which the queued call carries as its cause).
    Queued {
        tick: u64,
        agent: String,
        tool: String,
        input: Value,
        decision: String,
    },
    /// A step completed: the engine's tick is now `now`.
    Step {
        now: u64,
    },
    /// A step failed after its callbacks began (a script error): what it applied stays, the
    /// tick did not advance.
    Aborted {
        tick: u64,
    },
    /// The world hash at a tick boundary (the engine's tick is `tick`).
    Checkpoint {
        tick: u64,
        hash: String,
    },
    /// A snapshot of the world at this point of the log was written to `file` (beside the log);
    /// `hash` is its world hash, so a file that is not that snapshot is never taken for it.
    Snapshot {
        tick: u64,
        file: String,
        hash: String,
    },
    /// Another process took the world over here (a fleet's failover, `limina mcp --fleet`): it
    /// recovered everything before this line and continues from `tick` as `owner`, holding
    /// the lease of `epoch`. Records of a step the previous owner left unfinished end here.
    Owner {
        tick: u64,
        epoch: u64,
        owner: String,
    },
}

/// `Record::Call` for writing, borrowing everything.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CallLine<'a> {
    pub r: &'static str,
    pub tick: u64,
    pub phase: Phase,
    pub caller: CallerLine<'a>,
    pub skill: &'a str,
    pub version: &'a str,
    pub input: &'a Value,
    pub outcome: CallOutcome,
}

#[derive(Serialize)]
pub(crate) struct CallerLine<'a> {
    pub agent: &'a str,
    pub session: &'a str,
    pub profile: &'a str,
    pub permissions: Vec<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package: Option<&'a str>,
}

/// `Record::Queued` for writing.
#[derive(Serialize)]
pub(crate) struct QueuedLine<'a> {
    pub r: &'static str,
    pub tick: u64,
    pub agent: &'a str,
    pub tool: &'a str,
    pub input: &'a Value,
    pub decision: &'a str,
}

impl Record {
    /// A short description for reports (`the last command before it`).
    pub fn describe(&self) -> String {
        match self {
            Record::Call { tick, phase, caller, skill, outcome, .. } => {
                format!("{skill} by {} at tick {tick} ({phase:?}, {outcome})", caller.agent)
            }
            Record::Decided { tick, agent } => format!("{agent}'s decision at tick {tick}"),
            Record::Queued { tick, agent, tool, .. } => format!("{tool} queued for {agent} at tick {tick}"),
            Record::Step { now } => format!("the step to tick {now}"),
            Record::Aborted { tick } => format!("the aborted step of tick {tick}"),
            Record::Checkpoint { tick, .. } => format!("the checkpoint at tick {tick}"),
            Record::Snapshot { tick, file, .. } => format!("the snapshot {file} at tick {tick}"),
            Record::Owner { tick, epoch, owner } => format!("the take-over by {owner} (lease {epoch}) at tick {tick}"),
            Record::Header(_) => "the header".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_written_call_line_reads_back_as_a_record() {
        let input = json!({"shape": "box", "position": [1.5, 0, -2]});
        let line = CallLine {
            r: "call",
            tick: 7,
            phase: Phase::Callbacks,
            caller: CallerLine {
                agent: "agt_script",
                session: "ses_script",
                profile: "builder.readWrite",
                permissions: vec!["scene.write"],
                package: None,
            },
            skill: "scene.createEntity",
            version: "1.0.0",
            input: &input,
            outcome: CallOutcome::Ok,
        };
        let text = serde_json::to_string(&line).unwrap();
        let record: Record = serde_json::from_str(&text).unwrap();
        let Record::Call { tick, phase, caller, input: read, .. } = record else { panic!("{text}") };
        assert_eq!((tick, phase, caller.agent.as_str(), read), (7, Phase::Callbacks, "agt_script", input));
    }

    #[test]
    fn unknown_record_kinds_are_refused() {
        assert!(serde_json::from_str::<Record>(r#"{"r":"teleport","tick":1}"#).is_err());
        assert!(serde_json::from_str::<Record>(r#"{"r":"step"}"#).is_err(), "a step without its tick");
    }
}
