//! The one pipeline every skill call takes, whoever the caller (script, MCP client, agent,
//! sandboxed mod):
//!
//! resolve → validate input (defaults applied) → permission → before-hook → handler →
//! after-hook → validate output → emit `skill.executed`
//!
//! A failure at any stage returns a response with a code and a message naming the problem; the
//! stages before the handler have no effect on the world, so a denied or invalid call changes
//! nothing.
//!
//! Hot: this runs for every call (agents act through it), so it converts only at the edges it
//! must. A script's call arrives with its input as JSON (to validate and trace) plus a private
//! Lua copy made in the same walk (`invoke_call`); a VM handler gets that copy, and its result
//! goes back the same way, so neither side is converted twice. Defaults filled in drop the copy
//! (the handler then gets the JSON converted, as every other caller's handler does). `ctx`
//! comes from a per-caller template (`ctx.rs`) and, without hooks, is made in the same call into
//! Luau as the handler. The policy decision and `skill.executed` are recorded as typed payloads
//! the trace serializes only when read (`trace::Payload`); `limina.call` builds the response
//! table in Luau from the values this returns. `limina bench --only calls` times each stage.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Instant;

use mlua::{Lua, Value as LuaValue};
use serde::Serialize;
use serde_json::Value;

use super::ctx::CallContexts;
use super::deferred::{Finished, HeavyWork, Parked, PendingCall, Ticket};
use super::registry::SkillRegistry;
use super::schema::{apply_defaults, apply_defaults_if_any};
use super::stages::{Stage, StageClock, lap};
use super::validation::describe;
use super::{CallInfo, ErrorCode, Handler, Skill};
use crate::policy::{Decision, DecisionContext, PermissionSet, PolicyEngine};
use crate::script::convert::{json_to_lua, lua_to_json};
use crate::script::copy::lua_to_json_with_copy;
use crate::trace::{DeferredPayload, EventDraft, TraceLog};
use serde_json::value::RawValue;

/// Who is calling: attribution for the trace and the permissions the call runs under.
#[derive(Debug, Clone, PartialEq)]
pub struct Caller {
    pub agent_id: Rc<str>,
    pub session_id: Rc<str>,
    pub profile: Rc<str>,
    pub permissions: PermissionSet,
    /// Set when the call comes from a package (`name@version`), for provenance and policy.
    pub package: Option<Rc<str>>,
    /// The event that made this call happen (an agent action's `agent.decision.completed`):
    /// the call's policy decision and outcome events name it as a cause.
    pub cause: Option<Rc<str>>,
    /// Whom an agent acts for (its spawners, nearest first): their revocations reach its calls.
    pub acting_for: Option<Rc<[crate::policy::Principal]>>,
}

impl Caller {
    /// A caller under one of the catalog's profiles, with exactly its permissions.
    pub fn with_profile(agent_id: &str, session_id: &str, profile: crate::policy::Profile) -> Self {
        Self { permissions: profile.permissions(), ..Self::new(agent_id, session_id, profile.as_str()) }
    }

