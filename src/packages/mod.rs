//! Mods and packages: everything under the scripts root, loaded at start-up and hot-reloaded.
//!
//! `ModManager` discovers packages, reads their manifests, resolves dependencies, checks each
//! package's declared capabilities against what the loading profile grants (an over-claim is
//! refused), and registers their skills all at once or not at all. Each package runs in its
//! `PackageRuntime`. Changes on disk are picked up between ticks: a good edit replaces the
//! package's skills atomically (a call in flight finishes on the old version), a broken one
//! keeps the last good version and says why. Every load, refusal and reload is a trace event.

pub mod discover;
pub mod manifest;
pub mod ops;
pub mod resolve;
pub mod runtime;
pub(crate) mod sandbox;
mod watch;

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use semver::Version;
use serde_json::{Value, json};

use discover::{Kind, Source};
use manifest::{Manifest, Trust};
use resolve::Candidate;
pub use runtime::{Host, PackageRuntime};

use crate::policy::{PermissionSet, profile_permissions};
use crate::skills::SkillRegistry;

/// Actor and thread of the events the package system records itself.
pub const PACKAGES_ACTOR: &str = "sys_packages";

/// File (under the scripts root) listing disabled packages.
pub const DISABLED_FILE: &str = ".limina-packages.json";

#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    Loaded { skills: Vec<String> },
    Refused { rule: String, reason: String },
    Disabled,
}

#[derive(Debug, Clone)]
pub struct InstalledPackage {
    pub source: Source,
    pub manifest: Option<Manifest>,
    /// After `extends`.
    pub effective: Option<Manifest>,
    pub status: Status,
}

impl InstalledPackage {
    pub fn name(&self) -> String {
        self.manifest.as_ref().map(|m| m.name.clone()).unwrap_or_else(|| self.source.default_name())
    }

    pub fn reference(&self) -> String {
        self.manifest.as_ref().map(Manifest::reference).unwrap_or_else(|| self.source.default_name())
    }
}

pub struct ModManager {
    root: Option<PathBuf>,
    granted_profile: String,
    granted: PermissionSet,
    pub packages: Vec<InstalledPackage>,
    runtimes: HashMap<String, Rc<PackageRuntime>>,
    watcher: Option<watch::Watcher>,
}

impl std::fmt::Debug for ModManager {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModManager").field("root", &self.root).field("packages", &self.packages.len()).finish()
    }
}

pub fn engine_version() -> Version {
    Version::parse(env!("CARGO_PKG_VERSION")).unwrap_or(Version::new(0, 0, 0))
}

/// Reads the manifest of a discovered package (single-file mods may have none: then the file
/// name and version 0.0.0 are used).
pub fn read_manifest(source: &Source) -> Result<Manifest, String> {
    let path = source.path.display().to_string();
    match source.kind {
        Kind::Folder => {
            let (file, text) = source
                .files
                .iter()
                .find(|(p, _)| p == "package.luau" || p == "package.lua")
                .ok_or_else(|| format!("{path}: package.luau is missing"))?;
            let value = runtime::read_manifest_file(&source.path.join(file), text)?;
            manifest::parse(&value, None).map_err(|e| format!("{path}/{file}: {e}"))
        }
        Kind::SingleFile => {
            let header = runtime::read_header(source)?;
            let value = header.unwrap_or_else(|| json!({"version": "0.0.0"}));
            manifest::parse(&value, Some(&source.default_name())).map_err(|e| format!("{path}: package header: {e}"))
        }
    }
}

fn disabled_set(root: &Path) -> BTreeSet<String> {
    let Ok(text) = std::fs::read_to_string(root.join(DISABLED_FILE)) else { return BTreeSet::new() };
    serde_json::from_str::<Value>(&text)
        .ok()
        .and_then(|v| {
            v.get("disabled").and_then(Value::as_array).map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect())
        })
        .unwrap_or_default()
}

