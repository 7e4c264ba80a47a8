//! Time control: the shared clock answers to an agent that holds `world.time` (SPEC §9, outside
//! brains). `world.pause` stops the real-time front ends from stepping, `world.resume` lets them
//! step again, and `world.step` runs ticks while paused: a number of them, or until a condition
//! holds, never more than `MAX_STEP_TICKS` per call.
//!
//! Nothing here is world state: the world hash, snapshots and the command log never see a pause.
//! The log keeps what time control causes (the steps' markers, and calls recorded at the tick
//! they applied at), so a replay of a paused and stepped run reaches the live run's hash without
//! replaying a single time call (`CommandLog::records` leaves them out).
//!
//! A step call never steps inside its skill handler: the handler leaves a `StepRequest`, and the
//! front end's entry (`Engine::call`) runs it once the handler has returned, then completes the
//! call's result. Only such an entry may ask: a script's, a mod's or an agent's call is refused
//! with a reason (a script steps with `limina.step`), as is any call made during a step.

use std::cell::{Cell, RefCell};
use std::rc::Weak;

use serde_json::{Value, json};

use super::parts::Parts;
use crate::skills::core::{TimeCaller, TimeDoor};
use crate::skills::{ErrorCode, HandlerFailure, SkillResponse};
use crate::trace::{EventDraft, EventKind};

/// Most ticks one `world.step` call runs (one minute of world time). The engine thread runs them
/// back to back, so this also bounds how long one call holds other clients' calls.
pub const MAX_STEP_TICKS: u64 = 3600;

/// The clock's state between ticks: whether it runs, and the step a call asked for.
#[derive(Debug, Default)]
pub(crate) struct TimeControl {
    paused: Cell<bool>,
    /// Set while a front end's own call runs (`Engine::call`): only such a call may control
    /// time.
    front_end_call: Cell<bool>,
    request: RefCell<Option<StepRequest>>,
}

impl TimeControl {
    pub fn paused(&self) -> bool {
        self.paused.get()
    }

    /// Marks the start of a front end's call; false when one is already running (a nested
    /// entry, which must not finish the outer call's request).
    pub fn enter_front_end_call(&self) -> bool {
        !self.front_end_call.replace(true)
    }

    pub fn leave_front_end_call(&self) {
        self.front_end_call.set(false);
    }

    pub fn take_request(&self) -> Option<StepRequest> {
        self.request.borrow_mut().take()
    }
}

/// When a `world.step` stops early.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Until {
    /// Run all `max_ticks`.
    Ticks,
    /// The world's tick reached this number.
    Tick(u64),
    /// An event of this type was traced during the step.
    Event(String),
    /// Every dynamic body sleeps.
    AllAsleep,
}

impl Until {
    fn describe(&self) -> Value {
        match self {
            Until::Ticks => Value::Null,
            Until::Tick(t) => json!({"tick": t}),
            Until::Event(e) => json!({"event": e}),
            Until::AllAsleep => json!({"allAsleep": true}),
        }
    }
}

/// A step a call asked for, run by the front end once the call has returned.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct StepRequest {
    pub by: TimeCaller,
    pub max_ticks: u64,
    pub until: Until,
}

/// Why a step request stopped.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Stopped {
    /// Its condition held (before any tick, or after the tick it names).
    Condition,
    /// It ran `max_ticks` (for a plain step, what it asked for).
    MaxTicks,
    /// A step failed (a script callback's error); the tick did not advance.
    StepFailed(String),
}

impl Stopped {
    fn as_str(&self) -> &'static str {
        match self {
            Stopped::Condition => "condition",
            Stopped::MaxTicks => "maxTicks",
            Stopped::StepFailed(_) => "stepFailed",
        }
    }
}

/// Parses `world.step`'s validated input. The schema bounds each field; this checks what it
/// cannot say: at most one condition.
fn parse_request(by: &TimeCaller, input: &Value) -> Result<StepRequest, HandlerFailure> {
    let invalid = |message: String| HandlerFailure::new(ErrorCode::InvalidInput, message);
    let max_ticks = input.get("ticks").and_then(Value::as_u64).unwrap_or(1);
    if !(1..=MAX_STEP_TICKS).contains(&max_ticks) {
        return Err(invalid(format!("ticks {max_ticks} is outside 1..={MAX_STEP_TICKS}")));
    }
    let until = match input.get("until") {
        None | Some(Value::Null) => Until::Ticks,
        Some(Value::Object(u)) => {
            let mut conditions = Vec::new();
            if let Some(t) = u.get("tick") {
                conditions.push(Until::Tick(t.as_u64().ok_or_else(|| invalid(format!("until.tick {t} is not a tick number")))?));
            }
            if let Some(e) = u.get("event") {
                conditions.push(Until::Event(e.as_str().unwrap_or_default().to_string()));
            }
            match u.get("allAsleep") {
                Some(Value::Bool(true)) => conditions.push(Until::AllAsleep),
                Some(Value::Bool(false)) | None => {}
                Some(other) => return Err(invalid(format!("until.allAsleep must be true, got {other}"))),
            }
            match conditions.len() {
                1 => conditions.remove(0),
                0 => return Err(invalid("until names no condition: give one of tick, event, allAsleep".into())),
                n => return Err(invalid(format!("until names {n} conditions; give exactly one of tick, event, allAsleep"))),
            }
        }
        Some(other) => return Err(invalid(format!("until must be an object, got {other}"))),
    };
    Ok(StepRequest { by: by.clone(), max_ticks, until })
}

