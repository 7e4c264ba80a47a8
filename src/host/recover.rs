//! Recovery: the world of a logged run that was killed, rebuilt from the newest good snapshot
//! beside its log and the log's records after that snapshot.
//!
//! A snapshot counts only once the log names it (its marker is written after the file is
//! durable), so a crash while one was being written leaves the previous one in charge. A
//! snapshot that is named but does not load (corrupt, truncated, another version) is skipped
//! with the reason, and the next older one is tried; with none, the log is replayed from its
//! beginning. What comes out is the world at the last durable record: every completed step, and
//! every between-step call (an MCP client was told those succeeded).
//!
//! A line that is not a record (corrupt: it does not parse, is too long, or is a second header)
//! does not stop recovery, and nothing is invented past it. Its records are lost, so no state
//! after it can be proved by replaying across it: recovery starts from the newest snapshot the
//! log names that verifies (its marker may lie after the bad line; the snapshot is checked by
//! its own hash, and its tick and world hash against the marker), replays the records after it
//! that parse, and ends before the first bad line after it: the last state it can prove. Bad
//! lines before that snapshot are passed over (the snapshot holds their effects). Every line left
//! out is reported (`Recovered::left_out`: line numbers, bytes, why).
//!
//! One kind of bad line does not end recovery wherever it is: one right before a take-over's
//! `owner` record. The owner that wrote that record recovered the world ending before the line
//! (it was the log's end then) and went on from there; the records after the fence continue the
//! world without it, so it is passed over (`LeftOutKind::Fenced`).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::Engine;
use super::replay::{ReplayError, ReplayOptions, ReplayReport, drive, replay_engine};
use crate::durable::{BadLine, LogReader, Record};

/// A recovered world.
#[derive(Debug)]
pub struct Recovered {
    pub engine: Engine,
    pub report: ReplayReport,
    /// The snapshot it started from (file name and tick), if any.
    pub snapshot: Option<(String, u64)>,
    /// Snapshots the log names that could not be used, with why.
    pub skipped: Vec<String>,
    /// Lines of the log that recovery left out, with why (see the module docs).
    pub left_out: Vec<LeftOut>,
    pub elapsed: Duration,
}

/// Lines of the log recovery left out: `first..=last`, `bytes` long.
#[derive(Debug, Clone, PartialEq)]
pub struct LeftOut {
    pub first: u64,
    pub last: u64,
    pub bytes: u64,
    pub kind: LeftOutKind,
    pub why: String,
}

/// Whether what a left-out line recorded is still in the world recovered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeftOutKind {
    /// A bad line before the snapshot recovery started from: the snapshot holds its effects.
    Superseded,
    /// A bad line right before a take-over's fence: the owner that placed it recovered the world
    /// ending before the line, so the world it went on with never held it.
    Fenced,
    /// A bad line after it, and every line after that: recovery ended before them.
    Ended,
}

impl LeftOut {
    /// Whether recovery ended before lines that followed the bad one: records that may have been
    /// acknowledged are not in the world recovered (a torn last line alone loses nothing
    /// acknowledged).
    pub fn drops_later_lines(&self) -> bool {
        self.kind == LeftOutKind::Ended && self.last > self.first
    }
}

impl std::fmt::Display for LeftOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.first == self.last {
            write!(f, "left out line {} ({} bytes): {}", self.first, self.bytes, self.why)
        } else {
            write!(f, "left out lines {}..{} ({} bytes): {}", self.first, self.last, self.bytes, self.why)
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RecoverError {
    #[error("{dir}: no command log (*.log) here")]
    NoLog { dir: String },
    #[error("{dir}: several command logs ({names}); recover one run per folder")]
    SeveralLogs { dir: String, names: String },
    #[error("{dir}: {message}")]
    Io { dir: String, message: String },
    #[error(
        "{log} continues a resumed run from its snapshot {file}, and no snapshot it names can be used ({skipped}); put the snapshot back beside the log"
    )]
    NoBase { log: String, file: String, skipped: String },
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
    let scan = scan(&log)?;
    let mut named = scan.named.clone();
    let options = ReplayOptions { verify: true, until: None, project: project.to_path_buf() };
    let mut skipped = Vec::new();
    let mut tried = std::collections::HashSet::new();
    while let Some(named) = named.pop() {
        // A name the log repeats is tried once (its newest marker: the file on disk is the last
        // written under it); and each try costs an engine, so only the newest few are (a log
        // naming thousands took minutes). Past them the log alone is replayed, as when none
        // restores.
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
            skipped.push(e.to_string());
            continue;
        }
        let left_out = scan.bound(&mut reader, named.line, Some((&file, named.tick)));
        let report = drive(&engine, &mut reader, &options, Some((&file, named.line)))?;
        let left_out = Scan::ended_at(left_out, report.tick);
        return Ok(Recovered { engine, report, snapshot: Some((file, named.tick)), skipped, left_out, elapsed: started.elapsed() });
    }
    let mut reader = LogReader::open(&log).map_err(ReplayError::from)?;
    // A resumed run's segment starts from its base snapshot: without it there is no world to
    // replay the log into.
    if let Some(base) = &reader.header.base {
        return Err(RecoverError::NoBase {
            log: log.display().to_string(),
            file: crate::clip::shown(&base.file),
            skipped: skipped.join("; "),
        });
    }
    let engine = replay_engine(&reader.header, project).map_err(ReplayError::from)?;
    let left_out = scan.bound(&mut reader, 1, None);
    let report = drive(&engine, &mut reader, &options, None)?;
    let left_out = Scan::ended_at(left_out, report.tick);
    Ok(Recovered { engine, report, snapshot: None, skipped, left_out, elapsed: started.elapsed() })
}

