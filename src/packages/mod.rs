//! Mods and packages: everything under the scripts root, loaded at start-up and hot-reloaded.
//!
//! `ModManager` discovers packages (never reading outside the scripts root), reads their
//! manifests, decides each one's trust tier from the operator's grants (a manifest only asks),
//! resolves dependencies, checks each package's declared capabilities against what the loading
//! profile grants (an over-claim is refused) and its limits against its tier, and registers
//! their skills all at once or not at all. Each package runs in its `PackageRuntime`, a
//! restricted VM whatever its tier; untrusted and verified packages hold theirs in a confined
//! worker process (`worker/`, the second barrier). Changes on disk are picked up between ticks by running the
//! same scan and plan as start-up: a good edit replaces the package's skills atomically (a call
//! in flight finishes on the old version), a refused or broken one keeps the last good version
//! and says why. A package's identity is its path. Every load, refusal and reload is a trace
//! event.
//!
//! `survey` is the read-only half: everything up to admission, with no package code run beyond
//! evaluating manifests in throwaway sandboxed VMs under a deadline (`limina packages list`).

pub mod discover;
mod door;
mod error;
pub(crate) mod instructions;
mod load;
pub mod manifest;
pub(crate) mod registry;
mod reload;
pub mod resolve;
pub mod runtime;
pub(crate) mod sandbox;
mod scan;
pub mod secrets;
pub mod trust;
mod watch;
pub mod worker;

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use semver::Version;
use serde_json::{Value, json};

use discover::{Kind, Source};
pub use door::Packages;
pub use error::{LoadError, ManifestReadError, Refused, ShapeError, StateError};
use load::Built;
pub use load::{LoadOutcome, load_all, load_ref};
use manifest::{Limits, Manifest, Trust};
pub use reload::poll;
pub use runtime::{Host, PackageRuntime};
pub use scan::survey;
use trust::TrustDecision;

use crate::policy::PermissionSet;
use crate::skills::{SkillRegistry, Tier};
use crate::trace::EventKind;

/// Skill-name prefixes only the engine may register in.
pub(crate) const CORE_NAMESPACES: [&str; 16] = [
    "scene.",
    "ecs.",
    "three.",
    "physics.",
    "agent.",
    "skills.",
    "trace.",
    "inspector.",
    "dev.",
    "audit.",
    "ui.",
    "audio.",
    "social.",
    "package.",
    "render.",
    "policy.",
];

/// Actor and thread of the events the package system records itself.
pub(crate) const PACKAGES_ACTOR: &str = "sys_packages";

/// File listing disabled packages, kept beside the scripts root as the trust file is (outside
/// it: anything dropped under the scripts root could otherwise delete it and re-enable what the
/// operator disabled). Older versions kept it inside the scripts root; that copy is still read
/// (it can only add to what is disabled) and is folded into the outside one at the next change.
pub(crate) const DISABLED_FILE: &str = ".limina-packages.json";

/// Where the operator's disabled list for `root` lives, and where older versions kept it.
fn disabled_files(root: &Path) -> (Option<PathBuf>, PathBuf) {
    let absolute = std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf());
    (absolute.parent().map(|p| p.join(DISABLED_FILE)), root.join(DISABLED_FILE))
}

fn read_disabled(path: &Path) -> BTreeSet<String> {
    let Ok(text) = std::fs::read_to_string(path) else { return BTreeSet::new() };
    serde_json::from_str::<Value>(&text)
        .ok()
        .and_then(|v| {
            v.get("disabled").and_then(Value::as_array).map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect())
        })
        .unwrap_or_default()
}

/// Why a package was refused (the `rule` of its `package.rejected` event).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Its manifest is missing or invalid.
    ManifestInvalid,
    /// Dependency resolution refused it (missing dependency, cycle, conflict, engine range).
    Resolve,
    /// It declares capabilities the loading profile does not grant (an over-claim).
    ProfileDenied,
    /// Its code failed to load.
    LoadFailed,
    /// It declares a skill name another package or the core already registered.
    SkillConflict,
    /// It needs a trust tier (for its limits) that the operator has not granted these files.
    TrustDenied,
    /// One of its paths is a symbolic link out of the scripts root.
    PathEscape,
    /// One of its files cannot be read (not a regular file, too large, unreadable).
    Unreadable,
    /// It declares a skill in a tier only the engine's own skills hold (`tier = "core"`).
    TierReserved,
}

