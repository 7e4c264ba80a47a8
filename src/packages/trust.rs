//! Operator trust grants: the tier a package runs in.
//!
//! A manifest may *ask* for `verified` or `local`; only the operator *grants* a tier, with
//! `limina packages trust NAME`, which records the grant in the trust file with the package's
//! path and the hashes of its files. A package runs in `min(requested, granted)`, and
//! `untrusted` when there is no grant, when the grant covers other files (any edit, the manifest
//! included, drops the package back until it is granted again), or when the trust file cannot be
//! read (fail closed). This module decides; it never runs package code.
//!
//! **Where the file lives.** `<parent of the scripts root>/.limina-trust.json`: outside the
//! scripts root on purpose. A package is a file or folder dropped under the scripts root, so
//! nothing a mod author ships can carry a grant. (The hashes pin which files a grant covers, but
//! an author can compute their own package's hashes: only the file's location keeps a grant the
//! operator's.) Grants are keyed by the package's path relative to the file's folder
//! (`scripts/greet.luau`): a project moved elsewhere keeps its grants, and since a package's
//! identity is its path, another file taking the same name gets no grant.
//!
//! **Secrets ride on the grant.** A grant also approves the secrets the manifest declares
//! (`secrets.rs` supplies their values). Since it pins the files, a package edited to declare
//! another secret has none approved until the operator grants it again. A package that asks
//! for no trust but declares secrets gets a grant of tier `untrusted`: it approves the secrets
//! and lifts nothing else.
//!
//! **An attestation is not a grant.** A manifest's `attestation` pins the hash of its own code;
//! its author computed it, so it proves the files are the ones the manifest describes
//! (integrity), never that they deserve trust.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::discover::Source;
use super::manifest::{Manifest, Trust};

/// The trust file's name, in the folder that holds the scripts root.
pub(crate) const TRUST_FILE: &str = ".limina-trust.json";

/// The `format` the trust file declares.
const FORMAT: &str = "limina-trust/1";

/// What `package.list` says an attestation means.
pub(crate) const ATTESTATION_MEANS: &str =
    "integrity only: the manifest pins its own code hash, computed by its author; that is not trust, which only an operator grant gives";

/// One operator grant, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Grant {
    /// The package's name when granted.
    pub name: String,
    /// `verified` or `local`; `untrusted` for a grant that only approves secrets.
    pub tier: String,
    /// The package's content hash when granted (its code files, as `package.list` shows it).
    pub content_hash: String,
    /// The sha256 of a folder package's manifest when granted (a single-file mod's manifest is
    /// part of its content hash).
    pub manifest_hash: Option<String>,
    /// The secrets the manifest declared when granted, approved with it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub secrets: Vec<String>,
    /// The capabilities the manifest declared when granted. A manifest is code: one that
    /// evaluates to other capabilities on another run (a table's address, say) is not what the
    /// operator granted. Absent in grants written before this was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capabilities: Option<Vec<String>>,
}