    /// A caller labelled `profile` as recorded (a catalog name, a narrowed `a∩b`, or a replayed
    /// log's), with that name's permissions; an unknown name grants nothing.
    pub fn new(agent_id: &str, session_id: &str, profile: &str) -> Self {
        Self {
            agent_id: agent_id.into(),
            session_id: session_id.into(),
            profile: profile.into(),
            permissions: crate::policy::profile_permissions(profile),
            package: None,
            cause: None,
            acting_for: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkillFailure {
    pub code: ErrorCode,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResponseMetadata {
    pub execution_time_ms: f64,
    /// Types of the events this call emitted, in order.
    pub events_emitted: Vec<Rc<str>>,
}

/// `{success, result?, error?{code, message}, metadata{executionTimeMs, eventsEmitted}}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkillResponse {
    pub success: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<SkillFailure>,
    pub metadata: ResponseMetadata,
}

/// A handler's deliberate failure with a code, raised by `ctx.fail(code, message)` or a native op.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{message}")]
pub struct HandlerFailure {
    pub code: ErrorCode,
    pub message: String,
}

impl HandlerFailure {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self { code, message: message.into() }
    }

    pub(crate) fn into_lua(self) -> mlua::Error {
        mlua::Error::external(self)
    }

    /// `ctx.fail(code, message)` from Luau: an unknown code is itself reported, by name, as a
    /// handler error (never silently taken for another code).
    pub(crate) fn from_script(code: &str, message: String) -> Self {
        match ErrorCode::parse(code) {
            Some(code) => Self::new(code, message),
            None => Self::new(
                ErrorCode::HandlerError,
                format!(
                    "ctx.fail: unknown error code '{code}' (use not_found, invalid_input, forbidden, handler_error, capacity_exceeded, conflict, leased); message: {message}"
                ),
            ),
        }
    }
}

impl SkillResponse {
    /// A failed call that never reached a handler (or whose engine is gone).
    pub fn failure(code: ErrorCode, message: impl Into<String>) -> Self {
        SkillResponse {
            success: false,
            result: None,
            error: Some(SkillFailure { code, message: message.into() }),
            metadata: ResponseMetadata { execution_time_ms: 0.0, events_emitted: Vec::new() },
        }
    }
}

/// What the pipeline needs from the engine that hosts it.
pub struct InvokeEnv<'a> {
    pub lua: &'a Lua,
    pub registry: &'a RefCell<SkillRegistry>,
    pub trace: &'a RefCell<TraceLog>,
    pub tick: u64,
    /// Builds handlers' `ctx` tables (per-caller templates, created once per engine).
    pub(crate) contexts: &'a CallContexts,
    /// On only for the bench's stage breakdown.
    pub(crate) clock: Option<&'a StageClock>,
    /// The live policy; without one, the static profile check applies.
    pub policy: Option<&'a RefCell<PolicyEngine>>,
    /// The command log, when the run keeps one, and where in the tick this call happens.
    pub(crate) log: Option<&'a dyn super::record::CallRecorder>,
    pub(crate) phase: super::record::Phase,
    /// Where a deferrable call's heavy half goes (`deferred`); without it every call is inline.
    pub(crate) heavy: Option<&'a HeavyWork>,
    /// The world whose leases and revisions guard the calls that target entities (`sharing`);
    /// without it nothing is guarded.
    pub(crate) world: Option<&'a RefCell<crate::world::World>>,
}

/// Runs one skill call through the whole pipeline. Never panics and never raises: every outcome
/// is a `SkillResponse`.
pub fn invoke(env: &InvokeEnv<'_>, caller: &Caller, name: &str, input: Value) -> SkillResponse {
    invoke_call(env, caller, name, CallInput { json: input, lua: None }, false).0
}

/// A call's input: the JSON the pipeline validates and traces and, from a caller in the engine
/// VM, a private Lua copy of it (`script::copy`) that a VM handler gets instead of a second
/// conversion.
pub(crate) struct CallInput {
    pub json: Value,
    pub lua: Option<LuaValue>,
}

/// `invoke` for a caller in the engine VM: with `lua_result`, a VM handler's result also comes
/// back as a private Lua copy (the second value), so the caller need not convert the JSON back.
pub(crate) fn invoke_call(
    env: &InvokeEnv<'_>,
    caller: &Caller,
    name: &str,
    input: CallInput,
    lua_result: bool,
) -> (SkillResponse, Option<LuaValue>) {
    match call(env, caller, name, input, lua_result, false) {
        Invoked::Done(response, copy) => (response, copy),
        // Only `invoke_deferrable` arms the lane, so nothing else is ever deferred.
        Invoked::Deferred(ticket) => {
            (SkillResponse::failure(ErrorCode::HandlerError, format!("{name} was deferred (ticket {ticket}) by a caller that waits")), None)
        }
    }
}

/// What a call that may be deferred came to.
#[derive(Debug)]
pub(crate) enum Invoked {
    Done(SkillResponse, Option<LuaValue>),
    /// Its heavy half runs off the engine thread; `complete_deferred` answers it.
    Deferred(Ticket),
}

/// `invoke` for a front end that can answer later (the MCP network server): a heavy, read-only
/// skill whose op splits its work comes back `Deferred` (see `deferred`); every other call is
/// answered now, as `invoke` would.
pub(crate) fn invoke_deferrable(env: &InvokeEnv<'_>, caller: &Caller, name: &str, input: Value) -> Invoked {
    call(env, caller, name, CallInput { json: input, lua: None }, false, true)
}

/// Completes the deferred calls whose heavy half is done, at this tick: output validated and
/// `skill.executed` (or `skill.failed`) traced as for any call. Never waits.
pub(crate) fn complete_deferred(env: &InvokeEnv<'_>) -> Vec<(Ticket, SkillResponse)> {
    let Some(heavy) = env.heavy else { return Vec::new() };
    let mut out = Vec::new();
    for Finished { ticket, call, outcome, worked } in heavy.finished() {
        let PendingCall { caller, skill, input, causes, started, events, finish } = call;
        let first_seq = env.trace.borrow().last_seq();
        let finishing = Instant::now();
        // The engine's half runs with nothing borrowed: it may make calls of its own (a scene
        // load's), each traced, and included in this call's events.
        let outcome = outcome.and_then(|made| {
            crate::isolate::catch(|| finish(made)).unwrap_or_else(|p| Err(panicked(env, &caller, &skill.name, p.as_str())))
        });
        charge(env, &caller, (worked + finishing.elapsed()).as_secs_f64() * 1000.0, 0);
        let outcome = outcome.and_then(|mut output| {
            check_output(&skill, &mut output)?;
            Ok((Rc::clone(&skill), output, None))
        });
        let (mut response, _) = conclude(env, &caller, &skill.name, &input, causes, true, outcome, first_seq, started);
        response.metadata.events_emitted.splice(0..0, events);
        out.push((ticket, response));
    }
    out
}

/// The pipeline up to its outcome: a response, or (with `defer`) a ticket for a call whose
/// heavy half went to the worker.
fn call(env: &InvokeEnv<'_>, caller: &Caller, name: &str, mut input: CallInput, lua_result: bool, defer: bool) -> Invoked {
    let started = Instant::now();
    let first_seq = env.trace.borrow().last_seq();
    let mut decision_id = None;
    let mut authorized = false;
    // A panic in any stage (a bug: native ops bound their inputs) becomes a `handler_error` and
    // a `skill.panicked` event instead of ending the process. Borrows taken inside are released
    // by the unwind; the world keeps whatever the call changed before it panicked (no stage
    // before the handler writes, and the ops check before they write), so the caller is told
    // the call may have partly applied.
    let outcome = crate::isolate::catch(|| run(env, caller, name, &mut input, lua_result, defer, &mut decision_id, &mut authorized))
        .unwrap_or_else(|p| Err(panicked(env, caller, name, p.as_str())));
    let causes: Vec<String> = decision_id.into_iter().chain(caller.cause.as_deref().map(str::to_string)).collect();
    let outcome = match outcome {
        Ok(Ran::Output(skill, result, copy)) => Ok((skill, result, copy)),
        Ok(Ran::Deferred(skill, parked)) => match defer_call(env, caller, skill, input.json, causes.clone(), started, first_seq, parked) {
            Ok(ticket) => return Invoked::Deferred(ticket),
            Err((failure, json)) => {
                input.json = json;
                Err(failure)
            }
        },
        Err(failure) => Err(failure),
    };
    let (response, copy) = conclude(env, caller, name, &input.json, causes, authorized, outcome, first_seq, started);
    Invoked::Done(response, copy)
}

/// Hands a parked job to the worker; on failure, gives the input back for the failure's trace.
#[allow(clippy::too_many_arguments, reason = "the pipeline's state at the point of deferral, each part kept by the pending call")]
fn defer_call(
    env: &InvokeEnv<'_>,
    caller: &Caller,
    skill: Rc<Skill>,
    input: Value,
    causes: Vec<String>,
    started: Instant,
    first_seq: u64,
    Parked { job, finish }: Parked,
) -> Result<Ticket, (SkillFailure, Value)> {
    let Some(heavy) = env.heavy else {
        return Err((failure(ErrorCode::HandlerError, format!("{} parked work with no heavy-work lane to run it", skill.name)), input));
    };
    let events = emitted_since(env, &skill.name, first_seq);
    let call = PendingCall { caller: caller.clone(), skill, input, causes, started, events, finish };
    heavy.submit(call, job).map_err(|refused| {
        let (failure, call) = *refused;
        (failure, call.input)
    })
}

/// The pipeline's last stage: traces the outcome (`skill.executed` or `skill.failed`) and builds
/// the response with the events the call emitted since `first_seq`.
#[allow(clippy::too_many_arguments, reason = "the outcome and what the trace names it by, shared by inline and deferred calls")]
fn conclude(
    env: &InvokeEnv<'_>,
    caller: &Caller,
    name: &str,
    input: &Value,
    causes: Vec<String>,
    authorized: bool,
    outcome: Result<(Rc<Skill>, Value, Option<LuaValue>), SkillFailure>,
    first_seq: u64,
    started: Instant,
) -> (SkillResponse, Option<LuaValue>) {
    let clock = env.clock;
    let (success, result, error, lua_copy) = match outcome {
        Ok((skill, result, lua_copy)) => {
            let revision = super::sharing::revision_after(env, &skill, input);
            let record = ExecutedRecord { input: raw_json(input), revision, skill, tick: env.tick };
            let draft = EventDraft::new(crate::trace::EventKind::SkillExecuted.as_str(), &caller.agent_id)
                .thread(&caller.session_id)
                .caused_by(causes);
            env.trace.borrow_mut().emit_deferred(draft, env.tick, Rc::new(record));
            (true, Some(result), None, lua_copy)
        }
        Err(failure) => {
            // A denial by the permission stage is traced there (policy.denied); a handler's own
            // refusal (`forbidden` from an op: an ownership or operator rule) is traced here.
            if failure.code != ErrorCode::Forbidden || authorized {
                let payload = Failed { code: failure.code, message: &failure.message, skill: name, tick: env.tick };
                emit(env, caller, crate::trace::EventKind::SkillFailed.as_str(), &payload, causes);
            }
            (false, None, Some(failure), None)
        }
    };
    let events_emitted = emitted_since(env, name, first_seq);
    lap(clock, Stage::Outcome);
    let response = SkillResponse {
        success,
        result,
        error,
        metadata: ResponseMetadata { execution_time_ms: started.elapsed().as_secs_f64() * 1000.0, events_emitted },
    };
    (response, lua_copy)
}

/// The types of the events emitted since `first_seq`: a call's events are the newest, in
/// memory, unless the call emitted more than the trace's window (then the older ones are read
/// back from its spill file).
fn emitted_since(env: &InvokeEnv<'_>, name: &str, first_seq: u64) -> Vec<Rc<str>> {
    let mut events_emitted = Vec::new();
    for event in env.trace.borrow().since(first_seq) {
        match event {
            Ok(event) => events_emitted.push(Rc::clone(&event.event_type)),
            Err(e) => {
                tracing::warn!("the eventsEmitted of a {name} call stop at {} events: {e}", events_emitted.len());
                break;
            }
        }
    }
    events_emitted
}

// Event payloads of the pipeline. Fields are in sorted order so their JSON is canonical (the
// chain verifier re-sorts and would catch a mistake).
#[derive(Serialize)]
struct Executed<'a> {
    input: &'a RawValue,
    /// The target's revision after the call, for a skill that targets one entity.
    #[serde(skip_serializing_if = "Option::is_none")]
    revision: Option<u64>,
    skill: &'a str,
    tick: u64,
    version: &'a str,
}