/// The time skills' door into the engine.
pub(crate) struct TimeHost {
    pub shared: Weak<Parts>,
}

impl TimeHost {
    /// The engine, when a call may control time now: from a front end's own call, between
    /// steps.
    fn parts(&self, skill: &str) -> Result<std::rc::Rc<Parts>, HandlerFailure> {
        let Some(parts) = self.shared.upgrade() else {
            return Err(HandlerFailure::new(ErrorCode::HandlerError, "the engine has shut down"));
        };
        if parts.sim.stepping.get() {
            return Err(HandlerFailure::new(
                ErrorCode::Forbidden,
                format!(
                    "{skill} cannot be called during a step (from a step callback or an agent's action): time is controlled between ticks, by an MCP client"
                ),
            ));
        }
        if !parts.time.front_end_call.get() {
            return Err(HandlerFailure::new(
                ErrorCode::Forbidden,
                format!(
                    "{skill} is answered by the front end to an MCP client (limina mcp); a script advances its own world with limina.step(n)"
                ),
            ));
        }
        Ok(parts)
    }
}

fn emit(parts: &Parts, kind: EventKind, by: &TimeCaller, payload: &Value) {
    let tick = parts.sim.tick.get();
    let draft = EventDraft::new(kind.as_str(), &by.agent_id).thread(&by.session_id);
    parts.journal.trace.borrow_mut().emit(draft, tick, payload);
}

impl TimeDoor for TimeHost {
    fn pause(&self, by: &TimeCaller) -> Result<Value, HandlerFailure> {
        let parts = self.parts("world.pause")?;
        let was = parts.time.paused.replace(true);
        let tick = parts.sim.tick.get();
        emit(&parts, EventKind::WorldPaused, by, &json!({"tick": tick, "wasPaused": was, "session": by.session_id}));
        Ok(json!({"paused": true, "wasPaused": was, "tick": tick}))
    }

    fn resume(&self, by: &TimeCaller) -> Result<Value, HandlerFailure> {
        let parts = self.parts("world.resume")?;
        let was = parts.time.paused.replace(false);
        let tick = parts.sim.tick.get();
        emit(&parts, EventKind::WorldResumed, by, &json!({"tick": tick, "wasPaused": was, "session": by.session_id}));
        Ok(json!({"paused": false, "wasPaused": was, "tick": tick}))
    }

    fn step(&self, by: &TimeCaller, input: Value) -> Result<Value, HandlerFailure> {
        let parts = self.parts("world.step")?;
        if !parts.time.paused.get() {
            return Err(HandlerFailure::new(
                ErrorCode::Forbidden,
                format!("the world is running (tick {}): pause it with world.pause before stepping it", parts.sim.tick.get()),
            ));
        }
        let request = parse_request(by, &input)?;
        let tick = parts.sim.tick.get();
        let provisional = json!({"startTick": tick, "tick": tick, "ticks": 0, "maxTicks": request.max_ticks, "stopped": "pending", "until": request.until.describe()});
        // One call leaves at most one request, and the entry that made the call takes it before
        // the next: a second here is the same call asking twice (a nested call).
        let mut slot = parts.time.request.borrow_mut();
        if slot.is_some() {
            return Err(HandlerFailure::new(ErrorCode::Forbidden, "a step is already requested by this call"));
        }
        *slot = Some(request);
        Ok(provisional)
    }
}

