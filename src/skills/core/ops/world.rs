//! The native ops core skill handlers call to touch the world (`world.create_entity`, ...).
//!
//! Only core skill chunks receive this table; user scripts reach the world through skills.
//! Inputs arrive already validated against the skill's schema, whose bounds come from the
//! `limits` table here (`world::bounds`). The ops check every geometric value against the same
//! bounds again, naming the caller's field (`value[2] = 1e20 is outside [0.001, 1000]`), and add
//! what a schema cannot express (scale products, zero quaternions and directions, values that
//! vanish or overflow as f32). An entity id is resolved before anything changes (`entity_arg`):
//! a malformed one is `invalid_input`, one that names no live entity is `not_found` saying
//! whether it never existed or was destroyed and when; either way the call changes nothing.

use std::cell::RefCell;
use std::rc::Rc;

use mlua::{Lua, LuaSerdeExt, Table, Value};

use super::invalid;
use crate::physics::BodyKind;
use crate::skills::{ErrorCode, HandlerFailure};
use crate::world::bounds::{self, BoundsError};
use crate::world::{ColliderKind, EntityId, EntityRefError, EntitySpec, RenderShape, World, WorldError};

/// A value outside its bounds is the caller's mistake: `invalid_input`, with the value.
pub(crate) fn out_of_bounds(e: BoundsError) -> mlua::Error {
    invalid(e.to_string())
}

pub(crate) fn world_failure(e: WorldError) -> mlua::Error {
    match e {
        WorldError::Capacity(e) => HandlerFailure::new(ErrorCode::CapacityExceeded, e.to_string()).into_lua(),
        WorldError::OutOfBounds(e) => out_of_bounds(e),
    }
}

/// An entity id that names no live entity, reported against the caller's `field`: a malformed id
/// is `invalid_input`, a well-formed one `not_found`.
pub(crate) fn entity_failure(field: &str, e: EntityRefError) -> mlua::Error {
    let code = if e.is_malformed() { ErrorCode::InvalidInput } else { ErrorCode::NotFound };
    HandlerFailure::new(code, format!("{field}: {e}")).into_lua()
}

/// Resolves the entity a caller named in `field` (see `entity_failure`).
pub(crate) fn entity_arg(world: &World, field: &str, text: &str) -> mlua::Result<EntityId> {
    world.lookup(text).map_err(|e| entity_failure(field, e))
}

/// The first `N` numbers of a Lua list (a validated vector field).
pub(crate) fn numbers<const N: usize>(t: &Table, what: &str) -> mlua::Result<[f64; N]> {
    let mut out = [0.0; N];
    for (i, slot) in out.iter_mut().enumerate() {
        *slot = t.raw_get::<Option<f64>>(i + 1)?.ok_or_else(|| invalid(format!("{what}[{i}]: expected a number")))?;
    }
    Ok(out)
}

fn array(lua: &Lua, values: &[f32]) -> mlua::Result<Table> {
    let t = lua.create_table_with_capacity(values.len(), 0)?;
    for (i, v) in values.iter().enumerate() {
        t.raw_set(i + 1, f64::from(*v))?;
    }
    Ok(t)
}

/// Applies a checked edit to the entity named `id` (the caller's `entity` field).
fn edit(world: &RefCell<World>, id: &str, change: impl FnOnce(&mut crate::world::Transform)) -> mlua::Result<bool> {
    let mut world = world.borrow_mut();
    let id = entity_arg(&world, "entity", id)?;
    world.try_edit_transform(id, change).map_err(world_failure)
}

/// Quaternion from XYZ Euler angles (three.js's default order).
pub fn quat_from_euler_xyz(e: [f32; 3]) -> [f32; 4] {
    let (s1, c1) = (f64::from(e[0]) / 2.0).sin_cos();
    let (s2, c2) = (f64::from(e[1]) / 2.0).sin_cos();
    let (s3, c3) = (f64::from(e[2]) / 2.0).sin_cos();
    [
        (s1 * c2 * c3 + c1 * s2 * s3) as f32,
        (c1 * s2 * c3 - s1 * c2 * s3) as f32,
        (c1 * c2 * s3 + s1 * s2 * c3) as f32,
        (c1 * c2 * c3 - s1 * s2 * s3) as f32,
    ]
}

