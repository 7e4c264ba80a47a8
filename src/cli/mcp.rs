//! `limina mcp --stdio | --ws | --http`: serve the world to MCP clients.

use std::path::PathBuf;

use clap::Args;

use super::project::in_project;
use super::{CliError, CliResult};
use crate::mcp::server::{self, Origin, ServerOptions, WorldName};
use crate::mcp::stdio::{self, StdioOptions};
use crate::mcp::{ToolsMode, WorldStart};

#[derive(Debug, Args)]
pub(crate) struct McpArgs {
    /// Serve one client over stdin/stdout (newline-delimited JSON-RPC).
    #[arg(long, conflicts_with_all = ["ws", "http"])]
    pub stdio: bool,
    /// Serve many clients over WebSocket (the same server as --http: one port serves both).
    #[arg(long)]
    pub ws: bool,
    /// Serve many clients over MCP Streamable HTTP at /mcp (the same server as --ws).
    #[arg(long)]
    pub http: bool,
    /// A browser origin allowed to connect besides loopback ones (repeatable), e.g.
    /// https://inspector.example.
    #[arg(long, value_name = "ORIGIN")]
    pub allow_origin: Vec<String>,
    /// Profile granted to clients (stdio, and WebSocket clients without tokens).
    #[arg(long, value_name = "P", value_enum, default_value = "builder.readWrite")]
    pub profile: crate::policy::Profile,
    /// Which tools a standard client's tools/list starts with: `core` (the core tier plus the
    /// discovery meta-tools skills.search/browse/enable/disable) or `all`. Every tool stays
    /// callable by name either way, and no client is shown a tool its profile cannot call.
    #[arg(long, value_name = "SET", value_enum, default_value = "core")]
    pub tools: ToolsArg,
    /// A script (e.g. demos/billiards.lua) or a scene file (scenes/courtyard.lua) to build the
    /// world before serving; a relative path resolves in the project.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["resume", "empty"])]
    pub scene: Option<PathBuf>,
    /// Continue a world: a snapshot file, or the folder of a logged run (recovered first, as
    /// `limina recover` does). With --log, the new log starts from it (a copy of it is written
    /// beside the log), so `limina replay` of the new log verifies.
    #[arg(long, value_name = "SNAPSHOT|DIR", conflicts_with = "empty")]
    pub resume: Option<PathBuf>,
    /// Start with nothing in the world (by default a server starts with a ground whose top is
    /// y = 0, a light and a camera).
    #[arg(long)]
    pub empty: bool,
    /// Port of the WebSocket / HTTP server.
    #[arg(long, default_value_t = 7777)]
    pub port: u16,
    /// Bind address of the WebSocket / HTTP server (loopback by default).
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: String,
    /// File of `TOKEN PROFILE [+PERMISSION ...]` lines; WebSocket and HTTP clients must present a
    /// known bearer token, and get its profile plus what its `+` words grant: `TOKEN
    /// builder.readWrite +world.time` lets that client pause, resume and step the world.
    #[arg(long, value_name = "FILE")]
    pub tokens: Option<PathBuf>,
    /// Grant a permission no profile holds to clients without tokens (stdio, and WebSocket or
    /// HTTP without --tokens); repeatable. `--grant world.time`: the client may stop the shared
    /// clock (world.pause), run ticks while it is stopped (world.step, at most 3600 ticks per call,
    /// or until a tick, an event type or all bodies asleep) and start it again (world.resume).
    /// Every pause, step and resume is traced; calls still apply while paused, at the same tick.
    #[arg(long, value_name = "PERMISSION")]
    pub grant: Vec<String>,
    /// Start with the world's clock stopped, after the --scene is built: no tick runs until a
    /// client holding world.time calls world.resume or world.step.
    #[arg(long)]
    pub paused: bool,
    /// Mods and packages root (default: the project's scripts/); changes are hot-reloaded.
    #[arg(long, value_name = "DIR")]
    pub scripts: Option<PathBuf>,
    /// Milliseconds of each 16.7 ms fixed step that clients' calls may use; calls past it wait for
    /// the next step so the world keeps 60 steps/s. 0 still serves one call per step.
    #[arg(long, value_name = "MS", default_value_t = crate::host::CALL_BUDGET.as_secs_f64() * 1e3)]
    pub call_budget_ms: f64,
    /// Serve another world besides the default one (repeatable; --http/--ws): NAME, or
    /// NAME=FROM where FROM is `default` (a ground, a light and a camera), `empty`,
    /// `scene:FILE` or `resume:SNAPSHOT|DIR`. Its clients use /w/NAME/mcp (HTTP) or upgrade on
    /// /w/NAME/ (WebSocket); the viewer is at /w/NAME/. Worlds can also be created and retired
    /// while the server runs: `limina worlds`.
    #[arg(long, value_name = "NAME[=FROM]")]
    pub world: Vec<String>,
    /// A file whose first line is the operator's token for the admin path (/admin/worlds:
    /// create, list, retire worlds; `limina worlds`). Without it the admin path is open only on
    /// a loopback server without --tokens. The file must be readable by its owner only.
    #[arg(long, value_name = "FILE")]
    pub admin_token: Option<PathBuf>,
    /// Join a fleet: the processes started with --fleet and the same --nats share their worlds.
    /// Each world is served by the one holding its lease; when an owner stops renewing it
    /// (killed, cut off), another takes the world over from its log on JetStream. Requests for
    /// a world served elsewhere are redirected there; /w/NAME/where names its owner.
    #[arg(long, requires = "nats")]
    pub fleet: bool,
    /// This process's name in the fleet's leases (default: its port and a random suffix).
    #[arg(long, value_name = "NAME", requires = "fleet")]
    pub node: Option<String>,
    /// The address the fleet's clients reach this process at, e.g. http://10.0.0.5:7777
    /// (default: the address it listens on).
    #[arg(long, value_name = "URL", requires = "fleet")]
    pub advertise: Option<String>,
    /// How long a lease lasts without renewal: the longest a world goes unserved after its owner
    /// dies, before recovery. The fleet's first member fixes it for all.
    #[arg(long, value_name = "MS", default_value_t = 3000, requires = "fleet")]
    pub lease_ttl_ms: u64,
    /// Never publish state deltas (tests use it to show the sync tests can fail).
    #[arg(long, hide = true)]
    pub no_deltas: bool,
    #[command(flatten)]
    pub log: super::durable::LogArgs,
}

