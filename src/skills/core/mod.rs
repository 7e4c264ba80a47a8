//! The core skills: the `.luau` files shipped inside the binary, and the native ops that they —
//! and only they — are given to touch the world, the renderer, the world log, the registry and
//! the package system.
//!
//! Each core file is evaluated as a chunk whose arguments are the schema DSL and the ops tables
//! (`local s, world, registry, trace, render, packages, policy, agents, ui, social, audio, testing, scenes, snapshot, digest, time = ...`). The ops live only in those
//! chunks' locals (upvalues of the handlers), never in an environment or global a frame walk or
//! `getfenv` could reach, so user code can touch the world through skills alone. `dev.reload`
//! re-evaluates a core file with the same arguments.

pub(crate) mod ops;

use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

use mlua::{IntoLuaMulti, Lua, MultiValue, Table};

use super::{Skill, SkillRegistry};
use crate::script::ScriptError;
use crate::trace::TraceLog;
use crate::world::World;

pub(crate) use ops::embody::refusal_code as embody_refusal_code;
pub use ops::packages::PackageDoor;
pub use ops::render::RenderState;
pub(crate) use ops::scenes::{Invoke, SceneTarget, apply as apply_scene};
pub use ops::scenes::{SceneApplyError, SceneLoaded};
pub use ops::snapshot::SnapshotDoor;
pub use ops::testing::{Playtest, PlaytestDoor, TestFile};
pub use ops::time::{TimeCaller, TimeDoor};
pub(crate) use ops::trace::check_export_name;
pub use ops::world::quat_from_euler_xyz;

/// Core skill files shipped in the binary, in registration order.
pub const CORE_SKILL_FILES: [(&str, &str); 16] = [
    ("core/scene.luau", include_str!("scene.luau")),
    ("core/ecs.luau", include_str!("ecs.luau")),
    ("core/three.luau", include_str!("three.luau")),
    ("core/physics.luau", include_str!("physics.luau")),
    ("core/agent.luau", include_str!("agent.luau")),
    ("core/system.luau", include_str!("system.luau")),
    ("core/audit.luau", include_str!("audit.luau")),
    ("core/render.luau", include_str!("render.luau")),
    ("core/packages.luau", include_str!("packages.luau")),
    ("core/policy.luau", include_str!("policy.luau")),
    ("core/ui.luau", include_str!("ui.luau")),
    ("core/social.luau", include_str!("social.luau")),
    ("core/audio.luau", include_str!("audio.luau")),
    ("core/test.luau", include_str!("test.luau")),
    ("core/world.luau", include_str!("world.luau")),
    ("core/state.luau", include_str!("state.luau")),
];

/// What the core skills act on.
pub(crate) struct CoreParts {
    pub world: Rc<RefCell<World>>,
    pub registry: Rc<RefCell<SkillRegistry>>,
    pub trace: Rc<RefCell<TraceLog>>,
    /// Renderer state (made on first capture) and loaded models.
    pub render: Rc<RefCell<ops::render::RenderState>>,
    pub packages: Rc<dyn PackageDoor>,
    /// The engine's snapshots (`world.snapshot`).
    pub snapshots: Rc<dyn SnapshotDoor>,
    /// The shared clock (`world.pause`, `world.resume`, `world.step`).
    pub time: Rc<dyn TimeDoor>,
    /// How `test.run` builds its scratch engines (the host's).
    pub playtests: std::sync::Arc<dyn PlaytestDoor>,
    /// The live policy engine the governance skills change.
    pub policy: Rc<RefCell<crate::policy::PolicyEngine>>,
    /// The live agents the `agent.*` skills change.
    pub agents: Rc<RefCell<crate::agents::table::Agents>>,
    /// The project: `assets/` models load from it, `traces/` exports go under it.
    pub project: PathBuf,
    /// Where `trace.export` writes.
    pub traces_dir: PathBuf,
    /// The folder whose `scenes/` `scene.save` writes into (the project, or a playtest's own).
    pub scene_saves: PathBuf,
    /// Mods root, for playtests' scratch engines.
    pub scripts: Option<PathBuf>,
    /// Runs a skill through the registry as a given caller (`scene.load`'s nested calls).
    pub invoke: Invoke,
    /// The engine's tick now.
    pub now: Rc<dyn Fn() -> u64>,
    /// Whether calls are decided by the live policy engine (else by the static profiles).
    pub policy_enabled: bool,
    /// Where heavy skills (`render.capture`, `test.run`, `scene.save`, `scene.load`) park their
    /// heavy half when their call may wait.
    pub heavy: Rc<super::HeavyWork>,
}

