//! The `policy` ops behind the governance skills (`policy.revoke`, `policy.restore`,
//! `policy.quota`, `policy.budget`, `policy.clearQuotas`, `policy.snapshot`, `policy.agents`). Changing who may
//! do what is itself a skill call: permission-checked (`policy.govern`, which no profile holds),
//! decided and traced like any other, and every change is recorded as `policy.changed`, caused
//! by the decision that allowed it.

use std::cell::RefCell;
use std::rc::Rc;

use mlua::{Lua, Table};
use serde_json::{Value, json};

use super::invalid;
use crate::policy::{BudgetLimits, CapRevocation, PolicyEngine, QuotaRule};
use crate::script::convert::{blob, lua_to_json};
use crate::trace::{EventDraft, EventKind, TraceLog};

/// Who made a change: the calling skill's `ctx`.
fn record(trace: &RefCell<TraceLog>, ctx: &Table, change: &Value) -> mlua::Result<()> {
    let actor: String = ctx.get("agentId")?;
    let thread: String = ctx.get("sessionId")?;
    let tick: u64 = ctx.get("tick")?;
    let cause: Option<String> = ctx.get("decisionId")?;
    let draft = EventDraft::new(EventKind::PolicyChanged.as_str(), &actor).thread(&thread).caused_by(cause.into_iter().collect());
    trace.borrow_mut().emit(draft, tick, change);
    Ok(())
}

fn text(input: &Value, key: &str) -> Option<String> {
    input.get(key).and_then(Value::as_str).map(str::to_string)
}

