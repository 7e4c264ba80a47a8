//! Loading packages in two phases, so no borrow of the `ModManager` is held while package code
//! runs: package code may call `package.list`, load another package or step the world at load
//! time, and gets an answer or a clear error, never a `BorrowError` panic.
//!
//! Phase 1 reads what it needs under a short borrow and builds the package's runtime (running
//! its top-level code) with no borrow held. Phase 2 commits — registers the skills, keeps the
//! runtime, updates the status — under a short borrow in which no package code runs.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use serde_json::json;

use super::discover::{self, Kind, Source};
use super::manifest::Manifest;
use super::resolve::{self, Candidate};
use super::{
    Host, InstalledPackage, ModManager, PACKAGES_ACTOR, PackageRuntime, Refusal, Status, disabled_set, engine_version, read_manifest,
};
use crate::policy::{PermissionSet, profile_permissions};
use crate::skills::{Skill, SkillRegistry};
use crate::trace::EventKind;

/// A package whose code has run and whose skills are built, ready to commit.
pub(super) struct Built {
    pub pkg: InstalledPackage,
    pub manifest: Manifest,
    pub runtime: Rc<PackageRuntime>,
    pub skills: Vec<Skill>,
    pub granted: PermissionSet,
    pub profile: String,
    /// A hot reload of a loaded package: its own skill names may be replaced.
    pub replacing: bool,
}

fn rejected(host: &Rc<dyn Host>, reference: &str, rule: Refusal, reason: String) -> Status {
    host.record(
        PACKAGES_ACTOR,
        PACKAGES_ACTOR,
        EventKind::PackageRejected.as_str(),
        json!({"ref": reference, "rule": rule.as_str(), "reason": reason}),
    );
    Status::Refused { rule, reason }
}

/// Loads one package under `granted`: admit, build with no borrow held, commit.
fn load_one(
    mods: &RefCell<ModManager>,
    pkg: &InstalledPackage,
    granted: PermissionSet,
    profile: &str,
    registry: &RefCell<SkillRegistry>,
    host: &Rc<dyn Host>,
    replacing: bool,
) -> Status {
    let manifest = match ModManager::admit(pkg, granted, profile) {
        Ok(m) => m,
        Err((rule, reason)) => return rejected(host, &pkg.reference(), rule, reason),
    };
    let reference = manifest.reference();
    let (runtime, skills) = match PackageRuntime::load(&pkg.source, &manifest, granted, Rc::clone(host)) {
        Ok(r) => r,
        Err(e) => return rejected(host, &reference, Refusal::LoadFailed, e),
    };
    let built = Built { pkg: pkg.clone(), manifest, runtime, skills, granted, profile: profile.to_string(), replacing };
    let committed = mods.borrow_mut().commit(built, registry, host);
    match committed {
        Ok(skills) => Status::Loaded { skills },
        Err((rule, reason)) => rejected(host, &reference, rule, reason),
    }
}

/// Sets the status of the package at `path` (found again: the list may have changed meanwhile).
fn set_status(mods: &RefCell<ModManager>, path: &Path, status: Status) {
    if let Some(p) = mods.borrow_mut().packages.iter_mut().find(|p| p.source.path == path) {
        p.status = status;
    }
}

/// Discovers, resolves and loads every package. Refusals are recorded, never fatal.
pub fn load_all(mods: &RefCell<ModManager>, registry: &RefCell<SkillRegistry>, host: &Rc<dyn Host>) {
    let (root, granted, profile) = {
        let m = mods.borrow();
        let Some(root) = m.root.clone() else { return };
        (root, m.granted, m.granted_profile.clone())
    };
    let disabled = disabled_set(&root);
    let mut candidates = Vec::new();
    let mut broken = Vec::new();
    for found in discover::discover(&root) {
        let (source, reason) = match found {
            Ok(source) => match read_manifest(&source) {
                Ok(manifest) => {
                    let enabled = !disabled.contains(&manifest.name);
                    candidates.push(Candidate { manifest, source, enabled });
                    continue;
                }
                Err(reason) => (source, reason),
            },
            Err((path, reason)) => (Source { kind: Kind::SingleFile, path, files: Vec::new(), content_hash: String::new() }, reason),
        };
        host.record(
            PACKAGES_ACTOR,
            PACKAGES_ACTOR,
            EventKind::PackageRejected.as_str(),
            json!({"path": source.path.display().to_string(), "rule": Refusal::ManifestInvalid.as_str(), "reason": reason}),
        );
        broken.push(InstalledPackage {
            source,
            manifest: None,
            effective: None,
            status: Status::Refused { rule: Refusal::ManifestInvalid, reason },
        });
    }
    let plan = resolve::plan(&candidates, &engine_version());
    let mut installed: Vec<InstalledPackage> = candidates
        .iter()
        .enumerate()
        .map(|(i, c)| InstalledPackage {
            source: c.source.clone(),
            manifest: Some(c.manifest.clone()),
            effective: plan.effective.get(&i).cloned(),
            status: if c.enabled { Status::Refused { rule: Refusal::Resolve, reason: "not loaded yet".into() } } else { Status::Disabled },
        })
        .collect();
    for (i, reason) in &plan.rejected {
        installed[*i].status = Status::Refused { rule: Refusal::Resolve, reason: reason.clone() };
        host.record(
            PACKAGES_ACTOR,
            PACKAGES_ACTOR,
            EventKind::PackageRejected.as_str(),
            json!({"ref": candidates[*i].manifest.reference(), "rule": Refusal::Resolve.as_str(), "reason": reason}),
        );
    }
    let order: Vec<InstalledPackage> = plan.order.iter().map(|&i| installed[i].clone()).collect();
    installed.extend(broken);
    mods.borrow_mut().packages = installed;
    for pkg in order {
        let status = load_one(mods, &pkg, granted, &profile, registry, host, false);
        set_status(mods, &pkg.source.path, status);
    }
}

