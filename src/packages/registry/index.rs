//! The registry's static layout and what its index files say.
//!
//! ```text
//! packages.json                      {"format": "limina-registry/1", "packages": ["greet", …]}
//! index/<name>.json                  {"format": "limina-index/1", "name": …, "versions": [Entry…]}
//! archives/<name>-<version>.tar.gz   the package's files (archive.rs)
//! ```
//!
//! An entry summarises one version (for `search` and `info`, and to plan dependencies before
//! downloading) and carries the archive's sha256, size and signature. Only the signature is
//! trusted: it covers name, version, sha256 and size (`keys.rs`). The summary is the
//! publisher's word; what the operator approves at install is read from the unpacked, verified
//! package itself. Every field is checked: names as package names, versions as semver, the
//! archive path is the one the name and version give (an entry cannot point elsewhere).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::RegistryError;
use crate::packages::manifest::{CATEGORY_RULE, is_valid_category, is_valid_package_name};

pub const REGISTRY_FORMAT: &str = "limina-registry/1";
pub const INDEX_FORMAT: &str = "limina-index/1";
/// Most bytes of one index file or of `packages.json`.
pub const MAX_INDEX_BYTES: u64 = 1 << 20;
/// Most versions one index file may list, and packages `packages.json` may list.
pub const MAX_ENTRIES: usize = 2000;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Listing {
    pub format: String,
    pub packages: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Index {
    pub format: String,
    pub name: String,
    pub versions: Vec<Entry>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub version: String,
    /// `folder` (a code package) or `instruction` (a SKILL.md skill).
    pub kind: PackageKind,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub author: String,
    #[serde(default)]
    pub capabilities: Vec<String>,
    /// Name → semver range; includes what it `extends`.
    #[serde(default)]
    pub dependencies: BTreeMap<String, String>,
    #[serde(default)]
    pub conflicts_with: Vec<String>,
    #[serde(default)]
    pub secrets: Vec<String>,
    /// What `packages browse` files it under (a code package's `category`, a skill's
    /// `metadata.category`). Left out when unset, so an index without one still reads in a
    /// limina that predates the field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    pub archive: String,
    pub sha256: String,
    pub size: u64,
    pub signature: String,
}

/// What an archive holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PackageKind {
    /// A code package: a folder with `package.luau`.
    Folder,
    /// An instruction skill: a folder with `SKILL.md`.
    Instruction,
}

impl PackageKind {
    pub fn as_str(self) -> &'static str {
        match self {
            PackageKind::Folder => "folder",
            PackageKind::Instruction => "instruction",
        }
    }
}

impl std::fmt::Display for PackageKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

pub fn archive_path(name: &str, version: &str) -> String {
    format!("archives/{name}-{version}.tar.gz")
}

pub fn index_path(name: &str) -> Result<String, RegistryError> {
    if !is_valid_package_name(name) {
        return Err(RegistryError::Usage(format!(
            "'{name}' is not a package name (1-64 lowercase letters, digits, '-' or '_', starting with a letter)"
        )));
    }
    Ok(format!("index/{name}.json"))
}

impl Entry {
    pub fn semver(&self) -> semver::Version {
        semver::Version::parse(&self.version).unwrap_or(semver::Version::new(0, 0, 0))
    }
}

