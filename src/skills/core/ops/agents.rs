//! The native ops behind the `agent.*` skills: spawning and removing agents (records are world
//! state, so these are the only writers), listing them, and reading an agent's perception.
//!
//! `spawn` checks everything before it changes anything, so a refused spawn leaves no body and
//! no record behind: the profile may not grant more than the caller holds, a scripted agent's
//! policy must exist, the id must be free and under the agent cap, and an inhabited entity must
//! exist and not be inhabited already.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use mlua::{Lua, Table, Value as LuaValue};
use serde_json::{Value, json};

use super::invalid;
use super::world::{entity_spec, world_failure};
use crate::agents::budget::{AgentBudget, BudgetBounds};
use crate::agents::claims::ReservedForm;
use crate::agents::record::{AgentKind, AgentRecord, LlmConfig, MAX_DELEGATION, ProviderKind};
use crate::agents::table::{AgentTableError, Agents};
use crate::policy::{Permission, PermissionSet, PolicyEngine, Principal, Profile};
use crate::script::convert::{blob, lua_to_json};
use crate::skills::{ErrorCode, HandlerFailure};
use crate::world::{RenderShape, World};

fn fail(code: ErrorCode, message: impl Into<String>) -> mlua::Error {
    HandlerFailure::new(code, message).into_lua()
}

/// The caller's effective permissions, from `ctx.permissions`.
pub(super) fn caller_permissions(ctx: &Table) -> mlua::Result<PermissionSet> {
    let mut set = PermissionSet::EMPTY;
    let names: Table = ctx.get("permissions")?;
    for name in names.sequence_values::<String>() {
        if let Some(p) = Permission::parse(&name?) {
            set.insert(p);
        }
    }
    Ok(set)
}

/// A spawn's budget: the engine default, with the fields the call gave (already within the
/// schema's bounds, re-checked here because the bounds are this module's).
fn budget(input: &Value, default: AgentBudget) -> mlua::Result<AgentBudget> {
    let mut b = default;
    let Some(given) = input.get("budget").and_then(Value::as_object) else { return Ok(b) };
    let count = |field: &str, max: usize| -> mlua::Result<Option<usize>> {
        match given.get(field).and_then(Value::as_u64) {
            Some(n) if n >= 1 && n as usize <= max => Ok(Some(n as usize)),
            Some(n) => Err(invalid(format!("budget.{field}: {n} is outside 1..={max}"))),
            None => Ok(None),
        }
    };
    if let Some(w) = given.get("weight").and_then(Value::as_f64) {
        let (lo, hi) = BudgetBounds::WEIGHT;
        if !(lo..=hi).contains(&w) {
            return Err(invalid(format!("budget.weight: {w} is outside {lo}..={hi}")));
        }
        b.weight = w;
    }
    b.max_queue_depth = count("maxQueueDepth", BudgetBounds::QUEUE_DEPTH)?.unwrap_or(b.max_queue_depth);
    b.max_tool_calls_per_decision = count("maxToolCallsPerDecision", BudgetBounds::TOOL_CALLS)?.unwrap_or(b.max_tool_calls_per_decision);
    b.max_actions_per_tick = count("maxActionsPerTick", BudgetBounds::ACTIONS_PER_TICK)?.unwrap_or(b.max_actions_per_tick);
    if let Some(ms) = given.get("decisionTimeoutMs").and_then(Value::as_u64) {
        let (lo, hi) = BudgetBounds::TIMEOUT_MS;
        if !(lo..=hi).contains(&ms) {
            return Err(invalid(format!("budget.decisionTimeoutMs: {ms} is outside {lo}..={hi}")));
        }
        b.decision_timeout_ms = ms;
    }
    Ok(b)
}

fn text<'a>(value: &'a Value, field: &str) -> Option<&'a str> {
    value.get(field).and_then(Value::as_str)
}

/// Refuses (`forbidden`) removing agent `id` or its body for a caller that does not own it (see
/// `Agents::may_remove`); the operator may remove any.
fn may_remove(agents: &Agents, id: &str, ctx: &Table) -> mlua::Result<()> {
    if caller_permissions(ctx)?.contains(Permission::PolicyGovern) {
        return Ok(());
    }
    let (agent_id, session_id): (String, String) = (ctx.get("agentId")?, ctx.get("sessionId")?);
    agents.may_remove(id, &agent_id, &session_id).map_err(|why| fail(ErrorCode::Forbidden, why.to_string()))
}