/// A snapshot a log names: its file beside the log, the tick and world hash it was of, and the
/// line of its marker.
#[derive(Debug, Clone)]
struct NamedSnapshot {
    file: String,
    tick: u64,
    hash: String,
    line: u64,
}

impl NamedSnapshot {
    /// Whether the restored engine is the snapshot the log names (a file of another tick or
    /// another run with the same name is not).
    fn matches(&self, engine: &Engine) -> Result<(), NotThisRun> {
        let (tick, hash) = (engine.tick(), engine.world_hash());
        if tick != self.tick || hash != self.hash {
            return Err(NotThisRun {
                file: crate::clip::shown(&self.file),
                tick,
                hash,
                named_tick: self.tick,
                named_hash: crate::clip::shown(&self.hash),
            });
        }
        Ok(())
    }
}

/// A snapshot file whose world is not the one the log's marker names.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{file}: it holds tick {tick} (world {hash}), the log names tick {named_tick} (world {named_hash}): not this run's snapshot")]
struct NotThisRun {
    file: String,
    tick: u64,
    hash: String,
    named_tick: u64,
    named_hash: String,
}

/// What one pass over a log found: the snapshots it names (oldest first), its bad lines, and
/// which of them a take-over's fence came right after.
#[derive(Debug)]
struct Scan {
    named: Vec<NamedSnapshot>,
    /// The bad lines recovery must reckon with (the fenced ones are not among them).
    bad: Vec<BadLine>,
    /// Bad lines with nothing but bad lines between them and an `owner` record (a fence), and
    /// that record's line. The owner that placed the fence recovered the world ending before
    /// them (they were the log's last lines then) and went on from there, so the world never
    /// held what they were meant to record: they are passed over, not ends of recovery.
    fenced: Vec<(BadLine, u64)>,
    /// Lines and bytes in the file (a torn tail's included).
    lines: u64,
    bytes: u64,
}

/// Reads `log` once, passing over bad lines.
fn scan(log: &Path) -> Result<Scan, ReplayError> {
    let mut reader = LogReader::open(log)?;
    let mut named = Vec::new();
    let mut bad = Vec::new();
    let mut fenced = Vec::new();
    // Bad lines since the last record.
    let mut trailing: Vec<BadLine> = Vec::new();
    while let Some(line) = reader.next_record_or_bad()? {
        match line {
            Ok(record) => {
                if let Record::Owner { .. } = record {
                    fenced.extend(trailing.drain(..).map(|b| (b, reader.line())));
                }
                bad.append(&mut trailing);
                if let Record::Snapshot { file, tick, hash } = record {
                    named.push(NamedSnapshot { file, tick, hash, line: reader.line() });
                }
            }
            Err(b) => trailing.push(b),
        }
    }
    bad.append(&mut trailing);
    Ok(Scan { named, bad, fenced, lines: reader.line(), bytes: reader.offset() })
}