/// What `package.load` did.
#[derive(Debug, Clone, PartialEq)]
pub enum LoadOutcome {
    Loaded {
        skills: Vec<String>,
    },
    AlreadyLoaded,
    NotFound,
    /// Refused now, or (`at_startup`) already refused when the engine started.
    Refused {
        rule: Refusal,
        reason: String,
        at_startup: bool,
    },
    Disabled,
}

impl LoadOutcome {
    pub fn ok(&self) -> bool {
        matches!(self, LoadOutcome::Loaded { .. } | LoadOutcome::AlreadyLoaded)
    }

    /// The decision's rule, as `package.load` reports it.
    pub fn rule(&self) -> &'static str {
        match self {
            LoadOutcome::Loaded { .. } => "profile.grant",
            LoadOutcome::AlreadyLoaded => "already.loaded",
            LoadOutcome::NotFound => "not_found",
            LoadOutcome::Refused { rule, .. } => rule.as_str(),
            LoadOutcome::Disabled => "disabled",
        }
    }

    /// Why it was rejected, for a refusal.
    pub fn reject_reason(&self) -> Option<&'static str> {
        match self {
            LoadOutcome::Refused { at_startup: true, .. } => Some("refused"),
            LoadOutcome::Refused { rule: Refusal::ProfileDenied, .. } => Some("over-claim"),
            LoadOutcome::Refused { .. } => Some("load.failed"),
            LoadOutcome::Disabled => Some("disabled"),
            _ => None,
        }
    }

    pub fn reason(&self, reference: &str) -> String {
        match self {
            LoadOutcome::Loaded { skills } => format!("loaded with skills {}", skills.join(", ")),
            LoadOutcome::AlreadyLoaded => format!("{reference} is already loaded"),
            LoadOutcome::NotFound => format!("no installed package {reference} (package.list shows them)"),
            LoadOutcome::Refused { reason, .. } => reason.clone(),
            LoadOutcome::Disabled => format!("{reference} is disabled"),
        }
    }
}

/// `package.load`: loads an installed package under `profile` (no-op if already loaded).
pub fn load_ref(
    mods: &RefCell<ModManager>,
    reference: &str,
    profile: &str,
    registry: &RefCell<SkillRegistry>,
    host: &Rc<dyn Host>,
) -> LoadOutcome {
    let pkg = {
        let m = mods.borrow();
        let found = m.packages.iter().find(|p| p.reference() == reference || (p.manifest.is_some() && p.name() == reference));
        let Some(pkg) = found else { return LoadOutcome::NotFound };
        pkg.clone()
    };
    match &pkg.status {
        Status::Loaded { .. } => return LoadOutcome::AlreadyLoaded,
        Status::Refused { rule, reason } if !matches!(rule, Refusal::ProfileDenied | Refusal::LoadFailed) => {
            return LoadOutcome::Refused { rule: *rule, reason: reason.clone(), at_startup: true };
        }
        _ => {}
    }
    let status = load_one(mods, &pkg, profile_permissions(profile), profile, registry, host, false);
    set_status(mods, &pkg.source.path, status.clone());
    match status {
        Status::Loaded { skills } => LoadOutcome::Loaded { skills },
        Status::Refused { rule, reason } => LoadOutcome::Refused { rule, reason, at_startup: false },
        Status::Disabled => LoadOutcome::Disabled,
    }
}