/// Puts an agent into the world (`agent.spawn`, and `agent.embody` making a body for a client):
/// everything is checked before anything changes.
pub(super) fn spawn(
    lua: &Lua,
    a: &RefCell<Agents>,
    w: &RefCell<World>,
    policy: &RefCell<PolicyEngine>,
    input: Table,
    ctx: Table,
) -> mlua::Result<Table> {
    let value = lua_to_json(lua, &LuaValue::Table(input.clone()), "input").map_err(|e| invalid(e.to_string()))?;
    let tick: u64 = ctx.get("tick")?;
    let spawned_by: String = ctx.get("agentId")?;
    let spawned_by_session: String = ctx.get("sessionId")?;
    // The profile: never more than the caller holds.
    let profile_name = text(&value, "profile").unwrap_or("player.limited");
    let profile = Profile::parse(profile_name).ok_or_else(|| {
        let names: Vec<&str> = Profile::ALL.iter().map(|p| p.as_str()).collect();
        invalid(format!("profile: unknown profile '{profile_name}' (profiles: {})", names.join(", ")))
    })?;
    let held = caller_permissions(&ctx)?;
    // In-world agents spawn only where the operator allows it: an agent that spawns
    // agents multiplies what one decision (or one prompt injection) can set going.
    if a.borrow().get(&spawned_by).is_some() && !a.borrow().scheduler.agents_may_spawn {
        return Err(fail(
            ErrorCode::Forbidden,
            format!(
                "{spawned_by} is an in-world agent, and in-world agents may not spawn agents on this engine (the operator allows it with agentsMaySpawn)"
            ),
        ));
    }
    // The operator (holder of policy.govern, which no profile grants) decides trust and
    // may put an agent of any profile into the world; everyone else only delegates what
    // it holds now: its profile's permissions, less any revoked from it or from whoever
    // it acts for (the agent will act for all of them).
    // The caller, then whoever it acts for when it is an agent: the new agent acts for all.
    let mut principals = vec![Principal { agent_id: spawned_by.as_str().into(), session_id: spawned_by_session.as_str().into() }];
    principals.extend(a.borrow().acting_for(&spawned_by).iter().cloned());
    // Never cut: a chain cut at its far end would act for everyone but its root, whose
    // revocations and budgets would then no longer reach it.
    if principals.len() > MAX_DELEGATION {
        return Err(fail(
            ErrorCode::CapacityExceeded,
            format!(
                "{spawned_by} already acts for {} spawners; an agent it spawned would act for {}, more than the {MAX_DELEGATION} an agent may",
                principals.len() - 1,
                principals.len()
            ),
        ));
    }
    let excess: Vec<String> = if held.contains(Permission::PolicyGovern) {
        Vec::new()
    } else {
        let policy = policy.borrow();
        profile
            .permissions()
            .iter()
            .filter_map(|p| match policy.withheld(&principals, p) {
                _ if !held.contains(p) => Some(p.as_str().to_string()),
                Some(why) => Some(format!("{} ({why})", p.as_str())),
                None => None,
            })
            .collect()
    };
    if !excess.is_empty() {
        return Err(fail(
            ErrorCode::Forbidden,
            format!(
                "profile {profile} grants {}, which the caller does not hold: an agent cannot be given more than its spawner has",
                excess.join(", ")
            ),
        ));
    }
    let kind = AgentKind::parse(text(&value, "type").unwrap_or("player")).ok_or_else(|| invalid("type: must be player or builder"))?;
    // The provider.
    let llm = value.get("llm").cloned().unwrap_or(Value::Null);
    let provider_name = text(&llm, "provider").unwrap_or("scripted");
    let provider = ProviderKind::parse(provider_name).ok_or_else(|| {
        invalid(format!("llm.provider: unknown provider '{provider_name}' (providers: {})", ProviderKind::NAMES.join(", ")))
    })?;
    let model = text(&llm, "model").unwrap_or_default().to_string();
    let system_prompt = text(&llm, "systemPrompt").unwrap_or_default().to_string();
    if provider == ProviderKind::Scripted && a.borrow().scripted(&model).is_none() && !a.borrow().replaying {
        let names = a.borrow().scripted_names().join(", ");
        return Err(invalid(format!(
            "llm.model: no scripted policy named '{model}' (registered: {}); the host script registers one with limina.scripted_policy(name, fn)",
            if names.is_empty() { "none" } else { &names }
        )));
    }
    let budget = budget(&value, a.borrow().scheduler.default_agent_budget)?;
    let skills = skill_choice(&value)?;
    // The id and the room for it.
    let id = match text(&value, "id") {
        // `agt_mcpN` is MCP connection N's default identity and `agt_sessionN` a script
        // session's: an agent under one would share its name (and its calls) with that
        // client or session, even one not made yet; `sys_…`/`engine…` read as the
        // engine's own. In any case. Identities in use now (the host script's
        // `agt_script` among them) are held claims, checked with the room. An explicit
        // `agt_0007` is fine: the counter moves past it.
        Some(id) => match crate::agents::claims::reserved_agent_form(id, None) {
            Some(ReservedForm::Connection(..) | ReservedForm::ScriptSession(_)) => {
                return Err(fail(
                    ErrorCode::InvalidInput,
                    format!("id: {id} is reserved for the default identities of MCP clients (agt_mcp…) and script sessions (agt_session…)"),
                ));
            }
            Some(form @ ReservedForm::Engine(_)) => {
                return Err(fail(ErrorCode::InvalidInput, format!("id: {}; choose another id", form.refusal(id))));
            }
            Some(ReservedForm::GeneratedAgent | ReservedForm::AgentSession) | None => id.to_string(),
        },
        None => a.borrow().next_id(),
    };
    a.borrow().check_room(&id).map_err(|e| {
        let code = match e {
            AgentTableError::CapacityExceeded { .. } => ErrorCode::CapacityExceeded,
            AgentTableError::Taken { .. } | AgentTableError::HeldByClient { .. } => ErrorCode::InvalidInput,
        };
        fail(code, e.to_string())
    })?;
    // The body: an existing entity, or a new dynamic one.
    let given_entity = text(&value, "entity").map(str::to_string);
    let body: Option<Table> = input.get("body")?;
    let entity = match (given_entity, body) {
        (Some(_), Some(_)) => return Err(invalid("entity and body cannot both be given: inhabit an entity, or have one made")),
        (Some(e), None) => {
            let id = super::world::entity_arg(&w.borrow(), "entity", &e)?;
            if let Some(other) = a.borrow().iter().find(|r| r.entity == Some(id)) {
                return Err(invalid(format!("entity: {e} is already inhabited by {}", other.id)));
            }
            Some(id)
        }
        (None, Some(body)) => {
            let shape: String = body.get::<Option<String>>("shape")?.unwrap_or_else(|| "capsule".into());
            let shape = RenderShape::parse(&shape).ok_or_else(|| invalid(format!("body.shape: unknown shape '{shape}'")))?;
            body.set("dynamic", true)?;
            let upright = body.get::<Option<bool>>("upright")?.unwrap_or(true);
            let spec = entity_spec(&body, shape)?;
            let mut world = w.borrow_mut();
            let made = world.create_entity(&spec).map_err(world_failure)?;
            // A walker stands: locked against tipping and rolling, free to turn.
            if upright {
                world.keep_upright(made);
            }
            Some(made)
        }
        (None, None) => None,
    };
    let perception_radius = value.get("perceptionRadius").and_then(Value::as_f64).unwrap_or(15.0);
    let decision_interval_ticks = value.get("decisionIntervalTicks").and_then(Value::as_u64).unwrap_or(30).max(1);
    let id: Rc<str> = id.into();
    let session_id: Rc<str> = format!("ses_{id}").into();
    let record = AgentRecord {
        id: Rc::clone(&id),
        kind,
        entity,
        perception_radius,
        decision_interval_ticks,
        profile,
        session_id: Rc::clone(&session_id),
        llm: LlmConfig { provider, model, system_prompt },
        budget,
        spawned_by: spawned_by.into(),
        acting_for: principals.into(),
        spawned_tick: tick,
        perception: None,
        in_flight: None,
        last_decision_tick: None,
        queue: VecDeque::new(),
        previous_results: VecDeque::new(),
        generation: 0,
        deficit: 0.0,
        seen_seq: 0,
        approach: None,
        skills,
        active_skills: Default::default(),
    };
    // Checked above with no change in between, so this cannot fail.
    a.borrow_mut().insert(record).map_err(|e| invalid(e.to_string()))?;
    let out = lua.create_table()?;
    out.set("agentId", &*id)?;
    out.set("sessionId", &*session_id)?;
    if let Some(e) = entity {
        out.set("entity", e.to_string())?;
    }
    Ok(out)
}

