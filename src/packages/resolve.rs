//! Deciding which packages load, and in what order: names, `extends` mixins, engine
//! compatibility, attestations, the admission gate (over-claims, limits for the granted tier),
//! dependencies (with cycles named), conflicts.
//!
//! Every refusal names its cause. Refusing a package refuses the packages that depend on it,
//! with that reason, so nothing loads half-wired. Start-up and hot reload run this same plan;
//! the only input a reload adds is who already holds each name (`incumbents`).
//!
//! No outcome depends on the order packages are listed in:
//! - **Names.** A package's identity is its path. Two paths claiming one name at start-up are
//!   both refused (neither may win by sorting first); at a reload the path that holds the name
//!   keeps it and the newcomer is refused, so a file can never take over another's name.
//! - **Conflicts.** The package that declares `conflicts_with` is the one refused, judged against
//!   the packages that pass every other rule, so declaring a conflict can never evict another
//!   package and free its skill names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use semver::Version;

use super::Refusal;
use super::discover::Source;
use super::manifest::Manifest;

/// Most `extends` levels (a package, its parent, its grandparent).
pub(crate) const MAX_EXTENDS_DEPTH: usize = 3;

#[derive(Debug, Clone)]
pub(crate) struct Candidate {
    pub manifest: Manifest,
    pub source: Source,
    pub enabled: bool,
}

#[derive(Debug, Default)]
pub(crate) struct Plan {
    /// Indices into the candidates, dependencies first.
    pub order: Vec<usize>,
    pub rejected: Vec<(usize, Refusal, String)>,
    /// Effective manifests after `extends` (by index).
    pub effective: BTreeMap<usize, Manifest>,
}

/// A check on a candidate's effective manifest that needs no package code (the admission gate:
/// over-claims, limits within the granted tier).
pub(crate) type Gate<'a> = dyn Fn(usize, &Manifest) -> Result<(), super::Refused> + 'a;

/// Refused candidates by index, with the rule and the reason.
type RefusedMap = BTreeMap<usize, (Refusal, String)>;

/// Who holds each name: a unique claimant, or the incumbent of a contested name. Every other
/// claimant of a contested name is refused.
fn claim_names<'a>(cands: &'a [Candidate], incumbents: &BTreeMap<String, PathBuf>, refused: &mut RefusedMap) -> BTreeMap<&'a str, usize> {
    let mut holders: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, c) in cands.iter().enumerate() {
        holders.entry(c.manifest.name.as_str()).or_default().push(i);
    }
    let mut names = BTreeMap::new();
    for (name, hs) in holders {
        names.insert(name, hs[0]);
        if hs.len() == 1 {
            continue;
        }
        let path = |i: usize| cands[i].source.shown();
        let keeper = incumbents.get(name).and_then(|held| hs.iter().copied().find(|&i| cands[i].source.path == *held));
        match keeper {
            Some(keeper) => {
                names.insert(name, keeper);
                for &i in hs.iter().filter(|&&i| i != keeper) {
                    let why = format!(
                        "the name '{name}' belongs to the loaded package at {}; {} cannot take it (a package's identity is its path)",
                        path(keeper),
                        path(i)
                    );
                    refused.insert(i, (Refusal::Resolve, why));
                }
            }
            None => {
                let all: Vec<String> = hs.iter().map(|&i| path(i)).collect();
                let why = format!(
                    "{} packages are named '{name}' ({}): a name must be unique, so none of them loads until all but one are renamed or removed",
                    hs.len(),
                    all.join(", ")
                );
                for &i in &hs {
                    refused.insert(i, (Refusal::Resolve, why.clone()));
                }
            }
        }
    }
    names
}

/// Why a package's `extends` chain cannot be followed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum ExtendsError {
    #[error("extends cycle: {}", path.join(" -> "))]
    Cycle { path: Vec<String> },
    #[error("extends chain {} is deeper than {MAX_EXTENDS_DEPTH} levels", path.join(" -> "))]
    TooDeep { path: Vec<String> },
    #[error("extends '{parent}', which is not installed")]
    NotInstalled { parent: String },
}

