//! The `time` ops behind `world.pause`, `world.resume` and `world.step`. The shared clock belongs
//! to the engine and its front ends, which sit above the skills, so the core skills reach it
//! through `TimeDoor`, which the host implements. Nothing here steps the world: a step call only
//! leaves a request that the front end that made the call runs once the call has returned (a
//! handler never re-enters the step).

use std::rc::Rc;

use mlua::{Lua, Table};
use serde_json::Value;

use crate::script::convert::{blob, lua_to_json};
use crate::skills::HandlerFailure;

/// Who asks: the calling client's ids, for the trace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeCaller {
    pub agent_id: String,
    pub session_id: String,
}

/// What the time skills may ask of the engine.
pub trait TimeDoor {
    /// Stops the clock (a no-op, said so, when it is stopped); `world.pause`'s result.
    fn pause(&self, by: &TimeCaller) -> Result<Value, HandlerFailure>;
    /// Starts the clock again; `world.resume`'s result.
    fn resume(&self, by: &TimeCaller) -> Result<Value, HandlerFailure>;
    /// Leaves a step request (`world.step`'s validated input) for the front end to run once the
    /// call returns; the provisional result, which the front end completes.
    fn step(&self, by: &TimeCaller, input: Value) -> Result<Value, HandlerFailure>;
}

pub(crate) fn create(lua: &Lua, door: Rc<dyn TimeDoor>) -> mlua::Result<Table> {
    let ops = lua.create_table()?;
    let caller = |agent: String, session: String| TimeCaller { agent_id: agent, session_id: session };
    let d = Rc::clone(&door);
    ops.set(
        "pause",
        lua.create_function(move |lua, (agent, session): (String, String)| match d.pause(&caller(agent, session)) {
            Ok(v) => blob(lua, v),
            Err(failure) => Err(failure.into_lua()),
        })?,
    )?;
    let d = Rc::clone(&door);
    ops.set(
        "resume",
        lua.create_function(move |lua, (agent, session): (String, String)| match d.resume(&caller(agent, session)) {
            Ok(v) => blob(lua, v),
            Err(failure) => Err(failure.into_lua()),
        })?,
    )?;
    ops.set(
        "step",
        lua.create_function(move |lua, (input, agent, session): (Table, String, String)| {
            let input = lua_to_json(lua, &mlua::Value::Table(input), "input").map_err(|e| super::invalid(e.to_string()))?;
            match door.step(&caller(agent, session), input) {
                Ok(v) => blob(lua, v),
                Err(failure) => Err(failure.into_lua()),
            }
        })?,
    )?;
    ops.set_readonly(true);
    Ok(ops)
}
