//! Instruction skills as packages: found under the scripts root, checked, and kept in the
//! registry's `InstructionRegistry`, at start-up and on every hot reload.
//!
//! A skill's identity is its id (its folder or file name). Each sync reads every skill again and
//! applies the difference: a new one is registered (`package.loaded`), a changed one replaced in
//! place (`dev.skill.reload.completed`), a removed or disabled one unregistered. A skill that
//! fails — malformed front matter, an oversized body, a link out of its folder, a gated tool that
//! does not exist or that the loading profile does not grant, an unmet dependency or a conflict —
//! is refused with its file and line (`package.rejected`, or `dev.skill.reload.failed` when a
//! last good version is registered: that version stays). The same failure is reported once, not
//! at every unrelated change. Nothing here runs code: the only capability a skill has is
//! naming tools, and those must be registered and within what the loading profile grants.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use semver::Version;
use serde_json::json;

use super::discover::{MAX_INSTRUCTION_SKILLS, instruction_skills, shown};
use super::manifest::Trust;
use super::trust::{Grants, TrustDecision};
use super::{Host, ModManager, PACKAGES_ACTOR, Refusal, disabled_set};
use crate::instructions::{self, FormatError, InstructionSkill, Location, Problem};
use crate::policy::PermissionSet;
use crate::skills::SkillRegistry;
use crate::trace::EventKind;

/// The package rule a skill's failure falls under (the `rule` of its event).
fn rule_of(problem: &Problem) -> Refusal {
    match problem {
        Problem::Escapes => Refusal::PathEscape,
        Problem::UnknownTool(_) | Problem::NotGranted { .. } => Refusal::ProfileDenied,
        Problem::Unresolved(_) => Refusal::Resolve,
        Problem::BeyondTier(_) => Refusal::TrustDenied,
        Problem::File(_) => Refusal::Unreadable,
        _ => Refusal::ManifestInvalid,
    }
}

/// How much an instruction skill may hold in a tier. The format's own bounds
/// (`instructions::MAX_BODY_BYTES`, `MAX_RESOURCES`, `MAX_RESOURCE_TOTAL_BYTES`) are the widest;
/// an untrusted skill — anything dropped under `scripts/` — gets a quarter of them, enough for
/// every starter skill several times over, so an unreviewed folder cannot fill agents' context
/// windows or the server's memory with its full allowance until the operator says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TierBounds {
    pub body_bytes: usize,
    pub resources: usize,
    pub resource_bytes: u64,
}

impl TierBounds {
    pub(crate) fn of(tier: Trust) -> TierBounds {
        match tier {
            Trust::Untrusted => TierBounds {
                body_bytes: instructions::MAX_BODY_BYTES / 4,
                resources: instructions::MAX_RESOURCES / 4,
                resource_bytes: instructions::MAX_RESOURCE_TOTAL_BYTES / 4,
            },
            Trust::Verified | Trust::Local => TierBounds {
                body_bytes: instructions::MAX_BODY_BYTES,
                resources: instructions::MAX_RESOURCES,
                resource_bytes: instructions::MAX_RESOURCE_TOTAL_BYTES,
            },
        }
    }

    /// Refuses `skill` past these bounds, naming the tier and how to widen it.
    fn check(self, skill: &InstructionSkill, tier: Trust) -> Result<(), FormatError> {
        let wider = if tier == Trust::Untrusted {
            format!("; limina packages trust {} grants the verified bounds", skill.id)
        } else {
            String::new()
        };
        let beyond = |line: usize, what: String| {
            Err(FormatError::at(&skill.file, line, Problem::BeyondTier(format!("{what} in the {} tier{wider}", tier.as_str()))))
        };
        if skill.body.len() > self.body_bytes {
            return beyond(skill.body_line, format!("the body is {} bytes, above the maximum of {}", skill.body.len(), self.body_bytes));
        }
        if skill.resources.len() > self.resources {
            return beyond(0, format!("{} resource files, above the maximum of {}", skill.resources.len(), self.resources));
        }
        let total: u64 = skill.resources.iter().map(|r| r.bytes.len() as u64).sum();
        if total > self.resource_bytes {
            return beyond(0, format!("the resources add up to {total} bytes, above the maximum of {}", self.resource_bytes));
        }
        Ok(())
    }
}

/// Where a skill lives, as its trust grant is keyed: its folder, or its `.skill.md` file.
pub(crate) fn skill_path(at: &Location) -> &Path {
    match at {
        Location::Folder(dir) => dir,
        Location::File(file) => file,
    }
}

