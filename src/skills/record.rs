//! The seam between the skill pipeline and whatever keeps an account of applied calls (the
//! command log, `durable`). The pipeline names only this trait, so it depends on nothing above
//! it; `durable` implements it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Caller, ErrorCode, Skill};

/// Where in a tick a call happened (SPEC §3 order). Calls outside a step (a script's top-level
/// code, MCP clients' calls, frame callbacks) are `Between`: they come before the step of the
/// tick they name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Phase {
    Between,
    /// The action system draining agents' queues.
    Act,
    /// Script fixed-step callbacks.
    Callbacks,
    /// Perception and decisions, after physics.
    Think,
}

/// How a recorded call ended: `ok`, or the error code it failed with (a handler that failed
/// after changing something is replayed too, and must fail again). Written as that word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallOutcome {
    Ok,
    Failed(ErrorCode),
}

impl CallOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            CallOutcome::Ok => "ok",
            CallOutcome::Failed(code) => code.as_str(),
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        if text == "ok" { Some(CallOutcome::Ok) } else { ErrorCode::parse(text).map(CallOutcome::Failed) }
    }
}

impl std::fmt::Display for CallOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for CallOutcome {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for CallOutcome {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(deserializer)?;
        CallOutcome::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown call outcome '{}' (ok or an error code)", crate::clip::shown(&text))))
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
    pub outcome: CallOutcome,
}

/// Keeps an account of the calls that reached a handler. Calls nest (a handler may call other
/// skills); only the outermost is recorded, since replaying it makes the inner ones again.
pub(crate) trait CallRecorder {
    /// Whether a call of `skill` goes into the account.
    fn records(&self, skill: &Skill) -> bool;
    /// A recorded call reached its handler; `end` or `abandon` follows.
    fn begin(&self);
    /// The handler returned: the outermost call is written.
    fn end(&self, call: &EndedCall<'_>);
    /// The handler unwound (a panic, an engine bug): its nesting level is given back and the
    /// call is left out.
    fn abandon(&self);
}