/// Applies `extends`: capabilities, dependencies and conflicts are unioned from the parents
/// (nearest parent last, so later entries win), the package's own fields win over all.
fn effective(cands: &[Candidate], names: &BTreeMap<&str, usize>, i: usize) -> Result<Manifest, ExtendsError> {
    fn chain(
        cands: &[Candidate],
        names: &BTreeMap<&str, usize>,
        i: usize,
        path: &mut Vec<String>,
        depth: usize,
        out: &mut Vec<usize>,
    ) -> Result<(), ExtendsError> {
        let m = &cands[i].manifest;
        if path.contains(&m.name) {
            path.push(m.name.clone());
            return Err(ExtendsError::Cycle { path: path.clone() });
        }
        if depth > MAX_EXTENDS_DEPTH {
            return Err(ExtendsError::TooDeep { path: path.clone() });
        }
        path.push(m.name.clone());
        for parent in &m.extends {
            let Some(&p) = names.get(parent.as_str()) else { return Err(ExtendsError::NotInstalled { parent: parent.clone() }) };
            chain(cands, names, p, path, depth + 1, out)?;
        }
        path.pop();
        out.push(i);
        Ok(())
    }
    let mut order = Vec::new();
    chain(cands, names, i, &mut Vec::new(), 1, &mut order)?;
    let mut m = cands[i].manifest.clone();
    let mut caps = BTreeSet::new();
    let mut deps = BTreeMap::new();
    let mut conflicts = BTreeSet::new();
    for j in order {
        let part = &cands[j].manifest;
        caps.extend(part.capabilities.iter().copied());
        deps.extend(part.dependencies.iter().filter(|(n, _)| **n != m.name).map(|(n, r)| (n.clone(), r.clone())));
        conflicts.extend(part.conflicts_with.iter().cloned());
    }
    // A package depends on what it extends.
    for parent in &m.extends {
        deps.entry(parent.clone()).or_insert(semver::VersionReq::STAR);
    }
    m.capabilities = caps.into_iter().collect();
    m.dependencies = deps;
    m.conflicts_with = conflicts.into_iter().collect();
    Ok(m)
}

/// Depth-first ordering over dependencies that names any cycle it walks into.
struct Topo<'a, 'b> {
    cands: &'a [Candidate],
    plan: &'a Plan,
    names: &'a BTreeMap<&'a str, usize>,
    /// 1 = on the current path, 2 = done.
    state: BTreeMap<usize, u8>,
    order: Vec<usize>,
    refused: &'b mut RefusedMap,
}

impl Topo<'_, '_> {
    fn visit(&mut self, i: usize, stack: &mut Vec<usize>) {
        match self.state.get(&i) {
            Some(2) => return,
            Some(1) => {
                let from = stack.iter().position(|s| *s == i).unwrap_or(0);
                let mut cycle: Vec<String> = stack[from..].iter().map(|s| self.cands[*s].manifest.name.clone()).collect();
                cycle.push(self.cands[i].manifest.name.clone());
                let why = format!("dependency cycle: {}", cycle.join(" -> "));
                for s in &stack[from..] {
                    self.refused.entry(*s).or_insert_with(|| (Refusal::Resolve, why.clone()));
                }
                return;
            }
            _ => {}
        }
        self.state.insert(i, 1);
        stack.push(i);
        if let Some(m) = self.plan.effective.get(&i) {
            let deps: Vec<usize> = m.dependencies.keys().filter_map(|d| self.names.get(d.as_str()).copied()).collect();
            for d in deps {
                self.visit(d, stack);
            }
        }
        stack.pop();
        self.state.insert(i, 2);
        self.order.push(i);
    }
}

/// Refuses, to a fixed point, every package with a dependency that is missing, disabled,
/// refused or of the wrong version.
fn cascade(cands: &[Candidate], plan: &Plan, names: &BTreeMap<&str, usize>, refused: &mut RefusedMap) {
    loop {
        let mut changed = false;
        for (&i, m) in &plan.effective {
            if refused.contains_key(&i) || !cands[i].enabled {
                continue;
            }
            for (dep, range) in &m.dependencies {
                let why = match names.get(dep.as_str()) {
                    None => Some(format!("dependency '{dep}' ({range}) is not installed")),
                    Some(&d) if !cands[d].enabled => Some(format!("dependency '{dep}' is disabled")),
                    Some(&d) if refused.contains_key(&d) => Some(format!("dependency '{dep}' was refused: {}", refused[&d].1)),
                    Some(&d) if !range.matches(&cands[d].manifest.version) => {
                        Some(format!("dependency '{dep}' {range} is not satisfied by the installed {}", cands[d].manifest.reference()))
                    }
                    Some(_) => None,
                };
                if let Some(why) = why {
                    refused.insert(i, (Refusal::Resolve, why));
                    changed = true;
                    break;
                }
            }
        }
        if !changed {
            break;
        }
    }
}

