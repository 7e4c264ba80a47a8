//! Package registries: a static index plus signed archives, in a folder (`file://`) or on any
//! static web host (`https://`; plain `http` to loopback only), configured per project in
//! `limina.toml`. `install`, `update`, `remove`, `search` and `info` work against them
//! (`ops.rs`), `publish` writes into one (`publish.rs`); installed packages are pinned in
//! `limina.lock` with their archive and content hashes and what the operator approved;
//! archives are cached under
//! `.limina/cache/<registry>/` so a locked package reinstalls offline. docs/registries.md is the
//! user's guide, including how keys are rotated.
//!
//! Every input is hostile until checked: index files are size-capped and validated field by
//! field, an archive's sha256 and ed25519 signature (over name, version, hash and size) are
//! verified before one byte of it is decompressed, unpacking refuses links, devices and paths
//! out of the package, and an install is staged in a temporary folder and renamed into
//! `scripts/` only once everything passed.

pub mod archive;
pub mod config;
pub mod fetch;
pub mod index;
pub mod keys;
pub mod lock;
pub mod ops;
pub mod publish;

use std::path::PathBuf;

/// Why a registry operation failed. Every message names the registry, file, package or key at
/// fault and, where there is one, what the user can do about it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegistryError {
    #[error("{}: {problem}", file.display())]
    Config { file: PathBuf, problem: String },
    #[error("{}: {problem}", file.display())]
    Lock { file: PathBuf, problem: String },
    #[error("registry '{registry}': {file}: {problem}")]
    Index { registry: String, file: String, problem: String },
    #[error("registry '{registry}': cannot fetch {file}: {problem}")]
    Fetch { registry: String, file: String, problem: String },
    #[error("{package}: refused: {problem}")]
    Verify { package: String, problem: String },
    #[error("archive: {0}")]
    Archive(String),
    #[error("key: {0}")]
    Key(String),
    /// No version set satisfies every requirement, or installing would break what is installed.
    #[error("cannot resolve: {0}")]
    Unsatisfiable(String),
    #[error("{0}")]
    Usage(String),
    #[error("{0}")]
    Refused(String),
    #[error("{0}")]
    Io(String),
}