/// `--tools`: where a session's tool list starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ToolsArg {
    Core,
    All,
}

impl ToolsArg {
    fn mode(self) -> ToolsMode {
        match self {
            ToolsArg::Core => ToolsMode::Core,
            ToolsArg::All => ToolsMode::All,
        }
    }
}

pub fn run(args: &McpArgs) -> CliResult {
    if !args.stdio && !args.ws && !args.http {
        return Err(CliError::usage("choose a transport: limina mcp --stdio, --ws or --http"));
    }
    if !(args.call_budget_ms.is_finite() && (0.0..=1000.0).contains(&args.call_budget_ms)) {
        return Err(CliError::usage(format_args!("--call-budget-ms {} is outside 0..=1000", args.call_budget_ms)));
    }
    let call_budget = std::time::Duration::from_secs_f64(args.call_budget_ms / 1e3);
    let grant =
        crate::policy::Grant::parse_extra(args.grant.iter().map(|g| format!("+{g}")).collect::<Vec<_>>().iter().map(String::as_str))
            .map_err(|e| CliError::usage(format_args!("--grant: {e}")))?;
    if !args.grant.is_empty() && args.tokens.is_some() {
        return Err(CliError::usage(
            "--grant applies to clients without tokens; with --tokens, grant per token: `TOKEN PROFILE +world.time`",
        ));
    }
    // A client's configuration names these once, whatever folder it starts the server from:
    // relative paths resolve in the project, and the log (the one file written) never leaves it.
    let project = super::project_root();
    let read = |path: &Option<PathBuf>| path.as_deref().map(|p| in_project(&project, p, true));
    let scene = read(&args.scene);
    if let Some(scene) = scene.as_ref().filter(|s| !s.is_file()) {
        return Err(CliError::usage(format_args!(
            "--scene {}: no such file (relative paths resolve in the project {})",
            scene.display(),
            project.display()
        )));
    }
    if let Some(scene) = &scene
        && let Some(what) = crate::host::FileKind::of(scene).not_a_script()
    {
        let hint = what.replace("`limina run FILE` or `limina mcp --resume FILE`", "`limina mcp --resume FILE`");
        return Err(CliError::usage(format_args!("--scene {}: {hint}", scene.display())));
    }
    let scripts = super::scripts_root(read(&args.scripts).as_deref());
    let log = super::durable::LogArgs {
        log: args.log.log.as_deref().map(|p| in_project(&project, p, false)),
        log_dir: args.log.log_dir.as_deref().map(|p| in_project(&project, p, false)),
        ..args.log.clone()
    };
    let start = match (scene, read(&args.resume)) {
        (Some(scene), _) => WorldStart::File(scene),
        (None, Some(from)) => WorldStart::Resume(super::durable::resume(&from, log.log.as_deref())?),
        (None, None) if args.empty => WorldStart::Empty,
        (None, None) => WorldStart::Default,
    };
    if args.stdio {
        log.one_world("limina mcp --stdio")?;
        if !args.world.is_empty() || args.admin_token.is_some() {
            return Err(CliError::usage("--world and --admin-token are for servers of many worlds (limina mcp --http/--ws)"));
        }
        stdio::serve(&StdioOptions {
            project,
            profile: args.profile,
            start,
            grant,
            paused: args.paused,
            scripts,
            call_budget,
            tools: args.tools.mode(),
            log: log.config(),
        })?;
    } else {
        let worlds = worlds(&project, &args.world)?;
        let fleet = fleet_args(args)?;
        let admin_token = read(&args.admin_token);
        let nats_log = log.nats_config(&project.join(".limina").join("worlds"));
        server::serve_blocking(&ServerOptions {
            tokens: read(&args.tokens),
            viewer_token: None,
            project,
            bind: args.bind.clone(),
            port: args.port,
            profile: args.profile,
            start,
            grant,
            paused: args.paused,
            publish_deltas: !args.no_deltas,
            scripts,
            call_budget,
            allow_origins: args.allow_origin.clone(),
            tools: args.tools.mode(),
            log: log.config(),
            log_dir: log.dir_config(),
            nats: log.nats.clone(),
            nats_log,
            worlds,
            admin_token,
            fleet,
        })?;
    }
    Ok(())
}