impl Refusal {
    pub fn as_str(self) -> &'static str {
        match self {
            Refusal::ManifestInvalid => "manifest.invalid",
            Refusal::Resolve => "resolve",
            Refusal::ProfileDenied => "profile.denied",
            Refusal::LoadFailed => "load.failed",
            Refusal::SkillConflict => "skill.conflict",
            Refusal::TrustDenied => "trust.denied",
            Refusal::PathEscape => "path.escape",
            Refusal::Unreadable => "package.unreadable",
            Refusal::TierReserved => "tier.reserved",
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    Loaded {
        skills: Vec<String>,
    },
    Refused {
        rule: Refusal,
        reason: String,
    },
    Disabled,
    /// Passed every check that needs no package code; its code has not run (a survey, or a
    /// package about to load).
    Pending,
}

#[derive(Debug, Clone)]
pub struct InstalledPackage {
    pub source: Source,
    pub manifest: Option<Manifest>,
    /// After `extends`.
    pub effective: Option<Manifest>,
    /// The tier it runs in, from the operator's grants.
    pub trust: TrustDecision,
    pub status: Status,
    /// The profile a `package.load` loaded it under, when not the engine's: hot reload judges
    /// it under that profile again rather than unloading it.
    pub profile: Option<String>,
}

impl InstalledPackage {
    pub fn name(&self) -> String {
        self.manifest.as_ref().map(|m| m.name.clone()).unwrap_or_else(|| self.source.default_name())
    }

    pub fn reference(&self) -> String {
        self.manifest.as_ref().map(Manifest::reference).unwrap_or_else(|| self.source.default_name())
    }
}

/// What admission gives a package: its effective manifest and the limits of its tier.
pub(crate) struct Admitted {
    pub manifest: Manifest,
    pub limits: Limits,
}

pub struct ModManager {
    root: Option<PathBuf>,
    granted_profile: crate::policy::Profile,
    granted: PermissionSet,
    pub packages: Vec<InstalledPackage>,
    /// The last failure reported for each instruction skill file, so an unchanged failure is
    /// reported once rather than at every reload.
    instruction_reports: std::collections::BTreeMap<PathBuf, String>,
    /// The tier of each registered instruction skill and where it lives, by id.
    instruction_trust: std::collections::BTreeMap<String, (TrustDecision, PathBuf)>,
    /// By package path (a package's identity).
    runtimes: HashMap<PathBuf, Rc<PackageRuntime>>,
    watcher: Option<watch::Watcher>,
    /// Where untrusted and verified packages run (`worker.rs`).
    isolation: worker::Isolation,
    /// The operator's secret values for this scripts root (`secrets.rs`).
    pub(crate) secret_store: Rc<secrets::SecretStore>,
}

impl std::fmt::Debug for ModManager {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModManager").field("root", &self.root).field("packages", &self.packages.len()).finish()
    }
}

pub(crate) fn engine_version() -> Version {
    Version::parse(env!("CARGO_PKG_VERSION")).unwrap_or(Version::new(0, 0, 0))
}

/// Reads the manifest of a discovered package (single-file mods may have none: then the file
/// name and version 0.0.0 are used).
pub(crate) fn read_manifest(source: &Source) -> Result<Manifest, ManifestReadError> {
    let path = source.shown();
    match source.kind {
        Kind::Folder => {
            let (file, text) = source
                .files
                .iter()
                .find(|(p, _)| p == "package.luau" || p == "package.lua")
                .ok_or_else(|| ManifestReadError::Missing { package: path.clone() })?;
            let value = runtime::read_manifest_file(&source.path.join(file), text)?;
            manifest::parse(&value, None).map_err(|source| ManifestReadError::Invalid { file: format!("{path}/{file}"), source })
        }
        Kind::SingleFile => {
            let header = runtime::read_header(source)?;
            let value = header.unwrap_or_else(|| json!({"version": "0.0.0"}));
            manifest::parse(&value, Some(&source.default_name()))
                .map_err(|source| ManifestReadError::Invalid { file: format!("{path}: package header"), source })
        }
    }
}

pub(super) fn disabled_set(root: &Path) -> BTreeSet<String> {
    let (outside, legacy) = disabled_files(root);
    let mut disabled = outside.as_deref().map(read_disabled).unwrap_or_default();
    disabled.extend(read_disabled(&legacy));
    disabled
}

/// Enables or disables a package by name (persisted beside the scripts root, outside it).
pub fn set_enabled(root: &Path, name: &str, enabled: bool) -> Result<(), StateError> {
    let mut disabled = disabled_set(root);
    if enabled {
        disabled.remove(name);
    } else {
        disabled.insert(name.to_string());
    }
    let text = serde_json::to_string_pretty(&json!({"disabled": disabled})).unwrap_or_default();
    let (outside, legacy) = disabled_files(root);
    let path = outside.unwrap_or_else(|| legacy.clone());
    std::fs::write(&path, text + "\n").map_err(|source| StateError::Write { path: path.clone(), source })?;
    // Folded in: the copy inside the scripts root would otherwise keep re-disabling `name`.
    if path != legacy && legacy.symlink_metadata().is_ok() {
        std::fs::remove_file(&legacy).map_err(|source| StateError::Write { path: legacy, source })?;
    }
    Ok(())
}

