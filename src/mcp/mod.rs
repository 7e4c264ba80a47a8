//! MCP: how external agents reach the world. One dispatcher (standard MCP, the stateless
//! revision, and the reference's native mode) shared by the in-process and stdio transports and
//! the network server (`server`: WebSocket and Streamable HTTP on one port); every `tools/call`
//! goes through the skill registry, never around it.

pub mod dispatcher;
mod error;
pub mod protocol;
pub mod server;
pub mod stdio;
pub mod sync;
pub(crate) mod tool_view;
pub mod tools;

pub use dispatcher::{McpSession, handle_message, handle_text};
pub use error::{McpServerError, TokenFileError};
pub use tool_view::ToolsMode;

/// The engine a server transport owns: logs on stderr (stdout may carry the protocol), mods
/// watched for hot reload, the optional `--scene` file already run (a script) or loaded (a
/// scene file, `host::FileRun`), and the clock stopped when asked (`--paused`).
fn server_engine(
    project: &std::path::Path,
    profile: crate::policy::Profile,
    scripts: Option<&std::path::Path>,
    scene: Option<&std::path::Path>,
    log: Option<crate::durable::LogConfig>,
    paused: bool,
) -> Result<crate::host::Engine, McpServerError> {
    use crate::host::{Engine, EngineConfig, Output};
    let engine = Engine::new(EngineConfig {
        output: Output::Stderr,
        profile,
        scripts: scripts.map(std::path::Path::to_path_buf),
        watch_scripts: true,
        log,
        ..EngineConfig::new(project)
    })?;
    if let Some(scene) = scene {
        engine.run_or_load_file(scene)?;
    }
    // The scene is built first (its script may step); then the clock stops before the first
    // real-time tick.
    if paused {
        engine.start_paused();
    }
    engine.make_durable().map_err(crate::host::EngineError::from)?;
    Ok(engine)
}

/// Holds a client's answer until what its call recorded is on disk (`--log`): a call a client
/// was told succeeded survives a crash. If the log cannot be written, the answer says so (the
/// call was applied, but it is not durable).
pub(crate) fn durable_answer(engine: &crate::host::Engine) -> Result<(), NotDurable> {
    engine.make_durable().map_err(|source| NotDurable { source })
}

/// A call was applied but what it recorded could not be made durable (`--log`).
#[derive(Debug, thiserror::Error)]
#[error("the call was applied but is not durable: {source}")]
pub(crate) struct NotDurable {
    /// Why the command log could not be synced.
    pub source: crate::durable::LogFailure,
}