/// `skill.executed` as the log keeps it: the validated input and the skill, written as an
/// `Executed` only when the event is read. The input is kept as its compact JSON, written at
/// emit: the log keeps every call's input until it spills to disk, and a `Value` tree holds several times the
/// bytes of its text (a map's node alone is ~600 bytes), which cost more memory than the write
/// costs time.
#[derive(Debug)]
struct ExecutedRecord {
    input: Box<RawValue>,
    revision: Option<u64>,
    skill: Rc<Skill>,
    tick: u64,
}

impl ExecutedRecord {
    fn payload(&self) -> Executed<'_> {
        Executed { input: &self.input, revision: self.revision, skill: &self.skill.name, tick: self.tick, version: &self.skill.version }
    }
}

impl DeferredPayload for ExecutedRecord {
    fn to_json(&self) -> Box<RawValue> {
        raw_json(&self.payload())
    }

    fn write_json(&self, out: &mut Vec<u8>) {
        write_json(out, &self.payload());
    }

    fn retained_bytes(&self) -> usize {
        self.input.get().len()
    }

    fn skill_call(&self) -> Option<(&str, bool)> {
        Some((&self.skill.name, self.skill.effects.mutates_world()))
    }
}

/// A `policy.decision` / `policy.denied` as the log keeps it: the decision and what its
/// context names (the caller's names are shared, not copied), written only when read.
#[derive(Debug)]
struct DecisionRecord {
    decision: Decision,
    caller: Caller,
    skill: Rc<Skill>,
    tick: u64,
}

