//! Recovery: the world of a logged run that was killed, rebuilt from the newest good snapshot
//! beside its log and the log's records after that snapshot.
//!
//! A snapshot counts only once the log names it (its marker is written after the file is
//! durable), so a crash while one was being written leaves the previous one in charge. A
//! snapshot that is named but does not load (corrupt, truncated, another version) is skipped
//! with the reason, and the next older one is tried; with none, the log is replayed from its
//! beginning. What comes out is the world at the last durable record: every completed step, and
//! every between-step call (an MCP client was told those succeeded).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::reader::LogReader;
use super::record::Record;
use super::replay::{ReplayError, ReplayOptions, ReplayReport, drive, replay_engine};
use crate::host::Engine;

/// A recovered world.
#[derive(Debug)]
pub struct Recovered {
    pub engine: Engine,
    pub report: ReplayReport,
    /// The snapshot it started from (file name and tick), if any.
    pub snapshot: Option<(String, u64)>,
    /// Snapshots the log names that could not be used, with why.
    pub skipped: Vec<String>,
    pub elapsed: Duration,
}

#[derive(Debug, thiserror::Error)]
pub enum RecoverError {
    #[error("{dir}: no command log (*.log) here")]
    NoLog { dir: String },
    #[error("{dir}: several command logs ({names}); recover one run per folder")]
    SeveralLogs { dir: String, names: String },
    #[error("{dir}: {message}")]
    Io { dir: String, message: String },
    #[error(transparent)]
    Replay(#[from] ReplayError),
}

/// The one `*.log` file in `dir`.
pub fn find_log(dir: &Path) -> Result<PathBuf, RecoverError> {
    let shown = dir.display().to_string();
    let entries = std::fs::read_dir(dir).map_err(|e| RecoverError::Io { dir: shown.clone(), message: e.to_string() })?;
    let mut logs: Vec<PathBuf> =
        entries.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "log")).collect();
    logs.sort();
    match logs.len() {
        0 => Err(RecoverError::NoLog { dir: shown }),
        1 => Ok(logs.remove(0)),
        _ => Err(RecoverError::SeveralLogs {
            dir: shown,
            names: logs.iter().filter_map(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned()).collect::<Vec<_>>().join(", "),
        }),
    }
}

/// Most snapshot names `recover` tries, newest first.
const MAX_SNAPSHOTS_TRIED: usize = 8;

/// Rebuilds the world of the run logged in `dir`.
pub fn recover(dir: &Path, project: &Path) -> Result<Recovered, RecoverError> {
    let started = Instant::now();
    let log = find_log(dir)?;
    let mut named = named_snapshots(&log)?;
    let options = ReplayOptions { verify: true, until: None, project: project.to_path_buf() };
    let mut skipped = Vec::new();
    let mut tried = std::collections::HashSet::new();
    while let Some(named) = named.pop() {
        // A name the log repeats is tried once; and each try costs an engine, so only the
        // newest few are (a log naming thousands took minutes). Past them the log alone is
        // replayed, as when none restores.
        if !tried.insert(named.file.clone()) {
            continue;
        }
        if tried.len() > MAX_SNAPSHOTS_TRIED {
            skipped.push(format!("older snapshots: not tried (at most the newest {MAX_SNAPSHOTS_TRIED} names are)"));
            break;
        }
        let file = named.file.clone();
        let shown = crate::clip::shown(&file);
        // Only a plain file name beside the log: a tampered marker cannot point elsewhere.
        if file.contains(['/', '\\']) || file.starts_with('.') {
            skipped.push(format!("{shown}: not a file name beside the log"));
            continue;
        }
        let path = dir.join(&file);
        // Only a regular file: a link could lead anywhere, and a FIFO or a device never ends.
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_file() => {}
            Ok(_) => {
                skipped.push(format!("{shown}: not a regular file (a link, folder or device is never read)"));
                continue;
            }
            Err(e) => {
                skipped.push(format!("{shown}: {e}"));
                continue;
            }
        }
        let mut reader = LogReader::open(&log).map_err(ReplayError::from)?;
        let engine = replay_engine(&reader.header, project).map_err(ReplayError::from)?;
        if let Err(e) = engine.read_snapshot(&path) {
            skipped.push(format!("{shown}: {e}"));
            continue;
        }
        if let Err(e) = named.matches(&engine) {
            skipped.push(e);
            continue;
        }
        let report = drive(&engine, &mut reader, &options, Some(&file))?;
        return Ok(Recovered { engine, report, snapshot: Some((file, named.tick)), skipped, elapsed: started.elapsed() });
    }
    let mut reader = LogReader::open(&log).map_err(ReplayError::from)?;
    let engine = replay_engine(&reader.header, project).map_err(ReplayError::from)?;
    let report = drive(&engine, &mut reader, &options, None)?;
    Ok(Recovered { engine, report, snapshot: None, skipped, elapsed: started.elapsed() })
}

/// A snapshot a log names: its file beside the log, and the tick and world hash it was of.
#[derive(Debug, Clone)]
struct NamedSnapshot {
    file: String,
    tick: u64,
    hash: String,
}

impl NamedSnapshot {
    /// Whether the restored engine is the snapshot the log names (a file of another tick or
    /// another run with the same name is not).
    fn matches(&self, engine: &Engine) -> Result<(), String> {
        let (tick, hash) = (engine.tick(), engine.world_hash());
        if tick != self.tick || hash != self.hash {
            return Err(format!(
                "{}: it holds tick {tick} (world {hash}), the log names tick {} (world {}): not this run's snapshot",
                crate::clip::shown(&self.file),
                self.tick,
                crate::clip::shown(&self.hash)
            ));
        }
        Ok(())
    }
}

/// The snapshots `log` names, oldest first.
fn named_snapshots(log: &Path) -> Result<Vec<NamedSnapshot>, ReplayError> {
    let mut named = Vec::new();
    let mut reader = LogReader::open(log)?;
    while let Some(record) = reader.next_record()? {
        if let Record::Snapshot { file, tick, hash } = record {
            named.push(NamedSnapshot { file, tick, hash });
        }
    }
    Ok(named)
}

/// Replays `log` from `snapshot` (which the log must name) onward.
pub fn replay_from(log: &Path, snapshot: &Path, options: &ReplayOptions) -> Result<(Engine, ReplayReport), ReplayError> {
    let refused = |message: String| ReplayError::Snapshot { path: snapshot.display().to_string(), message };
    let file = snapshot.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let named = named_snapshots(log)?
        .into_iter()
        .rev()
        .find(|n| n.file == file)
        .ok_or_else(|| refused(format!("the log {} names no snapshot {file}", log.display())))?;
    if !std::fs::metadata(snapshot).is_ok_and(|m| m.is_file()) {
        return Err(refused("not a regular file".into()));
    }
    let mut reader = LogReader::open(log)?;
    let engine = replay_engine(&reader.header, &options.project)?;
    engine.read_snapshot(snapshot).map_err(|e| refused(e.to_string()))?;
    named.matches(&engine).map_err(refused)?;
    let report = drive(&engine, &mut reader, options, Some(&file))?;
    Ok((engine, report))
}
