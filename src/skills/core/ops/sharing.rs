//! The lease ops behind `scene.lease` and `scene.release` (added to the `world` ops table). The
//! pipeline refuses writes over a lease (`skills::sharing`); these grant and give leases back.
//!
//! A lease is all or nothing: every id is resolved, every rule checked, and only then is
//! anything granted. Rules beyond `world::sharing`'s bounds: an entity an in-world agent
//! inhabits is leased only by that agent, the sessions it acts for, or the operator (so one
//! session cannot freeze another's agent in place); and a session releases only what it (or a
//! session it acts for) holds, unless it is the operator.

use std::cell::RefCell;
use std::rc::Rc;

use mlua::{Lua, Table};
use serde::Serialize;

use super::invalid;
use super::world::entity_arg;
use crate::agents::table::Agents;
use crate::policy::Permission;
use crate::skills::{ErrorCode, HandlerFailure};
use crate::trace::{EventDraft, EventKind, TraceLog};
use crate::world::sharing::{LeaseError, MAX_LEASE_ENTITIES};
use crate::world::{EntityId, World};

/// Who is calling, as the op reads it from `ctx`.
struct Who {
    agent: String,
    session: String,
    tick: u64,
    operator: bool,
    /// The sessions an in-world agent acts for (empty for anyone else).
    acting_for: Vec<String>,
}

impl Who {
    fn read(ctx: &Table, agents: &Agents) -> mlua::Result<Who> {
        let agent: String = ctx.get("agentId")?;
        let permissions: Table = ctx.get("permissions")?;
        let mut operator = false;
        for name in permissions.sequence_values::<String>() {
            operator |= Permission::parse(&name?) == Some(Permission::PolicyGovern);
        }
        let acting_for = agents.acting_for(&agent).iter().map(|p| p.session_id.to_string()).collect();
        Ok(Who { session: ctx.get("sessionId")?, tick: ctx.get("tick")?, agent, operator, acting_for })
    }

    /// Holds (as itself or a delegate) what session `holder` holds.
    fn holds(&self, holder: &str) -> bool {
        self.session.eq_ignore_ascii_case(holder) || self.acting_for.iter().any(|s| s.eq_ignore_ascii_case(holder))
    }
}

fn fail(code: ErrorCode, message: String) -> mlua::Error {
    HandlerFailure::new(code, message).into_lua()
}

/// The ids a validated `entities` list names, resolved to live entities (`field[i]` in errors).
fn live_ids(world: &World, list: &Table) -> mlua::Result<Vec<EntityId>> {
    let mut ids = Vec::new();
    for (i, text) in list.sequence_values::<String>().enumerate() {
        if i >= MAX_LEASE_ENTITIES {
            return Err(invalid(format!("entities: more than {MAX_LEASE_ENTITIES} ids")));
        }
        ids.push(entity_arg(world, &format!("entities[{i}]"), &text?)?);
    }
    Ok(ids)
}

#[derive(Serialize)]
struct Granted<'a> {
    agent: &'a str,
    entities: Vec<String>,
    expires: u64,
    holder: &'a str,
    ticks: u64,
}

#[derive(Serialize)]
struct Released<'a> {
    by: &'a str,
    entities: Vec<String>,
    holders: Vec<String>,
}