/// Reads `at`, decides its tier from the operator's `grants`, holds it to that tier's bounds,
/// and checks its gated tools against the typed registry and `granted`.
fn read(
    at: &Location,
    grants: &Grants,
    registry: &SkillRegistry,
    granted: PermissionSet,
    profile: &str,
) -> Result<(InstructionSkill, TrustDecision), FormatError> {
    let skill = instructions::load(at, &shown(&at.skill_file()))?;
    let trust = grants.decide_instruction(skill_path(at), &skill.id, &skill.content_hash);
    TierBounds::of(trust.effective).check(&skill, trust.effective)?;
    skill.check_tools(|name| registry.has(name))?;
    for tool in &skill.tools {
        let Some(typed) = registry.get(&tool.name) else { continue };
        if let Some(missing) = typed.permissions.iter().find(|p| !granted.contains(**p)) {
            let problem = Problem::NotGranted { tool: tool.name.clone(), permission: missing.to_string(), profile: profile.to_string() };
            return Err(FormatError::at(&skill.file, tool.line, problem));
        }
    }
    Ok((skill, trust))
}

/// Refuses, until nothing changes (refusing one can unmeet another):
/// - every file claiming an id another file claims too (a skill's id is its folder or file
///   name, so `a/x/`, `b/x/` and `x.skill.md` all claim `x`), except the one already registered
///   under it (`incumbent`): a newcomer never takes a loaded skill's id;
/// - a skill whose dependencies are not among the good ones (at a matching version; a skill with
///   no version counts as 0.0.0);
/// - a skill that declares a conflict with a good one: the declarer is refused, so a
///   declaration can never evict another skill, whatever the names' order.
fn resolve(
    found: &mut [(Location, Result<InstructionSkill, FormatError>)],
    incumbent: impl Fn(&str) -> Option<PathBuf>,
    show: impl Fn(&Path) -> String,
) {
    let unresolved = |file: &str, why: String| Err(FormatError::at(file, 0, Problem::Unresolved(why)));
    let mut claims: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for (at, _) in found.iter() {
        claims.entry(at.name()).or_default().push(skill_path(at).to_path_buf());
    }
    for (at, result) in found.iter_mut() {
        let (id, here) = (at.name(), skill_path(at));
        let paths = &claims[&id];
        if paths.len() < 2 {
            continue;
        }
        let keeper = incumbent(&id).filter(|p| paths.contains(p));
        if keeper.as_deref() == Some(here) {
            continue;
        }
        let file = result.as_ref().map_or_else(|e| e.file.clone(), |s| s.file.clone());
        let why = match keeper {
            Some(loaded) => format!("the id '{id}' belongs to the loaded skill at {}; another file cannot take it", show(&loaded)),
            None => {
                let all: Vec<String> = paths.iter().map(|p| show(p)).collect();
                format!("{} files claim the id '{id}' ({}): all are refused until one is renamed or removed", all.len(), all.join(", "))
            }
        };
        *result = unresolved(&file, why);
    }
    loop {
        let good: BTreeMap<String, Version> = found
            .iter()
            .filter_map(|(_, r)| r.as_ref().ok())
            .map(|s| (s.id.clone(), s.version.clone().unwrap_or(Version::new(0, 0, 0))))
            .collect();
        let mut changed = false;
        for (_, result) in found.iter_mut() {
            let Ok(skill) = result else { continue };
            let why = skill
                .dependencies
                .iter()
                .find_map(|(dep, req)| match good.get(dep) {
                    None => Some(format!("dependency '{dep}' is not a loaded instruction skill")),
                    Some(v) if !req.matches(v) => Some(format!("dependency '{dep}' is version {v}, not {req}")),
                    Some(_) => None,
                })
                .or_else(|| {
                    let c = skill.conflicts_with.iter().find(|c| **c != skill.id && good.contains_key(*c))?;
                    Some(format!("it declares a conflict with '{c}', which is loaded (the skill declaring a conflict is the one refused)"))
                });
            if let Some(why) = why {
                *result = unresolved(&skill.file, why);
                changed = true;
            }
        }
        if !changed {
            return;
        }
    }
}