impl DeferredPayload for DecisionRecord {
    fn to_json(&self) -> Box<RawValue> {
        raw_json(&self.decision.payload(&decision_context(&self.caller, &self.skill, self.tick)))
    }

    fn write_json(&self, out: &mut Vec<u8>) {
        write_json(out, &self.decision.payload(&decision_context(&self.caller, &self.skill, self.tick)));
    }

    fn skill_call(&self) -> Option<(&str, bool)> {
        Some((&self.skill.name, self.skill.effects.mutates_world()))
    }
}

fn raw_json<P: Serialize>(payload: &P) -> Box<RawValue> {
    // Our payload structs over JSON values always serialize; null is the log's convention for
    // one that would not.
    serde_json::value::to_raw_value(payload).unwrap_or_else(|_| RawValue::NULL.to_owned())
}

/// `raw_json` written straight into `out` (a spill or an export line).
fn write_json<P: Serialize>(out: &mut Vec<u8>, payload: &P) {
    let start = out.len();
    if serde_json::to_writer(&mut *out, payload).is_err() {
        out.truncate(start);
        out.extend_from_slice(b"null");
    }
}

fn decision_context<'a>(caller: &'a Caller, skill: &'a Skill, tick: u64) -> DecisionContext<'a> {
    DecisionContext {
        agent_id: &caller.agent_id,
        session_id: &caller.session_id,
        profile: &caller.profile,
        skill: &skill.name,
        required: &skill.permissions,
        granted: caller.permissions,
        tick,
        package: caller.package.as_deref(),
        acting_for: caller.acting_for.as_deref().unwrap_or(&[]),
    }
}

