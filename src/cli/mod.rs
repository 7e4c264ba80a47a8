//! The command line: one file per subcommand, each returning a `CliResult`. `main_with` prints
//! an error as one clear line on stderr and maps it to the exit code (`error.rs`): 0 ok,
//! 1 failure, 2 usage.

/// `println!` that ignores a closed stdout (e.g. piped into `head`) instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

mod bench;
mod bench_agents;
mod bench_audio;
mod bench_digest;
mod bench_durable;
mod bench_fleet;
mod bench_mcp;
mod bench_packages;
#[cfg(feature = "render")]
mod bench_render;
mod bench_sharing;
mod bench_skills;
mod bench_snapshot;
mod bench_soak;
mod bench_spatial;
mod bench_spectate;
mod bench_stream;
#[cfg(feature = "render")]
mod bench_ui;
mod bench_worlds;
pub mod browse;
mod durable;
mod error;
mod mcp;
mod new;
mod packages;
mod packages_registry;
mod project;
mod run;
mod skills;
mod spectate;
mod starter_skills;
pub mod test;
mod trace;
mod types;
mod worlds;

use std::ffi::OsString;

use clap::{Parser, Subcommand};
pub(crate) use error::{CliError, CliResult};

#[derive(Debug, Parser)]
#[command(name = "limina", version = VERSION, about = "An agent-native real-time 3D engine, scripted in Luau.", propagate_version = true)]
struct Cli {
    /// The project folder (`require`, `scripts/`, `assets/`, `traces/` resolve in it); default:
    /// the nearest folder with a limina.toml above the given file or the current folder.
    #[arg(long, global = true, value_name = "DIR")]
    project: Option<std::path::PathBuf>,
    /// Log less: errors only (the log goes to stderr; LIMINA_LOG, a tracing filter such as
    /// `limina=debug`, overrides -q and -v).
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    quiet: bool,
    /// Log more: -v info, -vv debug, -vvv trace (default: warnings and errors).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    verbose: u8,
    #[command(subcommand)]
    command: Command,
}

/// `limina --version`: the crate version and the commit it was built from (see `build.rs`).
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("LIMINA_COMMIT"), ")");

/// The command's project (`project::find`), set once by `main_with` before it runs.
static PROJECT: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();

