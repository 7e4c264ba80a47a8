//! `limina mcp --ws` / `--http`: the authoritative multi-client network server. One port serves both
//! WebSocket (JSON-RPC with state sync; jsonrpsee) and MCP Streamable HTTP at `/mcp` (`http`),
//! so clients of either transport share one world and see each other's changes.
//!
//! The sockets run on a small tokio runtime (`transport` routes each request); the engine thread
//! (this one) owns the world and runs the fixed loop in real time (`engine_loop`). Handlers never
//! touch the world: they send work to the engine thread and await its answer.
//!
//! Load never stops the clock. Every client's work waits in its own bounded queue, served
//! round-robin within a per-step call budget (`RealTimeDriver::may_call`), so steps keep their
//! 60 Hz under any number of calls and one client's flood cannot starve another's call. Before
//! anything is queued, admission bounds what each connection has in flight (`admission`): past
//! the limit a call is answered at once with a `busy` error (-32003) naming the limit. Answers and
//! state deltas are queued without waiting; a client whose queue stays full (it stopped reading)
//! costs nothing while skipped and is cut off after 3 s. No client can block the loop or another.
//!
//! Security: binds loopback unless told otherwise; requests from foreign browser origins (and,
//! on loopback, to foreign Host names: DNS rebinding) are refused; with `--tokens`, every
//! request (the WebSocket upgrade, each HTTP request) must carry `Authorization: Bearer TOKEN`
//! and the token's profile bounds what the client may do; messages over 4 MiB are refused; a
//! connection's session is removed when it closes (HTTP sessions: on DELETE or when idle).

mod admission;
mod call_queue;
mod engine_loop;
mod http;
mod outgoing;
mod sse;
mod transport;
mod viewer;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, mpsc};
use std::time::Duration;

use jsonrpsee::server::{ServerConfig, stop_channel};

use super::dispatcher::MAX_MESSAGE_BYTES;
use crate::mcp::{McpServerError, TokenFileError};
use crate::policy::{Grant, PermissionSet, Profile};

pub use admission::{MAX_BYTES_PER_CONNECTION, MAX_BYTES_TOTAL, MAX_CALLS_PER_CONNECTION};
pub use outgoing::MAX_OWED_BYTES;
pub(crate) use transport::OriginPolicy;

/// Messages (answers and deltas) queued per connection; past it, deltas are skipped (coalesced).
pub(crate) const SEND_QUEUE: u32 = 64;

#[derive(Debug, Clone)]
pub(crate) struct ServerOptions {
    /// The project: `require`, `assets/` and `traces/` resolve against it.
    pub project: PathBuf,
    pub bind: String,
    pub port: u16,
    /// Profile for connections when there is no tokens file.
    pub profile: Profile,
    /// Permissions granted besides the profile to connections when there is no tokens file
    /// (`--grant world.time`); with one, each token's line says.
    pub grant: PermissionSet,
    /// Start with the clock stopped (`--paused`).
    pub paused: bool,
    pub tokens: Option<PathBuf>,
    /// A `system.readonly` token made for this run's viewer link (`limina run --serve`), accepted
    /// besides the file's; with it every client must present a token. The link is printed once
    /// the port is bound, on the terminal that started the run.
    pub viewer_token: Option<String>,
    /// What the world starts as (`--scene`, `--resume`, `--empty`, or the default world).
    pub start: super::WorldStart,
    /// Off only in tests that prove the sync tests can fail.
    pub publish_deltas: bool,
    /// Mods root (hot-reloaded).
    pub scripts: Option<PathBuf>,
    /// Call time per fixed step (`CALL_BUDGET` by default); 0 still serves one call per step.
    pub call_budget: Duration,
    /// Browser origins allowed besides loopback ones.
    pub allow_origins: Vec<String>,
    /// Where each connection's tool list starts (`--tools`).
    pub tools: super::ToolsMode,
    /// Keep a command log; a mutating call is answered only once its record is on disk.
    pub log: Option<crate::durable::LogConfig>,
}

/// Parses a tokens file: `TOKEN PROFILE [+PERMISSION ...]` per line, `#` comments. The
/// `+PERMISSION` words grant what no profile holds (`+world.time`: pause and step the world);
/// a file of plain `TOKEN PROFILE` lines reads as before. A token on two lines is refused.
pub(crate) fn parse_tokens(text: &str, file: &str) -> Result<HashMap<String, Grant>, TokenFileError> {
    let mut tokens = HashMap::new();
    let mut lines = HashMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split_whitespace();
        let (Some(token), Some(profile)) = (parts.next(), parts.next()) else {
            return Err(TokenFileError::Shape { file: file.to_string(), line: n + 1 });
        };
        let Some(profile) = Profile::parse(profile) else {
            return Err(TokenFileError::UnknownProfile { file: file.to_string(), line: n + 1, profile: profile.to_string() });
        };
        let extra = Grant::parse_extra(parts).map_err(|source| TokenFileError::Grant { file: file.to_string(), line: n + 1, source })?;
        if let Some(&first) = lines.get(token) {
            return Err(TokenFileError::Duplicate { file: file.to_string(), line: n + 1, first });
        }
        lines.insert(token, n + 1);
        tokens.insert(token.to_string(), Grant { profile, extra });
    }
    Ok(tokens)
}