#[derive(Serialize)]
struct Failed<'a> {
    code: ErrorCode,
    message: &'a str,
    skill: &'a str,
    tick: u64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PermissionDenied<'a> {
    agent_id: &'a str,
    missing: &'a str,
    skill: &'a str,
}

/// Records one of the pipeline's events.
fn emit<P: Serialize>(env: &InvokeEnv<'_>, caller: &Caller, event_type: &str, payload: &P, caused_by: Vec<String>) {
    let draft = EventDraft::new(event_type, &caller.agent_id).thread(&caller.session_id).caused_by(caused_by);
    env.trace.borrow_mut().emit(draft, env.tick, payload);
}

#[derive(Serialize)]
struct Panicked<'a> {
    message: &'a str,
    skill: &'a str,
    tick: u64,
}

/// Records a panicked call and describes it to the caller.
fn panicked(env: &InvokeEnv<'_>, caller: &Caller, name: &str, message: &str) -> SkillFailure {
    // The trace is not borrowed across the stages, so the unwind has released it.
    emit(env, caller, crate::trace::EventKind::SkillPanicked.as_str(), &Panicked { message, skill: name, tick: env.tick }, Vec::new());
    failure(
        ErrorCode::HandlerError,
        format!("{name} panicked: {message} (an engine or skill bug; the call stopped and may have partly applied)"),
    )
}

fn failure(code: ErrorCode, message: impl Into<String>) -> SkillFailure {
    SkillFailure { code, message: message.into() }
}