#[derive(Debug, Subcommand)]
enum Command {
    /// Run a demo or scene script (headless: steps as fast as possible, prints a summary).
    Run(run::RunArgs),
    /// Run Luau tests (tests/lua by default).
    Test(test::TestArgs),
    /// Serve the world to MCP clients: --stdio (one client), --ws (WebSocket) or --http
    /// (Streamable HTTP at /mcp); --ws and --http share one port.
    Mcp(mcp::McpArgs),
    /// List, inspect, enable or disable mods and packages.
    Packages(packages::PackagesArgs),
    /// Verify an exported world log (sha256 chain).
    Trace(trace::TraceArgs),
    /// List the registered skills, describe one, or print JSON Schemas.
    Skills(skills::SkillsArgs),
    /// Print Luau type definitions for the script API and every skill (limina.d.luau).
    Types(types::TypesArgs),
    /// Make a new project: limina.toml, scripts/, scenes/, assets/, tests/lua/, Luau types and
    /// an MCP client config.
    New(new::NewArgs),
    /// Measure skill-call and step speed, memory at 65536 entities, batched radius queries.
    Bench(bench::BenchArgs),
    /// Re-apply a command log (`--log`) to a fresh engine; `--verify` checks every checkpoint.
    Replay(durable::ReplayArgs),
    /// Rebuild a logged world after a crash: the newest good snapshot plus the log after it.
    Recover(durable::RecoverArgs),
    /// List, create, show and retire the worlds of a running `limina mcp --http/--ws` server
    /// (its admin path, /admin/worlds).
    Worlds(worlds::WorldsArgs),
    /// Print a world's state stream and trace events from NATS as JSON lines (a server run
    /// with --nats publishes them): nats://HOST:PORT/WORLD.
    Spectate(spectate::SpectateArgs),
    /// A package worker: serves one untrusted package over stdin and stdout, confined (started by
    /// the engine, never by hand; see docs/sandbox.md).
    #[command(name = "__package-worker", hide = true)]
    PackageWorker,
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) to stdout.
    Completions {
        /// The shell to complete for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// Runs the CLI with the process arguments and returns the exit code.
pub fn main() -> i32 {
    // This executable answers `__package-worker`: packages' workers can be it, whatever it is
    // named.
    crate::packages::worker::Isolation::this_executable_serves_workers();
    main_with(std::env::args_os())
}

pub(crate) fn main_with(args: impl IntoIterator<Item = OsString>) -> i32 {
    let result = run_command(args);
    if let Err(e) = &result {
        e.report();
    }
    error::exit_code(&result)
}

fn run_command(args: impl IntoIterator<Item = OsString>) -> CliResult {
    let cli = match Cli::try_parse_from(args) {
        // Before logging and project search: a worker touches nothing it does not need.
        Ok(Cli { command: Command::PackageWorker, .. }) => {
            let code = crate::packages::worker::serve();
            return if code == 0 { Ok(()) } else { Err(CliError::Reported) };
        }
        Ok(cli) => cli,
        Err(e) => {
            init_logging(LogLevel::Default);
            return Err(CliError::Args(e));
        }
    };
    init_logging(match (cli.quiet, cli.verbose) {
        (true, _) => LogLevel::Quiet,
        (false, 0) => LogLevel::Default,
        (false, n) => LogLevel::Verbose(n),
    });
    match find_project(&cli) {
        Ok(Some(found)) => {
            if found.chosen == project::Chosen::Assumed {
                tracing::info!(
                    "no {} here or above: the current folder {} is the project (`limina new` makes one)",
                    project::MARKER,
                    found.root.display()
                );
            }
            let _ = PROJECT.set(found.root);
        }
        Ok(None) => {}
        Err(e) => {
            return Err(CliError::usage(e));
        }
    }
    match cli.command {
        Command::Run(args) => run::run(&args),
        Command::Test(args) => test::run(&args),
        Command::Mcp(args) => mcp::run(&args),
        Command::Packages(args) => packages::run(&args),
        Command::Trace(args) => trace::run(&args),
        Command::Skills(args) => skills::run(&args),
        Command::Types(args) => types::run(&args),
        Command::New(args) => new::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Replay(args) => durable::replay(&args),
        Command::Recover(args) => durable::recover(&args),
        Command::Worlds(args) => worlds::run(&args),
        Command::Spectate(args) => spectate::run(&args),
        Command::PackageWorker => Ok(()),
        Command::Completions { shell } => {
            use clap::CommandFactory;
            clap_complete::generate(shell, &mut Cli::command(), "limina", &mut std::io::stdout());
            Ok(())
        }
    }
}

/// The project a command works on (`project::find`): searched from the file it was given, and
/// never the filesystem root or home folder for a command that may write there. `None` for the
/// commands that need none.
fn find_project(cli: &Cli) -> Result<Option<project::Project>, project::ProjectError> {
    let file = match &cli.command {
        Command::Completions { .. } | Command::New(_) | Command::PackageWorker | Command::Spectate(_) => return Ok(None),
        Command::Run(args) => Some(args.file.as_path()),
        Command::Test(args) => args.paths.first().map(std::path::PathBuf::as_path),
        Command::Mcp(args) => args.scene.as_deref().or(args.resume.as_deref()).filter(|s| s.is_absolute()),
        Command::Replay(args) => Some(args.log.as_path()),
        Command::Recover(args) => Some(args.dir.as_path()),
        Command::Packages(_) | Command::Trace(_) | Command::Skills(_) | Command::Types(_) | Command::Bench(_) | Command::Worlds(_) => None,
    };
    let writes = !matches!(cli.command, Command::Trace(_) | Command::Skills(_) | Command::Types(_) | Command::Worlds(_));
    let cwd = std::env::current_dir().unwrap_or_else(|_| std::path::PathBuf::from("/"));
    let home = std::env::var_os("HOME").filter(|h| !h.is_empty()).map(std::path::PathBuf::from);
    let start = file.and_then(project::start_of);
    project::find(&project::Search { given: cli.project.as_deref(), start: start.as_deref(), cwd: &cwd, home: home.as_deref(), writes })
        .map(Some)
}

/// How much the log says when LIMINA_LOG does not say otherwise (`-q`, default, `-v`…).
#[derive(Debug, Clone, Copy)]
enum LogLevel {
    Quiet,
    Default,
    Verbose(u8),
}

impl LogLevel {
    fn filter(self) -> &'static str {
        match self {
            LogLevel::Quiet => "error",
            LogLevel::Default => "warn",
            LogLevel::Verbose(1) => "info",
            LogLevel::Verbose(2) => "debug",
            LogLevel::Verbose(_) => "trace",
        }
    }
}

