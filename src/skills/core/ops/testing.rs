//! The `testing` ops behind `test.run`: resolve what to run, then run it against a scratch copy
//! of the world (`host::playtest`). One playtest at a time: a test file cannot start another
//! from inside its scratch world (that would nest engines without bound).

use std::cell::{Cell, RefCell};
use std::path::PathBuf;
use std::rc::Rc;
use std::time::Duration;

use mlua::{Lua, Table};

use super::invalid;
use crate::host::playtest::{self, Playtest, TestFile};
use crate::script::convert::blob;
use crate::world::World;

thread_local! {
    /// A playtest is running on this thread.
    static IN_PLAYTEST: Cell<bool> = const { Cell::new(false) };
}

/// Clears `IN_PLAYTEST` however the playtest ends.
struct Running;

impl Drop for Running {
    fn drop(&mut self) {
        IN_PLAYTEST.with(|f| f.set(false));
    }
}

pub(crate) fn create(lua: &Lua, world: Rc<RefCell<World>>, project: PathBuf, scripts: Option<PathBuf>) -> mlua::Result<Table> {
    let ops = lua.create_table()?;
    ops.set(
        "run",
        lua.create_function(
            move |lua, (path, source, filter, timeout_ms, tick): (Option<String>, Option<String>, Option<String>, u64, u64)| {
                let file = match (path, source) {
                    (Some(path), None) => {
                        TestFile::Path(playtest::resolve_path(&project, &path).map_err(|e| invalid(format!("path: {e}")))?)
                    }
                    (None, Some(source)) => TestFile::Source(source),
                    (Some(_), Some(_)) => return Err(invalid("give either path or source, not both")),
                    (None, None) => return Err(invalid("give path (a test file in the project) or source (test code)")),
                };
                if IN_PLAYTEST.with(|f| f.replace(true)) {
                    return Err(invalid("test.run cannot start a playtest from inside a playtest"));
                }
                let _running = Running;
                let test = Playtest { file, filter, timeout: Duration::from_millis(timeout_ms) };
                // The live world is copied and released before any test code runs.
                let copy = world.borrow().duplicate();
                blob(lua, playtest::run(&project, scripts.as_deref(), copy, tick, &test))
            },
        )?,
    )?;
    Ok(ops)
}