/// Runs `request` from the front end (between ticks, paused): ticks one at a time until its
/// condition holds or `max_ticks` ran; traces `world.stepped` and returns the call's result.
pub(crate) fn run_request(engine: &super::Engine, request: &StepRequest) -> Value {
    let parts = engine.parts();
    let start = parts.sim.tick.get();
    let mut ticks = 0u64;
    let mut seen = parts.journal.trace.borrow().last_seq();
    let mut event_seen = false;
    let stopped = loop {
        let holds = match &request.until {
            Until::Ticks => false,
            Until::Tick(t) => parts.sim.tick.get() >= *t,
            Until::Event(_) => event_seen,
            Until::AllAsleep => parts.sim.world.borrow().all_dynamic_asleep(),
        };
        if holds {
            break Stopped::Condition;
        }
        if ticks >= request.max_ticks {
            break Stopped::MaxTicks;
        }
        if let Err(e) = engine.step(1) {
            break Stopped::StepFailed(e.message);
        }
        ticks += 1;
        if let Until::Event(wanted) = &request.until {
            let trace = parts.journal.trace.borrow();
            // Events are read back from the spill file only if the tick traced more than memory
            // holds; a failed read counts as not seen.
            event_seen = trace.since(seen).filter_map(Result::ok).any(|e| *e.event_type == **wanted);
            seen = trace.last_seq();
        }
    };
    let tick = parts.sim.tick.get();
    let mut result = json!({
        "startTick": start,
        "tick": tick,
        "ticks": ticks,
        "maxTicks": request.max_ticks,
        "stopped": stopped.as_str(),
        "until": request.until.describe(),
    });
    if let Stopped::StepFailed(message) = &stopped {
        result["message"] = json!(message);
    }
    let mut payload = result.clone();
    payload["session"] = json!(request.by.session_id);
    emit(parts, EventKind::WorldStepped, &request.by, &payload);
    result
}

/// Completes a front end's call: runs the step it requested and puts the outcome in its result.
pub(crate) fn finish_call(engine: &super::Engine, response: &mut SkillResponse) {
    let Some(request) = engine.parts().time.take_request() else { return };
    // A request left by a call that then failed (its output refused) is not run.
    if response.error.is_some() {
        return;
    }
    response.result = Some(run_request(engine, &request));
}

/// `--paused`: the clock starts stopped, traced as the operator's.
pub(crate) fn start_paused(parts: &Parts) {
    parts.time.paused.set(true);
    let by = TimeCaller { agent_id: "operator".into(), session_id: "operator".into() };
    emit(parts, EventKind::WorldPaused, &by, &json!({"tick": parts.sim.tick.get(), "wasPaused": false, "reason": "--paused"}));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn by() -> TimeCaller {
        TimeCaller { agent_id: "agt_a".into(), session_id: "ses_a".into() }
    }

    #[test]
    fn only_a_front_ends_own_call_may_control_time() {
        let engine = crate::host::Engine::new(crate::host::EngineConfig {
            output: crate::host::Output::Silent,
            ..crate::host::EngineConfig::new(env!("CARGO_MANIFEST_DIR"))
        })
        .unwrap();
        let mut caller = crate::skills::Caller::with_profile("agt_x", "ses_x", crate::policy::Profile::BuilderReadWrite);
        caller.permissions.insert(crate::policy::Permission::WorldTime);
        // Granted, but not through a front end's entry (a script's or a mod's path): refused.
        let inner = engine.parts().invoke(engine.lua(), &caller, "world.pause", json!({}));
        let message = inner.error.map(|e| e.message).unwrap_or_default();
        assert!(message.contains("answered by the front end"), "{message}");
        assert!(!engine.paused());
        // The front end's entry: allowed, and the step it asks for runs after the handler.
        assert!(engine.call(&caller, "world.pause", json!({})).success);
        let stepped = engine.call(&caller, "world.step", json!({"ticks": 4}));
        assert_eq!(stepped.result.as_ref().map(|r| r["ticks"].clone()), Some(json!(4)), "{stepped:?}");
        assert_eq!(engine.tick(), 4);
        assert!(engine.parts().time.take_request().is_none(), "no request is left behind");
    }

    #[test]
    fn a_step_names_at_most_one_condition() {
        let r = parse_request(&by(), &json!({"ticks": 120, "until": {"tick": 50}})).unwrap();
        assert_eq!((r.max_ticks, r.until), (120, Until::Tick(50)));
        assert_eq!(parse_request(&by(), &json!({})).unwrap().max_ticks, 1);
        let two = parse_request(&by(), &json!({"until": {"tick": 5, "allAsleep": true}})).unwrap_err();
        assert!(two.message.contains("2 conditions"), "{}", two.message);
        let none = parse_request(&by(), &json!({"until": {}})).unwrap_err();
        assert!(none.message.contains("no condition"), "{}", none.message);
        let huge = parse_request(&by(), &json!({"ticks": 9_223_372_036_854_775_807u64})).unwrap_err();
        assert!(huge.message.contains("outside 1..=3600"), "{}", huge.message);
    }
}
