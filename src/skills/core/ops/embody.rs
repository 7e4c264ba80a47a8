//! The native ops behind embodiment (`agent.embody`, `agent.release`) and an agent's look at
//! the world (`agent.perceive`), added to the `agents` ops table.
//!
//! Embodying makes an agent's provider `client`, so the scheduler never asks anyone to decide
//! for it: the client's calls are its decisions. Which client holds it is not world state: the
//! MCP dispatcher claims the agent after the call succeeds (checking again, here, through
//! `Agents::may_embody`) and switches the session's caller to the agent. These ops only change
//! the world: they make or take the agent, and refuse whatever the caller may not do.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use mlua::{Lua, Table, Value as LuaValue};
use serde_json::{Value, json};

use super::agents::{caller_permissions, spawn};
use crate::agents::hearing::{EARSHOT_M, MAX_LOOK};
use crate::agents::perception::MAX_NEARBY;
use crate::agents::record::ProviderKind;
use crate::agents::table::{Agents, EmbodyRefused};
use crate::policy::{Permission, PolicyEngine, Profile};
use crate::script::convert::{blob, lua_to_json};
use crate::skills::{ErrorCode, HandlerFailure};
use crate::world::{EntityId, NearQuery, World};

fn fail(code: ErrorCode, message: impl Into<String>) -> mlua::Error {
    HandlerFailure::new(code, message).into_lua()
}

/// The code an embodiment refusal carries.
pub(crate) fn refusal_code(why: &EmbodyRefused) -> ErrorCode {
    match why {
        EmbodyRefused::NoSuchAgent { .. } => ErrorCode::NotFound,
        EmbodyRefused::NotAPlayer { .. } | EmbodyRefused::NotClientDriven { .. } => ErrorCode::InvalidInput,
        EmbodyRefused::Embodied { .. } | EmbodyRefused::NotYours(_) | EmbodyRefused::Beyond { .. } => ErrorCode::Forbidden,
    }
}

/// The permissions of `profile` the caller does not hold (an embodied agent acts within its
/// client's credential: never more).
fn beyond(profile: Profile, held: crate::policy::PermissionSet) -> Vec<&'static str> {
    profile.permissions().iter().filter(|p| !held.contains(*p)).map(Permission::as_str).collect()
}

