//! The `limina` table: how scripts act on the world (through skills) and drive the host.
//!
//! `limina.call` and `session:call` are the only ways a script changes the world; both go
//! through the skill pipeline. A skill failure never raises: it returns `success = false` with a
//! code. Misusing the API itself (a non-string skill name, a bad step count) does raise, with the
//! script's file and line.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use mlua::{Lua, LuaString, Table, UserData, UserDataMethods, Value as LuaValue};

use super::parts::Parts;
use crate::policy::profile_permissions;
use crate::script::convert::json_to_lua;
use crate::script::copy::lua_to_json_with_copy;
use crate::script::located_error;
use crate::skills::{CallInput, Caller, ErrorCode, SkillResponse, Stage, lap};

/// Most steps one `limina.step(n)` may run (a typo like 1e12 must not hang the engine).
const MAX_STEPS_PER_CALL: u64 = 10_000_000;

pub(crate) fn install(lua: &Lua, shared: &Rc<Parts>, schema: &Table) -> mlua::Result<()> {
    let api = lua.create_table()?;

    // `limina.call` is a small Luau function (see `CALL`): it checks the name, runs the pipeline
    // in Rust and builds the response table from the values that returns.
    let s = Rc::clone(shared);
    let invoke = lua.create_function(move |lua, (name, input): (LuaString, LuaValue)| {
        let name = name.to_str()?;
        call_values(lua, &s, &s.scripts.caller, &name, input)
    })?;
    let make_call: mlua::Function = lua.load(CALL).set_name("=limina.call").eval()?;
    api.set("call", make_call.call::<mlua::Function>((invoke, shared.scripts.responses.build.clone()))?)?;

    let s = Rc::clone(shared);
    api.set(
        "session",
        lua.create_function(move |lua, opts: Option<Table>| {
            let opts = opts.ok_or_else(|| located_error(lua, "limina.session needs a table {agentId=..., sessionId=..., profile=...}"))?;
            let field = |key: &str| -> mlua::Result<Option<String>> {
                match opts.get::<LuaValue>(key)? {
                    LuaValue::Nil => Ok(None),
                    LuaValue::String(v) => Ok(Some(v.to_string_lossy())),
                    other => Err(located_error(
                        lua,
                        format!("limina.session: {key} must be a string, got {}", crate::script::lua_type_name(&other)),
                    )),
                }
            };
            opts.for_each(|k: LuaValue, _: LuaValue| {
                let key = k.as_string().map(|s| s.to_string_lossy()).unwrap_or_default();
                if !["agentId", "sessionId", "profile"].contains(&key.as_str()) {
                    return Err(located_error(lua, format!("limina.session: unknown field '{key}' (use agentId, sessionId, profile)")));
                }
                Ok(())
            })?;
            let n = s.scripts.session_counter.get() + 1;
            s.scripts.session_counter.set(n);
            let agent_id = field("agentId")?.unwrap_or_else(|| format!("agt_session{n}"));
            let session_id = field("sessionId")?.unwrap_or_else(|| format!("ses_{n}"));
            let profile =
                field("profile")?.ok_or_else(|| located_error(lua, "limina.session: profile is required (e.g. 'player.limited')"))?;
            // While the session lives, no agent can be spawned under its agent id and no client
            // can adopt either id. The script's sessions may share ids with each other (and act
            // as an in-world agent, under its ids), never with a connected client.
            let agents = s.sim.agents.borrow();
            let agent_claim = agents.client_ids.claim(&agent_id, super::Holder::Script).map_err(|_| {
                located_error(lua, format!("limina.session: agent id {agent_id} is held by a connected client; choose another agentId"))
            })?;
            let session_claim = agents.session_ids.claim(&session_id, super::Holder::Script).map_err(|_| {
                located_error(lua, format!("limina.session: session {session_id} is held by a connected client; choose another sessionId"))
            })?;
            drop(agents);
            Ok(Session {
                shared: Rc::clone(&s),
                caller: Caller::new(&agent_id, &session_id, &profile),
                _claims: (agent_claim, session_claim),
            })
        })?,
    )?;

    let s = Rc::clone(shared);
    api.set(
        "on_step",
        lua.create_function(move |lua, f: LuaValue| {
            let LuaValue::Function(f) = f else {
                return Err(located_error(lua, "limina.on_step needs a function(tick, dt)"));
            };
            s.scripts.on_step.borrow_mut().push(f);
            Ok(())
        })?,
    )?;

    let s = Rc::clone(shared);
    api.set(
        "on_frame",
        lua.create_function(move |lua, f: LuaValue| {
            let LuaValue::Function(f) = f else {
                return Err(located_error(lua, "limina.on_frame needs a function(alpha)"));
            };
            s.scripts.on_frame.borrow_mut().push(f);
            Ok(())
        })?,
    )?;

    let s = Rc::clone(shared);
    api.set(
        "step",
        lua.create_function(move |lua, n: LuaValue| {
            let n = match n {
                LuaValue::Nil => 1,
                LuaValue::Integer(i) if (0..=MAX_STEPS_PER_CALL as i64).contains(&i) => i as u64,
                other => {
                    return Err(located_error(
                        lua,
                        format!("limina.step(n): n must be a whole number from 0 to {MAX_STEPS_PER_CALL}, got {}", describe(&other)),
                    ));
                }
            };
            for _ in 0..n {
                if let Some(deadline) = s.scripts.deadline.get()
                    && std::time::Instant::now() >= deadline
                {
                    // The VM's interrupt reports it (and marks the timeout) on its next check.
                    return Err(located_error(lua, format!("limina.step: the playtest's time ran out at tick {}", s.sim.tick.get())));
                }
                super::step::step(lua, &s)?;
            }
            Ok(s.sim.tick.get())
        })?,
    )?;

    let s = Rc::clone(shared);
    api.set("tick", lua.create_function(move |_, ()| Ok(s.sim.tick.get()))?)?;

    let s = Rc::clone(shared);
    api.set("world_hash", lua.create_function(move |_, ()| Ok(s.sim.world_hash()))?)?;

    let s = Rc::clone(shared);
    api.set("seed", lua.create_function(move |_, ()| Ok(s.sim.seed))?)?;

    let s = Rc::clone(shared);
    api.set("provider", lua.create_function(move |_, ()| Ok(s.scripts.provider.as_str()))?)?;

    // A scripted decision policy for agents: `agent.spawn { llm = { provider = "scripted",
    // model = name } }` runs `policy(request)` on the loop when the agent's decision is due.
    let s = Rc::clone(shared);
    api.set(
        "scripted_policy",
        lua.create_function(move |lua, (name, policy): (String, mlua::Function)| {
            if name.is_empty() || name.len() > 200 {
                return Err(located_error(lua, "limina.scripted_policy: the name must be 1 to 200 characters"));
            }
            s.sim.agents.borrow_mut().set_scripted(&name, policy);
            Ok(())
        })?,
    )?;

    let s = Rc::clone(shared);
    api.set(
        "quit",
        lua.create_function(move |_, ()| {
            s.scripts.quit.set(true);
            Ok(())
        })?,
    )?;

    let s = Rc::clone(shared);
    api.set(
        "profile",
        lua.create_function(move |lua, ()| {
            let t = lua.create_table()?;
            t.set("name", &*s.scripts.caller.profile)?;
            t.set("permissions", lua.create_sequence_from(s.scripts.caller.permissions.names())?)?;
            Ok(t)
        })?,
    )?;

    let s = Rc::clone(shared);
    api.set(
        "verify_trace",
        lua.create_function(move |lua, name: String| {
            let stem =
                crate::skills::core::check_export_name(&name).map_err(|e| located_error(lua, format!("limina.verify_trace: {e}")))?;
            let path = s.journal.traces_dir.join(format!("{stem}.jsonl"));
            let chained = crate::trace::verify_file(&path)
                .map_err(|e| located_error(lua, format!("limina.verify_trace: cannot read {}: {e}", path.display())))?;
            Ok(match chained.and_then(|v| crate::trace::require_seal(v, None)) {
                Ok(v) => format!("ok: {} events", v.events),
                Err(f) => format!("line {}: {} ({})", f.line, f.reason.as_str(), f.detail),
            })
        })?,
    )?;

    api.set("policy", policy_api(lua, shared)?)?;
    api.set("schema", schema.clone())?;
    api.set("FIXED_DT", super::FIXED_DT)?;
    api.set_readonly(true);
    lua.globals().set("limina", api)
}