/// The permission stage: the policy engine when attached (recording its decision), else the
/// static profile check. Returns the id of the decision event, if any.
fn authorize(env: &InvokeEnv<'_>, caller: &Caller, skill: &Rc<Skill>) -> Result<Option<String>, SkillFailure> {
    let Some(policy) = env.policy else {
        if let Some(missing) = caller.permissions.first_missing(&skill.permissions) {
            let payload = PermissionDenied { agent_id: &caller.agent_id, missing: missing.as_str(), skill: &skill.name };
            emit(env, caller, crate::trace::EventKind::SecurityPermissionDenied.as_str(), &payload, Vec::new());
            return Err(failure(
                ErrorCode::Forbidden,
                crate::policy::missing_permission(missing, &caller.profile, caller.package.as_deref()),
            ));
        }
        return Ok(None);
    };
    let decision = policy.borrow_mut().evaluate(&decision_context(caller, skill, env.tick));
    let event_type =
        if decision.allow { crate::trace::EventKind::PolicyDecision.as_str() } else { crate::trace::EventKind::PolicyDenied.as_str() };
    let cause: Vec<String> = caller.cause.as_deref().map(str::to_string).into_iter().collect();
    let draft = EventDraft::new(event_type, &caller.agent_id).thread(&caller.session_id).caused_by(cause);
    let (allow, denied) = (decision.allow, (decision.rule == crate::policy::Rule::ProfileDenied).then(|| decision.cap.clone()));
    let reason = if allow { None } else { Some(decision.reason.to_string()) };
    let record = DecisionRecord { decision, caller: caller.clone(), skill: Rc::clone(skill), tick: env.tick };
    let id = env.trace.borrow_mut().emit_deferred(draft, env.tick, Rc::new(record)).id.clone();
    if allow {
        return Ok(Some(id));
    }
    if let Some(missing) = denied {
        let payload = PermissionDenied { agent_id: &caller.agent_id, missing: &missing, skill: &skill.name };
        emit(env, caller, crate::trace::EventKind::SecurityPermissionDenied.as_str(), &payload, vec![id]);
    }
    Err(failure(ErrorCode::Forbidden, reason.unwrap_or_default()))
}

/// A call whose handler succeeded: the skill and its validated output with (when asked for and
/// the handler ran in the VM) a private Lua copy of it, or the heavy half its op parked.
enum Ran {
    Output(Rc<Skill>, Value, Option<LuaValue>),
    Deferred(Rc<Skill>, Parked),
}

/// What a handler came to: its output, or a job its op parked for the worker.
enum Handled {
    Output(Value, Option<LuaValue>),
    Deferred(Parked),
}

#[allow(clippy::too_many_arguments, reason = "the pipeline's inputs and the two facts its caller traces from")]
fn run(
    env: &InvokeEnv<'_>,
    caller: &Caller,
    name: &str,
    input: &mut CallInput,
    lua_result: bool,
    defer: bool,
    decision_id: &mut Option<String>,
    authorized: &mut bool,
) -> Result<Ran, SkillFailure> {
    // resolve (the registry borrow ends here, so handlers may list or call skills)
    let skill = env.registry.borrow().get(name).ok_or_else(|| failure(ErrorCode::NotFound, env.registry.borrow().unknown_skill(name)))?;

    // validate input, defaults first; a Lua copy that no longer matches the JSON is dropped
    // (the handler then gets the JSON converted, as before)
    if input.json.is_null() {
        input.json = Value::Object(Default::default());
        input.lua = None;
    }
    if apply_defaults_if_any(&skill.input_schema, skill.input_defaults, &mut input.json) {
        input.lua = None;
    }
    // Colour strings become their integers here, once, before anything records the input.
    if skill.input_colors && super::colour::normalize(&skill.input_schema, &mut input.json) {
        input.lua = None;
    }
    if !skill.input_validator.is_valid(&input.json) {
        return Err(failure(
            ErrorCode::InvalidInput,
            format!("invalid input for {name}: {}", describe(&skill.input_validator, &skill.input_schema, &input.json, "input")),
        ));
    }
    lap(env.clock, Stage::Validate);

    // permission / policy
    *decision_id = authorize(env, caller, &skill)?;
    *authorized = true;
    // An in-world agent (a caller acting for spawners) never runs a heavy skill, however the
    // call reaches here: a mod's skill it calls may call on with its identity.
    if skill.heavy && caller.acting_for.is_some() {
        return Err(failure(
            ErrorCode::Forbidden,
            format!(
                "{name} is not offered to in-world agents ({} is one): one call of it can hold the loop, which every agent and client shares, for seconds",
                caller.agent_id
            ),
        ));
    }
    lap(env.clock, Stage::Policy);

    let lua = env.lua;
    // Usage is measured only when some session has a budget to charge it to.
    let metered = env.policy.filter(|p| p.borrow().has_budgets());
    let before = metered.map(|_| (lua.used_memory(), Instant::now()));
    let recording = recordable(env, &skill).map(Recording::begin);
    // Only this call's own handler may park work, and only when its caller can wait and the
    // command log does not record the call itself (its heavy half runs from a copy; what its
    // finish changes, it changes through calls of its own, which the log records when they
    // run); calls it makes run disarmed.
    let deferrable = defer && skill.heavy && skill.effects.deferrable();
    let armed = env.heavy.map(|h| h.arm(deferrable.then(|| Rc::clone(&caller.session_id))));
    // Leases and `ifRevision` are checked inside the recorded part of the call: a refused write
    // is in the command log with its code, and a replay must refuse it again.
    let result = super::sharing::guard(env, caller, &skill, &input.json)
        .and_then(|()| run_handler(env, caller, &skill, input, lua_result, decision_id.as_deref(), armed.as_ref()));
    drop(armed);
    if let Some(recording) = recording {
        let outcome = result.as_ref().err().map_or(super::record::CallOutcome::Ok, |f| super::record::CallOutcome::Failed(f.code));
        recording.end(env, caller, &skill, &input.json, outcome);
    }
    if let Some((memory_before, handler_started)) = before {
        let memory = lua.used_memory().saturating_sub(memory_before) as u64;
        charge(env, caller, handler_started.elapsed().as_secs_f64() * 1000.0, memory);
    }
    result.map(|handled| match handled {
        Handled::Output(output, copy) => Ran::Output(skill, output, copy),
        Handled::Deferred(parked) => Ran::Deferred(skill, parked),
    })
}