/// Enables or disables a package by name (persisted beside the scripts).
pub fn set_enabled(root: &Path, name: &str, enabled: bool) -> Result<(), String> {
    let mut disabled = disabled_set(root);
    if enabled {
        disabled.remove(name);
    } else {
        disabled.insert(name.to_string());
    }
    let text = serde_json::to_string_pretty(&json!({"disabled": disabled})).unwrap_or_default();
    std::fs::write(root.join(DISABLED_FILE), text + "\n").map_err(|e| format!("{}: {e}", root.join(DISABLED_FILE).display()))
}

impl ModManager {
    pub fn new(root: Option<PathBuf>, granted_profile: &str) -> Self {
        Self {
            root,
            granted_profile: granted_profile.into(),
            granted: profile_permissions(granted_profile),
            packages: Vec::new(),
            runtimes: HashMap::new(),
            watcher: None,
        }
    }

    pub fn root(&self) -> Option<&Path> {
        self.root.as_deref()
    }

    /// Discovers, resolves and loads every package. Refusals are recorded, never fatal.
    pub fn load_all(&mut self, registry: &RefCell<SkillRegistry>, host: &Rc<dyn Host>) {
        let Some(root) = self.root.clone() else { return };
        let disabled = disabled_set(&root);
        let mut candidates = Vec::new();
        let mut broken = Vec::new();
        for found in discover::discover(&root) {
            match found {
                Ok(source) => match read_manifest(&source) {
                    Ok(manifest) => {
                        let enabled = !disabled.contains(&manifest.name);
                        candidates.push(Candidate { manifest, source, enabled });
                    }
                    Err(reason) => broken.push(InstalledPackage {
                        source,
                        manifest: None,
                        effective: None,
                        status: Status::Refused { rule: "manifest.invalid".into(), reason },
                    }),
                },
                Err((path, reason)) => {
                    let source = Source { kind: Kind::SingleFile, path, files: Vec::new(), content_hash: String::new() };
                    broken.push(InstalledPackage {
                        source,
                        manifest: None,
                        effective: None,
                        status: Status::Refused { rule: "manifest.invalid".into(), reason },
                    });
                }
            }
        }
        for b in &broken {
            if let Status::Refused { rule, reason } = &b.status {
                host.record(
                    PACKAGES_ACTOR,
                    PACKAGES_ACTOR,
                    "package.rejected",
                    json!({"path": b.source.path.display().to_string(), "rule": rule, "reason": reason}),
                );
            }
        }
        let plan = resolve::plan(&candidates, &engine_version());
        let mut installed: Vec<InstalledPackage> = candidates
            .iter()
            .enumerate()
            .map(|(i, c)| InstalledPackage {
                source: c.source.clone(),
                manifest: Some(c.manifest.clone()),
                effective: plan.effective.get(&i).cloned(),
                status: if c.enabled { Status::Refused { rule: "resolve".into(), reason: "not loaded".into() } } else { Status::Disabled },
            })
            .collect();
        for (i, reason) in &plan.rejected {
            installed[*i].status = Status::Refused { rule: "resolve".into(), reason: reason.clone() };
            host.record(
                PACKAGES_ACTOR,
                PACKAGES_ACTOR,
                "package.rejected",
                json!({"ref": candidates[*i].manifest.reference(), "rule": "resolve", "reason": reason}),
            );
        }
        for &i in &plan.order {
            let status = self.load_one(&installed[i], self.granted, &self.granted_profile.clone(), registry, host, false);
            installed[i].status = status;
        }
        installed.extend(broken);
        self.packages = installed;
    }