/// `limina.policy`: live governance for the host script. Each function checks its table (so a
/// typo raises at the script's line) and then calls the matching `policy.*` skill as the
/// script's own caller: the change is permission-checked (`policy.govern`), decided and traced
/// like any other call, and recorded as `policy.changed`.
fn policy_api(lua: &Lua, shared: &Rc<Parts>) -> mlua::Result<Table> {
    let t = lua.create_table()?;

    fn text(lua: &Lua, opts: &Table, key: &str, what: &str) -> mlua::Result<Option<String>> {
        match opts.get::<LuaValue>(key)? {
            LuaValue::Nil => Ok(None),
            LuaValue::String(s) => Ok(Some(s.to_string_lossy())),
            other => Err(located_error(lua, format!("{what}: {key} must be a string, got {}", crate::script::lua_type_name(&other)))),
        }
    }
    fn number(lua: &Lua, opts: &Table, key: &str, what: &str) -> mlua::Result<Option<f64>> {
        match opts.get::<LuaValue>(key)? {
            LuaValue::Nil => Ok(None),
            LuaValue::Integer(i) if i >= 0 => Ok(Some(i as f64)),
            LuaValue::Number(n) if n >= 0.0 && n.is_finite() => Ok(Some(n)),
            other => Err(located_error(lua, format!("{what}: {key} must be a number >= 0, got {}", describe(&other)))),
        }
    }
    fn only(lua: &Lua, opts: &Table, allowed: &[&str], what: &str) -> mlua::Result<()> {
        opts.for_each(|k: LuaValue, _: LuaValue| {
            let key = k.as_string().map(|s| s.to_string_lossy()).unwrap_or_default();
            if !allowed.contains(&key.as_str()) {
                return Err(located_error(lua, format!("{what}: unknown field '{key}' (use {})", allowed.join(", "))));
            }
            Ok(())
        })
    }
    /// Runs a governance skill as the script; a refusal raises with the skill's message.
    fn govern(lua: &Lua, shared: &Parts, skill: &str, input: serde_json::Value) -> mlua::Result<()> {
        let r = shared.invoke(lua, &shared.scripts.caller, skill, input);
        match r.error {
            None => Ok(()),
            Some(e) => Err(located_error(lua, format!("{skill}: {} ({})", e.message, e.code.as_str()))),
        }
    }
    fn drop_nulls(mut v: serde_json::Value) -> serde_json::Value {
        if let Some(map) = v.as_object_mut() {
            map.retain(|_, v| !v.is_null());
        }
        v
    }

    // revoke{sessionId} | revoke{agentId} | revoke{cap, sessionId?, agentId?}; restore{...} undoes it.
    for (op, revoke) in [("revoke", true), ("restore", false)] {
        let s = Rc::clone(shared);
        let what: &'static str = if revoke { "limina.policy.revoke" } else { "limina.policy.restore" };
        t.set(
            op,
            lua.create_function(move |lua, opts: Table| {
                only(lua, &opts, &["sessionId", "agentId", "package", "cap"], what)?;
                let session = text(lua, &opts, "sessionId", what)?;
                let agent = text(lua, &opts, "agentId", what)?;
                let package = text(lua, &opts, "package", what)?;
                let cap = text(lua, &opts, "cap", what)?;
                if package.is_some() && cap.is_none() {
                    return Err(located_error(lua, format!("{what}: a package revocation names the capability (cap = ...)")));
                }
                if cap.is_none() && session.is_some() == agent.is_some() {
                    return Err(located_error(
                        lua,
                        format!("{what} needs {{sessionId=...}}, {{agentId=...}} or {{cap=..., sessionId?=..., agentId?=...}}"),
                    ));
                }
                let input = serde_json::json!({"sessionId": session, "agentId": agent, "package": package, "cap": cap});
                govern(lua, &s, &format!("policy.{op}"), drop_nulls(input))
            })?,
        )?;
    }

    let s = Rc::clone(shared);
    t.set(
        "quota",
        lua.create_function(move |lua, opts: Table| {
            const WHAT: &str = "limina.policy.quota";
            only(lua, &opts, &["sessionId", "cap", "limit", "windowTicks"], WHAT)?;
            let limit = number(lua, &opts, "limit", WHAT)?.ok_or_else(|| located_error(lua, format!("{WHAT}: limit is required")))?;
            let window =
                number(lua, &opts, "windowTicks", WHAT)?.ok_or_else(|| located_error(lua, format!("{WHAT}: windowTicks is required")))?;
            if window < 1.0 || window.fract() != 0.0 || limit.fract() != 0.0 || limit > f64::from(u32::MAX) {
                return Err(located_error(lua, format!("{WHAT}: limit and windowTicks must be whole numbers, windowTicks >= 1")));
            }
            let input = serde_json::json!({
                "sessionId": text(lua, &opts, "sessionId", WHAT)?, "cap": text(lua, &opts, "cap", WHAT)?,
                "limit": limit as u64, "windowTicks": window as u64,
            });
            govern(lua, &s, "policy.quota", drop_nulls(input))
        })?,
    )?;

    let s = Rc::clone(shared);
    t.set(
        "budget",
        lua.create_function(move |lua, opts: Table| {
            const WHAT: &str = "limina.policy.budget";
            only(lua, &opts, &["sessionId", "calls", "cpuMs", "memoryBytes"], WHAT)?;
            let session =
                text(lua, &opts, "sessionId", WHAT)?.ok_or_else(|| located_error(lua, format!("{WHAT}: sessionId is required")))?;
            let input = serde_json::json!({
                "sessionId": session,
                "calls": number(lua, &opts, "calls", WHAT)?.map(|n| n as u64),
                "cpuMs": number(lua, &opts, "cpuMs", WHAT)?,
                "memoryBytes": number(lua, &opts, "memoryBytes", WHAT)?.map(|n| n as u64),
            });
            govern(lua, &s, "policy.budget", drop_nulls(input))
        })?,
    )?;

    let s = Rc::clone(shared);
    t.set("clearQuotas", lua.create_function(move |lua, ()| govern(lua, &s, "policy.clearQuotas", serde_json::json!({})))?)?;

    let s = Rc::clone(shared);
    t.set("snapshot", lua.create_function(move |lua, ()| json_to_lua(lua, &s.rules.policy.borrow().snapshot()))?)?;

    t.set_readonly(true);
    Ok(t)
}