/// Charges a call's usage to its session's budget (and its spawners', whose budgets bound what
/// they delegate), when some session has a budget.
fn charge(env: &InvokeEnv<'_>, caller: &Caller, cpu_ms: f64, memory: u64) {
    let Some(policy) = env.policy.filter(|p| p.borrow().has_budgets()) else { return };
    let mut policy = policy.borrow_mut();
    policy.record_usage(&caller.session_id, cpu_ms, memory);
    for p in caller.acting_for.iter().flat_map(|a| a.iter()).filter(|p| *p.session_id != *caller.session_id) {
        policy.record_usage(&p.session_id, cpu_ms, memory);
    }
}

/// The recorder to account for a call of `skill` in, when there is one and it records the skill.
fn recordable<'a>(env: &InvokeEnv<'a>, skill: &Skill) -> Option<&'a dyn super::record::CallRecorder> {
    env.log.filter(|log| log.records(skill))
}

/// A recorded call whose handler is running. Ended, it writes the call's record; dropped
/// without ending (the handler panicked), it only gives its nesting level back — a panic is an
/// engine bug, and its call is left out of the log with a warning.
struct Recording<'a> {
    log: Option<&'a dyn super::record::CallRecorder>,
}

impl<'a> Recording<'a> {
    fn begin(log: &'a dyn super::record::CallRecorder) -> Self {
        log.begin();
        Recording { log: Some(log) }
    }

    fn end(mut self, env: &InvokeEnv<'_>, caller: &Caller, skill: &Skill, input: &Value, outcome: super::record::CallOutcome) {
        if let Some(log) = self.log.take() {
            log.end(&super::record::EndedCall { tick: env.tick, phase: env.phase, caller, skill, input, outcome });
        }
    }
}

impl Drop for Recording<'_> {
    fn drop(&mut self) {
        if let Some(log) = self.log.take() {
            log.abandon();
            tracing::warn!("a call panicked in its handler and is not in the command log: replay may diverge from here");
        }
    }
}

