//! `world.view`: the world as a viewer draws it, in the state stream's snapshot shape
//! (`{"kind":"snapshot","tick","entities","ui","scene":{"lighting","camera"},"agents"}`), for a
//! client that polls instead of subscribing: an MCP App view inside a host's iframe, which can
//! reach the server only through the host's proxied `tools/call`.
//!
//! Bounded: at most `limit` entities (by id, after `cursor`; `nextCursor` continues), at most
//! `MAX_UI` UI elements and `MAX_AGENTS` agents (`cut` counts what was left out), so one answer
//! is at most about `MAX_LIMIT` rows of ~300 bytes whatever the world holds. Agents are shown
//! only to a caller holding `agent.read` (as `world.digest` does). Reading changes nothing.

use std::cell::RefCell;
use std::rc::Rc;

use mlua::{Lua, Table};
use serde_json::{Map, Value, json};

use super::invalid;
use crate::agents::table::Agents;
use crate::world::{EntityId, World, viewed};

/// The most entities one answer carries (the schema's bound, checked again here).
pub(crate) const MAX_LIMIT: usize = 2000;
/// UI elements one answer carries (the world may hold 4096; a view shows the first ones).
pub(crate) const MAX_UI: usize = 256;
/// Agents one answer carries.
pub(crate) const MAX_AGENTS: usize = 256;

/// What to show, and to whom.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Request {
    pub limit: usize,
    /// Only entities with a greater id (the previous answer's `nextCursor`).
    pub after: Option<EntityId>,
    pub tick: u64,
    pub sees_agents: bool,
}

/// The snapshot-shaped view (see the module docs).
pub(crate) fn view(world: &World, agents: &Agents, request: &Request) -> Value {
    let limit = request.limit.clamp(1, MAX_LIMIT);
    // `beyond`: entities past the cursor, shown or not (what is left is `beyond - shown`).
    let (mut entities, mut total, mut beyond, mut last) = (Vec::new(), 0usize, 0usize, None);
    world.for_each_entity(|e| {
        total += 1;
        if request.after.is_some_and(|after| e.id <= after) {
            return;
        }
        beyond += 1;
        if entities.len() >= limit {
            return;
        }
        let row = viewed::entity_json(world, &e);
        last = Some(e.id);
        entities.push(row);
    });
    let lighting = viewed::lighting_json(&world.lighting);
    let camera = viewed::camera_json(&world.camera);
    let ui: Vec<Value> = world.ui.iter().take(MAX_UI).map(|e| serde_json::to_value(e).unwrap_or(Value::Null)).collect();
    let ui_total = world.ui.iter().count();
    let mut cut = Map::new();
    let mut out = json!({
        "kind": "snapshot",
        "tick": request.tick,
        "total": total,
        "entities": entities,
        "ui": ui,
        "scene": {"lighting": lighting, "camera": camera},
    });
    if request.sees_agents {
        // (in id order: the table is keyed by id)
        let ids: Vec<_> = agents.iter().collect();
        let rows: Vec<Value> = ids
            .iter()
            .take(MAX_AGENTS)
            .map(|a| {
                let mut row = json!({"agentId": &*a.id, "provider": a.llm.provider.as_str(), "profile": a.profile.as_str()});
                if let Some(e) = a.entity {
                    row["entity"] = json!(e.to_string());
                }
                row
            })
            .collect();
        if ids.len() > MAX_AGENTS {
            cut.insert("agents".into(), json!(ids.len() - MAX_AGENTS));
        }
        out["agents"] = Value::Array(rows);
    }
    let remaining = beyond - out["entities"].as_array().map_or(0, Vec::len);
    if remaining > 0
        && let Some(last) = last
    {
        out["nextCursor"] = json!(last.to_string());
        cut.insert("entities".into(), json!(remaining));
    }
    if ui_total > MAX_UI {
        cut.insert("ui".into(), json!(ui_total - MAX_UI));
    }
    if !cut.is_empty() {
        out["cut"] = Value::Object(cut);
    }
    out
}

/// Adds `view(limit, cursor, tick, seesAgents)` to an ops table (the `digest` one: both read the
/// whole world for an observer).
pub(crate) fn install(lua: &Lua, ops: &Table, world: Rc<RefCell<World>>, agents: Rc<RefCell<Agents>>) -> mlua::Result<()> {
    ops.set(
        "view",
        lua.create_function(move |lua, (limit, cursor, tick, sees_agents): (f64, Option<String>, u64, bool)| {
            if !(1.0..=MAX_LIMIT as f64).contains(&limit) || limit.fract() != 0.0 {
                return Err(invalid(format!("limit: {limit} is not a whole number in [1, {MAX_LIMIT}]")));
            }
            let after = match cursor {
                None => None,
                Some(text) => Some(
                    EntityId::parse(&text)
                        .ok_or_else(|| invalid(format!("cursor: '{}' is not an entity id", crate::clip::shown(&text))))?,
                ),
            };
            let request = Request { limit: limit as usize, after, tick, sees_agents };
            let answer = view(&world.borrow(), &agents.borrow(), &request);
            crate::script::convert::blob(lua, answer)
        })?,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::{EntitySpec, RenderShape};

    fn spec(x: f32) -> EntitySpec {
        EntitySpec {
            shape: RenderShape::Sphere,
            collider: None,
            size: 2.0,
            color: 0xff0000,
            position: [x, 0.0, 0.0],
            body: None,
            friction: 0.5,
            restitution: 0.0,
        }
    }

    #[test]
    fn pages_through_every_entity_once_with_the_cursor() {
        let mut w = World::default();
        for i in 0..5 {
            w.create_entity(&spec(i as f32)).unwrap();
        }
        let agents = Agents::new(Default::default());
        let mut seen = Vec::new();
        let mut after = None;
        loop {
            let page = view(&w, &agents, &Request { limit: 2, after, tick: 7, sees_agents: false });
            assert_eq!(page["total"], 5);
            assert_eq!(page["kind"], "snapshot");
            assert!(page.get("agents").is_none(), "agents need agent.read");
            for e in page["entities"].as_array().unwrap() {
                assert_eq!(e["shape"], "sphere");
                assert_eq!(e["color"], 0xff0000);
                seen.push(e["entity"].as_str().unwrap().to_string());
            }
            match page.get("nextCursor") {
                Some(c) => {
                    assert_eq!(page["cut"]["entities"], 5 - seen.len());
                    after = EntityId::parse(c.as_str().unwrap());
                }
                None => break,
            }
        }
        assert_eq!(seen, ["ent_0001", "ent_0002", "ent_0003", "ent_0004", "ent_0005"]);
    }
}
