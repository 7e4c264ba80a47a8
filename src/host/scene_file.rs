//! A file given on the command line (`limina run FILE`, `limina mcp --scene FILE`) is a script or
//! a scene file; this tells them apart and runs or loads it.
//!
//! The file is first evaluated by the scene reader, in its data-only VM (`scenes::probe`): if it
//! returns a scene table (one with `format` or `entities`), it is a scene, checked whole and
//! loaded through the skills as the script's caller (`Engine::load_scene`, the path `scene.load`
//! takes); it never runs in the engine VM. Anything else runs as a script, as it always did —
//! except a file in a `scenes/` folder: scene files are shared data, so one there that is not a
//! readable scene is refused with why, never run with the operator's permissions (a "scene"
//! that quietly needs `tostring` would otherwise be a script someone else wrote). A script
//! elsewhere that returns a scene table anyway is an error naming why it could not be read as a
//! scene, rather than a scene silently ignored.

use std::path::Path;

use mlua::Value as LuaValue;

use super::{Engine, EngineError};
use crate::scenes::{Probe, SceneError};
use crate::skills::core::SceneLoaded;

/// What became of the file.
#[derive(Debug)]
pub enum FileRun {
    /// It ran as a script; what its chunk returned.
    Script(LuaValue),
    /// It was a scene file, now loaded.
    Scene(SceneLoaded),
}

impl Engine {
    /// Runs the script at `path`, or loads it when it is a scene file (see the module doc).
    pub fn run_or_load_file(&self, path: &Path) -> Result<FileRun, EngineError> {
        let display = path.display().to_string();
        // A saved world or a command log is not run as Luau: say what it is and what takes it.
        if let Some(what) = super::FileKind::of(path).not_a_script() {
            return Err(EngineError::File { path: display, message: what.to_string() });
        }
        let capacity = self.world().capacity();
        let probe = match crate::scenes::files::read_capped(path, &display) {
            Ok(source) => crate::scenes::probe(&source, &display, capacity),
            // Left to the script runner, whose errors say what is wrong with the file.
            Err(e) => Probe::NotScene(e),
        };
        let file_error = |message: String| EngineError::File { path: display.clone(), message };
        match probe {
            Probe::Scene(scene) => self.load_scene(&scene).map(FileRun::Scene).map_err(|e| file_error(e.message)),
            Probe::Invalid(e) => Err(file_error(without_file(&e, &display))),
            Probe::NotScene(why) if in_scenes_folder(path) => Err(file_error(format!(
                "is in a scenes/ folder but is not a scene file, so it is not run: {}",
                without_file(&why, &display)
            ))),
            Probe::NotScene(why) => {
                let returned = self.run_file(path)?;
                if is_scene_table(&returned) {
                    return Err(file_error(format!(
                        "returned a scene table, but it could not be read as a scene: {}",
                        without_file(&why, &display)
                    )));
                }
                Ok(FileRun::Script(returned))
            }
        }
    }
}

/// Whether `path` sits in a folder named `scenes` (however it was spelled on the command line).
fn in_scenes_folder(path: &Path) -> bool {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    absolute.parent().and_then(Path::file_name).is_some_and(|name| name == "scenes")
}

/// A scene error without the file name `EngineError::File` shows already.
fn without_file(e: &SceneError, display: &str) -> String {
    let text = e.to_string();
    text.strip_prefix(&format!("{display}: ")).map(str::to_string).unwrap_or(text)
}

fn is_scene_table(returned: &LuaValue) -> bool {
    match returned {
        LuaValue::Table(t) => ["format", "entities"].iter().any(|k| t.raw_get::<LuaValue>(*k).is_ok_and(|v| !v.is_nil())),
        _ => false,
    }
}