/// Plans a load of `cands`. `incumbents` maps each name held by a loaded package to its path
/// (empty at start-up); `gate` is the admission check.
pub(crate) fn plan(cands: &[Candidate], engine: &Version, incumbents: &BTreeMap<String, PathBuf>, gate: &Gate<'_>) -> Plan {
    let mut refused: RefusedMap = BTreeMap::new();
    let names = claim_names(cands, incumbents, &mut refused);
    let mut plan = Plan::default();
    for i in 0..cands.len() {
        if refused.contains_key(&i) {
            continue;
        }
        match effective(cands, &names, i) {
            Ok(m) => {
                plan.effective.insert(i, m);
            }
            Err(e) => {
                refused.insert(i, (Refusal::Resolve, e.to_string()));
            }
        }
    }
    for (&i, m) in &plan.effective {
        let c = &cands[i];
        if !m.engine.matches(engine) {
            refused.insert(i, (Refusal::Resolve, format!("engine: requires limina {}, this is {engine}", m.engine)));
        } else if let Some(expected) = &m.attestation
            && *expected != c.source.content_hash
        {
            let why = format!("attestation mismatch: the manifest pins {expected}, the files hash to {}", c.source.content_hash);
            refused.insert(i, (Refusal::Resolve, why));
        } else if c.enabled
            && let Err(refusal) = gate(i, m)
        {
            refused.insert(i, (refusal.rule, refusal.message));
        }
    }
    cascade(cands, &plan, &names, &mut refused);
    // Cycles among the remaining dependencies, and a topological order.
    let live = |refused: &RefusedMap| -> Vec<usize> {
        plan.effective.keys().copied().filter(|i| !refused.contains_key(i) && cands[*i].enabled).collect()
    };
    let before_cycles = live(&refused);
    let mut topo = Topo { cands, plan: &plan, names: &names, state: BTreeMap::new(), order: Vec::new(), refused: &mut refused };
    for &i in &before_cycles {
        topo.visit(i, &mut Vec::new());
    }
    let order = std::mem::take(&mut topo.order);
    cascade(cands, &plan, &names, &mut refused);
    // Conflicts: the declarer is refused, judged against every package that passed the rest.
    let passed: BTreeSet<usize> = live(&refused).into_iter().collect();
    for &i in &passed {
        let m = &plan.effective[&i];
        let clash =
            m.conflicts_with.iter().find_map(|c| names.get(c.as_str()).copied().filter(|j| *j != i && passed.contains(j)).map(|j| (c, j)));
        if let Some((declared, j)) = clash {
            let why = format!(
                "declares conflicts_with '{declared}', and {} is installed at {}",
                cands[j].manifest.reference(),
                cands[j].source.shown()
            );
            refused.insert(i, (Refusal::Resolve, why));
        }
    }
    cascade(cands, &plan, &names, &mut refused);
    plan.order = order.into_iter().filter(|i| !refused.contains_key(i) && cands[*i].enabled).collect();
    plan.rejected = refused.into_iter().map(|(i, (rule, why))| (i, rule, why)).collect();
    plan
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packages::discover::Kind;
    use crate::packages::manifest::parse;
    use serde_json::{Value, json};

    fn cand(manifest: Value) -> Candidate {
        let source = Source { kind: Kind::SingleFile, path: "x.luau".into(), files: vec![], content_hash: "sha256:00".into() };
        Candidate { manifest: parse(&manifest, None).unwrap(), source, enabled: true }
    }

    fn names(cands: &[Candidate], p: &Plan) -> Vec<String> {
        p.order.iter().map(|i| cands[*i].manifest.name.clone()).collect()
    }

    fn why(cands: &[Candidate], p: &Plan, name: &str) -> String {
        p.rejected.iter().find(|(i, _, _)| cands[*i].manifest.name == name).map(|(_, _, w)| w.clone()).unwrap_or_default()
    }

    fn plan(cands: &[Candidate], engine: &Version) -> Plan {
        super::plan(cands, engine, &BTreeMap::new(), &|_, _| Ok(()))
    }

    const V: Version = Version::new(0, 1, 0);

    #[test]
    fn dependencies_load_first() {
        let c = vec![
            cand(json!({"name": "app", "version": "1.0.0", "dependencies": {"base": "^1"}})),
            cand(json!({"name": "base", "version": "1.2.0"})),
        ];
        let p = plan(&c, &V);
        assert_eq!(names(&c, &p), ["base", "app"]);
    }

    #[test]
    fn cycles_unmet_versions_conflicts_and_engine_ranges_are_refused_with_reasons() {
        let c = vec![
            cand(json!({"name": "a", "version": "1.0.0", "dependencies": {"b": "*"}})),
            cand(json!({"name": "b", "version": "1.0.0", "dependencies": {"a": "*"}})),
            cand(json!({"name": "c", "version": "1.0.0", "dependencies": {"d": "^2"}})),
            cand(json!({"name": "d", "version": "1.0.0"})),
            cand(json!({"name": "e", "version": "1.0.0", "conflicts_with": ["d"]})),
            cand(json!({"name": "f", "version": "1.0.0", "engine": ">=9"})),
            cand(json!({"name": "g", "version": "1.0.0", "dependencies": {"f": "*"}})),
        ];
        let p = plan(&c, &V);
        assert_eq!(names(&c, &p), ["d"]);
        assert!(why(&c, &p, "a").contains("dependency cycle: a -> b -> a"), "{}", why(&c, &p, "a"));
        assert!(why(&c, &p, "c").contains("'d' ^2 is not satisfied by the installed d@1.0.0"));
        assert!(why(&c, &p, "e").contains("declares conflicts_with 'd', and d@1.0.0 is installed"), "{}", why(&c, &p, "e"));
        assert!(why(&c, &p, "f").contains("requires limina >=9"));
        assert!(why(&c, &p, "g").contains("dependency 'f' was refused"));
    }

    fn at(manifest: Value, path: &str) -> Candidate {
        let mut c = cand(manifest);
        c.source.path = path.into();
        c
    }

    #[test]
    fn the_declarer_of_a_conflict_is_refused_in_either_order() {
        let declarer = || at(json!({"name": "evict", "version": "1.0.0", "conflicts_with": ["victim"]}), "a.luau");
        let victim = || at(json!({"name": "victim", "version": "1.0.0"}), "b.luau");
        for c in [vec![declarer(), victim()], vec![victim(), declarer()]] {
            let p = plan(&c, &V);
            assert_eq!(names(&c, &p), ["victim"]);
            assert!(why(&c, &p, "evict").contains("declares conflicts_with 'victim'"), "{}", why(&c, &p, "evict"));
        }
        // A conflict with a package refused for another reason refuses nothing.
        let c = vec![declarer(), at(json!({"name": "victim", "version": "1.0.0", "engine": ">=9"}), "b.luau")];
        assert_eq!(names(&c, &plan(&c, &V)), ["evict"]);
    }

    #[test]
    fn a_contested_name_loads_no_one_unless_a_loaded_package_holds_it() {
        let c = vec![at(json!({"name": "echo", "version": "1.0.0"}), "a.luau"), at(json!({"name": "echo", "version": "2.0.0"}), "b.luau")];
        let p = plan(&c, &V);
        assert!(names(&c, &p).is_empty());
        assert!(why(&c, &p, "echo").contains("2 packages are named 'echo' (a.luau, b.luau)"), "{}", why(&c, &p, "echo"));
        let held = BTreeMap::from([("echo".to_string(), PathBuf::from("b.luau"))]);
        let p = super::plan(&c, &V, &held, &|_, _| Ok(()));
        assert_eq!(p.order, [1], "the incumbent keeps its name");
        assert!(p.rejected[0].2.contains("belongs to the loaded package at b.luau; a.luau cannot take it"), "{:?}", p.rejected);
    }

    #[test]
    fn a_gate_refusal_refuses_the_dependents() {
        let c = vec![
            cand(json!({"name": "app", "version": "1.0.0", "dependencies": {"base": "^1"}})),
            cand(json!({"name": "base", "version": "1.2.0"})),
        ];
        let p = super::plan(&c, &V, &BTreeMap::new(), &|i, _| {
            if i == 1 { Err(crate::packages::Refused::new(Refusal::ProfileDenied, "over-claim")) } else { Ok(()) }
        });
        assert!(p.order.is_empty());
        assert_eq!(p.rejected[1], (1, Refusal::ProfileDenied, "over-claim".into()));
        assert!(why(&c, &p, "app").contains("dependency 'base' was refused: over-claim"));
    }

    #[test]
    fn extends_unions_capabilities_and_rejects_cycles_and_depth() {
        let c = vec![
            cand(json!({"name": "base", "version": "1.0.0", "capabilities": ["scene.read"]})),
            cand(json!({"name": "mid", "version": "1.0.0", "extends": "base", "capabilities": ["scene.write"]})),
            cand(json!({"name": "top", "version": "1.0.0", "extends": ["mid"]})),
            cand(json!({"name": "too-deep", "version": "1.0.0", "extends": ["top"]})),
            cand(json!({"name": "x", "version": "1.0.0", "extends": ["y"]})),
            cand(json!({"name": "y", "version": "1.0.0", "extends": ["x"]})),
        ];
        let p = plan(&c, &V);
        let top = &p.effective[&2];
        assert_eq!(top.capabilities.iter().map(|c| c.as_str()).collect::<Vec<_>>(), ["scene.read", "scene.write"]);
        assert_eq!(names(&c, &p), ["base", "mid", "top"]);
        assert!(why(&c, &p, "too-deep").contains("deeper than 3"), "{}", why(&c, &p, "too-deep"));
        assert!(why(&c, &p, "x").contains("extends cycle: x -> y -> x"), "{}", why(&c, &p, "x"));
    }
}
