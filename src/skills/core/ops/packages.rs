//! The `packages` ops behind `package.list` and `package.load`. The package system sits above
//! the skills (it registers them), so the core skills reach it through `PackageDoor`, which the
//! host implements over its `ModManager`.

use std::rc::Rc;

use mlua::{Lua, Table};
use serde_json::Value;

use crate::script::convert::blob;

/// What `package.list` and `package.load` may ask of the package system.
pub trait PackageDoor {
    /// `package.list`'s result for one package or all.
    fn list(&self, name: Option<&str>) -> Value;
    /// Loads an installed package for an agent under a profile; `package.load`'s result. The
    /// load is recorded as `by`'s (the caller's agent and session ids): the agent and session
    /// it is for are what the caller asked, so they go into the record, not its attribution.
    fn load(&self, reference: &str, agent_id: &str, session_id: &str, profile: &str, by: (&str, &str)) -> Value;
}

pub(crate) fn create(lua: &Lua, door: Rc<dyn PackageDoor>) -> mlua::Result<Table> {
    let ops = lua.create_table()?;
    let d = Rc::clone(&door);
    ops.set("list", lua.create_function(move |lua, name: Option<String>| blob(lua, d.list(name.as_deref())))?)?;
    ops.set(
        "load",
        lua.create_function(
            move |lua, (reference, agent_id, session_id, profile, by_agent, by_session): (String, String, String, String, String, String)| {
                blob(lua, door.load(&reference, &agent_id, &session_id, &profile, (&by_agent, &by_session)))
            },
        )?,
    )?;
    ops.set_readonly(true);
    Ok(ops)
}