/// Adds `embody`, `release` and `perceive` to the `agents` ops table.
pub(crate) fn add(
    lua: &Lua,
    ops: &Table,
    agents: &Rc<RefCell<Agents>>,
    world: &Rc<RefCell<World>>,
    policy: &Rc<RefCell<PolicyEngine>>,
) -> mlua::Result<()> {
    let (a, w, p) = (Rc::clone(agents), Rc::clone(world), Rc::clone(policy));
    ops.set(
        "embody",
        lua.create_function(move |lua, (input, ctx): (Table, Table)| {
            let caller: String = ctx.get("agentId")?;
            let session: String = ctx.get("sessionId")?;
            // An in-world agent has a brain already; one embodying others would be a spawn or a
            // takeover that `agentsMaySpawn` and the owners never agreed to.
            if a.borrow().get(&caller).is_some() {
                return Err(fail(ErrorCode::Forbidden, format!("{caller} is an in-world agent; only outside clients embody agents")));
            }
            let held = caller_permissions(&ctx)?;
            let operator = held.contains(Permission::PolicyGovern);
            let taken: Option<String> = input.get("agentId")?;
            let id = match taken {
                Some(id) => {
                    for field in ["id", "entity", "body", "profile"] {
                        if !matches!(input.get::<LuaValue>(field)?, LuaValue::Nil) {
                            return Err(super::invalid(format!(
                                "{field}: describes a new agent; with agentId ({id}) the existing agent is taken as it is"
                            )));
                        }
                    }
                    let mut agents = a.borrow_mut();
                    let record = agents.may_embody(&id, &caller, &session, operator).map_err(|why| fail(refusal_code(&why), why.to_string()))?;
                    let excess = if operator { Vec::new() } else { beyond(record.profile, held) };
                    if !excess.is_empty() {
                        return Err(fail(
                            ErrorCode::Forbidden,
                            format!(
                                "agent {id} acts under profile {}, which grants {} that the caller does not hold: a client embodies only an agent within its own credential",
                                record.profile,
                                excess.join(", ")
                            ),
                        ));
                    }
                    // From now on the client decides: no decision of the old brain is awaited
                    // (a late answer is discarded by its generation) and none it queued runs.
                    let Some(record) = agents.get_mut(&id) else { return Err(fail(ErrorCode::NotFound, format!("no agent {id}"))) };
                    record.llm.provider = ProviderKind::Client;
                    record.llm.model.clear();
                    record.in_flight = None;
                    record.queue.clear();
                    id
                }
                None => {
                    let fields = lua.create_table()?;
                    for pair in input.pairs::<LuaValue, LuaValue>() {
                        let (k, v) = pair?;
                        fields.raw_set(k, v)?;
                    }
                    // A new agent with the caller's profile unless it names a narrower one.
                    if fields.raw_get::<Option<String>>("profile")?.is_none() {
                        let own: String = ctx.get("profile")?;
                        fields.raw_set("profile", if Profile::parse(&own).is_some() { own } else { "player.limited".into() })?;
                    }
                    let llm = lua.create_table()?;
                    llm.raw_set("provider", "client")?;
                    fields.raw_set("llm", llm)?;
                    fields.raw_set("type", "player")?;
                    let made = spawn(lua, &a, &w, &p, fields, ctx)?;
                    made.get("agentId")?
                }
            };
            let agents = a.borrow();
            let Some(record) = agents.get(&id) else { return Err(fail(ErrorCode::NotFound, format!("no agent {id}"))) };
            let mut out = json!({
                "agentId": &*record.id,
                "sessionId": &*record.session_id,
                "profile": record.profile.as_str(),
                "earshot": EARSHOT_M,
            });
            if let Some(e) = record.entity {
                out["entity"] = json!(e.to_string());
            }
            blob(lua, out)
        })?,
    )?;

    let a = Rc::clone(agents);
    ops.set(
        "release",
        lua.create_function(move |lua, ctx: Table| {
            let caller: String = ctx.get("agentId")?;
            let agents = a.borrow();
            let embodied = agents.get(&caller).is_some_and(|r| r.llm.provider == ProviderKind::Client) && agents.embodied.is_held(&caller);
            if !embodied {
                return Err(fail(
                    ErrorCode::HandlerError,
                    format!("{caller} is not an embodied agent: agent.release is called by a client embodying one (see agent.embody)"),
                ));
            }
            blob(lua, json!({"released": caller, "idle": true}))
        })?,
    )?;

    let (a, w) = (Rc::clone(agents), Rc::clone(world));
    ops.set(
        "perceive",
        lua.create_function(move |lua, (input, ctx): (Table, Table)| {
            let caller: String = ctx.get("agentId")?;
            let tick: u64 = ctx.get("tick")?;
            let value = lua_to_json(lua, &LuaValue::Table(input), "input").map_err(|e| super::invalid(e.to_string()))?;
            let cursor = value.get("cursor").and_then(Value::as_u64);
            let max = value.get("max").and_then(Value::as_u64).map_or(MAX_LOOK, |m| (m as usize).clamp(1, MAX_LOOK));
            let world = w.borrow();
            let mut agents = a.borrow_mut();
            let Some(record) = agents.get(&caller) else {
                return Err(fail(
                    ErrorCode::HandlerError,
                    format!(
                        "{caller} is not an agent in the world: agent.perceive looks through an agent's eyes (embody one with agent.embody)"
                    ),
                ));
            };
            let body = record.entity.and_then(|e| world.transform(e).map(|t| (e, t.position.map(f64::from))));
            let radius = record.perception_radius;
            let mut nearby = Vec::new();
            if let Some((entity, center)) = body {
                let query = NearQuery { center, radius, exclude: Some(entity), nearest: Some(MAX_NEARBY) };
                // Radii and positions are bounded, so the grid cannot refuse this; if it ever
                // did, the agent would see no one rather than fail the look.
                let hits = world.query_near_batch(&[query]).ok().and_then(|mut v| v.pop()).unwrap_or_default();
                let inhabitants: HashMap<EntityId, &str> = agents.iter().filter_map(|r| Some((r.entity?, &*r.id))).collect();
                for hit in hits.into_iter().take(MAX_NEARBY) {
                    let mut seen = json!({"id": hit.id.to_string(), "position": hit.position, "distance": hit.distance});
                    if let Some(agent) = inhabitants.get(&hit.id) {
                        seen["agent"] = json!(agent);
                    }
                    nearby.push(seen);
                }
            }
            let mut out = json!({
                "agentId": caller,
                "tick": tick,
                "perceptionRadius": radius,
                "earshot": EARSHOT_M,
                "nearby": nearby,
            });
            if let Some((entity, position)) = body {
                out["entity"] = json!(entity.to_string());
                out["position"] = json!(position);
            }
            let look = agents.inbox_mut(&caller).map(|inbox| inbox.look(cursor, max));
            if let Some(look) = look {
                out["happened"] = serde_json::to_value(&look.items).unwrap_or_default();
                out["cursor"] = json!(look.cursor);
                out["dropped"] = json!(look.dropped);
                out["more"] = json!(look.more);
            }
            blob(lua, out)
        })?,
    )?;
    Ok(())
}