/// Applies file changes seen since the last poll (called between ticks).
pub fn poll(mods: &RefCell<ModManager>, registry: &RefCell<SkillRegistry>, host: &Rc<dyn Host>) {
    let targets = {
        let mut m = mods.borrow_mut();
        let Some(watcher) = &mut m.watcher else { return };
        let changed = watcher.settled_changes();
        if changed.is_empty() {
            return;
        }
        let Some(root) = m.root.clone() else { return };
        // Map each changed file to its package: the folder package containing it, or the file.
        let mut targets: BTreeSet<PathBuf> = BTreeSet::new();
        for path in changed {
            let mut dir = path.parent();
            let mut target = path.clone();
            while let Some(d) = dir {
                if !d.starts_with(&root) || d == root {
                    break;
                }
                if discover::manifest_file(d).is_some() {
                    target = d.to_path_buf();
                }
                dir = d.parent();
            }
            let is_script = target.is_dir()
                || target.extension().is_some_and(|e| e == "lua" || e == "luau")
                || m.packages.iter().any(|p| p.source.path == target);
            if is_script {
                targets.insert(target);
            }
        }
        targets
    };
    for target in targets {
        reload(mods, &target, registry, host);
    }
}

/// Reloads (or newly loads, or removes) the package at `path`.
pub fn reload(mods: &RefCell<ModManager>, path: &Path, registry: &RefCell<SkillRegistry>, host: &Rc<dyn Host>) {
    let file = path.display().to_string();
    let failed = |name: &str, error: String| {
        host.record(
            PACKAGES_ACTOR,
            PACKAGES_ACTOR,
            EventKind::DevSkillReloadFailed.as_str(),
            json!({"package": name, "file": file, "error": error}),
        );
    };
    if !path.exists() {
        // Removed: unregister its skills.
        let mut m = mods.borrow_mut();
        let Some(i) = m.packages.iter().position(|p| p.source.path == path) else { return };
        let pkg = m.packages.remove(i);
        if let Status::Loaded { skills } = &pkg.status {
            let mut reg = registry.borrow_mut();
            for s in skills {
                let _ = reg.unregister(s);
            }
            drop(reg);
            m.runtimes.remove(&pkg.name());
            drop(m);
            host.record(
                PACKAGES_ACTOR,
                PACKAGES_ACTOR,
                EventKind::DevSkillReloadCompleted.as_str(),
                json!({"package": pkg.reference(), "file": file, "removed": skills, "invalidated": skills}),
            );
        }
        return;
    }
    let source = match discover::read_package(path) {
        Ok(s) => s,
        Err(e) => return failed(&file, e),
    };
    let manifest = match read_manifest(&source) {
        Ok(m) => m,
        Err(e) => return failed(&source.default_name(), e),
    };
    if !manifest.engine.matches(&engine_version()) {
        return failed(&manifest.reference(), format!("engine: requires limina {}, this is {}", manifest.engine, engine_version()));
    }
    if let Some(expected) = &manifest.attestation
        && *expected != source.content_hash
    {
        return failed(
            &manifest.reference(),
            format!("attestation mismatch: the manifest pins {expected}, the files hash to {}", source.content_hash),
        );
    }
    let (existing, previous_skills, granted, profile) = {
        let m = mods.borrow();
        let existing = m.packages.iter().position(|p| p.source.path == path);
        let previous = match existing.map(|i| &m.packages[i].status) {
            Some(Status::Loaded { skills }) => skills.clone(),
            _ => Vec::new(),
        };
        (existing.is_some(), previous, m.granted, m.granted_profile.clone())
    };
    let pkg = InstalledPackage { source, manifest: Some(manifest.clone()), effective: Some(manifest.clone()), status: Status::Disabled };
    // Build a staging runtime first: a broken edit changes nothing.
    let status = load_one(mods, &pkg, granted, &profile, registry, host, existing);
    match &status {
        Status::Loaded { skills } => {
            let mut invalidated: Vec<String> = skills.clone();
            invalidated.extend(previous_skills.iter().filter(|s| !skills.contains(s)).cloned());
            host.record(
                PACKAGES_ACTOR,
                PACKAGES_ACTOR,
                EventKind::DevSkillReloadCompleted.as_str(),
                json!({"package": manifest.reference(), "file": file, "skills": skills, "invalidated": invalidated}),
            );
            let pkg = InstalledPackage { status, ..pkg };
            let mut m = mods.borrow_mut();
            match m.packages.iter().position(|p| p.source.path == path) {
                Some(i) => m.packages[i] = pkg,
                None => m.packages.push(pkg),
            }
        }
        Status::Refused { reason, .. } => failed(&manifest.reference(), reason.clone()),
        Status::Disabled => {}
    }
}
