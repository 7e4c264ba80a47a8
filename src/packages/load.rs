//! Loading packages in two phases, so no borrow of the `ModManager` is held while package code
//! runs: a package's skill may call `package.list` or `package.load` through `host.invoke`, and
//! the package it loads runs its top-level code then; every such call gets an answer or a clear
//! error, never a `BorrowError` panic.
//!
//! Phase 1 reads what it needs under a short borrow and builds the package's runtime (running
//! its top-level code) with no borrow held. Phase 2 commits — registers the skills, keeps the
//! runtime, updates the status — under a short borrow in which no package code runs.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::Path;
use std::rc::Rc;

use serde_json::json;

use super::manifest::Manifest;
use super::scan::{ScanRules, scan};
use super::secrets::PackageSecrets;
use super::{Admitted, Host, InstalledPackage, ModManager, PACKAGES_ACTOR, PackageRuntime, Refusal, Status};
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
    /// On a hot reload of a loaded package, the skills the package at this same path
    /// registered: these, and only these, it may replace.
    pub replaces: Vec<String>,
}

/// Records a refusal (naming the package, its path and the rule) and returns it as a status.
pub(super) fn rejected(host: &Rc<dyn Host>, pkg: &InstalledPackage, rule: Refusal, reason: String) -> Status {
    host.record(
        PACKAGES_ACTOR,
        PACKAGES_ACTOR,
        EventKind::PackageRejected.as_str(),
        json!({"ref": pkg.reference(), "path": pkg.source.shown(), "rule": rule.as_str(), "reason": reason}),
    );
    Status::Refused { rule, reason }
}

/// Why `pkg` cannot load now because a dependency is not running (the plan orders
/// dependencies first, but one may have failed to build).
pub(super) fn unmet_dependency(mods: &RefCell<ModManager>, pkg: &InstalledPackage) -> Option<String> {
    let m = mods.borrow();
    let deps = pkg.effective.as_ref()?.dependencies.keys();
    for dep in deps {
        let holders: Vec<&InstalledPackage> = m.packages.iter().filter(|p| p.manifest.is_some() && p.name() == *dep).collect();
        if holders.iter().any(|p| matches!(p.status, Status::Loaded { .. })) {
            continue;
        }
        let why = match holders.first().map(|p| &p.status) {
            Some(Status::Refused { reason, .. }) => format!("dependency '{dep}' did not load: {reason}"),
            Some(Status::Disabled) => format!("dependency '{dep}' is disabled"),
            Some(_) => format!("dependency '{dep}' is not loaded"),
            None => format!("dependency '{dep}' is not installed"),
        };
        return Some(why);
    }
    None
}

/// Loads one package under `granted`: admit, build with no borrow held, commit.
pub(super) fn load_one(
    mods: &RefCell<ModManager>,
    pkg: &InstalledPackage,
    granted: PermissionSet,
    profile: &str,
    registry: &RefCell<SkillRegistry>,
    host: &Rc<dyn Host>,
    replaces: &[String],
) -> Status {
    let Admitted { manifest, limits } = match ModManager::admit(pkg, granted, profile) {
        Ok(a) => a,
        Err(r) => return rejected(host, pkg, r.rule, r.message),
    };
    if let Some(why) = unmet_dependency(mods, pkg) {
        return rejected(host, pkg, Refusal::Resolve, why);
    }
    let (shown, isolation, store) = {
        let m = mods.borrow();
        (m.shown(&pkg.source.path), m.isolation.clone(), Rc::clone(&m.secret_store))
    };
    let secrets = PackageSecrets::new(&manifest.name, &manifest.secrets, &pkg.trust.secrets, store);
    let built =
        PackageRuntime::load(&pkg.source, shown, &manifest, pkg.trust.effective, limits, granted, Rc::clone(host), &isolation, secrets);
    let (runtime, skills) = match built {
        Ok(r) => r,
        Err(e) => return rejected(host, pkg, Refusal::LoadFailed, e.to_string()),
    };
    let built = Built { pkg: pkg.clone(), manifest, runtime, skills, granted, profile: profile.to_string(), replaces: replaces.to_vec() };
    let committed = mods.borrow_mut().commit(built, registry, host);
    match committed {
        Ok(skills) => Status::Loaded { skills },
        Err(r) => rejected(host, pkg, r.rule, r.message),
    }
}

/// Sets the status of the package at `path` (found again: the list may have changed meanwhile).
pub(super) fn set_status(mods: &RefCell<ModManager>, path: &Path, status: Status) {
    if let Some(p) = mods.borrow_mut().packages.iter_mut().find(|p| p.source.path == path) {
        p.status = status;
    }
}

/// Discovers, judges and loads every package. Refusals are recorded, never fatal.
pub fn load_all(mods: &RefCell<ModManager>, registry: &RefCell<SkillRegistry>, host: &Rc<dyn Host>) {
    let (root, granted, profile) = {
        let m = mods.borrow();
        let Some(root) = m.root.clone() else { return };
        (root, m.granted, m.granted_profile.as_str())
    };
    let rules =
        ScanRules { granted, profile, previous: &[], incumbents: &BTreeMap::new(), overrides: &[], loaded_profiles: &BTreeMap::new() };
    let found = scan(&root, &rules);
    for p in &found.packages {
        if let Status::Refused { rule, reason } = &p.status {
            rejected(host, p, *rule, reason.clone());
        }
    }
    let order: Vec<InstalledPackage> = found.order.iter().map(|&i| found.packages[i].clone()).collect();
    mods.borrow_mut().packages = found.packages;
    for pkg in order {
        let status = load_one(mods, &pkg, granted, profile, registry, host, &[]);
        set_status(mods, &pkg.source.path, status);
    }
    // After the typed skills: instruction skills gate tools, which must be registered by now.
    super::instructions::sync(mods, registry, host);
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
    pub(crate) fn reject_reason(&self) -> Option<&'static str> {
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
        // Disabling is the operator's decision; no caller's profile overrides it.
        Status::Disabled => return LoadOutcome::Disabled,
        Status::Refused { rule, reason } if !matches!(rule, Refusal::ProfileDenied | Refusal::LoadFailed) => {
            return LoadOutcome::Refused { rule: *rule, reason: reason.clone(), at_startup: true };
        }
        _ => {}
    }
    let status = load_one(mods, &pkg, profile_permissions(profile), profile, registry, host, &[]);
    if let Some(p) = mods.borrow_mut().packages.iter_mut().find(|p| p.source.path == pkg.source.path) {
        p.status = status.clone();
        if matches!(status, Status::Loaded { .. }) {
            p.profile = Some(profile.to_string());
        }
    }
    match status {
        Status::Loaded { skills } => LoadOutcome::Loaded { skills },
        Status::Refused { rule, reason } => LoadOutcome::Refused { rule, reason, at_startup: false },
        Status::Disabled => LoadOutcome::Disabled,
        Status::Pending => LoadOutcome::NotFound,
    }
}