fn describe(v: &LuaValue) -> String {
    match v {
        LuaValue::Number(n) => n.to_string(),
        LuaValue::Integer(i) => i.to_string(),
        other => crate::script::lua_type_name(other).to_string(),
    }
}

/// A script-held session: `s:call(name, input)` runs under its own agent, session and profile.
struct Session {
    shared: Rc<Parts>,
    caller: Caller,
    /// Its agent id (held against `agent.spawn` and clients) and its session id (held against
    /// clients), for as long as the session object lives.
    _claims: (Rc<super::SessionClaim>, Rc<super::SessionClaim>),
}

impl UserData for Session {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods
            .add_method("call", |lua, this, (name, input): (LuaValue, LuaValue)| call_skill(lua, &this.shared, &this.caller, name, input));
        methods.add_method("info", |lua, this, ()| {
            let t = lua.create_table()?;
            t.set("agentId", &*this.caller.agent_id)?;
            t.set("sessionId", &*this.caller.session_id)?;
            t.set("profile", &*this.caller.profile)?;
            t.set("permissions", lua.create_sequence_from(profile_permissions(&this.caller.profile).names())?)?;
            Ok(t)
        });
    }
}

fn call_skill(lua: &Lua, shared: &Parts, caller: &Caller, name: LuaValue, input: LuaValue) -> mlua::Result<Table> {
    let LuaValue::String(name) = name else {
        return Err(located_error(
            lua,
            format!("limina.call: the skill name must be a string, got {}", crate::script::lua_type_name(&name)),
        ));
    };
    let name = name.to_str()?;
    let values = call_values(lua, shared, caller, &name, input)?;
    let table = shared.scripts.responses.build.call(values);
    // Built here, in Rust: nothing is left for the next call to charge.
    if let Some(clock) = shared.journal.stage_clock.as_ref() {
        clock.lap(Stage::Response);
        clock.start();
    }
    table
}

