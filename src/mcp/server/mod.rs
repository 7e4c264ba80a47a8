//! `limina mcp --ws` / `--http`: the authoritative multi-client network server. One port serves both
//! WebSocket (JSON-RPC with state sync; jsonrpsee) and MCP Streamable HTTP at `/mcp` (`http`),
//! so clients of either transport share one world and see each other's changes. One server may
//! serve several worlds (`worlds`): `/w/{world}/mcp` and upgrades under `/w/{world}/` reach one;
//! the paths without a world reach the default world, `main`. `/health` and the operator's
//! `/admin/worlds` are the server's own (`admin`).
//!
//! The sockets run on a small tokio runtime (`transport` routes each request); each world's engine
//! thread owns that world and runs the fixed loop in real time (`engine_loop`). Handlers never
//! touch a world: they send work to its engine thread and await its answer.
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

mod admin;
mod admission;
mod call_queue;
mod engine_loop;
mod fleet;
mod http;
mod outgoing;
mod relay;
mod relay_feed;
mod spectators;
mod sse;
mod tokens;
mod transport;
mod viewer;
mod worlds;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::time::Duration;

use jsonrpsee::server::{ServerConfig, stop_channel};

use super::dispatcher::MAX_MESSAGE_BYTES;
use crate::mcp::McpServerError;
use crate::policy::{Grant, PermissionSet, Profile};
use tokens::{TokenEntry, Tokens, parse_tokens};
pub(crate) use worlds::{Origin, WorldName};
use worlds::{WorldError, WorldSet, WorldSpec};

pub use admission::{MAX_BYTES_PER_CONNECTION, MAX_BYTES_TOTAL, MAX_CALLS_PER_CONNECTION};
pub use outgoing::MAX_OWED_BYTES;
pub(crate) use relay::{RelayOptions, serve as serve_relay};
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
    /// Keep a command log of the default world; a mutating call is answered only once its
    /// record is on disk.
    pub log: Option<crate::durable::LogConfig>,
    /// Log every world to `{path}/{world}/world.log` (`--log-dir`), with these settings.
    pub log_dir: Option<crate::durable::LogConfig>,
    /// Every world's log on NATS JetStream too (`--nats URL`).
    pub nats: Option<String>,
    /// The log settings of worlds logged on JetStream alone; its path is the folder their
    /// snapshots are staged in (`{path}/{world}/`).
    pub nats_log: Option<crate::durable::LogConfig>,
    /// Worlds served besides the default one from the start (`--world NAME[=FROM]`).
    pub worlds: Vec<(WorldName, Origin)>,
    /// The operator's token for `/admin/…` (`--admin-token FILE`).
    pub admin_token: Option<PathBuf>,
    /// Take part in a fleet sharing the worlds of `nats` (`--fleet`).
    pub fleet: Option<FleetArgs>,
}

