//! Hot reload: after files change, the scripts root is scanned and planned again with the same
//! rules as start-up, and the difference is applied between ticks.
//!
//! A package's identity is its path. A reload never lets one path act for another: a package
//! replaces only the skills its own path registered, and a name held by a loaded package stays
//! with it (`resolve` refuses the newcomer). For each package, by path:
//!
//! | now | before | what happens |
//! |---|---|---|
//! | passes every rule, files unchanged | loaded | nothing |
//! | passes every rule | not loaded, or files changed | built and committed (replacing its own skills); a build failure keeps the last good version |
//! | refused, files changed | loaded | the edit is refused and the last good version keeps running (planned again as that version, so its dependents are judged against what runs) |
//! | refused or disabled, files unchanged | loaded | unloaded: a restart would not load it either (a dependency went away, the operator disabled it) |
//! | refused or disabled | not loaded | stays unloaded; if its files changed, the refusal is reported |
//! | gone | loaded | unloaded |
//!
//! Every applied change is a `dev.skill.reload.completed` event and every refused one a
//! `dev.skill.reload.failed` event naming the package, its path and the rule.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::rc::Rc;

use serde_json::json;

use super::discover::Source;
use super::load::{load_one, set_status};
use super::scan::{Scan, ScanRules, scan};
use super::{Host, InstalledPackage, ModManager, PACKAGES_ACTOR, Refusal, Status};
use crate::policy::profile_permissions;
use crate::skills::SkillRegistry;
use crate::trace::EventKind;

/// Applies file changes seen since the last poll (called between ticks). Any settled change
/// re-plans the whole root: whether one package loads depends on the others.
pub fn poll(mods: &RefCell<ModManager>, registry: &RefCell<SkillRegistry>, host: &Rc<dyn Host>) {
    {
        let mut m = mods.borrow_mut();
        let Some(watcher) = &mut m.watcher else { return };
        if watcher.settled_changes().is_empty() {
            return;
        }
    }
    apply(mods, registry, host);
    super::instructions::sync(mods, registry, host);
}

fn loaded(p: &InstalledPackage) -> bool {
    matches!(p.status, Status::Loaded { .. })
}

/// The same files, judged the same way: nothing to reload.
fn unchanged(old: &InstalledPackage, new: &InstalledPackage) -> bool {
    old.source == new.source && old.trust.effective == new.trust.effective
}

fn failed(host: &Rc<dyn Host>, pkg: &InstalledPackage, rule: &str, error: &str) {
    host.record(
        PACKAGES_ACTOR,
        PACKAGES_ACTOR,
        EventKind::DevSkillReloadFailed.as_str(),
        json!({"package": pkg.reference(), "file": pkg.source.path.display().to_string(), "rule": rule, "error": error}),
    );
}

/// Unregisters a loaded package's skills and drops its runtime; `why` says what removed it.
fn unload(mods: &RefCell<ModManager>, registry: &RefCell<SkillRegistry>, host: &Rc<dyn Host>, pkg: &InstalledPackage, why: &str) {
    let Status::Loaded { skills } = &pkg.status else { return };
    {
        let mut reg = registry.borrow_mut();
        for s in skills {
            let _ = reg.unregister(s);
        }
    }
    let gone = mods.borrow_mut().runtimes.remove(&pkg.source.path);
    if let Some(gone) = gone {
        gone.close_worker();
    }
    host.record(
        PACKAGES_ACTOR,
        PACKAGES_ACTOR,
        EventKind::DevSkillReloadCompleted.as_str(),
        json!({"package": pkg.reference(), "file": pkg.source.path.display().to_string(), "removed": skills, "invalidated": skills, "reason": why}),
    );
}