/// Parses and checks an index file fetched for `name` from `registry`.
pub fn parse_index(bytes: &[u8], name: &str, registry: &str) -> Result<Index, RegistryError> {
    let bad = |problem: String| RegistryError::Index { registry: registry.to_string(), file: format!("index/{name}.json"), problem };
    let index: Index = serde_json::from_slice(bytes).map_err(|e| bad(format!("not a limina index ({e})")))?;
    if index.format != INDEX_FORMAT {
        return Err(bad(format!("format '{}' is not {INDEX_FORMAT}", index.format)));
    }
    if index.name != name {
        return Err(bad(format!("it describes '{}', not '{name}'", index.name)));
    }
    if index.versions.len() > MAX_ENTRIES {
        return Err(bad(format!("{} versions, more than {MAX_ENTRIES}", index.versions.len())));
    }
    for e in &index.versions {
        let at = format!("version '{}'", e.version);
        let v = semver::Version::parse(&e.version).map_err(|err| bad(format!("{at} is not semver ({err})")))?;
        if index.versions.iter().filter(|o| o.version == e.version).count() > 1 {
            return Err(bad(format!("{at} is listed twice")));
        }
        if e.archive != archive_path(name, &v.to_string()) {
            return Err(bad(format!("{at}: archive '{}' must be {}", e.archive, archive_path(name, &e.version))));
        }
        if e.sha256.len() != 64 || !e.sha256.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()) {
            return Err(bad(format!("{at}: sha256 must be 64 lowercase hex digits")));
        }
        if e.size > super::archive::MAX_ARCHIVE_BYTES {
            return Err(bad(format!("{at}: the archive's {} bytes are more than {}", e.size, super::archive::MAX_ARCHIVE_BYTES)));
        }
        if let Some(c) = &e.category
            && !is_valid_category(c)
        {
            // Shown escaped: the value is the registry's, and this message reaches a terminal.
            return Err(bad(format!("{at}: category {c:?} must be {CATEGORY_RULE}")));
        }
        for (dep, range) in &e.dependencies {
            if !is_valid_package_name(dep) {
                return Err(bad(format!("{at}: dependency '{dep}' is not a package name")));
            }
            semver::VersionReq::parse(range).map_err(|err| bad(format!("{at}: dependency {dep} '{range}' is not a range ({err})")))?;
        }
    }
    Ok(index)
}

pub fn parse_listing(bytes: &[u8], registry: &str) -> Result<Listing, RegistryError> {
    let bad = |problem: String| RegistryError::Index { registry: registry.to_string(), file: "packages.json".into(), problem };
    let listing: Listing = serde_json::from_slice(bytes).map_err(|e| bad(format!("not a limina registry listing ({e})")))?;
    if listing.format != REGISTRY_FORMAT {
        return Err(bad(format!("format '{}' is not {REGISTRY_FORMAT}", listing.format)));
    }
    if listing.packages.len() > MAX_ENTRIES {
        return Err(bad(format!("{} packages, more than {MAX_ENTRIES}", listing.packages.len())));
    }
    if let Some(bad_name) = listing.packages.iter().find(|n| !is_valid_package_name(n)) {
        return Err(bad(format!("'{bad_name}' is not a package name")));
    }
    Ok(listing)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index_with(category: Option<&str>) -> String {
        let mut entry = serde_json::json!({
            "version": "1.0.0", "kind": "folder", "archive": "archives/greet-1.0.0.tar.gz",
            "sha256": "0".repeat(64), "size": 10, "signature": "ed25519:00",
        });
        if let Some(c) = category {
            entry["category"] = c.into();
        }
        serde_json::json!({"format": INDEX_FORMAT, "name": "greet", "versions": [entry]}).to_string()
    }

    #[test]
    fn a_category_is_optional_checked_and_left_out_when_unset() {
        // An index written before categories existed parses, and one without a category is
        // written without the field (older builds deny unknown fields).
        let old = parse_index(index_with(None).as_bytes(), "greet", "main").unwrap();
        assert_eq!(old.versions[0].category, None);
        assert!(!serde_json::to_string(&old).unwrap().contains("category"));
        let ui = parse_index(index_with(Some("ui")).as_bytes(), "greet", "main").unwrap();
        assert_eq!(ui.versions[0].category.as_deref(), Some("ui"));
        for hostile in ["UI", "ui\u{1b}[2J", "a b", &"x".repeat(33)] {
            let err = parse_index(index_with(Some(hostile)).as_bytes(), "greet", "main").unwrap_err().to_string();
            assert!(err.contains("category") && !err.contains('\u{1b}'), "{hostile:?}: {err}");
        }
    }
}