/// Runs the server until the process is stopped. Prints the bound address to stderr.
pub(crate) fn serve_blocking(options: &ServerOptions) -> Result<(), McpServerError> {
    let mut tokens = match &options.tokens {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|source| McpServerError::ReadTokens { path: path.clone(), source })?;
            Some(parse_tokens(&text, &path.display().to_string())?)
        }
        None => None,
    };
    if let Some(token) = &options.viewer_token {
        let reader = Grant { profile: Profile::SystemReadonly, extra: PermissionSet::default() };
        tokens.get_or_insert_with(HashMap::new).insert(token.clone(), reader);
    }
    let tokens = tokens.map(Arc::new);
    let engine = super::server_engine(
        &options.project,
        options.profile,
        options.scripts.as_deref(),
        &options.start,
        options.log.clone(),
        options.paused,
    )?;
    let (tx, rx) = mpsc::channel::<engine_loop::EngineMsg>();
    // One core is the engine thread's; the sockets get the others (at least one). On two cores a
    // single network thread also saves a cross-thread wake per answer (~15 µs of a round trip).
    let cores = std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get);
    let workers = cores.saturating_sub(1).clamp(1, 8);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .thread_name("limina-net")
        .enable_all()
        .build()
        .map_err(McpServerError::Runtime)?;
    let default_grant = Grant { profile: options.profile, extra: options.grant };
    let shared = transport::Shared { tokens, default_grant, engine: tx.clone(), next: Arc::new(AtomicU64::new(1)) };
    let admission = Arc::new(admission::Admission::default());
    let module = transport::build_module(tx, Arc::clone(&admission))?;
    let http = http::HttpState::new(shared.clone(), admission);
    let viewer = viewer::Viewer::new(&options.project, shared.clone());
    let loopback = options.bind.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback()) || options.bind == "localhost";
    let origins = OriginPolicy { allowed: options.allow_origins.clone(), loopback, same_origin: loopback || shared.tokens.is_some() };
    let addr = format!("{}:{}", options.bind, options.port);
    let config = ServerConfig::builder()
        .max_request_body_size(MAX_MESSAGE_BYTES as u32)
        .max_response_body_size(u32::MAX) // `transport::MAX_ANSWER_BYTES`, checked before the send queue's count
        .max_connections(256)
        .set_message_buffer_capacity(SEND_QUEUE)
        .ws_only()
        .build();
    let (stop, handle) = stop_channel();
    let local = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(&addr).await.map_err(|e| McpServerError::listen(&addr, e))?;
        let local = listener.local_addr().map_err(|e| McpServerError::listen(&addr, e))?;
        tokio::spawn(Arc::clone(&http).expire_sessions());
        let routes = Arc::new(transport::Routes { http, viewer, origins });
        tokio::spawn(transport::accept(listener, config, module.into(), shared, routes, stop));
        Ok::<_, McpServerError>(local)
    })?;
    // One line: callers read the first line for the address and may close the pipe after it.
    let viewer = match &options.viewer_token {
        // The one place the token is shown: the link its user opens.
        Some(token) => format!("watch at http://{local}/#token={token} (a read-only token for this run)"),
        None => format!("the viewer is at http://{local}/"),
    };
    eprintln!("limina mcp: listening on ws://{local} and http://{local}{}; {viewer}", http::MCP_PATH);
    engine_loop::EngineLoop::new(&engine, options.publish_deltas, options.call_budget).with_tools(options.tools).run(&rx);
    let _ = handle.stop();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_files_name_bad_lines() {
        let ok = parse_tokens("# comment\nabc builder.readWrite\n\nxyz system.readonly\n", "t").unwrap();
        assert_eq!(ok.get("xyz").map(|g| g.profile.as_str()), Some("system.readonly"));
        assert_eq!(ok.get("xyz").map(|g| g.extra), Some(PermissionSet::default()), "a plain line grants only its profile");
        assert!(parse_tokens("abc root", "t").unwrap_err().to_string().contains("t:1: unknown profile 'root'"));
        assert!(parse_tokens("onlytoken", "t").unwrap_err().to_string().contains("t:1: expected"));
    }

    #[test]
    fn a_token_line_may_grant_world_time() {
        let ok = parse_tokens("abc builder.readWrite +world.time\nxyz builder.readWrite\n", "t").unwrap();
        assert!(ok["abc"].permissions().contains(crate::policy::Permission::WorldTime));
        assert!(!ok["xyz"].permissions().contains(crate::policy::Permission::WorldTime));
        let bad = parse_tokens("ok system.readonly\nabc builder.readWrite world.time", "t").unwrap_err().to_string();
        assert!(bad.contains("t:2:") && bad.contains("'world.time' is not a grant"), "{bad}");
        let unknown = parse_tokens("abc builder.readWrite +world.stop", "t").unwrap_err().to_string();
        assert!(unknown.contains("unknown permission 'world.stop'"), "{unknown}");
    }

    /// A token listed twice has no one meaning: the later line silently won, so a token first
    /// listed as `system.readonly` could write. The message names both lines, never the token.
    #[test]
    fn a_token_listed_twice_is_refused_without_printing_it() {
        let text = "# viewers\nsecret-42 system.readonly\nother builder.readWrite\nsecret-42 builder.readWrite\n";
        let twice = parse_tokens(text, "t").unwrap_err().to_string();
        assert!(twice.contains("t:4:") && twice.contains("line 2"), "{twice}");
        assert!(!twice.contains("secret-42"), "{twice}");
    }
}