impl std::fmt::Debug for CoreParts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CoreParts").field("project", &self.project).finish()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CoreError {
    #[error("core ops: {0}")]
    Ops(ScriptError),
    #[error("{file}: {error}")]
    File { file: String, error: ScriptError },
    #[error(transparent)]
    Definition(#[from] super::DefinitionError),
    #[error("{file}: skill {skill} must declare its `effects`")]
    Undeclared { file: String, skill: String },
    #[error("{file}: {error}")]
    Register { file: String, error: super::RegistryError },
}

/// Why `dev.reload` could not re-evaluate a core skill (the running version stays).
#[derive(Debug, thiserror::Error)]
pub(crate) enum ReloadError {
    #[error("no skill named '{name}'")]
    NoSkill { name: String },
    #[error("skill {name} was registered from {file}, which has no source this engine can reload")]
    NoSource { name: String, file: String },
    #[error("the core skills are not ready")]
    NotReady,
    #[error("{}", error.message)]
    Script { file: String, error: ScriptError },
    #[error(transparent)]
    Definition(#[from] super::DefinitionError),
    #[error(transparent)]
    Registry(#[from] super::RegistryError),
    #[error("{file} no longer defines {name}")]
    Gone { file: String, name: String },
}

/// Evaluates a core file with the DSL and ops as its chunk arguments; returns its definitions.
fn eval_core_file(lua: &Lua, env: &Table, args: &MultiValue, name: &str, source: &str) -> mlua::Result<Table> {
    lua.load(source).set_name(format!("@limina/{name}")).set_environment(env.clone()).call(args.clone())
}

/// Builds the ops over `parts`, evaluates every core file and registers its skills.
pub(crate) fn register_core_skills(lua: &Lua, dsl: &Table, parts: &CoreParts) -> Result<(), CoreError> {
    let ops_err = |e: mlua::Error| CoreError::Ops(ScriptError::from(e));
    // A core file's own accidental globals land in this table, not in the shared globals.
    let env = lua.create_table().map_err(ops_err)?;
    let meta = lua.create_table().map_err(ops_err)?;
    meta.set("__index", lua.globals()).map_err(ops_err)?;
    env.set_metatable(Some(meta)).map_err(ops_err)?;
    env.set_readonly(true);

    // `dev.reload` re-evaluates a core file with the same arguments, which exist only once the
    // registry ops (holding the reloader) are built; the cell closes that loop.
    let args_cell: Rc<RefCell<Option<MultiValue>>> = Rc::new(RefCell::new(None));
    let reloader: ops::registry::Reloader = {
        let registry = Rc::clone(&parts.registry);
        let args_cell = Rc::clone(&args_cell);
        let env = env.clone();
        Rc::new(move |lua: &Lua, name: &str| -> Result<Vec<String>, ReloadError> {
            let source = registry.borrow().get(name).map(|s| s.source.clone()).ok_or_else(|| ReloadError::NoSkill { name: name.into() })?;
            let (file, text) = CORE_SKILL_FILES
                .iter()
                .find(|(file, _)| *file == source)
                .ok_or_else(|| ReloadError::NoSource { name: name.into(), file: source.clone() })?;
            let args = args_cell.borrow().clone().ok_or(ReloadError::NotReady)?;
            let script = |e: mlua::Error| ReloadError::Script { file: file.to_string(), error: ScriptError::from(e) };
            let defs = eval_core_file(lua, &env, &args, file, text).map_err(script)?;
            for def in defs.sequence_values::<Table>() {
                let def = def.map_err(script)?;
                if def.raw_get::<Option<String>>("name").ok().flatten().as_deref() == Some(name) {
                    let mut skill = Skill::from_table(lua, &def, file)?;
                    // The engine's own source text, re-read: still a core skill.
                    skill.builtin = true;
                    registry.borrow_mut().replace(skill)?;
                    return Ok(vec![name.to_string()]);
                }
            }
            Err(ReloadError::Gone { file: file.to_string(), name: name.into() })
        })
    };
    let args = (
        dsl.clone(),
        ops::world::create(lua, Rc::clone(&parts.world), Rc::clone(&parts.agents), Rc::clone(&parts.trace)).map_err(ops_err)?,
        ops::registry::create(lua, Rc::clone(&parts.registry), reloader).map_err(ops_err)?,
        ops::trace::create(lua, Rc::clone(&parts.trace), parts.traces_dir.clone()).map_err(ops_err)?,
        ops::render::create(lua, Rc::clone(&parts.world), Rc::clone(&parts.render), parts.project.clone(), Rc::clone(&parts.heavy))
            .map_err(ops_err)?,
        ops::packages::create(lua, Rc::clone(&parts.packages)).map_err(ops_err)?,
        ops::policy::create(lua, Rc::clone(&parts.policy), Rc::clone(&parts.trace), Rc::clone(&parts.agents)).map_err(ops_err)?,
        ops::agents::create(lua, Rc::clone(&parts.agents), Rc::clone(&parts.world), Rc::clone(&parts.policy)).map_err(ops_err)?,
        ops::ui::create(lua, Rc::clone(&parts.world)).map_err(ops_err)?,
        ops::social::create(lua, Rc::clone(&parts.agents), Rc::clone(&parts.world), Rc::clone(&parts.trace)).map_err(ops_err)?,
        ops::audio::create(lua, Rc::clone(&parts.world)).map_err(ops_err)?,
        ops::testing::create(
            lua,
            Rc::clone(&parts.world),
            parts.project.clone(),
            parts.scripts.clone(),
            std::sync::Arc::clone(&parts.playtests),
            Rc::clone(&parts.heavy),
        )
        .map_err(ops_err)?,
        ops::scenes::create(
            lua,
            ops::scenes::ScenesParts {
                world: Rc::clone(&parts.world),
                registry: Rc::clone(&parts.registry),
                policy: Rc::clone(&parts.policy),
                policy_enabled: parts.policy_enabled,
                agents: Rc::clone(&parts.agents),
                project: parts.project.clone(),
                saves: parts.scene_saves.clone(),
                invoke: Rc::clone(&parts.invoke),
                now: Rc::clone(&parts.now),
                heavy: Rc::clone(&parts.heavy),
            },
        )
        .map_err(ops_err)?,
        ops::snapshot::create(lua, Rc::clone(&parts.snapshots)).map_err(ops_err)?,
        ops::digest::create(lua, Rc::clone(&parts.world), Rc::clone(&parts.agents), Rc::clone(&parts.trace), parts.project.clone())
            .map_err(ops_err)?,
        ops::time::create(lua, Rc::clone(&parts.time)).map_err(ops_err)?,
    )
        .into_lua_multi(lua)
        .map_err(ops_err)?;
    for (file, source) in CORE_SKILL_FILES {
        let defs = eval_core_file(lua, &env, &args, file, source).map_err(|e| CoreError::File { file: file.into(), error: e.into() })?;
        for def in defs.sequence_values::<Table>() {
            let def = def.map_err(|e| CoreError::File { file: file.into(), error: e.into() })?;
            // Core skills say what they do; only mods may leave it to their permissions.
            if def.raw_get::<Option<Table>>("effects").ok().flatten().is_none() {
                let name = def.raw_get::<Option<String>>("name").ok().flatten().unwrap_or_default();
                return Err(CoreError::Undeclared { file: file.into(), skill: name });
            }
            let mut skill = Skill::from_table(lua, &def, file)?;
            skill.builtin = true;
            parts.registry.borrow_mut().register(skill).map_err(|error| CoreError::Register { file: file.into(), error })?;
        }
    }
    args_cell.replace(Some(args));
    Ok(())
}