fn run_handler(
    env: &InvokeEnv<'_>,
    caller: &Caller,
    skill: &Skill,
    input: &mut CallInput,
    lua_result: bool,
    decision_id: Option<&str>,
    armed: Option<&super::deferred::Armed<'_>>,
) -> Result<Handled, SkillFailure> {
    let name = skill.name.as_str();
    let (mut output, mut copy) = match &skill.handler {
        Handler::Vm { handler, before, after } => {
            let lua = env.lua;
            let lua_failure = |stage: &str, e: mlua::Error| lua_error_to_failure(name, stage, &e);
            let lua_input = match input.lua.take() {
                Some(copy) => copy,
                None => json_to_lua(lua, &input.json).map_err(|e| lua_failure("input conversion", e))?,
            };
            let raw: LuaValue = if before.is_none() && after.is_none() {
                // The common case: ctx is made in the same call into the VM as the handler.
                lap(env.clock, Stage::Context);
                env.contexts.call_handler(lua, handler, caller, env.tick, decision_id, lua_input).map_err(|e| lua_failure("handler", e))?
            } else {
                let ctx = env.contexts.make(lua, caller, env.tick, decision_id).map_err(|e| lua_failure("context", e))?;
                lap(env.clock, Stage::Context);
                if let Some(before) = before {
                    before.call::<()>((lua_input.clone(), ctx.clone())).map_err(|e| lua_failure("before-hook", e))?;
                }
                let raw: LuaValue = handler.call((lua_input, ctx.clone())).map_err(|e| lua_failure("handler", e))?;
                if let Some(after) = after {
                    after.call::<()>((raw.clone(), ctx)).map_err(|e| lua_failure("after-hook", e))?;
                }
                raw
            };
            lap(env.clock, Stage::Handler);
            // The op parked the heavy half: the handler's value stands for nothing.
            if let Some(parked) = armed.and_then(|a| a.take_parked()) {
                return Ok(Handled::Deferred(parked));
            }
            let not_json = |e| failure(ErrorCode::HandlerError, format!("{name} returned a value that is not JSON: {e}"));
            if lua_result {
                let (json, copy) = lua_to_json_with_copy(lua, &raw, "result").map_err(not_json)?;
                (json, Some(copy))
            } else {
                (lua_to_json(lua, &raw, "result").map_err(not_json)?, None)
            }
        }
        Handler::External(external) => (external.call(name, &input.json, &CallInfo { caller, tick: env.tick, decision_id })?, None),
    };

    if check_output(skill, &mut output)? {
        copy = None;
    }
    lap(env.clock, Stage::Result);
    Ok(Handled::Output(output, copy))
}

/// Validates a handler's output, its defaults applied; true when a default was filled in (a Lua
/// copy of the output no longer matches it).
fn check_output(skill: &Skill, output: &mut Value) -> Result<bool, SkillFailure> {
    let name = skill.name.as_str();
    if output.is_null() {
        return Err(failure(ErrorCode::HandlerError, format!("{name} returned nothing; its handler must return a result table")));
    }
    let defaulted = apply_defaults_if_any(&skill.output_schema, skill.output_defaults, output);
    if !skill.output_validator.is_valid(output) {
        return Err(failure(
            ErrorCode::HandlerError,
            format!("{name} returned invalid output: {}", describe(&skill.output_validator, &skill.output_schema, output, "result")),
        ));
    }
    Ok(defaulted)
}

/// Applies a skill's input defaults and validates the result, as the pipeline's first stage
/// does: for callers that must check a call before queueing it (agent tool calls). The error
/// names up to three problems.
pub fn check_input(skill: &Skill, input: &mut Value) -> Result<(), InvalidInput> {
    if input.is_null() {
        *input = Value::Object(Default::default());
    }
    apply_defaults(&skill.input_schema, input);
    if skill.input_colors {
        super::colour::normalize(&skill.input_schema, input);
    }
    if skill.input_validator.is_valid(input) {
        Ok(())
    } else {
        Err(InvalidInput { skill: skill.name.clone(), problems: describe(&skill.input_validator, &skill.input_schema, input, "input") })
    }
}

/// An input that does not match its skill's schema: up to three of its problems, each naming
/// where in the input it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{problems}")]
pub struct InvalidInput {
    pub skill: String,
    pub problems: String,
}

/// Maps a Lua error from a hook or handler to a failure: a `HandlerFailure` keeps its code;
/// anything else is a `handler_error` whose message is the Lua error without its traceback.
fn lua_error_to_failure(skill: &str, stage: &str, e: &mlua::Error) -> SkillFailure {
    if let Some(f) = e.downcast_ref::<HandlerFailure>() {
        return failure(f.code, f.message.clone());
    }
    let (message, _) = crate::script::error_message_and_traceback(e);
    failure(ErrorCode::HandlerError, format!("{skill} {stage} failed: {message}"))
}
