//! `limina.lock`, beside `limina.toml`: what the registry tooling installed, pinned.
//!
//! One `[[package]]` per installed package: its name, version, registry, kind, the sha256 of
//! the archive it came from, the content hash of its unpacked files (as `packages list` shows
//! it), and what the operator approved: the resolved capabilities, the secrets and the tier.
//! `update` compares a new version's set with the approved one and asks again when it widens.
//! The file is checked on read (a hand edit that breaks a name, version or hash is an error
//! naming the entry), and written whole to a temporary file then renamed.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::RegistryError;
use crate::packages::manifest::is_valid_package_name;

pub const LOCK_FILE: &str = "limina.lock";
const FORMAT: u32 = 1;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Locked {
    pub name: String,
    pub version: String,
    pub registry: String,
    pub kind: super::index::PackageKind,
    pub archive_sha256: String,
    pub content_hash: String,
    /// The resolved capabilities (after `extends` and dependencies) the operator approved.
    #[serde(default)]
    pub capabilities: Vec<String>,
    #[serde(default)]
    pub secrets: Vec<String>,
    /// The tier granted at install.
    pub tier: String,
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct LockFile {
    version: u32,
    #[serde(default, rename = "package")]
    packages: Vec<Locked>,
}

#[derive(Debug, Default)]
pub struct Lock {
    pub packages: Vec<Locked>,
}

fn path_of(project: &Path) -> PathBuf {
    project.join(LOCK_FILE)
}

impl Lock {
    pub fn read(project: &Path) -> Result<Lock, RegistryError> {
        let file = path_of(project);
        let bad = |problem: String| RegistryError::Lock { file: file.clone(), problem };
        let text = match std::fs::read_to_string(&file) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Lock::default()),
            Err(e) => return Err(bad(format!("cannot read ({e})"))),
        };
        let parsed: LockFile = toml::from_str(&text).map_err(|e| bad(e.to_string().trim_end().to_string()))?;
        if parsed.version != FORMAT {
            return Err(bad(format!("version {} is not {FORMAT}", parsed.version)));
        }
        for p in &parsed.packages {
            let at = format!("package '{}'", p.name);
            if !is_valid_package_name(&p.name) {
                return Err(bad(format!("{at}: not a package name")));
            }
            semver::Version::parse(&p.version).map_err(|e| bad(format!("{at}: version '{}' is not semver ({e})", p.version)))?;
            if p.archive_sha256.len() != 64 || !p.archive_sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(bad(format!("{at}: archive_sha256 must be 64 hex digits")));
            }
            if !p.content_hash.starts_with("sha256:") {
                return Err(bad(format!("{at}: content_hash must be sha256:<hex>")));
            }
            if parsed.packages.iter().filter(|q| q.name == p.name).count() > 1 {
                return Err(bad(format!("{at} is listed twice")));
            }
        }
        Ok(Lock { packages: parsed.packages })
    }

    pub fn get(&self, name: &str) -> Option<&Locked> {
        self.packages.iter().find(|p| p.name == name)
    }

    pub fn set(&mut self, entry: Locked) {
        self.packages.retain(|p| p.name != entry.name);
        self.packages.push(entry);
        self.packages.sort_by(|a, b| a.name.cmp(&b.name));
    }

    pub fn remove(&mut self, name: &str) -> Option<Locked> {
        let i = self.packages.iter().position(|p| p.name == name)?;
        Some(self.packages.remove(i))
    }

    pub fn write(&self, project: &Path) -> Result<(), RegistryError> {
        let file = path_of(project);
        let bad = |problem: String| RegistryError::Lock { file: file.clone(), problem };
        let body = LockFile { version: FORMAT, packages: self.packages.clone() };
        let text = toml::to_string(&body).map_err(|e| bad(e.to_string()))?;
        let text = format!("# Written by `limina packages install/update/remove`: do not edit by hand.\n{text}");
        let temporary = file.with_extension("lock.tmp");
        std::fs::write(&temporary, text).map_err(|e| bad(format!("cannot write ({e})")))?;
        std::fs::rename(&temporary, &file).map_err(|e| bad(format!("cannot write ({e})")))
    }
}
