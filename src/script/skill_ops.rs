//! The `registry` ops the discovery skills (`skills.list`, `skills.describe`) read from.

use std::cell::RefCell;
use std::rc::Rc;

use mlua::{Lua, Table, Value};

use super::convert::json_to_lua;
use crate::skills::SkillRegistry;

pub fn create_registry_ops(lua: &Lua, registry: Rc<RefCell<SkillRegistry>>) -> mlua::Result<Table> {
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

    ops.set_readonly(true);
    Ok(ops)
}