/// The spawn's `skills`: which instruction skills the agent may list and read.
fn skill_choice(value: &Value) -> mlua::Result<crate::agents::instructions::SkillChoice> {
    let ids = |field: &str| -> Vec<String> {
        value
            .get("skills")
            .and_then(|s| s.get(field))
            .and_then(Value::as_array)
            .map(|list| list.iter().filter_map(Value::as_str).map(str::to_string).collect())
            .unwrap_or_default()
    };
    crate::agents::instructions::SkillChoice::new(ids("enabled"), ids("disabled")).map_err(|e| invalid(e.to_string()))
}

/// Builds the `agents` ops table.
pub(crate) fn create(
    lua: &Lua,
    agents: Rc<RefCell<Agents>>,
    world: Rc<RefCell<World>>,
    policy: Rc<RefCell<PolicyEngine>>,
) -> mlua::Result<Table> {
    let ops = lua.create_table()?;

    let (a, w, p) = (Rc::clone(&agents), Rc::clone(&world), Rc::clone(&policy));
    ops.set("spawn", lua.create_function(move |lua, (input, ctx): (Table, Table)| spawn(lua, &a, &w, &p, input, ctx))?)?;

    let (a, w) = (Rc::clone(&agents), Rc::clone(&world));
    ops.set(
        "despawn",
        lua.create_function(move |_, (id, remove_body, ctx): (String, bool, Table)| {
            let tick: u64 = ctx.get("tick")?;
            may_remove(&a.borrow(), &id, &ctx)?;
            let Some(record) = a.borrow_mut().remove(&id) else { return Ok(false) };
            if remove_body && let Some(entity) = record.entity {
                w.borrow_mut().destroy_entity(entity, tick);
            }
            Ok(true)
        })?,
    )?;

    // Destroying an agent's body is removing part of the agent: the same owners may.
    let (a, w) = (Rc::clone(&agents), Rc::clone(&world));
    ops.set(
        "check_body",
        lua.create_function(move |_, (entity, ctx): (String, Table)| {
            let Some(entity) = crate::world::EntityId::parse(&entity) else { return Ok(()) };
            if w.borrow().transform(entity).is_none() {
                return Ok(());
            }
            let agents = a.borrow();
            let Some(id) = agents.inhabitant(entity).map(|r| Rc::clone(&r.id)) else { return Ok(()) };
            may_remove(&agents, &id, &ctx)
        })?,
    )?;

    // An inhabited entity that is destroyed leaves its agent bodiless (it lives on, perceiving
    // nothing of its own position, as an agent spawned without a body does).
    let a = Rc::clone(&agents);
    ops.set(
        "vacate",
        lua.create_function(move |_, entity: String| {
            let Some(entity) = crate::world::EntityId::parse(&entity) else { return Ok(None) };
            let mut agents = a.borrow_mut();
            let Some(id) = agents.iter().find(|r| r.entity == Some(entity)).map(|r| Rc::clone(&r.id)) else { return Ok(None) };
            if let Some(r) = agents.get_mut(&id) {
                r.entity = None;
            }
            Ok(Some(id.to_string()))
        })?,
    )?;

    let a = Rc::clone(&agents);
    ops.set(
        "list",
        lua.create_function(move |lua, ()| {
            let rows: Vec<Value> = a.borrow().iter().map(|r| r.summary()).collect();
            blob(lua, json!({"agents": rows}))
        })?,
    )?;

    let a = Rc::clone(&agents);
    ops.set(
        "perception",
        lua.create_function(move |lua, id: String| {
            let perception =
                a.borrow().get(&id).and_then(|r| r.perception.as_ref()).map(|p| serde_json::to_value(p).unwrap_or(Value::Null));
            blob(lua, json!({"perception": perception}))
        })?,
    )?;

    super::embody::add(lua, &ops, &agents, &world, &policy)?;
    ops.set_readonly(true);
    Ok(ops)
}