/// A manifest's declared capabilities as a grant records them.
fn declared(manifest: &Manifest) -> Vec<String> {
    let mut caps: Vec<String> = manifest.capabilities.iter().map(|c| c.as_str().to_string()).collect();
    caps.sort();
    caps.dedup();
    caps
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TrustFile {
    format: String,
    grants: BTreeMap<String, Grant>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum TrustError {
    #[error("the scripts root {0} has no parent folder to keep the trust file in")]
    NoPlace(String),
    #[error("{path}: {message}; until it is fixed every package runs untrusted")]
    Unreadable { path: String, message: String },
    #[error("{path}: cannot write the trust file ({message})")]
    Write { path: String, message: String },
    #[error("{name} asks for {requested} trust; a grant can confirm what a manifest asks or less, not {tier}")]
    AboveRequest { name: String, requested: &'static str, tier: &'static str },
}

/// The tier one package runs in, and why (shown by `package.list`, `packages inspect`, the
/// `package.loaded` event and every refusal that depends on it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustDecision {
    pub requested: Trust,
    /// What the operator's grant gives these very files, if anything.
    pub granted: Option<Trust>,
    pub effective: Trust,
    pub why: String,
    /// The declared secrets the operator approved for these very files.
    pub secrets: Vec<String>,
}

impl TrustDecision {
    /// A package with no manifest to ask with.
    pub fn untrusted() -> Self {
        Self::untrusted_because("asks for no trust".into())
    }

    pub(crate) fn untrusted_because(why: String) -> Self {
        Self { requested: Trust::Untrusted, granted: None, effective: Trust::Untrusted, why, secrets: Vec::new() }
    }
}

/// The operator's grants for one scripts root.
#[derive(Debug, Clone)]
pub(crate) struct Grants {
    /// The trust file (`None` when the scripts root has no parent folder).
    file: Option<PathBuf>,
    grants: BTreeMap<String, Grant>,
    /// Why the file could not be read: then nothing is granted.
    problem: Option<TrustError>,
}

/// Where the trust file of `scripts_root` lives.
pub(crate) fn trust_file(scripts_root: &Path) -> Option<PathBuf> {
    let absolute = std::path::absolute(scripts_root).unwrap_or_else(|_| scripts_root.to_path_buf());
    absolute.parent().map(|p| p.join(TRUST_FILE))
}

impl Grants {
    /// Reads the grants for `scripts_root`. A missing file grants nothing; a file that cannot be
    /// read or parsed grants nothing either, and says so in every decision.
    pub fn read(scripts_root: &Path) -> Self {
        let file = trust_file(scripts_root);
        let mut grants = Grants { file: file.clone(), grants: BTreeMap::new(), problem: None };
        let Some(file) = file else { return grants };
        let shown = file.display().to_string();
        match std::fs::read_to_string(&file) {
            Ok(text) => match serde_json::from_str::<TrustFile>(&text) {
                Ok(parsed) if parsed.format == FORMAT => grants.grants = parsed.grants,
                Ok(parsed) => {
                    grants.problem = Some(TrustError::Unreadable { path: shown, message: format!("unknown format '{}'", parsed.format) })
                }
                Err(e) => grants.problem = Some(TrustError::Unreadable { path: shown, message: format!("not a limina trust file ({e})") }),
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => grants.problem = Some(TrustError::Unreadable { path: shown, message: format!("cannot read the trust file ({e})") }),
        }
        grants
    }

    /// A package's key: its path relative to the trust file's folder.
    fn key(&self, package: &Path) -> String {
        let absolute = std::path::absolute(package).unwrap_or_else(|_| package.to_path_buf());
        let base = self.file.as_deref().and_then(Path::parent);
        let relative = base.and_then(|b| absolute.strip_prefix(b).ok()).unwrap_or(&absolute);
        relative.to_string_lossy().replace('\\', "/")
    }

    /// The tier the package in `source`, with `manifest`, runs in, and the secrets approved.
    pub(crate) fn decide(&self, source: &Source, manifest: &Manifest) -> TrustDecision {
        let requested = manifest.requested_trust;
        let name = &manifest.name;
        let key = self.key(&source.path);
        let grant = if self.problem.is_some() { None } else { self.grants.get(&key) };
        let manifest_hash = source.manifest_hash();
        let changed = grant.and_then(|grant| {
            if grant.name != *name {
                Some(format!("it was granted to a package named '{}'", grant.name))
            } else if grant.content_hash != source.content_hash {
                Some(format!("its code changed since the grant ({} then, {} now)", grant.content_hash, source.content_hash))
            } else if grant.manifest_hash != manifest_hash {
                Some("its manifest changed since the grant".to_string())
            } else if grant.capabilities.as_ref().is_some_and(|c| *c != declared(manifest)) {
                Some(format!(
                    "its manifest now evaluates to other capabilities ({}) than when granted ({})",
                    declared(manifest).join(", "),
                    grant.capabilities.as_deref().unwrap_or_default().join(", ")
                ))
            } else {
                None
            }
        });
        let secrets: Vec<String> = match (grant, &changed) {
            (Some(grant), None) => manifest.secrets.iter().filter(|s| grant.secrets.contains(s)).cloned().collect(),
            _ => Vec::new(),
        };
        let untrusted =
            |why: String| TrustDecision { requested, granted: None, effective: Trust::Untrusted, why, secrets: secrets.clone() };
        if requested == Trust::Untrusted {
            let why = match &changed {
                Some(changed) => format!(
                    "asks for no trust; the operator's approval of its secrets for {key} covers other files: {changed} (limina packages trust {name})"
                ),
                None => "asks for no trust".into(),
            };
            return untrusted(why);
        }
        let asks = format!("asks for trust {}", requested.as_str());
        if let Some(problem) = &self.problem {
            return untrusted(format!("{asks}, but {problem}"));
        }
        let Some(grant) = grant else {
            return untrusted(format!("{asks}, which the operator has not granted (limina packages trust {name})"));
        };
        if let Some(changed) = changed {
            return untrusted(format!(
                "{asks}; the operator's grant for {key} covers other files: {changed}; it runs untrusted until granted again (limina packages trust {name})"
            ));
        }
        let tier = match Trust::parse(&grant.tier) {
            Some(Trust::Untrusted) => {
                return untrusted(format!("{asks}; the operator granted {key} only its secrets (limina packages trust {name})"));
            }
            Some(tier) => tier,
            None => return untrusted(format!("{asks}; the grant for {key} names an unknown tier '{}'", grant.tier)),
        };
        let effective = tier.min(requested);
        TrustDecision {
            requested,
            granted: Some(tier),
            effective,
            why: format!("granted {} by the operator for {key} at {}", tier.as_str(), source.content_hash),
            secrets,
        }
    }

    /// Grants `tier` (default: what the manifest asks for) to these very files, and approves the
    /// secrets their manifest declares. `untrusted` is a grant only for a package with secrets.
    pub fn grant(&mut self, source: &Source, manifest: &Manifest, tier: Option<Trust>) -> Result<Grant, TrustError> {
        let tier = tier.unwrap_or(manifest.requested_trust);
        if tier > manifest.requested_trust || (tier == Trust::Untrusted && manifest.secrets.is_empty()) {
            return Err(TrustError::AboveRequest {
                name: manifest.name.clone(),
                requested: manifest.requested_trust.as_str(),
                tier: tier.as_str(),
            });
        }
        let grant = Grant {
            name: manifest.name.clone(),
            tier: tier.as_str().to_string(),
            content_hash: source.content_hash.clone(),
            manifest_hash: source.manifest_hash(),
            secrets: manifest.secrets.clone(),
            capabilities: Some(declared(manifest)),
        };
        self.grants.insert(self.key(&source.path), grant.clone());
        Ok(grant)
    }

    /// The tier the instruction skill `id` at `path` (its folder or `.skill.md` file), with
    /// `content_hash`, is held to. A skill runs no code, so there is no request to confirm: the
    /// operator grants it a tier outright, and the tier only widens its size bounds.
    pub(crate) fn decide_instruction(&self, path: &Path, id: &str, content_hash: &str) -> TrustDecision {
        let untrusted = TrustDecision::untrusted_because;
        if let Some(problem) = &self.problem {
            return untrusted(format!("no grant can be read: {problem}"));
        }
        let key = self.key(path);
        let Some(grant) = self.grants.get(&key) else {
            return untrusted(format!("not granted by the operator (limina packages trust {id})"));
        };
        let changed = if grant.name != id {
            Some(format!("it was granted to a skill named '{}'", grant.name))
        } else if grant.content_hash != content_hash {
            Some(format!("its files changed since the grant ({} then, {content_hash} now)", grant.content_hash))
        } else {
            None
        };
        if let Some(changed) = changed {
            return untrusted(format!("the operator's grant for {key} covers other files: {changed} (limina packages trust {id})"));
        }
        match Trust::parse(&grant.tier) {
            Some(tier) => TrustDecision {
                requested: tier,
                granted: Some(tier),
                effective: tier,
                why: format!("granted {} by the operator for {key} at {content_hash}", tier.as_str()),
                secrets: Vec::new(),
            },
            None => untrusted(format!("the grant for {key} names an unknown tier '{}'", grant.tier)),
        }
    }

    /// Grants instruction skill `id` at `path`, as its files are now, `tier`.
    pub(crate) fn grant_instruction(&mut self, path: &Path, id: &str, content_hash: &str, tier: Trust) -> Result<Grant, TrustError> {
        if tier == Trust::Untrusted {
            return Err(TrustError::AboveRequest { name: id.to_string(), requested: "verified or local", tier: tier.as_str() });
        }
        let grant = Grant {
            name: id.to_string(),
            tier: tier.as_str().to_string(),
            content_hash: content_hash.to_string(),
            manifest_hash: None,
            secrets: Vec::new(),
            capabilities: None,
        };
        self.grants.insert(self.key(path), grant.clone());
        Ok(grant)
    }

    /// Removes the grant of the package at `path`; returns it if there was one.
    pub fn revoke(&mut self, path: &Path) -> Option<Grant> {
        let key = self.key(path);
        self.grants.remove(&key)
    }

    /// Writes the grants back (to a temporary file, then renamed over the old one, so a crash
    /// never leaves half a file).
    pub fn save(&self, scripts_root: &Path) -> Result<PathBuf, TrustError> {
        if let Some(problem) = &self.problem {
            // Writing over a file that could not be read would drop the grants it holds.
            return Err(problem.clone());
        }
        let file = self.file.clone().ok_or_else(|| TrustError::NoPlace(scripts_root.display().to_string()))?;
        let write = |e: std::io::Error| TrustError::Write { path: file.display().to_string(), message: e.to_string() };
        let body = TrustFile { format: FORMAT.into(), grants: self.grants.clone() };
        let text = serde_json::to_string_pretty(&body).map_err(|e| write(std::io::Error::other(e)))? + "\n";
        let temporary = file.with_extension("json.tmp");
        std::fs::write(&temporary, text).map_err(write)?;
        std::fs::rename(&temporary, &file).map_err(write)?;
        Ok(file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packages::discover::read_package;
    use crate::packages::manifest::parse;
    use serde_json::json;

    fn setup(trust: &str) -> (tempfile::TempDir, PathBuf, Source, Manifest) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("scripts");
        std::fs::create_dir_all(root.join("pkg")).unwrap();
        std::fs::write(root.join("pkg/package.luau"), "return {}").unwrap();
        std::fs::write(root.join("pkg/init.luau"), "return {}").unwrap();
        let source = read_package(&root, &root.join("pkg")).unwrap();
        let manifest = parse(&json!({"name": "pkg", "version": "1.0.0", "trust": trust}), None).unwrap();
        (dir, root, source, manifest)
    }

    #[test]
    fn a_request_alone_is_untrusted_and_a_grant_binds_path_and_files() {
        let (_d, root, source, manifest) = setup("local");
        let mut grants = Grants::read(&root);
        let d = grants.decide(&source, &manifest);
        assert_eq!((d.requested, d.granted, d.effective), (Trust::Local, None, Trust::Untrusted));
        assert!(d.why.contains("limina packages trust pkg"), "{}", d.why);
        grants.grant(&source, &manifest, None).unwrap();
        let file = grants.save(&root).unwrap();
        assert_eq!(file, root.parent().unwrap().join(TRUST_FILE), "the grant lives outside the scripts root");
        let grants = Grants::read(&root);
        assert_eq!(grants.decide(&source, &manifest).effective, Trust::Local);
        // An edit anywhere, manifest included, drops it back.
        let mut edited = source.clone();
        assert_eq!(edited.files[1].0, "package.luau");
        edited.files[1].1.push_str("-- edit");
        let d = grants.decide(&edited, &manifest);
        assert_eq!(d.effective, Trust::Untrusted);
        assert!(d.why.contains("its manifest changed"), "{}", d.why);
        // The same files at another path are another package.
        let mut moved = source.clone();
        moved.path = root.join("elsewhere");
        assert_eq!(grants.decide(&moved, &manifest).effective, Trust::Untrusted);
    }

    #[test]
    fn a_manifest_that_evaluates_to_other_capabilities_loses_its_grant() {
        let (_d, root, source, manifest) = setup("local");
        let mut grants = Grants::read(&root);
        grants.grant(&source, &manifest, None).unwrap();
        assert_eq!(grants.decide(&source, &manifest).effective, Trust::Local);
        // Same files, another evaluation: a manifest is code and need not be deterministic.
        let wider = parse(&json!({"name": "pkg", "version": "1.0.0", "trust": "local", "capabilities": ["scene.write"]}), None).unwrap();
        let d = grants.decide(&source, &wider);
        assert_eq!(d.effective, Trust::Untrusted);
        assert!(d.why.contains("other capabilities (scene.write)"), "{}", d.why);
    }

    #[test]
    fn a_grant_never_lifts_a_package_above_its_request() {
        let (_d, root, source, manifest) = setup("verified");
        let mut grants = Grants::read(&root);
        assert!(matches!(grants.grant(&source, &manifest, Some(Trust::Local)), Err(TrustError::AboveRequest { .. })));
        grants.grant(&source, &manifest, None).unwrap();
        assert_eq!(grants.decide(&source, &manifest).effective, Trust::Verified);
    }

    #[test]
    fn a_broken_trust_file_grants_nothing_and_is_never_overwritten() {
        let (_d, root, source, manifest) = setup("local");
        std::fs::write(root.parent().unwrap().join(TRUST_FILE), "{ not json").unwrap();
        let grants = Grants::read(&root);
        let d = grants.decide(&source, &manifest);
        assert_eq!(d.effective, Trust::Untrusted);
        assert!(d.why.contains("not a limina trust file"), "{}", d.why);
        assert!(grants.save(&root).is_err());
    }
}