pub(crate) fn create(
    lua: &Lua,
    policy: Rc<RefCell<PolicyEngine>>,
    trace: Rc<RefCell<TraceLog>>,
    agents: Rc<RefCell<crate::agents::table::Agents>>,
) -> mlua::Result<Table> {
    let ops = lua.create_table()?;

    // agents{agentsMaySpawn?, maxModelCallsPerSpawner?}: what in-world agents may do, engine-wide.
    let (a, t) = (Rc::clone(&agents), Rc::clone(&trace));
    ops.set(
        "agents",
        lua.create_function(move |lua, (input, ctx): (Table, Table)| {
            let input = lua_to_json(lua, &mlua::Value::Table(input), "input").map_err(|e| invalid(e.to_string()))?;
            let scheduler = {
                let mut agents = a.borrow_mut();
                if let Some(may) = input.get("agentsMaySpawn").and_then(Value::as_bool) {
                    agents.scheduler.agents_may_spawn = may;
                }
                if let Some(n) = input.get("maxModelCallsPerSpawner").and_then(Value::as_f64) {
                    agents.scheduler.max_model_calls_per_spawner = n as u64;
                }
                agents.scheduler
            };
            let change = json!({
                "op": "agents",
                "agentsMaySpawn": scheduler.agents_may_spawn,
                "maxModelCallsPerSpawner": scheduler.max_model_calls_per_spawner,
            });
            record(&t, &ctx, &change)?;
            Ok(true)
        })?,
    )?;

    // revoke{sessionId} | revoke{agentId} | revoke{cap, sessionId?, agentId?, package?};
    // restore{...} undoes the same scope.
    for (op, revoke) in [("revoke", true), ("restore", false)] {
        let (p, t) = (Rc::clone(&policy), Rc::clone(&trace));
        ops.set(
            op,
            lua.create_function(move |lua, (input, ctx): (Table, Table)| {
                let input = lua_to_json(lua, &mlua::Value::Table(input), "input").map_err(|e| invalid(e.to_string()))?;
                let (session, agent, package, cap) =
                    (text(&input, "sessionId"), text(&input, "agentId"), text(&input, "package"), text(&input, "cap"));
                if package.is_some() && cap.is_none() {
                    return Err(invalid("a package revocation names the capability (cap = ...)"));
                }
                let mut engine = p.borrow_mut();
                let target = match (cap, session, agent) {
                    (Some(cap), session, agent) => {
                        let r = CapRevocation {
                            session_id: session.clone(),
                            agent_id: agent.clone(),
                            package: package.clone(),
                            cap: cap.clone(),
                        };
                        if revoke {
                            engine.revoke_cap(r);
                        } else {
                            engine.restore_cap(&r);
                        }
                        json!({"cap": cap, "sessionId": session, "agentId": agent, "package": package})
                    }
                    (None, Some(session), None) => {
                        if revoke {
                            engine.revoke_session(&session);
                        } else {
                            engine.restore_session(&session);
                        }
                        json!({"sessionId": session})
                    }
                    (None, None, Some(agent)) => {
                        if revoke {
                            engine.revoke_agent(&agent);
                        } else {
                            engine.restore_agent(&agent);
                        }
                        json!({"agentId": agent})
                    }
                    _ => return Err(invalid(format!("policy.{op} needs {{sessionId}}, {{agentId}} or {{cap, sessionId?, agentId?}}"))),
                };
                drop(engine);
                record(&t, &ctx, &json!({"op": op, "target": target}))?;
                Ok(true)
            })?,
        )?;
    }

    let (p, t) = (Rc::clone(&policy), Rc::clone(&trace));
    ops.set(
        "quota",
        lua.create_function(move |lua, (input, ctx): (Table, Table)| {
            let input = lua_to_json(lua, &mlua::Value::Table(input), "input").map_err(|e| invalid(e.to_string()))?;
            let number = |key: &str| input.get(key).and_then(Value::as_u64);
            let (Some(limit), Some(window)) = (number("limit"), number("windowTicks")) else {
                return Err(invalid("limit and windowTicks must be whole numbers"));
            };
            let limit = u32::try_from(limit).map_err(|_| invalid(format!("limit {limit} is above {}", u32::MAX)))?;
            let rule = QuotaRule { session_id: text(&input, "sessionId"), cap: text(&input, "cap"), limit, window_ticks: window };
            let change = json!({"op": "quota", "sessionId": rule.session_id, "cap": rule.cap, "limit": rule.limit, "windowTicks": rule.window_ticks});
            p.borrow_mut().add_quota(rule);
            record(&t, &ctx, &change)?;
            Ok(true)
        })?,
    )?;

    let (p, t) = (Rc::clone(&policy), Rc::clone(&trace));
    ops.set(
        "budget",
        lua.create_function(move |lua, (input, ctx): (Table, Table)| {
            let input = lua_to_json(lua, &mlua::Value::Table(input), "input").map_err(|e| invalid(e.to_string()))?;
            let session = text(&input, "sessionId").ok_or_else(|| invalid("sessionId is required"))?;
            let limits = BudgetLimits {
                calls: input.get("calls").and_then(Value::as_f64).map(|n| n as u64),
                cpu_ms: input.get("cpuMs").and_then(Value::as_f64),
                memory_bytes: input.get("memoryBytes").and_then(Value::as_f64).map(|n| n as u64),
            };
            p.borrow_mut().set_budget(&session, limits);
            let change = json!({"op": "budget", "sessionId": session, "calls": limits.calls, "cpuMs": limits.cpu_ms, "memoryBytes": limits.memory_bytes});
            record(&t, &ctx, &change)?;
            Ok(true)
        })?,
    )?;

    let (p, t) = (Rc::clone(&policy), Rc::clone(&trace));
    ops.set(
        "clear_quotas",
        lua.create_function(move |_, ctx: Table| {
            p.borrow_mut().clear_quotas();
            record(&t, &ctx, &json!({"op": "clearQuotas"}))?;
            Ok(true)
        })?,
    )?;

    let p = Rc::clone(&policy);
    ops.set("snapshot", lua.create_function(move |lua, ()| blob(lua, p.borrow().snapshot()))?)?;

    ops.set_readonly(true);
    Ok(ops)
}