/// `limina.call`: checks the name (raising at the script's line, as `located_error` would),
/// then `build(invoke(name, input))`. The response table is built here, in Luau, from the
/// values the pipeline returns: one call from Lua into Rust per skill call, none back.
const CALL: &str = r#"
return function(invoke, build)
    return function(name, input)
        if type(name) ~= "string" then
            error("limina.call: the skill name must be a string, got " .. type(name), 2)
        end
        return build(invoke(name, input))
    end
end
"#;

/// One skill call from a script in this VM, as the values `BUILD_RESPONSE` takes.
fn call_values(lua: &Lua, shared: &Parts, caller: &Caller, name: &str, input: LuaValue) -> mlua::Result<ResponseValues> {
    let clock = shared.journal.stage_clock.as_ref();
    if let Some(clock) = clock {
        clock.start();
    }
    // One walk makes the JSON to validate and trace and a private copy for a handler in this VM.
    let converted = lua_to_json_with_copy(lua, &input, "input");
    lap(clock, Stage::Input);
    let (response, result) = match converted {
        Ok((json, copy)) => shared.invoke_from_lua(lua, caller, name, CallInput { json, lua: Some(copy) }),
        // Input that cannot become JSON is the caller's mistake, reported like any invalid input.
        Err(e) => (SkillResponse::failure(ErrorCode::InvalidInput, format!("invalid input for {name}: {e}")), None),
    };
    let values = shared.scripts.responses.values(lua, response, result);
    if let Some(clock) = clock {
        clock.response_values_done();
    }
    values
}