/// Reads every instruction skill under the scripts root and applies the difference to
/// `registry` (see the module doc).
pub(super) fn sync(mods: &RefCell<ModManager>, registry: &RefCell<SkillRegistry>, host: &Rc<dyn Host>) {
    let (root, granted, profile) = {
        let m = mods.borrow();
        let Some(root) = m.root.clone() else { return };
        (root, m.granted, m.granted_profile.as_str())
    };
    let disabled = disabled_set(&root);
    let grants = Grants::read(&root);
    let incumbents: BTreeMap<String, PathBuf> =
        mods.borrow().instruction_trust.iter().map(|(id, (_, p))| (id.clone(), p.clone())).collect();
    let mut tiers: BTreeMap<PathBuf, TrustDecision> = BTreeMap::new();
    let mut locations = instruction_skills(&root);
    let overflow = locations.len() > MAX_INSTRUCTION_SKILLS;
    locations.truncate(MAX_INSTRUCTION_SKILLS);
    let mut found: Vec<(Location, Result<InstructionSkill, FormatError>)> = {
        let reg = registry.borrow();
        locations
            .into_iter()
            .filter(|at| !disabled.contains(&at.name()))
            .map(|at| {
                let result = read(&at, &grants, &reg, granted, profile).map(|(skill, trust)| {
                    tiers.insert(at.skill_file(), trust);
                    skill
                });
                (at, result)
            })
            .collect()
    };
    resolve(&mut found, |id| incumbents.get(id).cloned(), |p| mods.borrow().shown(p));

    let mut events: Vec<(EventKind, serde_json::Value)> = Vec::new();
    if overflow {
        let reason = format!(
            "more than {MAX_INSTRUCTION_SKILLS} instruction skills under the scripts root: only the first {MAX_INSTRUCTION_SKILLS} in path order are read"
        );
        let mut m = mods.borrow_mut();
        if m.instruction_reports.get(&root) != Some(&reason) {
            m.instruction_reports.insert(root.clone(), reason.clone());
            events.push((EventKind::PackageRejected, json!({"kind": "instruction", "rule": Refusal::Resolve.as_str(), "reason": reason})));
        }
    }
    let mut kept: BTreeSet<String> = BTreeSet::new();
    {
        let mut mods = mods.borrow_mut();
        let mods = &mut *mods;
        let reports = &mut mods.instruction_reports;
        let trust = &mut mods.instruction_trust;
        let mut reg = registry.borrow_mut();
        let reg = reg.instructions_mut();
        for (at, result) in found {
            let path: PathBuf = at.skill_file();
            match result {
                Ok(skill) => {
                    reports.remove(&path);
                    kept.insert(skill.id.clone());
                    let decision = tiers.remove(&path).unwrap_or_else(TrustDecision::untrusted);
                    let payload = json!({
                        "ref": format!("{}@{}", skill.id, skill.version.as_ref().map_or("0.0.0".to_string(), Version::to_string)),
                        "kind": "instruction",
                        "path": skill.file,
                        "contentHash": skill.content_hash,
                        "tools": skill.tool_names().collect::<Vec<_>>(),
                        "trust": decision.effective.as_str(),
                    });
                    trust.insert(skill.id.clone(), (decision, skill_path(&at).to_path_buf()));
                    match reg.get(&skill.id) {
                        Some(old) if old.content_hash == skill.content_hash && old.file == skill.file => {}
                        Some(_) => {
                            let _ = reg.replace(skill);
                            events.push((EventKind::DevSkillReloadCompleted, payload));
                        }
                        None => {
                            let _ = reg.register(skill);
                            events.push((EventKind::PackageLoaded, payload));
                        }
                    }
                }
                Err(e) => {
                    let id = at.name();
                    // The last good version stays through a broken edit of its own files; a
                    // skill whose dependency left, that declares a conflict, or whose id is
                    // claimed twice has no good version to keep.
                    let incumbent_here = incumbents.get(&id).is_some_and(|p| p == skill_path(&at));
                    let last_good = incumbent_here && !matches!(e.problem, Problem::Unresolved(_)) && reg.has(&id);
                    if last_good {
                        kept.insert(id.clone());
                    }
                    let message = e.to_string();
                    if reports.get(&path) == Some(&message) {
                        continue;
                    }
                    reports.insert(path, message.clone());
                    let rule = rule_of(&e.problem).as_str();
                    let (kind, reason) = match last_good {
                        true => (EventKind::DevSkillReloadFailed, format!("{message} (the last good version keeps running)")),
                        false => (EventKind::PackageRejected, message),
                    };
                    events.push((kind, json!({"ref": id, "kind": "instruction", "path": e.file, "file": e.file, "line": e.line, "rule": rule, "reason": reason})));
                }
            }
        }
        let gone: Vec<String> = reg.list().map(|s| s.id.clone()).filter(|id| !kept.contains(id)).collect();
        for id in gone {
            trust.remove(&id);
            if let Some(old) = reg.unregister(&id) {
                events.push((
                    EventKind::DevSkillReloadCompleted,
                    json!({"ref": id, "kind": "instruction", "path": old.file, "removed": [id]}),
                ));
            }
        }
    }
    for (kind, payload) in events {
        host.record(PACKAGES_ACTOR, PACKAGES_ACTOR, kind.as_str(), payload);
    }
}

