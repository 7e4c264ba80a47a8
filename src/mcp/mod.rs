//! MCP: how external agents reach the world. One dispatcher (standard MCP, the stateless
//! revision, and the reference's native mode) shared by the in-process and stdio transports and
//! the network server (`server`: WebSocket and Streamable HTTP on one port); every `tools/call`
//! goes through the skill registry, never around it.

pub(crate) mod apps;
pub mod dispatcher;
mod error;
pub(crate) mod prompts;
pub mod protocol;
pub mod server;
pub mod stdio;
pub mod sync;
pub(crate) mod tool_view;
pub mod tools;

pub use dispatcher::{McpSession, handle_message, handle_text};
pub use error::{McpServerError, TokenFileError};
pub use tool_view::ToolsMode;

/// What a server's world starts as.
#[derive(Debug, Clone)]
pub enum WorldStart {
    /// A ground, a light and a camera (`DEFAULT_WORLD`), made through skill calls like any
    /// client's, so a command log holds them.
    Default,
    /// Nothing at all (`--empty`).
    Empty,
    /// A script run or a scene file loaded first (`--scene`, `host::FileRun`).
    File(std::path::PathBuf),
    /// A snapshot restored, or a logged run recovered (`--resume`): the world goes on from it, and
    /// a `--log` is a new segment that starts from it (`host::Resume`).
    Resume(crate::host::Resume),
}

/// The scene of `WorldStart::Default`.
pub const DEFAULT_WORLD: &str = include_str!("default_world.lua");

/// The engine a server transport owns: logs on stderr (stdout may carry the protocol), mods
/// watched for hot reload, its world started as `start` says, and the clock stopped when asked
/// (`--paused`).
/// `data`: where this world's traces, snapshots and saved scenes go, when not the project's own
/// folders (a server's worlds besides the default one).
fn server_engine(
    project: &std::path::Path,
    profile: crate::policy::Profile,
    scripts: Option<&std::path::Path>,
    start: &WorldStart,
    log: Option<crate::durable::LogConfig>,
    paused: bool,
    data: Option<&std::path::Path>,
) -> Result<crate::host::Engine, McpServerError> {
    use crate::host::{Engine, EngineConfig, EngineError, Output};
    let logged = log.is_some();
    let engine = Engine::new(EngineConfig {
        output: Output::Stderr,
        profile,
        scripts: scripts.map(std::path::Path::to_path_buf),
        watch_scripts: true,
        log,
        resume: match start {
            WorldStart::Resume(resume) => Some(resume.clone()),
            _ => None,
        },
        traces_dir: data.map(|d| d.join("traces")),
        // With a log, snapshots go beside it (its folder is the world's already).
        snapshots_dir: data.filter(|_| !logged).map(|d| d.join("snapshots")),
        // `scene.save` writes into the folder's own `scenes/`.
        scene_saves: data.map(std::path::Path::to_path_buf),
        ..EngineConfig::new(project)
    })?;
    match start {
        WorldStart::Default => {
            let scene = crate::scenes::parse(DEFAULT_WORLD.as_bytes(), "default world", engine.world().capacity())
                .map_err(|e| EngineError::File { path: "default world".into(), message: e.to_string() })?;
            // Made by the operator as a builder, whatever profile the server grants its clients
            // (a read-only server still starts with a ground).
            let script = engine.script_caller();
            let builder =
                crate::skills::Caller::with_profile(&script.agent_id, &script.session_id, crate::policy::Profile::BuilderReadWrite);
            engine.load_scene_as(&builder, &scene).map_err(|e| EngineError::File { path: "default world".into(), message: e.message })?;
        }
        WorldStart::File(file) => {
            engine.run_or_load_file(file)?;
        }
        WorldStart::Empty | WorldStart::Resume(_) => {}
    }
    // The scene is built first (its script may step); then the clock stops before the first
    // real-time tick.
    if paused {
        engine.start_paused();
    }
    engine.make_durable().map_err(EngineError::from)?;
    Ok(engine)
}

/// Holds a client's answer until what its call recorded is on disk (`--log`): a call a client
/// was told succeeded survives a crash. If the log cannot be written, the answer says so (the
/// call was applied, but it is not durable).
pub(crate) fn durable_answer(engine: &crate::host::Engine) -> Result<(), NotDurable> {
    engine.make_durable().map_err(|source| NotDurable { source })
}

/// `durable_answer` for a server that holds answers until the log's remote acknowledges them
/// (`server::engine_loop`): the file is synced, and the remote is not waited for.
pub(crate) fn locally_durable_answer(engine: &crate::host::Engine) -> Result<(), NotDurable> {
    engine.make_locally_durable().map_err(|source| NotDurable { source })
}

/// A call was applied but what it recorded could not be made durable (`--log`).
#[derive(Debug, thiserror::Error)]
#[error("the call was applied but is not durable: {source}")]
pub(crate) struct NotDurable {
    /// Why the command log could not be synced.
    pub source: crate::durable::LogFailure,
}