    /// Loads one package under `granted` and registers its skills (all or none).
    fn load_one(
        &mut self,
        pkg: &InstalledPackage,
        granted: PermissionSet,
        profile: &str,
        registry: &RefCell<SkillRegistry>,
        host: &Rc<dyn Host>,
        replacing: bool,
    ) -> Status {
        let Some(manifest) = pkg.effective.clone().or_else(|| pkg.manifest.clone()) else {
            return Status::Refused { rule: "manifest.invalid".into(), reason: "no manifest".into() };
        };
        let reference = manifest.reference();
        let refuse = |rule: &str, reason: String| {
            host.record(PACKAGES_ACTOR, PACKAGES_ACTOR, "package.rejected", json!({"ref": reference, "rule": rule, "reason": reason}));
            Status::Refused { rule: rule.into(), reason }
        };
        let over: Vec<&str> = manifest.capabilities.iter().filter(|c| !granted.contains(**c)).map(|c| c.as_str()).collect();
        if !over.is_empty() {
            return refuse(
                "profile.denied",
                format!("over-claim: {reference} declares {}, which profile {profile} does not grant", over.join(", ")),
            );
        }
        let (runtime, skills) = match PackageRuntime::load(&pkg.source, &manifest, granted, Rc::clone(host)) {
            Ok(r) => r,
            Err(e) => return refuse("load.failed", e),
        };
        let names: Vec<String> = skills.iter().map(|s| s.name.clone()).collect();
        let mine: BTreeSet<String> = match self.packages.iter().find(|p| p.name() == manifest.name).map(|p| &p.status) {
            Some(Status::Loaded { skills }) if replacing => skills.iter().cloned().collect(),
            _ => BTreeSet::new(),
        };
        {
            let reg = registry.borrow();
            if let Some(clash) = names.iter().find(|n| reg.has(n) && !mine.contains(*n)) {
                drop(reg);
                return refuse(
                    "skill.conflict",
                    format!("{reference} declares skill {clash}, which is already registered by another package or the core"),
                );
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
        self.runtimes.insert(manifest.name.clone(), runtime);
        host.record(
            PACKAGES_ACTOR,
            PACKAGES_ACTOR,
            "package.loaded",
            json!({
                "ref": reference,
                "kind": pkg.source.kind.as_str(),
                "trust": manifest.trust.as_str(),
                "contentHash": pkg.source.content_hash,
                "attested": manifest.attestation.is_some(),
                "capabilities": manifest.capabilities.iter().filter(|c| granted.contains(**c)).map(|c| c.as_str()).collect::<Vec<_>>(),
                "profile": profile,
                "skills": names,
            }),
        );
        Status::Loaded { skills: names }
    }

    pub fn runtime(&self, name: &str) -> Option<Rc<PackageRuntime>> {
        self.runtimes.get(name).cloned()
    }

    /// `package.list`.
    pub fn list(&self, name: Option<&str>) -> Value {
        let rows: Vec<Value> = self
            .packages
            .iter()
            .filter(|p| p.manifest.is_some() && name.is_none_or(|n| p.name() == n))
            .map(|p| {
                let m = p.effective.as_ref().or(p.manifest.as_ref());
                json!({
                    "ref": p.reference(),
                    "name": p.name(),
                    "version": m.map(|m| m.version.to_string()).unwrap_or_default(),
                    "kind": p.source.kind.as_str(),
                    "declaredCapabilities": m.map(|m| m.capabilities.iter().map(|c| c.as_str()).collect::<Vec<_>>()).unwrap_or_default(),
                    "engineCompat": m.map(|m| m.engine.to_string()).unwrap_or_default(),
                    "contentHash": p.source.content_hash,
                    "attested": m.is_some_and(|m| m.attestation.is_some()),
                })
            })
            .collect();
        json!({"packages": rows})
    }

    /// `package.load`: loads an installed package under `profile` (no-op if already loaded).
    pub fn load_ref(
        &mut self,
        reference: &str,
        profile: &str,
        registry: &RefCell<SkillRegistry>,
        host: &Rc<dyn Host>,
    ) -> (bool, Option<String>, Option<String>, String) {
        let Some(index) = self.packages.iter().position(|p| p.reference() == reference || (p.manifest.is_some() && p.name() == reference))
        else {
            return (false, Some("not_found".into()), None, format!("no installed package {reference} (package.list shows them)"));
        };
        if let Status::Loaded { .. } = self.packages[index].status {
            return (true, Some("already.loaded".into()), None, format!("{reference} is already loaded"));
        }
        if let Status::Refused { rule, reason } = &self.packages[index].status
            && rule != "profile.denied"
            && rule != "load.failed"
        {
            return (false, Some(rule.clone()), Some("refused".into()), reason.clone());
        }
        let pkg = self.packages[index].clone();
        let status = self.load_one(&pkg, profile_permissions(profile), profile, registry, host, false);
        self.packages[index].status = status.clone();
        match status {
            Status::Loaded { skills } => (true, Some("profile.grant".into()), None, format!("loaded with skills {}", skills.join(", "))),
            Status::Refused { rule, reason } => {
                let reject = if rule == "profile.denied" { "over-claim" } else { "load.failed" };
                (false, Some(rule), Some(reject.into()), reason)
            }
            Status::Disabled => (false, Some("disabled".into()), Some("disabled".into()), format!("{reference} is disabled")),
        }
    }

    /// Starts watching the scripts root for changes.
    pub fn watch(&mut self) -> Result<(), String> {
        let Some(root) = &self.root else { return Ok(()) };
        self.watcher = Some(watch::Watcher::start(root)?);
        Ok(())
    }

    /// Applies file changes seen since the last poll (called between ticks).
    pub fn poll(&mut self, registry: &RefCell<SkillRegistry>, host: &Rc<dyn Host>) {
        let Some(watcher) = &mut self.watcher else { return };
        let changed = watcher.settled_changes();
        if changed.is_empty() {
            return;
        }
        let Some(root) = self.root.clone() else { return };
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
                || self.packages.iter().any(|p| p.source.path == target);
            if is_script {
                targets.insert(target);
            }
        }
        for target in targets {
            self.reload(&target, registry, host);
        }
    }

    /// Reloads (or newly loads, or removes) the package at `path`.
    pub fn reload(&mut self, path: &Path, registry: &RefCell<SkillRegistry>, host: &Rc<dyn Host>) {
        let existing = self.packages.iter().position(|p| p.source.path == path);
        let file = path.display().to_string();
        let failed = |name: &str, error: String| {
            host.record(PACKAGES_ACTOR, PACKAGES_ACTOR, "dev.skill.reload.failed", json!({"package": name, "file": file, "error": error}));
        };
        if !path.exists() {
            // Removed: unregister its skills.
            if let Some(i) = existing {
                let pkg = self.packages.remove(i);
                if let Status::Loaded { skills } = &pkg.status {
                    let mut reg = registry.borrow_mut();
                    for s in skills {
                        let _ = reg.unregister(s);
                    }
                    drop(reg);
                    self.runtimes.remove(&pkg.name());
                    host.record(
                        PACKAGES_ACTOR,
                        PACKAGES_ACTOR,
                        "dev.skill.reload.completed",
                        json!({"package": pkg.reference(), "file": file, "removed": skills, "invalidated": skills}),
                    );
                }
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
        let previous_skills = match existing.map(|i| &self.packages[i].status) {
            Some(Status::Loaded { skills }) => skills.clone(),
            _ => Vec::new(),
        };
        let pkg =
            InstalledPackage { source, manifest: Some(manifest.clone()), effective: Some(manifest.clone()), status: Status::Disabled };
        // Load into a staging runtime first: a broken edit changes nothing.
        let granted = self.granted;
        let profile = self.granted_profile.clone();
        let status = self.load_one(&pkg, granted, &profile, registry, host, existing.is_some());
        match &status {
            Status::Loaded { skills } => {
                let mut invalidated: Vec<String> = skills.clone();
                invalidated.extend(previous_skills.iter().filter(|s| !skills.contains(s)).cloned());
                host.record(
                    PACKAGES_ACTOR,
                    PACKAGES_ACTOR,
                    "dev.skill.reload.completed",
                    json!({"package": manifest.reference(), "file": file, "skills": skills, "invalidated": invalidated}),
                );
                let pkg = InstalledPackage { status, ..pkg };
                match existing {
                    Some(i) => self.packages[i] = pkg,
                    None => self.packages.push(pkg),
                }
            }
            Status::Refused { reason, .. } => failed(&manifest.reference(), reason.clone()),
            Status::Disabled => {}
        }
    }

    pub fn trust_of(&self, name: &str) -> Option<Trust> {
        self.runtimes.get(name).map(|r| r.trust)
    }
}
