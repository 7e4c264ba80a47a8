//! One pass over the scripts root that runs no package code beyond reading manifests: discover
//! (inside the root only), read manifests, decide each package's trust tier from the operator's
//! grants, and plan (names, `extends`, dependencies, conflicts, the admission gate).
//!
//! Start-up, hot reload and `survey` all call `scan`, so they apply the same rules. Reading a
//! folder package's manifest evaluates `package.luau` alone; a single-file mod's manifest is its
//! return value, so reading it evaluates the file — both in a throwaway sandboxed VM under a
//! deadline (`runtime::read_manifest_value`). Nothing here registers or records anything.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::discover::{self, Kind, Source};
use super::manifest::Manifest;
use super::resolve::{self, Candidate};
use super::trust::{Grants, TrustDecision};
use super::{InstalledPackage, Refusal, Status, admission, disabled_set, engine_version, read_manifest};
use crate::policy::{PermissionSet, profile_permissions};

/// Every package under a root, judged.
pub(super) struct Scan {
    /// Every package found: `Pending` (passes every rule; listed in `order`), `Disabled`, or
    /// `Refused`.
    pub packages: Vec<InstalledPackage>,
    /// Indices into `packages` to load, dependencies first.
    pub order: Vec<usize>,
}

/// What a scan is judged against.
pub(super) struct ScanRules<'a> {
    pub granted: PermissionSet,
    pub profile: &'a str,
    /// Packages from the last scan: a package whose files are unchanged keeps its manifest
    /// instead of evaluating it again.
    pub previous: &'a [InstalledPackage],
    /// Names held by loaded packages, and where (empty at start-up).
    pub incumbents: &'a BTreeMap<String, PathBuf>,
    /// Packages judged as these files rather than what is on disk now (a hot reload keeps the
    /// last good version of a package whose edit was refused).
    pub overrides: &'a [Source],
    /// Packages a `package.load` loaded under another profile than `profile`: judged under it.
    pub loaded_profiles: &'a BTreeMap<PathBuf, String>,
}

pub(super) fn scan(root: &Path, rules: &ScanRules<'_>) -> Scan {
    let disabled = disabled_set(root);
    let grants = Grants::read(root);
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut trusts: Vec<TrustDecision> = Vec::new();
    let mut unreadable: Vec<InstalledPackage> = Vec::new();
    for found in discover::discover(root) {
        let source = match found {
            Ok(source) => rules.overrides.iter().find(|o| o.path == source.path).cloned().unwrap_or(source),
            Err((path, e)) => {
                let rule = if e.escapes() { Refusal::PathEscape } else { Refusal::Unreadable };
                let kind = if path.is_dir() { Kind::Folder } else { Kind::SingleFile };
                let source = Source { kind, path, files: Vec::new(), content_hash: String::new() };
                unreadable.push(refused(source, rule, e.to_string()));
                continue;
            }
        };
        let cached = rules.previous.iter().find(|p| p.source == source).and_then(|p| p.manifest.clone());
        match cached.map(Ok).unwrap_or_else(|| read_manifest(&source)) {
            Ok(manifest) => {
                trusts.push(grants.decide(&source, &manifest));
                let enabled = !disabled.contains(&manifest.name);
                candidates.push(Candidate { manifest, source, enabled });
            }
            Err(e) => unreadable.push(refused(source, Refusal::ManifestInvalid, e.to_string())),
        }
    }
    let gate = |i: usize, m: &Manifest| {
        let path = &candidates[i].source.path;
        match rules.loaded_profiles.get(path) {
            Some(profile) => admission(m, &trusts[i], path, profile_permissions(profile), profile),
            None => admission(m, &trusts[i], path, rules.granted, rules.profile),
        }
        .map(|_| ())
    };
    let plan = resolve::plan(&candidates, &engine_version(), rules.incumbents, &gate);
    let mut packages: Vec<InstalledPackage> = candidates
        .iter()
        .zip(trusts)
        .enumerate()
        .map(|(i, (c, trust))| InstalledPackage {
            source: c.source.clone(),
            manifest: Some(c.manifest.clone()),
            effective: plan.effective.get(&i).cloned(),
            trust,
            status: if c.enabled { Status::Pending } else { Status::Disabled },
            profile: rules.loaded_profiles.get(&c.source.path).cloned(),
        })
        .collect();
    for (i, rule, reason) in plan.rejected {
        packages[i].status = Status::Refused { rule, reason };
    }
    packages.extend(unreadable);
    Scan { packages, order: plan.order }
}

fn refused(source: Source, rule: Refusal, reason: String) -> InstalledPackage {
    InstalledPackage {
        source,
        manifest: None,
        effective: None,
        trust: TrustDecision::untrusted(),
        status: Status::Refused { rule, reason },
        profile: None,
    }
}

/// Every package under `root` as a start-up under `profile` would judge it, without running any
/// package code beyond reading manifests (sandboxed, under a deadline). A package that would load
/// is `Pending`.
pub fn survey(root: &Path, profile: &str) -> Vec<InstalledPackage> {
    let root = std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf());
    let none = BTreeMap::new();
    let rules = ScanRules {
        granted: profile_permissions(profile),
        profile,
        previous: &[],
        incumbents: &BTreeMap::new(),
        overrides: &[],
        loaded_profiles: &none,
    };
    scan(&root, &rules).packages
}