impl ModManager {
    /// A manager for the mods under `root`. A relative root is made absolute here, once: the
    /// watcher reports absolute paths, and a package's path is its identity.
    pub fn new(root: Option<PathBuf>, granted_profile: crate::policy::Profile) -> Self {
        let root = root.map(|r| std::path::absolute(&r).unwrap_or(r));
        Self {
            secret_store: Rc::new(secrets::SecretStore::new(root.as_deref())),
            root,
            granted_profile,
            granted: granted_profile.permissions(),
            packages: Vec::new(),
            instruction_reports: Default::default(),
            instruction_trust: Default::default(),
            runtimes: HashMap::new(),
            watcher: None,
            isolation: worker::Isolation::InProcess,
        }
    }

    /// Where packages loaded from now on run (the engine sets it from its config).
    pub fn set_isolation(&mut self, isolation: worker::Isolation) {
        self.isolation = isolation;
    }

    pub fn isolation(&self) -> &worker::Isolation {
        &self.isolation
    }

    pub fn root(&self) -> Option<&Path> {
        self.root.as_deref()
    }

    /// Checks a package before its code runs: a manifest, and no capability beyond `granted`.
    fn admit(pkg: &InstalledPackage, granted: PermissionSet, profile: &str) -> Result<Admitted, Refused> {
        let Some(manifest) = pkg.effective.clone().or_else(|| pkg.manifest.clone()) else {
            return Err(Refused::new(Refusal::ManifestInvalid, format!("{}: no manifest", pkg.source.shown())));
        };
        let limits = admission(&manifest, &pkg.trust, &pkg.source.path, granted, profile)?;
        Ok(Admitted { manifest, limits })
    }

    /// Registers a built package's skills (all or none) and keeps its runtime. Runs no package
    /// code, so it may hold the manager's borrow.
    fn commit(&mut self, built: Built, registry: &RefCell<SkillRegistry>, host: &Rc<dyn Host>) -> Result<Vec<String>, Refused> {
        let Built { pkg, manifest, runtime, skills, granted, profile, replaces } = built;
        let reference = manifest.reference();
        let names: Vec<String> = skills.iter().map(|s| s.name.clone()).collect();
        // The core namespaces are the engine's: a package may not add `scene.teleport` beside the
        // core's scene skills, even where no core skill of that name exists yet.
        if let Some(name) = names.iter().find(|n| CORE_NAMESPACES.iter().any(|ns| n.starts_with(ns))) {
            return Err(Refused::new(
                Refusal::SkillConflict,
                format!("{reference} declares skill {name}, in a namespace reserved for the engine ({})", CORE_NAMESPACES.join(" ")),
            ));
        }
        // The core tier is listed to every client by default: a package claiming it could flood
        // every agent's context, so only the engine's own skills hold it. The app tier is hidden
        // from the model and from discovery: a package's skill there would be out of sight.
        if let Some(skill) = skills.iter().find(|s| s.tier != Tier::Standard) {
            return Err(Refused::new(
                Refusal::TierReserved,
                format!(
                    "{reference} declares skill {} with tier = \"{}\", which is reserved for the engine's own skills (leave it out: a package's skills are standard, found through skills.search and listed by skills.enable)",
                    skill.name,
                    skill.tier.as_str()
                ),
            ));
        }
        // A package may replace only the skills the package at its own path registered.
        let mine: BTreeSet<String> = replaces.into_iter().collect();
        {
            let reg = registry.borrow();
            if let Some(clash) = names.iter().find(|n| reg.has(n) && !mine.contains(*n)) {
                return Err(Refused::new(
                    Refusal::SkillConflict,
                    format!("{reference} declares skill {clash}, which is already registered by another package or the core"),
                ));
            }
        }
        let mut reg = registry.borrow_mut();
        for skill in skills {
            let result = if reg.has(&skill.name) { reg.replace(skill).map(|_| ()) } else { reg.register(skill) };
            if let Err(e) = result {
                tracing::warn!("registering a package skill failed after checks: {e}");
            }
        }
        for gone in mine.iter().filter(|n| !names.contains(n)) {
            let _ = reg.unregister(gone);
        }
        drop(reg);
        if let Some(old) = self.runtimes.insert(pkg.source.path.clone(), runtime) {
            old.close_worker();
        }
        host.record(
            PACKAGES_ACTOR,
            PACKAGES_ACTOR,
            EventKind::PackageLoaded.as_str(),
            json!({
                "ref": reference,
                "path": self.shown(&pkg.source.path),
                "kind": pkg.source.kind.as_str(),
                "trust": pkg.trust.effective.as_str(),
                "trustRequested": pkg.trust.requested.as_str(),
                "trustWhy": pkg.trust.why,
                "contentHash": pkg.source.content_hash,
                "attested": manifest.attestation.is_some(),
                "capabilities": manifest.capabilities.iter().filter(|c| granted.contains(**c)).map(|c| c.as_str()).collect::<Vec<_>>(),
                "profile": profile,
                "skills": names,
            }),
        );
        Ok(names)
    }

