//! The `snapshot` op behind `world.snapshot`. Snapshots read the whole engine (the world, the
//! agents, the policy engine, the tick and the RNG), which sits above the skills, so the core
//! skill reaches them through `SnapshotDoor`, which the host implements.

use std::rc::Rc;

use mlua::{Lua, Table};
use serde_json::Value;

use crate::script::convert::blob;
use crate::skills::HandlerFailure;

/// What `world.snapshot` may ask of the engine.
pub trait SnapshotDoor {
    /// Writes a snapshot named `name` (default: after the tick) into the snapshots folder;
    /// `world.snapshot`'s result.
    fn write(&self, name: Option<&str>) -> Result<Value, HandlerFailure>;
}

pub(crate) fn create(lua: &Lua, door: Rc<dyn SnapshotDoor>) -> mlua::Result<Table> {
    let ops = lua.create_table()?;
    ops.set(
        "write",
        lua.create_function(move |lua, name: Option<String>| match door.write(name.as_deref()) {
            Ok(written) => blob(lua, written),
            Err(failure) => Err(failure.into_lua()),
        })?,
    )?;
    ops.set_readonly(true);
    Ok(ops)
}