/// Reads the body and look of a new entity from a validated skill input (`scene.createEntity`,
/// `three.loadGLTF`); fields the skill's schema left out take `scene.createEntity`'s defaults.
pub(crate) fn entity_spec(input: &Table, shape: RenderShape) -> mlua::Result<EntitySpec> {
    let collider: Option<String> = input.get("collider")?;
    Ok(EntitySpec {
        shape,
        collider: match collider {
            Some(c) => Some(ColliderKind::parse(&c).ok_or_else(|| invalid(format!("collider: unknown collider '{c}'")))?),
            None => None,
        },
        size: bounds::size("size", input.get::<Option<f64>>("size")?.unwrap_or(1.0)).map_err(out_of_bounds)?,
        color: input.get::<Option<u32>>("color")?.unwrap_or(0xffffff),
        position: bounds::position("position", numbers(&input.get("position")?, "position")?).map_err(out_of_bounds)?,
        body: match (input.get::<Option<bool>>("dynamic")?.unwrap_or(false), input.get::<Option<bool>>("static")?.unwrap_or(false)) {
            (true, _) => Some(BodyKind::Dynamic),
            (false, true) => Some(BodyKind::Fixed),
            (false, false) => None,
        },
        friction: bounds::friction("friction", input.get::<Option<f64>>("friction")?.unwrap_or(0.5)).map_err(out_of_bounds)?,
        restitution: bounds::restitution("restitution", input.get::<Option<f64>>("restitution")?.unwrap_or(0.0)).map_err(out_of_bounds)?,
    })
}

/// The bounds core skill schemas publish (`world.limits.position`, ...), from `world::bounds`.
fn limits(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.raw_set("position", bounds::POSITION_LIMIT)?;
    t.raw_set("scaleMin", bounds::SCALE_MIN)?;
    t.raw_set("scaleMax", bounds::SCALE_MAX)?;
    t.raw_set("sizeMin", bounds::SIZE_MIN)?;
    t.raw_set("sizeMax", bounds::SIZE_MAX)?;
    t.raw_set("impulse", bounds::IMPULSE_LIMIT)?;
    t.raw_set("angle", bounds::ANGLE_LIMIT)?;
    t.raw_set("distance", bounds::DISTANCE_MAX)?;
    t.raw_set("leaseTicks", crate::world::sharing::MAX_LEASE_TICKS)?;
    t.raw_set("leaseEntities", crate::world::sharing::MAX_LEASE_ENTITIES)?;
    t.raw_set("leasesPerSession", crate::world::sharing::MAX_LEASES_PER_SESSION)?;
    t.set_readonly(true);
    Ok(t)
}

/// Collision events for `physics.collisionEvents`, read per session: each session has its own
/// cursor into a bounded log, so one client reading the events never takes them from another.
#[derive(Default)]
struct CollisionFeed {
    log: std::collections::VecDeque<(u64, crate::world::Collision)>,
    next: u64,
    /// Next sequence number each session will read, least recently used first.
    cursors: Vec<(String, u64)>,
}

impl CollisionFeed {
    /// Events kept for late readers; older ones are gone for a session that never read them.
    const KEEP: usize = 4096;
    /// Sessions remembered; the least recent reader is forgotten (and starts over at the oldest
    /// kept event when it comes back).
    const SESSIONS: usize = 1024;

    fn take_from(&mut self, world: &mut World) {
        for c in world.drain_collisions() {
            self.log.push_back((self.next, c));
            self.next += 1;
        }
        while self.log.len() > Self::KEEP {
            self.log.pop_front();
        }
    }