    /// The runtime of the loaded package called `name`.
    pub fn runtime(&self, name: &str) -> Option<Rc<PackageRuntime>> {
        let loaded =
            self.packages.iter().find(|p| p.manifest.is_some() && p.name() == name && matches!(p.status, Status::Loaded { .. }))?;
        self.runtimes.get(&loaded.source.path).cloned()
    }

    /// A package path as shown to clients: relative to the scripts root (absolute paths would
    /// tell every client where the host keeps its files).
    pub fn shown(&self, path: &Path) -> String {
        let relative = self.root.as_deref().and_then(|r| path.strip_prefix(r).ok()).unwrap_or(path);
        relative.display().to_string()
    }

    /// `package.list`.
    pub fn list(&self, name: Option<&str>) -> Value {
        let rows: Vec<Value> = self
            .packages
            .iter()
            .filter(|p| p.manifest.is_some() && name.is_none_or(|n| p.name() == n))
            .map(|p| {
                let m = p.effective.as_ref().or(p.manifest.as_ref());
                let attested = m.is_some_and(|m| m.attestation.is_some());
                let running = matches!(p.status, Status::Loaded { .. }).then(|| self.runtimes.get(&p.source.path)).flatten();
                let worker = running.and_then(|r| r.worker());
                let isolation = match (running, worker) {
                    (None, _) => Value::Null,
                    (Some(_), Some(_)) => json!("worker"),
                    (Some(_), None) => json!("in-process"),
                };
                json!({
                    "ref": p.reference(),
                    "name": p.name(),
                    "path": self.shown(&p.source.path),
                    "version": m.map(|m| m.version.to_string()).unwrap_or_default(),
                    "kind": p.source.kind.as_str(),
                    "declaredCapabilities": m.map(|m| m.capabilities.iter().map(|c| c.as_str()).collect::<Vec<_>>()).unwrap_or_default(),
                    "engineCompat": m.map(|m| m.engine.to_string()).unwrap_or_default(),
                    "contentHash": p.source.content_hash,
                    "attested": attested,
                    "attestation": attested.then_some(trust::ATTESTATION_MEANS),
                    "trust": p.trust.effective.as_str(),
                    "trustRequested": p.trust.requested.as_str(),
                    "trustGranted": p.trust.granted.map(Trust::as_str),
                    "trustWhy": p.trust.why,
                    "secrets": secrets::status(&self.secret_store, &p.name(), m.map(|m| m.secrets.as_slice()).unwrap_or_default(), &p.trust.secrets),
                    "isolation": isolation,
                    "worker": worker.map(|w| json!({"pid": w.pid, "restarts": w.restarts})),
                })
            })
            .collect();
        json!({"packages": rows})
    }

    /// Starts watching the scripts root for changes.
    pub fn watch(&mut self) -> Result<(), StateError> {
        let Some(root) = &self.root else { return Ok(()) };
        self.watcher = Some(watch::Watcher::start(root)?);
        Ok(())
    }

    /// The tier the loaded package called `name` runs in.
    pub fn trust_of(&self, name: &str) -> Option<Trust> {
        self.runtime(name).map(|r| r.trust)
    }
}

/// The admission gate, shared by start-up, hot reload, `package.load` and `survey`: no declared
/// capability beyond what `profile` grants, and limits within the tier the operator granted.
/// Returns the limits the package runs with.
pub(crate) fn admission(
    manifest: &Manifest,
    trust: &TrustDecision,
    path: &Path,
    granted: PermissionSet,
    profile: &str,
) -> Result<Limits, Refused> {
    let reference = manifest.reference();
    let over: Vec<&str> = manifest.capabilities.iter().filter(|c| !granted.contains(**c)).map(|c| c.as_str()).collect();
    if !over.is_empty() {
        return Err(Refused::new(
            Refusal::ProfileDenied,
            format!(
                "over-claim: {reference} declares {}, which profile {profile} does not grant ({})",
                over.join(", "),
                discover::shown(path)
            ),
        ));
    }
    manifest.limits_for(trust.effective).map_err(|e| {
        // The manifest's limits were valid for the tier it asked for, so only a tier below the
        // request can refuse them.
        let rule = if trust.effective < trust.requested { Refusal::TrustDenied } else { Refusal::ManifestInvalid };
        Refused::new(rule, format!("{reference} ({}) runs {}: it {}; {e}", discover::shown(path), trust.effective.as_str(), trust.why))
    })
}
