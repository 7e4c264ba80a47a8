//! `--log` for `limina run` and `limina mcp`, and `limina replay LOG` / `limina recover DIR`.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::{CliError, CliResult};
use crate::durable::{FlushPolicy, LogConfig};
use crate::host::ReplayOptions;

/// The command-log options `run` and `mcp` share.
#[derive(Debug, Clone, Args)]
#[command(group(clap::ArgGroup::new("log_target").multiple(true).args(["log", "log_dir", "nats"])))]
pub(crate) struct LogArgs {
    /// Keep a command log: every applied skill call, per tick, with world-hash checkpoints
    /// (`limina replay FILE --verify`). The file must not exist yet.
    #[arg(long, value_name = "FILE", conflicts_with = "log_dir")]
    pub log: Option<PathBuf>,
    /// (limina mcp --http/--ws) Keep a command log of every world the server serves, each in
    /// DIR/WORLD/world.log (`limina recover DIR/WORLD`); a world's folder must hold no log yet.
    #[arg(long, value_name = "DIR")]
    pub log_dir: Option<PathBuf>,
    /// (limina mcp --http/--ws) Keep every world's command log on NATS JetStream as well (or
    /// instead, without --log/--log-dir): nats://[USER:PASSWORD@|TOKEN@]HOST[:PORT]. A call is
    /// answered once JetStream has acknowledged what it recorded. See docs/durability.md.
    #[arg(long, value_name = "URL")]
    pub nats: Option<String>,
    /// Ticks between world-hash checkpoints in the log.
    #[arg(long, value_name = "N", default_value_t = 60, requires = "log_target", value_parser = clap::value_parser!(u64).range(1..))]
    pub checkpoint_every: u64,
    /// Write a snapshot beside the log every N ticks (`limina recover` starts from the newest).
    #[arg(long, value_name = "N", requires = "log_target", value_parser = clap::value_parser!(u64).range(1..))]
    pub snapshot_every: Option<u64>,
    /// The log is synced to disk at least this often (0: at every tick). MCP answers a mutating
    /// call only once its record is synced, whatever this says.
    #[arg(long, value_name = "MS", default_value_t = 100, requires = "log_target")]
    pub log_fsync_ms: u64,
}

impl LogArgs {
    pub fn config(&self) -> Option<LogConfig> {
        self.log.as_ref().map(|path| self.settings(path))
    }

    /// `--log-dir`: the folder every world's log goes under, with the same settings.
    pub fn dir_config(&self) -> Option<LogConfig> {
        self.log_dir.as_ref().map(|dir| self.settings(dir))
    }

    fn settings(&self, path: &std::path::Path) -> LogConfig {
        LogConfig {
            checkpoint_every: self.checkpoint_every,
            snapshot_every: self.snapshot_every,
            flush: FlushPolicy { fsync_interval: Duration::from_millis(self.log_fsync_ms) },
            ..LogConfig::new(path)
        }
    }

    /// Refuses `--log-dir` and `--nats` where one world is served.
    pub fn one_world(&self, command: &str) -> Result<(), CliError> {
        if self.log_dir.is_some() || self.nats.is_some() {
            return Err(CliError::usage(format_args!(
                "--log-dir and --nats are for servers (limina mcp --http/--ws); {command} takes --log FILE"
            )));
        }
        Ok(())
    }

    /// The log settings for worlds logged on JetStream alone (their snapshots are staged in
    /// `staging`, which holds no log file).
    pub fn nats_config(&self, staging: &std::path::Path) -> Option<LogConfig> {
        self.nats.as_ref().map(|_| LogConfig { file: false, ..self.settings(staging) })
    }
}

#[derive(Debug, Args)]
pub(crate) struct ReplayArgs {
    /// The command log (`--log` of `limina run` or `limina mcp`), or a world on JetStream:
    /// nats://HOST:PORT/WORLD.
    pub log: PathBuf,
    /// Compare every checkpoint's world hash; the first that differs is named, with the last
    /// command before it.
    #[arg(long)]
    pub verify: bool,
    /// Stop when the replay reaches this tick.
    #[arg(long, value_name = "TICK")]
    pub until: Option<u64>,
    /// Start from this snapshot (one the log names) instead of from the beginning.
    #[arg(long, value_name = "SNAPSHOT")]
    pub from: Option<PathBuf>,
}

pub fn replay(args: &ReplayArgs) -> CliResult {
    let options = ReplayOptions { verify: args.verify, until: args.until, project: super::project_root() };
    let fetched = match FetchedWorld::of(&args.log)? {
        Some(fetched) if args.from.is_some() => {
            drop(fetched);
            return Err(CliError::usage("--from takes a snapshot beside a log file; replay a JetStream log from its beginning"));
        }
        fetched => fetched,
    };
    let log = fetched.as_ref().map_or_else(|| args.log.clone(), |f| f.folder.join("world.log"));
    let (engine, report) = match &args.from {
        Some(snapshot) => crate::host::replay_from(&log, snapshot, &options),
        None => crate::host::replay(&log, &options),
    }
    .map_err(CliError::failed)?;
    if report.torn_tail {
        eprintln!("replay: the log's last line was cut short (a killed run); it was left out");
    }
    let per_second = report.steps as f64 / report.elapsed.as_secs_f64().max(1e-9);
    outln!(
        "replay: ticks={} steps={} commands={} checkpoints_verified={} world_hash={} ({:.0} ticks/s)",
        report.tick,
        report.steps,
        report.commands,
        report.checkpoints,
        engine.world_hash(),
        per_second
    );
    match &report.divergence {
        Some(d) => Err(CliError::failed(d)),
        None => Ok(()),
    }
}