fn init_logging(level: LogLevel) {
    use tracing_subscriber::prelude::*;
    // Logs go to stderr so stdout stays clean for protocol messages and summaries.
    let filter =
        tracing_subscriber::EnvFilter::try_from_env("LIMINA_LOG").unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(level.filter()));
    // A server's parent may stop reading stderr: a log line that cannot be written is dropped.
    // (By default tracing reports that with `eprintln!`, which panics on a closed pipe and took
    // the engine thread down with it.)
    // jsonrpsee traces each WebSocket upgrade request whole (`Request { … headers … }`), bearer
    // token included: whatever LIMINA_LOG asks, those trace events are never written.
    let no_headers =
        tracing_subscriber::filter::filter_fn(|meta| !(meta.target() == "jsonrpsee-server" && *meta.level() == tracing::Level::TRACE));
    let log = tracing_subscriber::fmt::layer().with_writer(std::io::stderr).without_time().log_internal_errors(false);
    let _ = tracing_subscriber::registry().with(log.with_filter(filter).with_filter(no_headers)).try_init();
}

/// Prints a failure: the one-line message first, then the traceback (if any) indented.
pub(crate) fn report_error(message: &str, traceback: Option<&str>) {
    eprintln!("error: {message}");
    if let Some(tb) = traceback {
        for line in tb.lines().filter(|l| !l.trim().is_empty()) {
            eprintln!("    {}", line.trim_start());
        }
    }
}

/// `--profile`: one of the catalog's profiles, parsed straight into `policy::Profile` and kept
/// typed down to the caller it makes. A typo is a usage error that lists the names, never a
/// silent grant of nothing.
impl clap::ValueEnum for crate::policy::Profile {
    fn value_variants<'a>() -> &'a [Self] {
        &crate::policy::Profile::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.as_str()))
    }
}

/// `--provider`: the decision provider a demo's agents use (`limina.provider()`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ProviderArg {
    Scripted,
    Ollama,
    #[value(name = "openai")]
    OpenAi,
}

impl ProviderArg {
    pub fn kind(self) -> crate::agents::record::ProviderKind {
        use crate::agents::record::ProviderKind;
        match self {
            ProviderArg::Scripted => ProviderKind::Scripted,
            ProviderArg::Ollama => ProviderKind::Ollama,
            ProviderArg::OpenAi => ProviderKind::OpenAi,
        }
    }
}

/// The project the CLI works on (`find_project`; the current folder before one is found). Only
/// the CLI reads it; everything below is handed the root explicitly.
pub(crate) fn project_root() -> std::path::PathBuf {
    match PROJECT.get() {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().unwrap_or_else(|_| std::path::PathBuf::from(".")),
    }
}

/// The mods root: `--scripts DIR`, else the project's `scripts/` when it exists. Made absolute,
/// so hot reload matches the watcher's absolute paths whatever the folder was given as.
pub(crate) fn scripts_root(given: Option<&std::path::Path>) -> Option<std::path::PathBuf> {
    let root = match given {
        Some(dir) => dir.to_path_buf(),
        None => Some(project_root().join("scripts")).filter(|p| p.is_dir())?,
    };
    Some(std::path::absolute(&root).unwrap_or(root))
}

#[cfg(test)]
mod tests {
    use clap::ValueEnum;

    use crate::policy::Profile;

    #[test]
    fn profile_flags_parse_straight_into_catalog_profiles() {
        for p in Profile::ALL {
            assert_eq!(Profile::from_str(p.as_str(), false), Ok(p));
        }
        assert!(Profile::from_str("builder.readwrite", false).is_err(), "a name is exact: no grant for a typo");
        assert_eq!(Profile::value_variants().len(), Profile::ALL.len());
    }
}