/// Builds the response tables `limina.call` returns:
/// `{success, result?, error?{code, message}, metadata{executionTimeMs, eventsEmitted}}`.
///
/// Hot (one per call): the tables are made by one small Luau function, in the order and sizes
/// they always had, instead of a dozen table writes through the API; event type names are Lua
/// strings made once. The tables are new each time (a script may keep or change its response).
pub(crate) struct LuaResponses {
    /// `BUILD_RESPONSE`.
    pub(crate) build: mlua::Function,
    /// Event types seen so far, as Lua strings (an open set: bounded by starting over).
    event_types: RefCell<HashMap<Rc<str>, LuaString>>,
    /// The most recently used of them, newest first, matched by pointer.
    recent: RefCell<Vec<(Rc<str>, LuaString)>>,
}

/// How many event types `LuaResponses` matches by pointer (a call emits a few kinds).
const RECENT_EVENT_TYPES: usize = 4;

/// `BUILD_RESPONSE`'s arguments: success, result, code, message, executionTimeMs, event types.
type ResponseValues = (bool, LuaValue, Option<&'static str>, Option<String>, f64, mlua::Variadic<LuaString>);

/// `build(success, result, code, message, executionTimeMs, eventType...)`.
const BUILD_RESPONSE: &str = r#"
return function(success, result, code, message, ms, ...)
    local err = nil
    if code ~= nil then
        err = { code = code, message = message }
    end
    return { success = success, result = result, error = err, metadata = { executionTimeMs = ms, eventsEmitted = { ... } } }
end
"#;

/// Most event type names `LuaResponses` keeps.
const MAX_EVENT_TYPES: usize = 1024;

impl LuaResponses {
    /// Call before scripts run in `lua`.
    pub(crate) fn new(lua: &Lua) -> mlua::Result<Self> {
        Ok(Self {
            build: lua.load(BUILD_RESPONSE).set_name("=limina.response").eval()?,
            event_types: RefCell::new(HashMap::new()),
            recent: RefCell::new(Vec::with_capacity(RECENT_EVENT_TYPES)),
        })
    }

    /// The response as a table; `result` is the handler's result already copied into this VM
    /// (else the JSON result is converted).
    #[cfg(test)]
    pub(crate) fn to_lua(&self, lua: &Lua, r: &SkillResponse, result: Option<LuaValue>) -> mlua::Result<Table> {
        self.build.call(self.values(lua, r.clone(), result)?)
    }

    /// The response as `BUILD_RESPONSE`'s arguments.
    pub(crate) fn values(&self, lua: &Lua, r: SkillResponse, result: Option<LuaValue>) -> mlua::Result<ResponseValues> {
        let result = match (&r.result, result) {
            (None, _) => LuaValue::Nil,
            (Some(_), Some(copy)) => copy,
            (Some(json), None) => json_to_lua(lua, json)?,
        };
        let (code, message) = match r.error {
            Some(e) => (Some(e.code.as_str()), Some(e.message)),
            None => (None, None),
        };
        let events = r.metadata.events_emitted.iter().map(|e| self.event_type(lua, e)).collect::<mlua::Result<mlua::Variadic<_>>>()?;
        Ok((r.success, result, code, message, r.metadata.execution_time_ms, events))
    }

    fn event_type(&self, lua: &Lua, name: &Rc<str>) -> mlua::Result<LuaString> {
        // The trace interns its type names, so the same allocation comes back call after call:
        // the last few are found by pointer, without hashing the text.
        if let Some((_, s)) = self.recent.borrow().iter().find(|(n, _)| Rc::ptr_eq(n, name)) {
            return Ok(s.clone());
        }
        let cached = self.event_types.borrow().get(name).cloned();
        let s = match cached {
            Some(s) => s,
            None => {
                let s = lua.create_string(&**name)?;
                let mut types = self.event_types.borrow_mut();
                if types.len() >= MAX_EVENT_TYPES {
                    types.clear();
                }
                types.insert(Rc::clone(name), s.clone());
                s
            }
        };
        let mut recent = self.recent.borrow_mut();
        if recent.len() >= RECENT_EVENT_TYPES {
            recent.pop();
        }
        recent.insert(0, (Rc::clone(name), s.clone()));
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skills::{ResponseMetadata, SkillFailure};
    use serde_json::json;

    /// The table as the Rust-built response had it: keys in `pairs` order, values, metatables.
    fn describe(lua: &Lua, t: &Table) -> String {
        crate::script::copy::tests::describe(lua, &LuaValue::Table(t.clone()))
    }

    /// The response table as it was built before, through the API, field by field.
    fn reference(lua: &Lua, r: &SkillResponse) -> Table {
        let t = lua.create_table_with_capacity(0, 4).unwrap();
        t.raw_set("success", r.success).unwrap();
        if let Some(result) = &r.result {
            t.raw_set("result", json_to_lua(lua, result).unwrap()).unwrap();
        }
        if let Some(error) = &r.error {
            let e = lua.create_table_with_capacity(0, 2).unwrap();
            e.raw_set("code", error.code.as_str()).unwrap();
            e.raw_set("message", error.message.as_str()).unwrap();
            t.raw_set("error", e).unwrap();
        }
        let m = lua.create_table_with_capacity(0, 2).unwrap();
        m.raw_set("executionTimeMs", r.metadata.execution_time_ms).unwrap();
        let events = lua.create_table_with_capacity(r.metadata.events_emitted.len(), 0).unwrap();
        for (i, e) in r.metadata.events_emitted.iter().enumerate() {
            events.raw_set(i + 1, &**e).unwrap();
        }
        m.raw_set("eventsEmitted", events).unwrap();
        t.raw_set("metadata", m).unwrap();
        t
    }

    #[test]
    fn responses_are_the_tables_they_always_were() {
        let lua = Lua::new();
        let responses = LuaResponses::new(&lua).unwrap();
        let events = |names: &[&str]| names.iter().map(|n| Rc::from(*n)).collect::<Vec<Rc<str>>>();
        let ok = SkillResponse {
            success: true,
            result: Some(json!({"ok": true, "list": [1, 2], "empty": []})),
            error: None,
            metadata: ResponseMetadata { execution_time_ms: 0.25, events_emitted: events(&["policy.decision", "skill.executed"]) },
        };
        let failed = SkillResponse {
            success: false,
            result: None,
            error: Some(SkillFailure { code: ErrorCode::Forbidden, message: "missing permission: ecs.modify".into() }),
            metadata: ResponseMetadata { execution_time_ms: 0.0, events_emitted: events(&["policy.denied", "security.permission.denied"]) },
        };
        let silent = SkillResponse::failure(ErrorCode::NotFound, "no skill named 'x'");
        for r in [&ok, &failed, &silent] {
            let built = responses.to_lua(&lua, r, None).unwrap();
            assert_eq!(describe(&lua, &built), describe(&lua, &reference(&lua, r)));
        }
        // A result already copied into the VM is used as it is.
        let copy = lua.create_table().unwrap();
        let built = responses.to_lua(&lua, &ok, Some(LuaValue::Table(copy.clone()))).unwrap();
        assert_eq!(built.raw_get::<Table>("result").unwrap().to_pointer(), copy.to_pointer());
    }
}
