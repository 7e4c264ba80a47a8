//! The `packages` ops behind `package.list` and `package.load`.

use std::cell::RefCell;
use std::rc::Rc;

use mlua::{Lua, Table};
use serde_json::json;

use super::{Host, ModManager};
use crate::script::convert::blob;
use crate::skills::SkillRegistry;

pub fn create_package_ops(
    lua: &Lua,
    mods: Rc<RefCell<ModManager>>,
    registry: Rc<RefCell<SkillRegistry>>,
    host: Rc<dyn Host>,
) -> mlua::Result<Table> {
    let ops = lua.create_table()?;
    let m = Rc::clone(&mods);
    ops.set("list", lua.create_function(move |lua, name: Option<String>| blob(lua, m.borrow().list(name.as_deref())))?)?;
    ops.set(
        "load",
        lua.create_function(move |lua, (reference, agent_id, session_id, profile): (String, String, String, String)| {
            let (ok, rule, reject, reason) = mods.borrow_mut().load_ref(&reference, &profile, &registry, &host);
            let event = if ok { "package.load.completed" } else { "package.load.denied" };
            let payload = json!({"ref": reference, "profile": profile, "agentId": agent_id, "ok": ok, "rule": rule, "rejectReason": reject, "reason": reason});
            let load_event = host.record(&agent_id, &session_id, event, payload);
            blob(
                lua,
                json!({
                    "ok": ok,
                    "ref": reference,
                    "agentId": agent_id,
                    "rule": rule,
                    "rejectReason": reject,
                    "reason": reason,
                    "loadEventId": if load_event.is_empty() { None } else { Some(load_event) },
                }),
            )
        })?,
    )?;
    ops.set_readonly(true);
    Ok(ops)
}