/// A world's log and snapshots read from JetStream (`nats://HOST:PORT/WORLD`) into a folder of
/// their own, which the file log's replay and recovery read as any run's folder; removed when
/// dropped.
struct FetchedWorld {
    folder: std::path::PathBuf,
}

impl FetchedWorld {
    /// None when `target` is a path, not a `nats://` URL.
    fn of(target: &std::path::Path) -> Result<Option<FetchedWorld>, CliError> {
        let Some(text) = target.to_str().filter(|t| t.contains("://") || t.to_ascii_lowercase().starts_with("nats:")) else {
            return Ok(None);
        };
        // Said without the text: it may hold a password.
        let url = crate::nats::NatsUrl::parse(text)
            .map_err(|_| CliError::usage("the target looks like a URL but is not nats://[USER:PASSWORD@|TOKEN@]HOST[:PORT]/WORLD"))?;
        let Some(world) = url.world().map(str::to_string) else {
            return Err(CliError::usage(format_args!("{url}: name the world: nats://HOST:PORT/WORLD")));
        };
        let js = crate::nats::JetStream::connect(&url, Duration::from_secs(10)).map_err(CliError::failed)?;
        let folder = std::env::temp_dir().join(format!("limina-nats-{world}-{}", crate::unguessable::hex(8)));
        std::fs::create_dir_all(&folder).map_err(|e| CliError::failed(format_args!("{}: {e}", folder.display())))?;
        let fetched = FetchedWorld { folder };
        let snapshots = crate::nats::materialize(&js, &world, &fetched.folder, None).map_err(CliError::failed)?;
        eprintln!("{url}: read world '{world}' from JetStream ({snapshots} snapshot(s))");
        Ok(Some(fetched))
    }
}

impl Drop for FetchedWorld {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

#[derive(Debug, Args)]
pub(crate) struct RecoverArgs {
    /// The folder holding the command log (one `*.log`) and the snapshots written beside it, or
    /// a world on JetStream: nats://HOST:PORT/WORLD.
    pub dir: PathBuf,
    /// Write the recovered world here as a snapshot.
    #[arg(long, value_name = "FILE")]
    pub snapshot: Option<PathBuf>,
}

pub fn recover(args: &RecoverArgs) -> CliResult {
    let fetched = FetchedWorld::of(&args.dir)?;
    let dir = fetched.as_ref().map_or_else(|| args.dir.clone(), |f| f.folder.clone());
    if !dir.is_dir() {
        return Err(CliError::usage(format_args!("{}: no such folder", args.dir.display())));
    }
    let recovered = crate::host::recover(&dir, &super::project_root()).map_err(CliError::failed)?;
    let from = match &recovered.snapshot {
        Some((file, tick)) => format!("snapshot {} (tick {tick})", crate::clip::shown(file)),
        None => "the beginning of the log".into(),
    };
    outln!(
        "recover: tick={} world_hash={} from {} + {} commands in {:.1} ms",
        recovered.report.tick,
        recovered.engine.world_hash(),
        from,
        recovered.report.commands,
        recovered.elapsed.as_secs_f64() * 1e3
    );
    for skipped in &recovered.skipped {
        eprintln!("recover: {skipped}");
    }
    for left_out in &recovered.left_out {
        eprintln!("recover: {left_out}");
    }
    if let Some(out) = &args.snapshot {
        recovered.engine.write_snapshot(out).map_err(|e| CliError::failed(format_args!("{}: {e}", out.display())))?;
    }
    match &recovered.report.divergence {
        Some(d) => Err(CliError::failed(d)),
        None => Ok(()),
    }
}

/// The world `--resume FROM` (or `limina run FROM`) continues: a snapshot file, or a logged
/// run's folder recovered now. What recovery passed over is said on stderr. A new log may not go
/// into the folder being resumed: a folder holds one run's log, and `limina recover` would no
/// longer know which to take.
pub(crate) fn resume(from: &std::path::Path, log: Option<&std::path::Path>) -> Result<crate::host::Resume, CliError> {
    if let Some(log) = log
        && from.is_dir()
    {
        let folder = |p: &std::path::Path| std::fs::canonicalize(p).ok();
        let log_dir = log.parent().map(|d| if d.as_os_str().is_empty() { std::path::Path::new(".") } else { d });
        if log_dir.and_then(folder).is_some_and(|d| Some(d) == folder(from)) {
            return Err(CliError::usage(format_args!(
                "--log {}: it is in {}, the folder being resumed; log the resumed run into a new folder (a folder holds one run's log)",
                log.display(),
                from.display()
            )));
        }
    }
    let resume = crate::host::Resume::from_path(from, &super::project_root()).map_err(CliError::failed)?;
    for note in &resume.notes {
        eprintln!("resume: {note}");
    }
    Ok(resume)
}
