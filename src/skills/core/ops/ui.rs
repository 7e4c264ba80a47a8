//! The native ops behind the `ui.*` skills: creating, updating and removing UI elements (world
//! state in `world::ui`), and listing them for the inspector.
//!
//! Inputs arrive validated against the skill's schema; these ops parse them into the typed
//! `world::ui` model (which refuses what a schema cannot say: a world anchor with neither entity
//! nor point, text past the engine's limits) and check that an anchored entity exists. Every
//! refusal changes nothing.

use std::cell::RefCell;
use std::rc::Rc;

use mlua::{Lua, Table, Value as LuaValue};
use serde_json::Value;

use super::invalid;
use crate::script::convert::{blob, lua_to_json};
use crate::skills::{ErrorCode, HandlerFailure};
use crate::world::World;
use crate::world::ui::{Anchor, UiChange, UiError, UiKind, UiSpec, Writer};

pub(crate) fn ui_failure(e: UiError) -> mlua::Error {
    let code = match e {
        UiError::NotFound { .. } => ErrorCode::NotFound,
        UiError::Invalid { .. } => ErrorCode::InvalidInput,
        UiError::Full { .. } | UiError::OwnerFull { .. } | UiError::TextBudget { .. } => ErrorCode::CapacityExceeded,
        UiError::NotYours { .. } | UiError::SpeechBubble { .. } => ErrorCode::Forbidden,
    };
    HandlerFailure::new(code, e.to_string()).into_lua()
}

/// A validated input table as JSON.
fn json_of(lua: &Lua, input: &Table) -> mlua::Result<Value> {
    lua_to_json(lua, &LuaValue::Table(input.clone()), "input").map_err(|e| invalid(e.to_string()))
}

/// Parses a kind's name (`ui.panel`'s `kind` field or the per-kind skill's).
fn kind_of(name: &str) -> mlua::Result<UiKind> {
    serde_json::from_value(Value::String(name.into())).map_err(|_| invalid(format!("kind: unknown UI kind '{name}'")))
}

/// Checks that a world anchor's entity exists (a malformed id is invalid input; a well-formed
/// one that resolves to nothing is not found).
pub(crate) fn check_anchor(world: &World, anchor: &Anchor) -> mlua::Result<()> {
    let Anchor::World(w) = anchor else { return Ok(()) };
    let Some(entity) = &w.entity else { return Ok(()) };
    super::world::entity_arg(world, "anchor.entity", entity).map(drop)
}

/// The caller as a UI writer: its agent id, and whether it is the operator (holds
/// `policy.govern`, which no profile grants).
pub(crate) fn writer_of(ctx: &Table) -> mlua::Result<(String, bool)> {
    let agent: String = ctx.get("agentId")?;
    let permissions: Table = ctx.get("permissions")?;
    let mut operator = false;
    for p in permissions.sequence_values::<String>() {
        operator |= p? == "policy.govern";
    }
    Ok((agent, operator))
}

/// Builds the `ui` ops table.
pub(crate) fn create(lua: &Lua, world: Rc<RefCell<World>>) -> mlua::Result<Table> {
    let ops = lua.create_table()?;

    let w = Rc::clone(&world);
    ops.set(
        "create",
        lua.create_function(move |lua, (kind, input, ctx): (String, Table, Table)| {
            let mut value = json_of(lua, &input)?;
            if let Some(map) = value.as_object_mut() {
                map.remove("kind");
            }
            let kind = kind_of(&kind)?;
            let spec: UiSpec = serde_json::from_value(value).map_err(|e| invalid(format!("input: {e}")))?;
            let (agent, operator) = writer_of(&ctx)?;
            let mut world = w.borrow_mut();
            check_anchor(&world, &spec.anchor)?;
            world.ui.create(kind, spec, &Writer { agent: &agent, operator }).map_err(ui_failure)
        })?,
    )?;

    let w = Rc::clone(&world);
    ops.set(
        "update",
        lua.create_function(move |lua, (input, ctx): (Table, Table)| {
            let change: UiChange = serde_json::from_value(json_of(lua, &input)?).map_err(|e| invalid(format!("input: {e}")))?;
            let (agent, operator) = writer_of(&ctx)?;
            w.borrow_mut().ui.update(change, &Writer { agent: &agent, operator }).map_err(ui_failure)
        })?,
    )?;

    let w = Rc::clone(&world);
    ops.set(
        "remove",
        lua.create_function(move |_, (handle, ctx): (String, Table)| {
            let (agent, operator) = writer_of(&ctx)?;
            w.borrow_mut().ui.remove(&handle, &Writer { agent: &agent, operator }).map(|_| true).map_err(ui_failure)
        })?,
    )?;

    let w = Rc::clone(&world);
    ops.set(
        "list",
        lua.create_function(move |lua, ()| {
            let world = w.borrow();
            let elements: Vec<Value> = world.ui.iter().map(|e| serde_json::to_value(e).unwrap_or(Value::Null)).collect();
            blob(lua, Value::Array(elements))
        })?,
    )?;
    Ok(ops)
}