impl Scan {
    /// Sets `reader` to start at line `from` (the marker of `snapshot`, file and tick, or line 1
    /// without one): bad lines before it are passed over, the first one after it ends the
    /// reading. Returns what that leaves out.
    fn bound(&self, reader: &mut LogReader, from: u64, snapshot: Option<(&str, u64)>) -> Vec<LeftOut> {
        reader.skip_bad_through = from;
        reader.pass_over = self.fenced.iter().map(|(b, _)| b.line).collect();
        let mut left_out: Vec<LeftOut> = self
            .fenced
            .iter()
            .map(|(b, fence)| LeftOut {
                first: b.line,
                last: b.line,
                bytes: b.bytes,
                kind: LeftOutKind::Fenced,
                why: format!(
                    "not a record ({}); passed over: the take-over recorded at line {fence} went on from the world before it",
                    crate::clip::to_bytes(&b.reason, 200)
                ),
            })
            .collect();
        if let Some((file, tick)) = snapshot {
            for b in self.bad.iter().filter(|b| b.line < from) {
                let why = format!(
                    "not a record ({}); not needed: snapshot {} (tick {tick}, named at line {from}) holds what came before it",
                    crate::clip::to_bytes(&b.reason, 200),
                    crate::clip::shown(file)
                );
                left_out.push(LeftOut { first: b.line, last: b.line, bytes: b.bytes, kind: LeftOutKind::Superseded, why });
            }
        }
        if let Some(b) = self.bad.iter().find(|b| b.line > from) {
            reader.end_before = Some(b.line);
            let later = self.bad.iter().filter(|x| x.line > b.line).count();
            let mut why = format!(
                "line {} is not a record ({}): what it recorded is lost, so nothing after it can be replayed",
                b.line,
                crate::clip::to_bytes(&b.reason, 200)
            );
            if later > 0 {
                why.push_str(&format!(" ({later} more bad lines follow)"));
            }
            let (last, bytes) = (self.lines.max(b.line), self.bytes.saturating_sub(b.offset));
            left_out.push(LeftOut { first: b.line, last, bytes, kind: LeftOutKind::Ended, why });
            // Fenced lines after the end are in its range: not passed over, never reached.
            left_out.retain(|l| l.kind != LeftOutKind::Fenced || l.first < b.line);
        }
        left_out
    }

    /// `left_out` with the tick recovery ended at named, where a bad line ended it.
    fn ended_at(mut left_out: Vec<LeftOut>, tick: u64) -> Vec<LeftOut> {
        if let Some(last) = left_out.last_mut()
            && last.kind == LeftOutKind::Ended
        {
            last.why.push_str(&format!("; recovery ends before it, at tick {tick}, the last state it can prove"));
        }
        left_out
    }
}

/// Replays `log` from `snapshot` (which the log must name) onward.
pub fn replay_from(log: &Path, snapshot: &Path, options: &ReplayOptions) -> Result<(Engine, ReplayReport), ReplayError> {
    let refused = |message: String| ReplayError::Snapshot { path: snapshot.display().to_string(), message };
    let file = snapshot.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let named = scan(log)?
        .named
        .into_iter()
        .rev()
        .find(|n| n.file == file)
        .ok_or_else(|| refused(format!("the log {} names no snapshot {file}", log.display())))?;
    if !std::fs::metadata(snapshot).is_ok_and(|m| m.is_file()) {
        return Err(refused("not a regular file".into()));
    }
    replay_named(log, snapshot, named, options)
}

/// Replays a resumed run's segment from the snapshot it starts from (its header's `base`, the
/// file beside the log its first marker names).
pub(crate) fn replay_from_base(
    log: &Path,
    base: &crate::durable::BaseSnapshot,
    options: &ReplayOptions,
) -> Result<(Engine, ReplayReport), ReplayError> {
    let dir = log.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let snapshot = dir.join(&base.file);
    let refused = |message: String| ReplayError::Snapshot { path: snapshot.display().to_string(), message };
    // Only a plain file name beside the log: a tampered header cannot point elsewhere.
    if base.file.contains(['/', '\\']) || base.file.starts_with('.') || base.file.is_empty() {
        return Err(refused(format!(
            "the log's header names {} as its base: not a file name beside the log",
            crate::clip::shown(&base.file)
        )));
    }
    let named =
        scan(log)?.named.into_iter().find(|n| n.file == base.file && n.tick == base.tick && n.hash == base.hash).ok_or_else(|| {
            refused(format!("the log {} starts from snapshot {} but never names it", log.display(), crate::clip::shown(&base.file)))
        })?;
    match std::fs::symlink_metadata(&snapshot) {
        Ok(meta) if meta.file_type().is_file() => {}
        Ok(_) => return Err(refused("not a regular file (a link, folder or device is never read)".into())),
        Err(e) => return Err(refused(format!("the resumed log starts from it: {e}"))),
    }
    replay_named(log, &snapshot, named, options)
}

fn replay_named(log: &Path, snapshot: &Path, named: NamedSnapshot, options: &ReplayOptions) -> Result<(Engine, ReplayReport), ReplayError> {
    let refused = |message: String| ReplayError::Snapshot { path: snapshot.display().to_string(), message };
    let file = named.file.clone();
    let mut reader = LogReader::open(log)?;
    // Lines before the marker are not replayed: a bad one there does not matter.
    reader.skip_bad_through = named.line;
    let engine = replay_engine(&reader.header, &options.project)?;
    engine.read_snapshot(snapshot).map_err(|e| refused(e.to_string()))?;
    named.matches(&engine).map_err(|e| refused(e.to_string()))?;
    let report = drive(&engine, &mut reader, options, Some((&file, named.line)))?;
    Ok((engine, report))
}
