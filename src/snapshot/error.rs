//! `SnapshotError`: every reason a snapshot is not written or not restored, each with the
//! values that decided it.

use std::path::PathBuf;

use crate::agents::systems::AgentMemoryError;
use crate::agents::table::AgentTableError;
use crate::world::{WorldSaveError, WorldStateError};

/// Why a snapshot was not taken, written, read or restored. A refused restore changed nothing.
#[derive(Debug, thiserror::Error)]
pub enum SnapshotError {
    #[error("not a limina snapshot: it starts with {found} where a snapshot starts with {expected}")]
    WrongMagic { expected: String, found: String },
    #[error("the snapshot is format version {found}; this engine reads format version {expected}")]
    VersionMismatch { expected: u32, found: u32 },
    #[error("the snapshot was written by limina {found}; this is limina {expected}, which restores only its own snapshots")]
    EngineMismatch { expected: String, found: String },
    #[error("the snapshot is truncated: its {part} needs {needed} bytes, {found} are left")]
    Truncated { part: &'static str, needed: u64, found: u64 },
    #[error("the snapshot has {extra} bytes after its body")]
    TrailingBytes { extra: u64 },
    #[error("the snapshot is corrupt: its body hashes to sha256:{found}, its header says sha256:{expected}")]
    Corrupt { expected: String, found: String },
    #[error("the snapshot's body is malformed: {0}")]
    World(#[from] WorldStateError),
    #[error("the snapshot's body is malformed: the {section} section does not decode: {error}")]
    Decode { section: &'static str, error: postcard::Error },
    #[error("the snapshot's body is malformed: {0}")]
    Invalid(String),
    #[error("the snapshot's agents cannot be restored here: {0}")]
    Agents(#[from] AgentTableError),
    #[error("the snapshot's body is malformed: {0}")]
    AgentMemory(#[from] AgentMemoryError),
    #[error("the snapshot's body has {extra} bytes after its last section")]
    TrailingSections { extra: usize },
    #[error("{size} bytes is more than the {max}-byte limit for a snapshot")]
    TooLarge { size: u64, max: u64 },
    #[error(transparent)]
    Encode(#[from] WorldSaveError),
    #[error("cannot encode the {section}: {error}")]
    EncodeSection { section: &'static str, error: postcard::Error },
    #[error("the {part} is in use by the caller; take the snapshot between calls")]
    Busy { part: &'static str },
    #[error("a snapshot cannot be restored while a step runs (tick {tick})")]
    Stepping { tick: u64 },
    #[error(
        "a snapshot cannot be taken inside a step (tick {tick}, half applied); take it between steps (at the top level or in limina.on_frame)"
    )]
    InsideStep { tick: u64 },
    #[error("name: '{name}' must be 1 to 64 letters, digits, '_' or '-'")]
    BadName { name: String },
    #[error("{path} is a symbolic link; snapshots are written only into the snapshots folder itself")]
    Symlink { path: PathBuf },
    #[error("{path} exists and is not a snapshot; world.snapshot replaces only snapshot files")]
    NotASnapshot { path: PathBuf },
    #[error("the snapshots folder {dir} holds {limit} snapshots already; reuse a name or clear old ones")]
    TooMany { dir: PathBuf, limit: usize },
    #[error("{path}: {message}")]
    Io { path: PathBuf, message: String },
}

impl SnapshotError {
    /// The same error with its paths as a client may see them (`paths::shown_from`).
    pub(crate) fn shown_from(self, project: &std::path::Path) -> Self {
        let show = |path: PathBuf| PathBuf::from(crate::paths::shown_from(project, &path));
        match self {
            SnapshotError::Symlink { path } => SnapshotError::Symlink { path: show(path) },
            SnapshotError::NotASnapshot { path } => SnapshotError::NotASnapshot { path: show(path) },
            SnapshotError::TooMany { dir, limit } => SnapshotError::TooMany { dir: show(dir), limit },
            SnapshotError::Io { path, message } => SnapshotError::Io { path: show(path), message },
            other => other,
        }
    }

    pub(crate) fn io(path: impl Into<PathBuf>, e: &std::io::Error) -> Self {
        SnapshotError::Io { path: path.into(), message: e.to_string() }
    }
}
