//! The `registry` ops the discovery, inspector and dev skills read from: listing, describing,
//! permission profiles, and reloading a skill from its source.

use std::cell::RefCell;
use std::rc::Rc;

use mlua::{Lua, Table, Value};
use serde_json::json;

use crate::policy::{PROFILES, PermissionSet, profile_permissions};
use crate::script::convert::{blob, json_to_lua};
use crate::skills::SkillRegistry;

/// Re-registers a skill from its source; returns the names it invalidated, or why it could not.
pub(crate) type Reloader = Rc<dyn Fn(&Lua, &str) -> Result<Vec<String>, crate::skills::core::ReloadError>>;

pub(crate) fn create(lua: &Lua, registry: Rc<RefCell<SkillRegistry>>, reloader: Reloader) -> mlua::Result<Table> {
    let ops = lua.create_table()?;

    let r = Rc::clone(&registry);
    ops.set(
        "list",
        lua.create_function(move |lua, ()| {
            let tools = r.borrow().tools();
            let out = lua.create_table_with_capacity(tools.len(), 0)?;
            for (i, tool) in tools.iter().enumerate() {
                let row = lua.create_table_with_capacity(0, 2)?;
                row.raw_set("name", tool.name.as_str())?;
                row.raw_set("description", tool.description.as_str())?;
                out.raw_set(i + 1, row)?;
            }
            Ok(out)
        })?,
    )?;

    let r = Rc::clone(&registry);
    ops.set("unknown_skill", lua.create_function(move |_, name: String| Ok(r.borrow().unknown_skill(&name)))?)?;

    let r = Rc::clone(&registry);
    ops.set(
        "list_full",
        lua.create_function(move |lua, ()| {
            let rows: Vec<serde_json::Value> = r
                .borrow()
                .list()
                .map(|s| json!({"name": s.name, "version": s.version, "category": s.category, "permissions": s.permissions.iter().map(|p| p.as_str()).collect::<Vec<_>>()}))
                .collect();
            blob(lua, serde_json::Value::Array(rows))
        })?,
    )?;

    let r = Rc::clone(&registry);
    ops.set(
        "describe",
        lua.create_function(move |lua, name: String| {
            let Some(skill) = r.borrow().get(&name) else {
                return Ok(Value::Nil);
            };
            let out = lua.create_table_with_capacity(0, 5)?;
            out.raw_set("name", skill.name.as_str())?;
            out.raw_set("version", skill.version.as_str())?;
            out.raw_set("category", skill.category.as_str())?;
            out.raw_set("description", skill.description.as_str())?;
            out.raw_set("input_schema", json_to_lua(lua, &skill.input_schema)?)?;
            Ok(Value::Table(out))
        })?,
    )?;

    ops.set(
        "permissions",
        lua.create_function(|lua, profile: String| {
            let caller: Vec<&str> = profile_permissions(&profile).names();
            let profiles: serde_json::Map<String, serde_json::Value> =
                PROFILES.iter().map(|(name, perms)| (name.to_string(), json!(PermissionSet::of(perms).names()))).collect();
            blob(lua, json!({"caller": caller, "profiles": profiles}))
        })?,
    )?;

    ops.set(
        "reload",
        lua.create_function(move |lua, name: String| match reloader(lua, &name) {
            Ok(invalidated) => Ok((true, json_to_lua(lua, &json!(invalidated))?)),
            Err(reason) => Ok((false, Value::String(lua.create_string(reason.to_string())?))),
        })?,
    )?;

    ops.set_readonly(true);
    Ok(ops)
}
