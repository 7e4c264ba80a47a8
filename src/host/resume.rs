//! Resuming a world: a snapshot file, or the folder of a logged run (recovered on the spot),
//! becomes the starting state of a new engine (`EngineConfig::resume`). The new engine restores
//! it before anything else can touch the world, and its command log (if any) is a new segment
//! that starts from it: the log's header names a copy of the snapshot written beside it, so
//! `limina replay` of the segment restores that copy and verifies every checkpoint after it.
//!
//! Everything here reads files the operator pointed at, and a crafted one is refused the way a
//! snapshot always is (`snapshot`'s checks): nothing is half-restored, and no log is started for
//! a world that did not restore. What the snapshot does not hold (the Luau VM, decisions in
//! flight) is not resumed: a script's callbacks and scripted agents' policies are the script's.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::snapshot::{MAGIC, MAX_SNAPSHOT_BYTES, SnapshotError, read_snapshot_file};

/// A world to resume: a snapshot's bytes and where they came from.
#[derive(Clone)]
pub struct Resume {
    /// The snapshot file or run folder, as errors and reports show it.
    pub from: String,
    pub bytes: Arc<[u8]>,
    /// What recovering a run folder left out or passed over (shown to the operator).
    pub notes: Vec<String>,
}

impl std::fmt::Debug for Resume {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Resume").field("from", &self.from).field("bytes", &self.bytes.len()).finish()
    }
}

/// Why a world could not be resumed. Nothing was started.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    #[error("{from}: {source}")]
    Snapshot {
        from: String,
        #[source]
        source: SnapshotError,
    },
    #[error("{from}: cannot be read: {message}")]
    Io { from: String, message: String },
    #[error(
        "{from}: not a snapshot or a run folder: it is {kind}; resume a snapshot file (`limina world.snapshot`, `--snapshot-every`, `limina recover DIR --snapshot FILE`) or the folder of a logged run"
    )]
    NotResumable { from: String, kind: &'static str },
    #[error("{from}: {source}")]
    Recover {
        from: String,
        #[source]
        source: Box<super::RecoverError>,
    },
    #[error("{from}: recovering the run diverged, so its world is not resumed: {divergence}")]
    Diverged { from: String, divergence: Box<crate::durable::Divergence> },
}

/// What a file is, from its first bytes: enough to tell someone who passed a snapshot where a
/// script is expected (or the other way round) what they have and what to use instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// Starts with the snapshot magic (`LIMSNAP\0`).
    Snapshot,
    /// Its first line is a command log's header.
    CommandLog,
    /// Anything else (a script, a scene, something foreign).
    Other,
}

impl FileKind {
    /// Sniffs at most the first 4 KiB of `path`; a file that cannot be read is `Other` (the
    /// caller's own read then says why).
    pub fn of(path: &Path) -> FileKind {
        let mut head = Vec::with_capacity(4096);
        let read = std::fs::File::open(path).and_then(|f| f.take(4096).read_to_end(&mut head));
        if read.is_err() {
            return FileKind::Other;
        }
        FileKind::sniff(&head)
    }

    pub fn sniff(head: &[u8]) -> FileKind {
        if head.starts_with(&MAGIC) {
            return FileKind::Snapshot;
        }
        let first = head.split(|b| *b == b'\n').next().unwrap_or_default();
        let trimmed = first.trim_ascii_start();
        if trimmed.starts_with(b"{\"r\":\"header\"") {
            return FileKind::CommandLog;
        }
        FileKind::Other
    }

    /// What a file of this kind is, and how to use it, for an error about a file that was taken
    /// for a script or scene.
    pub fn not_a_script(self) -> Option<&'static str> {
        match self {
            FileKind::Snapshot => Some(
                "is a limina snapshot (a saved world), not a Luau script or scene: continue it with `limina run FILE` or `limina mcp --resume FILE`",
            ),
            FileKind::CommandLog => Some(
                "is a limina command log, not a Luau script or scene: check it with `limina replay FILE --verify`, or continue the run with `limina run DIR` / `limina mcp --resume DIR` (DIR: the log's folder)",
            ),
            FileKind::Other => None,
        }
    }
}

impl Resume {
    /// The world in a snapshot file, or in the folder of a logged run (recovered now: the newest
    /// good snapshot beside its log plus the log after it, exactly as `limina recover`).
    pub fn from_path(path: &Path, project: &Path) -> Result<Resume, ResumeError> {
        let from = path.display().to_string();
        let meta = std::fs::metadata(path).map_err(|e| ResumeError::Io { from: from.clone(), message: e.to_string() })?;
        if meta.is_dir() {
            return Resume::recovered(path, project);
        }
        match FileKind::of(path) {
            FileKind::Snapshot => Resume::snapshot_file(path),
            FileKind::CommandLog => Err(ResumeError::NotResumable { from, kind: "a command log (resume its folder instead)" }),
            FileKind::Other => Err(ResumeError::NotResumable { from, kind: "neither (no snapshot header)" }),
        }
    }

    /// The snapshot in the file at `path` (checked in full when the engine restores it).
    pub fn snapshot_file(path: &Path) -> Result<Resume, ResumeError> {
        let from = path.display().to_string();
        let bytes = read_snapshot_file(path, MAX_SNAPSHOT_BYTES).map_err(|source| ResumeError::Snapshot { from: from.clone(), source })?;
        Ok(Resume { from, bytes: bytes.into(), notes: Vec::new() })
    }

    /// The world of the run logged in `dir`, recovered and captured as a snapshot.
    pub fn recovered(dir: &Path, project: &Path) -> Result<Resume, ResumeError> {
        let from = dir.display().to_string();
        let recovered =
            super::recover(dir, project).map_err(|source| ResumeError::Recover { from: from.clone(), source: Box::new(source) })?;
        if let Some(divergence) = recovered.report.divergence {
            return Err(ResumeError::Diverged { from, divergence: Box::new(divergence) });
        }
        let bytes = recovered.engine.snapshot().map_err(|source| ResumeError::Snapshot { from: from.clone(), source })?;
        let origin = match &recovered.snapshot {
            Some((file, tick)) => format!("snapshot {} (tick {tick})", crate::clip::shown(file)),
            None => "the beginning of its log".into(),
        };
        let mut notes = vec![format!(
            "recovered {from} at tick {} (world {}) from {origin} + {} commands",
            recovered.report.tick,
            recovered.engine.world_hash(),
            recovered.report.commands
        )];
        notes.extend(recovered.skipped.iter().cloned());
        notes.extend(recovered.left_out.iter().map(ToString::to_string));
        Ok(Resume { from, bytes: bytes.into(), notes })
    }
}

/// The snapshot a resumed run's log starts from, written beside the log as
/// `<log stem>-<tick>.snap`; never over an existing file.
pub(crate) fn base_path(log: &Path, name: &str) -> PathBuf {
    match log.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.join(name),
        _ => PathBuf::from(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshots_and_logs_are_told_apart_from_scripts() {
        assert_eq!(FileKind::sniff(b"LIMSNAP\0\x02\0\0\0"), FileKind::Snapshot);
        assert_eq!(FileKind::sniff(b"{\"r\":\"header\",\"format\":1}\n{\"r\":\"step\"}"), FileKind::CommandLog);
        for other in [&b"print('hi')"[..], b"", b"LIMSNAP", b"return { format = 1 }", b"{\"r\":\"step\",\"now\":1}"] {
            assert_eq!(FileKind::sniff(other), FileKind::Other, "{other:?}");
        }
    }
}