    fn since(&mut self, session: &str) -> Vec<crate::world::Collision> {
        let from = match self.cursors.iter().position(|(s, _)| s == session) {
            Some(at) => self.cursors.remove(at).1,
            None => 0,
        };
        if self.cursors.len() >= Self::SESSIONS {
            self.cursors.remove(0);
        }
        self.cursors.push((session.to_string(), self.next));
        self.log.iter().filter(|(seq, _)| *seq >= from).map(|(_, c)| c.clone()).collect()
    }
}

/// Builds the `world` ops table over a shared world.
pub(crate) fn create(
    lua: &Lua,
    world: Rc<RefCell<World>>,
    agents: Rc<RefCell<crate::agents::table::Agents>>,
    trace: Rc<RefCell<crate::trace::TraceLog>>,
) -> mlua::Result<Table> {
    let ops = lua.create_table()?;
    ops.set("limits", limits(lua)?)?;
    super::sharing::install(lua, &ops, Rc::clone(&world), Rc::clone(&agents), trace)?;

    let w = Rc::clone(&world);
    ops.set(
        "create_entity",
        lua.create_function(move |_, input: Table| {
            let shape: String = input.get("shape")?;
            let shape = RenderShape::parse(&shape).ok_or_else(|| invalid(format!("shape: unknown shape '{shape}'")))?;
            let spec = entity_spec(&input, shape)?;
            w.borrow_mut().create_entity(&spec).map(|id| id.to_string()).map_err(world_failure)
        })?,
    )?;

    let w = Rc::clone(&world);
    ops.set(
        "destroy_entity",
        lua.create_function(move |_, (id, tick): (String, u64)| {
            let mut world = w.borrow_mut();
            let id = entity_arg(&world, "entity", &id)?;
            Ok(world.destroy_entity(id, tick))
        })?,
    )?;

    let w = Rc::clone(&world);
    ops.set(
        "query_entities",
        lua.create_function(move |lua, (near, radius, tag, tick): (Option<Table>, Option<f64>, Option<String>, u64)| {
            let near = match near {
                Some(t) => {
                    let near = numbers(&t, "near")?;
                    bounds::position("near", near).map_err(out_of_bounds)?;
                    Some(near)
                }
                None => None,
            };
            let world = w.borrow();
            let hits = world.query(near, radius, tag.as_deref());
            // As JSON, not Lua tables: a query can answer with every entity (65,536 by default),
            // and its rows went Rust → Lua → JSON before. Numbers are written as a Lua number
            // converts (`convert::number`: whole values as integers), so the output is the same.
            let json = |n: f64| crate::script::convert::number(n).map_err(mlua::Error::runtime);
            let mut rows = Vec::with_capacity(hits.len());
            for hit in &hits {
                let position = hit.position.iter().map(|&v| json(f64::from(v))).collect::<mlua::Result<Vec<_>>>()?;
                let mut row = serde_json::Map::new();
                row.insert("distance".into(), json(hit.distance)?);
                row.insert("entity".into(), hit.id.to_string().into());
                row.insert("position".into(), serde_json::Value::Array(position));
                row.insert("revision".into(), world.revision(hit.id).unwrap_or(0).into());
                if let Some(lease) = world.leases().live(hit.id, tick) {
                    row.insert("leasedBy".into(), lease.holder.as_str().into());
                    row.insert("leaseExpiresAt".into(), lease.expires.into());
                }
                rows.push(serde_json::Value::Object(row));
            }
            crate::script::convert::blob(lua, serde_json::Value::Array(rows))
        })?,
    )?;

    // `ecs.updateComponent` names its vector `value`, so the errors do too.
    let w = Rc::clone(&world);
    ops.set(
        "set_position",
        lua.create_function(move |_, (id, x, y, z): (String, f64, f64, f64)| {
            let p = bounds::position("value", [x, y, z]).map_err(out_of_bounds)?;
            edit(&w, &id, |t| t.position = p)
        })?,
    )?;

    let w = Rc::clone(&world);
    ops.set(
        "set_rotation",
        lua.create_function(move |_, (id, x, y, z, qw): (String, f64, f64, f64, f64)| {
            let q = bounds::rotation("value", [x, y, z, qw]).map_err(out_of_bounds)?;
            edit(&w, &id, |t| t.rotation = q)
        })?,
    )?;

    let w = Rc::clone(&world);
    ops.set(
        "set_scale",
        lua.create_function(move |_, (id, x, y, z): (String, f64, f64, f64)| {
            let s = bounds::scale("value", [x, y, z]).map_err(out_of_bounds)?;
            edit(&w, &id, |t| t.scale = s)
        })?,
    )?;

    let w = Rc::clone(&world);
    ops.set(
        "set_transform",
        lua.create_function(move |_, (id, position, euler, scale): (String, Option<Table>, Option<Table>, Option<Table>)| {
            let checked = |t: Option<Table>, field: &str, check: fn(&str, [f64; 3]) -> Result<[f32; 3], BoundsError>| {
                t.map(|t| check(field, numbers(&t, field)?).map_err(out_of_bounds)).transpose()
            };
            let position = checked(position, "position", bounds::position)?;
            let rotation = checked(euler, "rotationEuler", bounds::euler)?.map(quat_from_euler_xyz);
            let scale = checked(scale, "scale", bounds::scale)?;
            edit(&w, &id, |t| {
                if let Some(p) = position {
                    t.position = p;
                }
                if let Some(r) = rotation {
                    t.rotation = r;
                }
                if let Some(s) = scale {
                    t.scale = s;
                }
            })
        })?,
    )?;

    let w = Rc::clone(&world);
    ops.set(
        "add_tag",
        lua.create_function(move |_, (id, tag): (String, String)| {
            let mut world = w.borrow_mut();
            let id = entity_arg(&world, "entity", &id)?;
            match world.add_tag(id, &tag) {
                Some(Err(full)) => Err(HandlerFailure::new(ErrorCode::CapacityExceeded, full.to_string()).into_lua()),
                added => Ok(added.is_some()),
            }
        })?,
    )?;

    let w = Rc::clone(&world);
    ops.set(
        "remove_tag",
        lua.create_function(move |_, (id, tag): (String, String)| {
            let mut world = w.borrow_mut();
            let id = entity_arg(&world, "entity", &id)?;
            Ok(world.remove_tag(id, &tag).unwrap_or(false))
        })?,
    )?;

    let w = Rc::clone(&world);
    ops.set(
        "apply_impulse",
        lua.create_function(move |_, (id, impulse): (String, Table)| {
            let impulse = bounds::impulse("impulse", numbers(&impulse, "impulse")?).map_err(out_of_bounds)?;
            let mut world = w.borrow_mut();
            let id = entity_arg(&world, "entity", &id)?;
            world.apply_impulse(id, impulse).map_err(world_failure)
        })?,
    )?;

    let w = Rc::clone(&world);
    ops.set(
        "raycast",
        lua.create_function(move |lua, (origin, direction, max_distance): (Table, Table, f64)| {
            let origin = bounds::position("origin", numbers(&origin, "origin")?).map_err(out_of_bounds)?;
            let direction = bounds::direction("direction", numbers(&direction, "direction")?).map_err(out_of_bounds)?;
            let max_distance = bounds::distance("maxDistance", max_distance).map_err(out_of_bounds)?;
            let hit = w.borrow().raycast(origin, direction, max_distance);
            let out = lua.create_table()?;
            out.raw_set("hit", hit.is_some())?;
            if let Some(hit) = hit {
                out.raw_set("distance", f64::from(hit.distance))?;
                out.raw_set("point", array(lua, &hit.point)?)?;
                if let Some(id) = hit.entity {
                    out.raw_set("entity", id.to_string())?;
                }
            }
            Ok(out)
        })?,
    )?;

    let (w, feed) = (Rc::clone(&world), Rc::new(RefCell::new(CollisionFeed::default())));
    ops.set(
        "collision_events",
        lua.create_function(move |lua, session: String| {
            let mut feed = feed.borrow_mut();
            feed.take_from(&mut w.borrow_mut());
            let events = feed.since(&session);
            let out = lua.create_table_with_capacity(events.len(), 0)?;
            for (i, c) in events.iter().enumerate() {
                let row = lua.create_table_with_capacity(0, 7)?;
                row.raw_set("started", c.event.started)?;
                row.raw_set("bodyA", c.event.body_a)?;
                row.raw_set("bodyB", c.event.body_b)?;
                if let Some(a) = c.entity_a {
                    row.raw_set("entityA", a.to_string())?;
                }
                if let Some(b) = c.entity_b {
                    row.raw_set("entityB", b.to_string())?;
                }
                // JSON null (not an absent field): the catalog's point/normal are `vec3 | null`.
                let vector = |v: Option<[f32; 3]>| -> mlua::Result<Value> {
                    match v {
                        Some(v) => Ok(Value::Table(array(lua, &v)?)),
                        None => Ok(lua.null()),
                    }
                };
                row.raw_set("point", vector(c.event.point)?)?;
                row.raw_set("normal", vector(c.event.normal)?)?;
                out.raw_set(i + 1, row)?;
            }
            Ok(out)
        })?,
    )?;

    let w = Rc::clone(&world);
    ops.set(
        "snapshot",
        lua.create_function(move |lua, (after, limit, tick): (Option<String>, usize, u64)| {
            let world = w.borrow();
            let after_id = match after.as_deref() {
                None => None,
                Some(text) => Some(
                    EntityId::parse(text)
                        .ok_or_else(|| invalid(format!("afterEntity: {}", EntityRefError::Malformed { text: text.to_string() })))?,
                ),
            };
            let (views, total, next) = world.page(after_id, limit);
            let entities: Vec<serde_json::Value> = views
                .iter()
                .map(|v| {
                    let mut physics = serde_json::Map::new();
                    if let Some(b) = v.body {
                        physics.insert("bodyId".into(), b.into());
                    }
                    serde_json::json!({
                        "entity": v.id.to_string(),
                        "eid": v.eid,
                        "generation": v.generation,
                        "transform": {"position": v.transform.position, "rotation": v.transform.rotation, "scale": v.transform.scale},
                        "tags": v.tags,
                        "physics": physics,
                    })
                })
                .collect();
            let out = serde_json::json!({
                "page": {"limit": limit, "totalEntities": total, "nextAfterEntity": next.map(|n| n.to_string())},
                "world": {"tick": tick, "entities": total, "bodies": world.body_count(), "awakeBodies": world.awake_body_count(), "hash": crate::agents::table::world_hash(&world, &agents.borrow())},
                "entities": entities,
                "ui": world.ui.iter().map(|e| serde_json::to_value(e).unwrap_or_default()).collect::<Vec<_>>(),
                "models": world.loaded_models().into_iter().map(|(asset, entities)| serde_json::json!({"kind": "model", "asset": asset, "entities": entities})).collect::<Vec<_>>(),
                "sounds": world.sounds.len(),
            });
            crate::script::convert::blob(lua, out)
        })?,
    )?;

    ops.set_readonly(true);
    Ok(ops)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn euler_xyz_matches_three_js() {
        let q = quat_from_euler_xyz([0.0, std::f32::consts::FRAC_PI_2, 0.0]);
        let h = std::f32::consts::FRAC_1_SQRT_2;
        for (a, b) in q.iter().zip([0.0, h, 0.0, h]) {
            assert!((a - b).abs() < 1e-6, "{q:?}");
        }
        // three.js: new Euler(0.1, 0.2, 0.3, 'XYZ') -> Quaternion
        let q = quat_from_euler_xyz([0.1, 0.2, 0.3]);
        let expected = [0.064_071_35, 0.091_157_55, 0.153_439_3, 0.981_856_2];
        for (a, b) in q.iter().zip(expected) {
            assert!((a - b).abs() < 1e-6, "{q:?}");
        }
    }
}
