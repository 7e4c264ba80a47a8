//! The `testing` ops behind `test.run`: resolve what to run, then run it against a scratch copy
//! of the world through `PlaytestDoor` (the host builds the scratch engine). One playtest at a
//! time per thread: a test file cannot start another from inside its scratch world (that would
//! nest engines without bound).
//!
//! The copy is taken on the engine thread, at the call's tick; when the call may wait
//! (`skills::deferred`), the playtest itself runs on the heavy-work thread: its scratch engine
//! (a VM of its own, `!Send`) is built, run and dropped there, and only the world copy and the
//! request cross (both plain data; the door is `Send + Sync`). Otherwise (scripts) it runs
//! here, as before.

use std::cell::{Cell, RefCell};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use mlua::{Lua, Table};

use super::invalid;
use crate::script::convert::blob;
use crate::world::World;

/// How `test.run` runs a playtest: the host builds a scratch engine on `world` (a copy of the
/// live one) at `tick` and runs `test` in it; the answer is `test.run`'s result. It runs on the
/// heavy-work thread for calls that can wait, so it holds nothing of the live engine.
pub trait PlaytestDoor: Send + Sync {
    fn run(&self, project: &Path, scripts: Option<&Path>, world: World, tick: u64, test: &Playtest) -> serde_json::Value;
}

/// What to run.
#[derive(Debug, Clone)]
pub enum TestFile {
    /// A file inside the project (already resolved and checked).
    Path(PathBuf),
    Source(String),
}

/// One playtest request.
#[derive(Debug, Clone)]
pub struct Playtest {
    pub file: TestFile,
    pub filter: Option<String>,
    pub timeout: Duration,
}

/// Why a playtest's `path` names no test file it may run; each names the path as given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum TestPathError {
    #[error("path '{0}' must be relative to the project, without '..'")]
    NotRelative(String),
    #[error("path '{0}' is not a .lua or .luau test file")]
    NotLua(String),
    #[error("no test file at '{0}'")]
    Missing(String),
    #[error("path '{0}' leads outside the project")]
    Outside(String),
}

/// Resolves a test file named by a caller: relative to the project, inside it, a `.lua` or
/// `.luau` file that exists. Errors name the path and the rule.
pub(crate) fn resolve_path(project: &Path, requested: &str) -> Result<PathBuf, TestPathError> {
    let candidate = Path::new(requested);
    if candidate.is_absolute() || candidate.components().any(|c| matches!(c, std::path::Component::ParentDir)) {
        return Err(TestPathError::NotRelative(requested.to_string()));
    }
    if !candidate.extension().is_some_and(|e| e == "lua" || e == "luau") {
        return Err(TestPathError::NotLua(requested.to_string()));
    }
    let full = project.join(candidate);
    let (Ok(real), Ok(root)) = (full.canonicalize(), project.canonicalize()) else {
        return Err(TestPathError::Missing(requested.to_string()));
    };
    // A symlink inside the project may not lead out of it.
    if !real.starts_with(&root) || !real.is_file() {
        return Err(TestPathError::Outside(requested.to_string()));
    }
    Ok(real)
}

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

pub(crate) fn create(
    lua: &Lua,
    world: Rc<RefCell<World>>,
    project: PathBuf,
    scripts: Option<PathBuf>,
    door: Arc<dyn PlaytestDoor>,
    heavy: Rc<crate::skills::HeavyWork>,
) -> mlua::Result<Table> {
    let ops = lua.create_table()?;
    ops.set(
        "run",
        lua.create_function(
            move |lua, (path, source, filter, timeout_ms, tick): (Option<String>, Option<String>, Option<String>, u64, u64)| {
                let file = match (path, source) {
                    (Some(path), None) => TestFile::Path(resolve_path(&project, &path).map_err(|e| invalid(format!("path: {e}")))?),
                    (None, Some(source)) => TestFile::Source(source),
                    (Some(_), Some(_)) => return Err(invalid("give either path or source, not both")),
                    (None, None) => return Err(invalid("give path (a test file in the project) or source (test code)")),
                };
                if IN_PLAYTEST.with(Cell::get) {
                    return Err(invalid("test.run cannot start a playtest from inside a playtest"));
                }
                let test = Playtest { file, filter, timeout: Duration::from_millis(timeout_ms) };
                let defer = heavy.may_defer("test.run").map_err(crate::skills::HandlerFailure::into_lua)?;
                // The live world is copied and released before any test code runs.
                let copy = world.borrow().duplicate();
                if defer {
                    let (door, project, scripts) = (Arc::clone(&door), project.clone(), scripts.clone());
                    heavy.park(move || Ok(run_guarded(&*door, &project, scripts.as_deref(), copy, tick, &test)));
                    return Ok(mlua::Value::Nil);
                }
                blob(lua, run_guarded(&*door, &project, scripts.as_deref(), copy, tick, &test)).map(mlua::Value::UserData)
            },
        )?,
    )?;
    Ok(ops)
}

/// A playtest on this thread, marked as running so its test code cannot start another.
fn run_guarded(
    door: &dyn PlaytestDoor,
    project: &Path,
    scripts: Option<&Path>,
    copy: World,
    tick: u64,
    test: &Playtest,
) -> serde_json::Value {
    IN_PLAYTEST.with(|f| f.set(true));
    let _running = Running;
    door.run(project, scripts, copy, tick, test)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside_the_project() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        assert!(resolve_path(root, "tests/lua/ui_test.lua").is_ok());
        assert!(resolve_path(root, "../etc/passwd.lua").unwrap_err().to_string().contains("without '..'"));
        assert!(resolve_path(root, "/etc/passwd").unwrap_err().to_string().contains("relative"));
        assert!(resolve_path(root, "Cargo.toml").unwrap_err().to_string().contains("not a .lua"));
        assert!(resolve_path(root, "tests/lua/nope.lua").unwrap_err().to_string().contains("no test file"));
    }
}