/// Scans and plans the root again and applies the difference (see the module doc).
pub(super) fn apply(mods: &RefCell<ModManager>, registry: &RefCell<SkillRegistry>, host: &Rc<dyn Host>) {
    let (root, granted, profile, previous) = {
        let m = mods.borrow();
        let Some(root) = m.root.clone() else { return };
        (root, m.granted, m.granted_profile.as_str(), m.packages.clone())
    };
    let before = |path: &PathBuf| previous.iter().find(|p| p.source.path == *path);
    let incumbents: BTreeMap<String, PathBuf> = previous.iter().filter(|p| loaded(p)).map(|p| (p.name(), p.source.path.clone())).collect();
    let loaded_profiles: BTreeMap<PathBuf, String> =
        previous.iter().filter(|p| loaded(p)).filter_map(|p| Some((p.source.path.clone(), p.profile.clone()?))).collect();
    let mut rules =
        ScanRules { granted, profile, previous: &previous, incumbents: &incumbents, overrides: &[], loaded_profiles: &loaded_profiles };
    let first = scan(&root, &rules);
    // Edits the rules refuse, to packages that are running: keep the running version.
    let refused_edits: Vec<(InstalledPackage, String, String)> = first
        .packages
        .iter()
        .filter_map(|p| {
            let Status::Refused { rule, reason } = &p.status else { return None };
            let old = before(&p.source.path).filter(|old| loaded(old) && !unchanged(old, p))?;
            Some((old.clone(), rule.as_str().to_string(), reason.clone()))
        })
        .collect();
    let Scan { packages, order } = if refused_edits.is_empty() {
        first
    } else {
        let overrides: Vec<Source> = refused_edits.iter().map(|(old, _, _)| old.source.clone()).collect();
        rules.overrides = &overrides;
        scan(&root, &rules)
    };
    for (old, rule, reason) in &refused_edits {
        // Kept, unless the running version is refused now too (then it is unloaded below).
        let kept = packages.iter().any(|p| p.source.path == old.source.path && matches!(p.status, Status::Pending));
        let note = if kept { " (the last good version keeps running)" } else { "" };
        failed(host, old, rule, &format!("{reason}{note}"));
    }

    let mut next: Vec<InstalledPackage> = Vec::with_capacity(packages.len());
    // (index, the skills its path registered before, if it was loaded)
    let mut to_load: Vec<(usize, Vec<String>)> = Vec::new();
    let mut unloads: Vec<(InstalledPackage, String)> = Vec::new();
    for (i, mut pkg) in packages.into_iter().enumerate() {
        let old = before(&pkg.source.path);
        let was_loaded = old.is_some_and(loaded);
        let same = old.is_some_and(|old| unchanged(old, &pkg));
        let now = pkg.status.clone();
        match (now, was_loaded, same) {
            (Status::Pending, true, true) => pkg.status = old.map(|o| o.status.clone()).unwrap_or(Status::Pending),
            // The same files failed to build last time and would again: not retried on every
            // change elsewhere (an edit to them, or a restart, tries again).
            (Status::Pending, false, true) if matches!(old.map(|o| &o.status), Some(Status::Refused { rule: Refusal::LoadFailed, .. })) => {
                pkg.status = old.map(|o| o.status.clone()).unwrap_or(Status::Pending);
            }
            (Status::Pending, _, _) => {
                let replaces = match old.map(|o| &o.status) {
                    Some(Status::Loaded { skills }) => skills.clone(),
                    _ => Vec::new(),
                };
                to_load.push((i, replaces));
            }
            (Status::Refused { reason, .. }, true, _) => unloads.extend(old.map(|o| (o.clone(), reason))),
            (Status::Disabled, true, _) => unloads.extend(old.map(|o| (o.clone(), "disabled by the operator".to_string()))),
            (Status::Refused { rule, reason }, false, false) => failed(host, &pkg, rule.as_str(), &reason),
            (Status::Disabled, false, false) => failed(host, &pkg, "disabled", "the package is disabled (limina packages enable NAME)"),
            _ => {}
        }
        next.push(pkg);
    }
    let gone: Vec<InstalledPackage> =
        previous.iter().filter(|p| loaded(p) && !next.iter().any(|n| n.source.path == p.source.path)).cloned().collect();
    for old in gone {
        unload(mods, registry, host, &old, "its files were removed");
    }
    for (old, why) in &unloads {
        unload(mods, registry, host, old, why);
    }
    mods.borrow_mut().packages = next.clone();

    // Load in the plan's order (dependencies first).
    let rank: BTreeMap<usize, usize> = order.iter().enumerate().map(|(r, &i)| (i, r)).collect();
    to_load.sort_by_key(|(i, _)| rank.get(i).copied().unwrap_or(usize::MAX));
    for (i, replaces) in to_load {
        let pkg = &next[i];
        let path = &pkg.source.path;
        let old = before(path);
        let (granted, profile) = match &pkg.profile {
            Some(p) => (profile_permissions(p), p.clone()),
            None => (granted, profile.to_string()),
        };
        match load_one(mods, pkg, granted, &profile, registry, host, &replaces) {
            Status::Loaded { skills } => {
                let mut invalidated = skills.clone();
                invalidated.extend(replaces.into_iter().filter(|s| !skills.contains(s)));
                host.record(
                    PACKAGES_ACTOR,
                    PACKAGES_ACTOR,
                    EventKind::DevSkillReloadCompleted.as_str(),
                    json!({"package": pkg.reference(), "file": path.display().to_string(), "skills": skills, "invalidated": invalidated, "trust": pkg.trust.effective.as_str()}),
                );
                set_status(mods, path, Status::Loaded { skills });
            }
            Status::Refused { rule, reason } => match old.filter(|o| loaded(o)) {
                // A broken build keeps the last good version: its skills and runtime were never
                // touched (commit is all or nothing), so its old entry goes back.
                Some(old) => {
                    failed(host, pkg, rule.as_str(), &format!("{reason} (the last good version keeps running)"));
                    if let Some(slot) = mods.borrow_mut().packages.iter_mut().find(|p| p.source.path == *path) {
                        *slot = old.clone();
                    }
                }
                None => {
                    // Reported when something changed: its files, or why it is refused.
                    let status = Status::Refused { rule, reason };
                    if old.is_none_or(|o| o.source != pkg.source || o.status != status)
                        && let Status::Refused { rule, reason } = &status
                    {
                        failed(host, pkg, rule.as_str(), reason);
                    }
                    set_status(mods, path, status);
                }
            },
            other => set_status(mods, path, other),
        }
    }
}
