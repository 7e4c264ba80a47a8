//! Typed errors of the package layer. A refusal pairs the rule that refused (for audit records
//! and clients) with a message that names the package, the field and the values at fault;
//! load, manifest and state errors keep what caused them (the Lua message with its file and line,
//! the manifest field, the I/O error) so the CLI edge can print one line that explains itself.

use std::path::PathBuf;

use super::Refusal;
use super::manifest::ManifestError;
use super::sandbox::SandboxError;

/// A package turned away at one of the gates (manifest, resolution, profile, trust, conflicts).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Refused {
    pub rule: Refusal,
    pub message: String,
}

impl Refused {
    pub fn new(rule: Refusal, message: impl Into<String>) -> Self {
        Self { rule, message: message.into() }
    }
}

/// Why a package's code (or a manifest's Luau) could not be evaluated into what we need.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{package}: entry file '{entry}' is missing")]
    EntryMissing { package: String, entry: String },
    #[error("{owner}: {source}")]
    Sandbox { owner: String, source: SandboxError },
    /// Lua reported an error running package code; the message names the file and line.
    #[error("{0}")]
    Script(String),
    /// The code ran but returned something that is not a set of skill definitions.
    #[error("{file}: {problem}")]
    Shape {
        file: String,
        #[source]
        problem: ShapeError,
    },
    /// A value (a skill's schema, a manifest) is larger or deeper than its budget, or not JSON.
    #[error("{file}: {what}: {problem}")]
    Value { file: String, what: String, problem: String },
    #[error(transparent)]
    Definition(#[from] crate::skills::DefinitionError),
}

/// What is wrong with the shape of what a mod returned (`LoadError::Shape`).
#[derive(Debug, thiserror::Error)]
pub enum ShapeError {
    /// `got` is the Luau type name of the value returned.
    #[error("a mod must return a table of skills, got {got}")]
    NotATable { got: &'static str },
    #[error("`skills` must be a list of skill definitions")]
    SkillsNotAList,
    #[error("`skills` must hold skill definition tables ({0})")]
    NotADefinition(#[source] mlua::Error),
}

/// Why a package's manifest (`package.luau`, or a single-file mod's `package` header) could not
/// be read.
#[derive(Debug, thiserror::Error)]
pub enum ManifestReadError {
    #[error("{package}: package.luau is missing")]
    Missing { package: String },
    #[error("{package}: the package holds no files")]
    Empty { package: String },
    #[error(transparent)]
    Evaluate(#[from] LoadError),
    #[error("{file}: {source}")]
    Invalid { file: String, source: ManifestError },
}

/// Why the package state beside the scripts (enabled set, watcher) could not be changed.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    #[error("cannot write {}: {source}", path.display())]
    Write { path: PathBuf, source: std::io::Error },
    #[error("cannot watch {}: {source}", path.display())]
    Watch { path: PathBuf, source: notify::Error },
}