/// Adds `lease` and `release` to the `world` ops table.
pub(crate) fn install(
    lua: &Lua,
    ops: &Table,
    world: Rc<RefCell<World>>,
    agents: Rc<RefCell<Agents>>,
    trace: Rc<RefCell<TraceLog>>,
) -> mlua::Result<()> {
    let (w, a, t) = (Rc::clone(&world), Rc::clone(&agents), Rc::clone(&trace));
    ops.set(
        "lease",
        lua.create_function(move |lua, (list, ticks, ctx): (Table, u64, Table)| {
            let who = Who::read(&ctx, &a.borrow())?;
            let mut world = w.borrow_mut();
            let ids = live_ids(&world, &list)?;
            if !who.operator {
                let agents = a.borrow();
                for id in &ids {
                    if let Some(record) = agents.inhabitant(*id)
                        && let Err(not_yours) = agents.may_remove(&record.id, &who.agent, &who.session)
                    {
                        return Err(fail(
                            ErrorCode::Forbidden,
                            format!(
                                "{id} is the body of agent {}, which acts for {}: only that agent, the sessions it acts for or the operator may lease it",
                                not_yours.agent, not_yours.owner
                            ),
                        ));
                    }
                }
            }
            let expires = world.leases_mut().grant(&ids, &who.session, &who.agent, who.tick, ticks).map_err(|e| {
                let code = match e {
                    LeaseError::Held { .. } => ErrorCode::Leased,
                    LeaseError::SessionFull { .. } | LeaseError::WorldFull { .. } => ErrorCode::CapacityExceeded,
                    LeaseError::BadTicks { .. } | LeaseError::BadCount { .. } => ErrorCode::InvalidInput,
                };
                fail(code, e.to_string())
            })?;
            let mut seen = std::collections::BTreeSet::new();
            let rows = lua.create_table()?;
            for id in ids.iter().filter(|id| seen.insert(**id)) {
                let row = lua.create_table_with_capacity(0, 2)?;
                row.raw_set("entity", id.to_string())?;
                row.raw_set("revision", world.revision(*id).unwrap_or(0))?;
                rows.raw_set(rows.raw_len() + 1, row)?;
            }
            drop(world);
            let payload =
                Granted { agent: &who.agent, entities: seen.iter().map(ToString::to_string).collect(), expires, holder: &who.session, ticks };
            let draft = EventDraft::new(EventKind::LeaseGranted.as_str(), &who.agent).thread(&who.session);
            t.borrow_mut().emit(draft, who.tick, &payload);
            let out = lua.create_table_with_capacity(0, 3)?;
            out.raw_set("entities", rows)?;
            out.raw_set("holder", who.session.as_str())?;
            out.raw_set("expiresAt", expires)?;
            Ok(out)
        })?,
    )?;

    let (w, a, t) = (world, agents, trace);
    ops.set(
        "release",
        lua.create_function(move |lua, (list, ctx): (Option<Table>, Table)| {
            let who = Who::read(&ctx, &a.borrow())?;
            let mut world = w.borrow_mut();
            let ids = match &list {
                Some(list) => {
                    let mut ids = Vec::new();
                    for (i, text) in list.sequence_values::<String>().enumerate() {
                        let text = text?;
                        let id = EntityId::parse(&text).ok_or_else(|| {
                            invalid(format!("entities[{i}]: {}", crate::world::EntityRefError::Malformed { text: text.clone() }))
                        })?;
                        ids.push(id);
                    }
                    // Naming another session's lease is refused, so nothing is half-released.
                    if !who.operator
                        && let Some((id, lease)) =
                            ids.iter().find_map(|id| world.leases().live(*id, who.tick).filter(|l| !who.holds(&l.holder)).map(|l| (*id, l)))
                    {
                        return Err(fail(
                            ErrorCode::Leased,
                            format!(
                                "{id} is leased by session {} until tick {}, not by session {}: only its holder or the operator releases it",
                                lease.holder, lease.expires, who.session
                            ),
                        ));
                    }
                    Some(ids)
                }
                None => None,
            };
            // Without a list: every lease the caller holds (the operator too: its own).
            let released = world.leases_mut().release(ids.as_deref(), |l| who.holds(&l.holder) || (who.operator && ids.is_some()));
            drop(world);
            let out = lua.create_table()?;
            for (i, (id, _)) in released.iter().enumerate() {
                out.raw_set(i + 1, id.to_string())?;
            }
            if !released.is_empty() {
                let mut holders: Vec<String> = released.iter().map(|(_, l)| l.holder.clone()).collect();
                holders.sort();
                holders.dedup();
                let payload = Released { by: &who.session, entities: released.iter().map(|(id, _)| id.to_string()).collect(), holders };
                let draft = EventDraft::new(EventKind::LeaseReleased.as_str(), &who.agent).thread(&who.session);
                t.borrow_mut().emit(draft, who.tick, &payload);
            }
            let result = lua.create_table_with_capacity(0, 1)?;
            result.raw_set("released", out)?;
            Ok(result)
        })?,
    )?;
    Ok(())
}
