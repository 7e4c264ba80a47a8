//! What a replay feeds the step: the records of the step being replayed, where the replay
//! stopped matching its log, and how a record's caller and phase are read. The engine side of
//! replay (building the engine, driving its steps) is `host::replay`.

use std::collections::VecDeque;
use std::rc::Rc;

use super::record::{CallerRecord, Phase, Record};
use crate::policy::{Permission, PermissionSet};
use crate::skills::Caller;

/// Where a replay stopped matching its log.
#[derive(Debug, Clone, PartialEq)]
pub struct Divergence {
    /// The tick the mismatch showed at (a checkpoint's, or the call's).
    pub tick: u64,
    /// The log line of the record that showed it.
    pub line: u64,
    pub reason: String,
    /// The last command applied before it (line and description).
    pub last_command: Option<(u64, String)>,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "diverged at tick {} (log line {}): {}", self.tick, self.line, self.reason)?;
        match &self.last_command {
            Some((line, what)) => write!(f, "; the last command before it: line {line}, {what}"),
            None => write!(f, "; no command was applied before it"),
        }
    }
}

/// The records of the step being replayed, and what applying them found.
#[derive(Debug, Default)]
pub(crate) struct ReplayFeed {
    pub(crate) pending: VecDeque<(u64, Record)>,
    /// The step aborted live after its callbacks: stop there, tick unchanged.
    pub(crate) abort_after_callbacks: bool,
    pub(crate) divergence: Option<Divergence>,
    pub(crate) last_command: Option<(u64, String)>,
    pub(crate) commands: u64,
}

/// A record's caller holds a permission this engine does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown permission '{0}'")]
pub struct UnknownPermission(pub String);

/// The caller a record names, with the permissions it had.
pub(crate) fn caller_of(record: &CallerRecord) -> Result<Caller, UnknownPermission> {
    let mut caller = Caller::new(&record.agent, &record.session, &record.profile);
    let mut permissions = PermissionSet::default();
    for name in &record.permissions {
        permissions.insert(Permission::parse(name).ok_or_else(|| UnknownPermission(crate::clip::shown(name)))?);
    }
    caller.permissions = permissions;
    caller.package = record.package.as_deref().map(Rc::from);
    Ok(caller)
}

/// The phase of the step a record belongs to (None: not a step's record).
pub(crate) fn record_phase(record: &Record) -> Option<Phase> {
    match record {
        Record::Call { phase, .. } => Some(*phase),
        Record::Queued { .. } | Record::Decided { .. } => Some(Phase::Think),
        _ => None,
    }
}