/// `--fleet` and its settings, checked.
fn fleet_args(args: &McpArgs) -> Result<Option<server::FleetArgs>, CliError> {
    if !args.fleet {
        return Ok(None);
    }
    if args.log.log.is_some() || args.log.log_dir.is_some() {
        return Err(CliError::usage(
            "--fleet keeps every world's log on JetStream alone (--nats): another member must be able to read it; drop --log and --log-dir",
        ));
    }
    if !(500..=60_000).contains(&args.lease_ttl_ms) {
        return Err(CliError::usage(format_args!("--lease-ttl-ms {} is outside 500..=60000", args.lease_ttl_ms)));
    }
    if let Some(node) = &args.node
        && (node.is_empty() || node.len() > 64 || !node.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b)))
    {
        return Err(CliError::usage(format_args!(
            "--node {}: a node name is 1 to 64 of A-Z, a-z, 0-9, '.', '_' and '-'",
            crate::clip::shown(node)
        )));
    }
    let advertise = match &args.advertise {
        None => None,
        Some(url) => {
            let base = url.trim_end_matches('/');
            let rest = base.strip_prefix("http://").or_else(|| base.strip_prefix("https://"));
            let fit = rest.is_some_and(|r| !r.is_empty() && !r.contains(['/', '@', '?', '#', '\\']) && r.len() <= 256)
                && base.bytes().all(|b| b.is_ascii_graphic())
                && http::HeaderValue::from_str(base).is_ok();
            if !fit {
                return Err(CliError::usage(format_args!(
                    "--advertise {}: give the base address clients reach this process at, as http://HOST:PORT (no path)",
                    crate::clip::shown(url)
                )));
            }
            Some(base.to_string())
        }
    };
    Ok(Some(server::FleetArgs { node: args.node.clone(), advertise, lease_ttl: std::time::Duration::from_millis(args.lease_ttl_ms) }))
}

/// `--world NAME[=FROM]`: the worlds served besides the default one.
fn worlds(project: &std::path::Path, given: &[String]) -> Result<Vec<(WorldName, Origin)>, CliError> {
    let mut worlds: Vec<(WorldName, Origin)> = Vec::new();
    for text in given {
        let (name, from) = text.split_once('=').unwrap_or((text, "default"));
        let name = WorldName::parse(name).map_err(|e| CliError::usage(format_args!("--world {text}: {e}")))?;
        if name.is_main() || worlds.iter().any(|(n, _)| *n == name) {
            return Err(CliError::usage(format_args!("--world {text}: world '{name}' is named twice (the default world is 'main')")));
        }
        let origin = match from.split_once(':') {
            None if from == "default" => Origin::Start(WorldStart::Default),
            None if from == "empty" => Origin::Start(WorldStart::Empty),
            Some(("scene", file)) => {
                let file = in_project(project, std::path::Path::new(file), true);
                if !file.is_file() {
                    return Err(CliError::usage(format_args!("--world {text}: {}: no such file", file.display())));
                }
                if let Some(what) = crate::host::FileKind::of(&file).not_a_script() {
                    return Err(CliError::usage(format_args!("--world {text}: {what}")));
                }
                Origin::Start(WorldStart::File(file))
            }
            Some(("resume", from)) => Origin::ResumeFrom(in_project(project, std::path::Path::new(from), true)),
            _ => {
                return Err(CliError::usage(format_args!(
                    "--world {text}: FROM is `default`, `empty`, `scene:FILE` or `resume:SNAPSHOT|DIR`"
                )));
            }
        };
        worlds.push((name, origin));
    }
    Ok(worlds)
}