/// `--fleet` and its settings.
#[derive(Debug, Clone)]
pub(crate) struct FleetArgs {
    pub node: Option<String>,
    pub advertise: Option<String>,
    pub lease_ttl: Duration,
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
        tokens.get_or_insert_with(Tokens::default).insert(token.clone(), TokenEntry::everywhere(reader));
    }
    let tokens = tokens.map(Arc::new);
    let admin_token = match &options.admin_token {
        Some(path) => {
            let token = read_admin_token(path)?;
            if tokens.as_ref().is_some_and(|t| t.knows(Some(&token))) {
                return Err(McpServerError::AdminToken {
                    path: path.clone(),
                    why: "its token is also a client token in --tokens; give the operator a token of its own".into(),
                });
            }
            Some(token)
        }
        None => None,
    };
    // Each world's engine has a thread of its own; the sockets get the other cores (at least
    // one). On two cores a single network thread also saves a cross-thread wake per answer
    // (~15 µs of a round trip).
    let cores = std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get);
    let workers = cores.saturating_sub(1).clamp(1, 8);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .thread_name("limina-net")
        .enable_all()
        .build()
        .map_err(McpServerError::Runtime)?;
    let nats = match &options.nats {
        Some(url) => {
            let url = crate::nats::NatsUrl::parse(url).map_err(|e| McpServerError::World(e.to_string()))?;
            Some(crate::nats::JetStream::connect(&url, NATS_CONNECT).map_err(|e| McpServerError::World(format!("--nats: {e}")))?)
        }
        None => None,
    };
    let default_grant = Grant { profile: options.profile, extra: options.grant };
    let access = worlds::Access { tokens: tokens.clone(), default_grant, next: Arc::new(AtomicU64::new(1)) };
    let defaults = worlds::WorldDefaults {
        project: options.project.clone(),
        profile: options.profile,
        scripts: options.scripts.clone(),
        tools: options.tools,
        publish_deltas: options.publish_deltas,
        main_log: options.log.clone(),
        log_dir: options.log_dir.clone(),
        nats: nats.clone(),
        nats_log: options.nats_log.clone(),
    };
    let set = Arc::new(WorldSet::new(defaults, access.clone()));
    let main = WorldSpec {
        name: WorldName::main(),
        origin: Origin::Start(options.start.clone()),
        paused: options.paused,
        call_budget: options.call_budget,
        fault: None,
        ownership: None,
    };
    let extra = options.worlds.iter().map(|(name, origin)| WorldSpec {
        name: name.clone(),
        origin: origin.clone(),
        paused: options.paused,
        call_budget: options.call_budget,
        fault: None,
        ownership: None,
    });
    let specs: Vec<WorldSpec> = std::iter::once(main).chain(extra).collect();
    // A fleet member starts its worlds once it listens: their leases name its address.
    if options.fleet.is_none() {
        for spec in specs.iter().cloned() {
            set.start(spec, runtime.handle()).map_err(|e| match e {
                // The one world of a plain server fails as it always did: with the engine's words.
                WorldError::Start { name, why } if name.is_main() => McpServerError::World(why),
                other => McpServerError::World(other.to_string()),
            })?;
        }
    }
    let module = transport::build_module()?;
    let viewer = viewer::Viewer::new(&options.project);
    let loopback = options.bind.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback()) || options.bind == "localhost";
    let origins = OriginPolicy { allowed: options.allow_origins.clone(), loopback, same_origin: loopback || tokens.is_some() };
    let admin = admin::Admin {
        access: match admin_token {
            Some(token) => admin::AdminAccess::Token(token),
            None if loopback && tokens.is_none() => admin::AdminAccess::Open,
            None => admin::AdminAccess::Off,
        },
        tokens,
        call_budget: options.call_budget,
        fleet: None,
    };
    let addr = format!("{}:{}", options.bind, options.port);
    let config = ServerConfig::builder()
        .max_request_body_size(MAX_MESSAGE_BYTES as u32)
        .max_response_body_size(u32::MAX) // `transport::MAX_ANSWER_BYTES`, checked before the send queue's count
        .max_connections(256)
        .set_message_buffer_capacity(SEND_QUEUE)
        .ws_only()
        .build();
    let (stop, handle) = stop_channel();
    let (listener, local) = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(&addr).await.map_err(|e| McpServerError::listen(&addr, e))?;
        let local = listener.local_addr().map_err(|e| McpServerError::listen(&addr, e))?;
        Ok::<_, McpServerError>((listener, local))
    })?;
    let fleet = match (&options.fleet, &nats) {
        (None, _) => None,
        (Some(_), None) => {
            return Err(McpServerError::World("--fleet needs --nats URL: the fleet's worlds, logs and leases live there".into()));
        }
        (Some(args), Some(js)) => {
            let fleet_options = fleet::FleetOptions {
                node: args.node.clone().unwrap_or_else(|| format!("{}-{}", local.port(), crate::unguessable::hex(4))),
                advertise: args.advertise.clone().unwrap_or_else(|| format!("http://{local}")),
                ttl: args.lease_ttl,
                staging: options.project.join(".limina").join("fleet"),
            };
            let template = (options.paused, options.call_budget);
            let fleet = fleet::Fleet::join(fleet_options, js.clone(), Arc::clone(&set), runtime.handle().clone(), template)
                .map_err(McpServerError::World)?;
            for spec in specs {
                let name = spec.name.clone();
                match fleet.claim(spec, fleet::Claiming::Serve) {
                    Ok(true) => {}
                    Ok(false) => tracing::info!("world '{name}' is served by another member of the fleet"),
                    Err(why) => return Err(McpServerError::World(format!("world '{name}': {why}"))),
                }
            }
            fleet.run().map_err(McpServerError::World)?;
            Some(fleet)
        }
    };
    let admin = admin::Admin { fleet: fleet.clone(), ..admin };
    runtime.block_on(async {
        let routes = Arc::new(transport::Routes { worlds: Arc::clone(&set), viewer, admin, origins, fleet });
        tokio::spawn(transport::accept(listener, config, module.into(), Arc::clone(&access.next), routes, stop));
    });
    // One line: callers read the first line for the address and may close the pipe after it.
    let viewer = match &options.viewer_token {
        // The one place the token is shown: the link its user opens.
        Some(token) => format!("watch at http://{local}/#token={token} (a read-only token for this run)"),
        None => format!("the viewer is at http://{local}/"),
    };
    let others: Vec<String> = options.worlds.iter().map(|(name, _)| format!("{name} at /w/{name}/")).collect();
    let others = if others.is_empty() { String::new() } else { format!("; worlds: main at /, {}", others.join(", ")) };
    eprintln!("limina mcp: listening on ws://{local} and http://{local}{}; {viewer}{others}", http::MCP_PATH);
    // The worlds serve on their own threads until the process is stopped.
    runtime.block_on(std::future::pending::<()>());
    let _ = handle.stop();
    Ok(())
}

/// How long start-up waits for the first connection to `--nats`.
const NATS_CONNECT: Duration = Duration::from_secs(10);

/// Reads `--admin-token FILE`: one token on its first line, at least 16 characters, in a file
/// only its owner may read.
fn read_admin_token(path: &std::path::Path) -> Result<Arc<str>, McpServerError> {
    let bad = |why: String| McpServerError::AdminToken { path: path.to_path_buf(), why };
    let text = std::fs::read_to_string(path).map_err(|e| bad(format!("cannot read: {e}")))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(path).map_err(|e| bad(format!("cannot read: {e}")))?.permissions().mode();
        if mode & 0o077 != 0 {
            return Err(bad(format!("it may be read by others (mode {:o}); chmod 600 it", mode & 0o777)));
        }
    }
    let token = text.lines().next().unwrap_or_default().trim();
    if token.len() < 16 || token.chars().any(char::is_whitespace) {
        return Err(bad("its first line must be one token of at least 16 characters".into()));
    }
    Ok(Arc::from(token))
}