/// The rows `package.list` shows for instruction skills: each registered one with its tier
/// (`name` narrows to one id). Refused ones are not listed, as refused packages are not; the
/// trace and `limina packages list` say why.
pub(super) fn rows(mods: &ModManager, registry: &instructions::InstructionRegistry, name: Option<&str>) -> Vec<serde_json::Value> {
    registry
        .list()
        .filter(|s| name.is_none_or(|n| n == s.id))
        .map(|s| {
            let (trust, path) = match mods.instruction_trust.get(&s.id) {
                Some((trust, path)) => (trust.clone(), mods.shown(path)),
                None => (TrustDecision::untrusted(), s.file.clone()),
            };
            json!({
                "ref": format!("{}@{}", s.id, s.version.as_ref().map_or("0.0.0".to_string(), Version::to_string)),
                "name": s.id,
                "path": path,
                "version": s.version.as_ref().map(Version::to_string).unwrap_or_default(),
                "kind": "instruction",
                "contentHash": s.content_hash,
                "trust": trust.effective.as_str(),
                "trustGranted": trust.granted.map(Trust::as_str),
                "trustWhy": trust.why,
            })
        })
        .collect()
}

/// One instruction skill as `limina packages` sees it without an engine: read, its tier
/// decided and held to that tier's bounds (its gated tools are checked against the registry at
/// start-up, not here).
pub(crate) struct Surveyed {
    pub location: Location,
    pub disabled: bool,
    /// The skill as read, or why it cannot be.
    pub read: Result<InstructionSkill, FormatError>,
    /// Its tier, when it could be read.
    pub trust: Option<TrustDecision>,
    /// Whether it fits its tier's bounds (a grant is what lifts a skill past them).
    pub bounds: Result<(), FormatError>,
    /// Whether it resolves beside the others (ids, dependencies, conflicts), as at start-up.
    pub resolved: Result<(), FormatError>,
}

impl Surveyed {
    /// What a start-up would do with it, as one error if it would refuse it.
    pub fn problem(&self) -> Option<&FormatError> {
        self.read.as_ref().err().or(self.bounds.as_ref().err()).or(self.resolved.as_ref().err())
    }
}

/// Every instruction skill under `root`, as the next start-up would read it.
pub(crate) fn survey(root: &Path) -> Vec<Surveyed> {
    let disabled = disabled_set(root);
    let grants = Grants::read(root);
    let mut locations = instruction_skills(root);
    locations.truncate(MAX_INSTRUCTION_SKILLS);
    let mut surveyed: Vec<Surveyed> = locations
        .into_iter()
        .map(|location| {
            let read = instructions::load(&location, &shown(&location.skill_file()));
            let trust = read.as_ref().ok().map(|skill| grants.decide_instruction(skill_path(&location), &skill.id, &skill.content_hash));
            let bounds = match (&read, &trust) {
                (Ok(skill), Some(trust)) => TierBounds::of(trust.effective).check(skill, trust.effective),
                _ => Ok(()),
            };
            Surveyed { disabled: disabled.contains(&location.name()), location, read, trust, bounds, resolved: Ok(()) }
        })
        .collect();
    // Resolved as a start-up would: the enabled ones that read and fit, with no skill loaded yet.
    let mut found: Vec<(Location, Result<InstructionSkill, FormatError>)> =
        surveyed.iter().filter(|s| !s.disabled).map(|s| (s.location.clone(), s.bounds.clone().and_then(|()| s.read.clone()))).collect();
    resolve(&mut found, |_| None, |p| p.strip_prefix(root).unwrap_or(p).display().to_string());
    for (location, result) in found {
        if let (Err(e), Some(s)) = (result, surveyed.iter_mut().find(|s| s.location == location))
            && s.read.is_ok()
            && s.bounds.is_ok()
        {
            s.resolved = Err(e);
        }
    }
    surveyed
}
