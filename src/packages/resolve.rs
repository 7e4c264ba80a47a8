//! Deciding which packages load, and in what order: `extends` mixins, engine compatibility,
//! attestations, dependencies (with cycles named), conflicts.
//!
//! Every refusal names its cause. Refusing a package refuses the packages that depend on it,
//! with that reason, so nothing loads half-wired.

use std::collections::{BTreeMap, BTreeSet};

use semver::Version;

use super::discover::Source;
use super::manifest::Manifest;

/// Most `extends` levels (a package, its parent, its grandparent).
pub const MAX_EXTENDS_DEPTH: usize = 3;

#[derive(Debug, Clone)]
pub struct Candidate {
    pub manifest: Manifest,
    pub source: Source,
    pub enabled: bool,
}

#[derive(Debug, Default)]
pub struct Plan {
    /// Indices into the candidates, dependencies first.
    pub order: Vec<usize>,
    pub rejected: Vec<(usize, String)>,
    /// Effective manifests after `extends` (by index).
    pub effective: BTreeMap<usize, Manifest>,
}

fn by_name(cands: &[Candidate]) -> BTreeMap<&str, usize> {
    let mut map = BTreeMap::new();
    for (i, c) in cands.iter().enumerate() {
        map.entry(c.manifest.name.as_str()).or_insert(i);
    }
    map
}

/// Applies `extends`: capabilities, dependencies and conflicts are unioned from the parents
/// (nearest parent last, so later entries win), the package's own fields win over all.
fn effective(cands: &[Candidate], names: &BTreeMap<&str, usize>, i: usize) -> Result<Manifest, String> {
    fn chain(
        cands: &[Candidate],
        names: &BTreeMap<&str, usize>,
        i: usize,
        path: &mut Vec<String>,
        depth: usize,
        out: &mut Vec<usize>,
    ) -> Result<(), String> {
        let m = &cands[i].manifest;
        if path.contains(&m.name) {
            path.push(m.name.clone());
            return Err(format!("extends cycle: {}", path.join(" -> ")));
        }
        if depth > MAX_EXTENDS_DEPTH {
            return Err(format!("extends chain {} is deeper than {MAX_EXTENDS_DEPTH} levels", path.join(" -> ")));
        }
        path.push(m.name.clone());
        for parent in &m.extends {
            let Some(&p) = names.get(parent.as_str()) else { return Err(format!("extends '{parent}', which is not installed")) };
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
    refused: &'b mut BTreeMap<usize, String>,
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
                    self.refused.entry(*s).or_insert_with(|| why.clone());
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

pub fn plan(cands: &[Candidate], engine: &Version) -> Plan {
    let names = by_name(cands);
    let mut plan = Plan::default();
    let mut refused: BTreeMap<usize, String> = BTreeMap::new();
    for (i, c) in cands.iter().enumerate() {
        if names.get(c.manifest.name.as_str()) != Some(&i) {
            let first = &cands[names[c.manifest.name.as_str()]];
            refused.insert(i, format!("another package named '{}' is installed at {}", c.manifest.name, first.source.path.display()));
            continue;
        }
        match effective(cands, &names, i) {
            Ok(m) => {
                plan.effective.insert(i, m);
            }
            Err(e) => {
                refused.insert(i, e);
            }
        }
    }
    for (&i, m) in &plan.effective {
        let c = &cands[i];
        if !m.engine.matches(engine) {
            refused.insert(i, format!("engine: requires limina {}, this is {engine}", m.engine));
        } else if let Some(expected) = &m.attestation
            && *expected != c.source.content_hash
        {
            refused.insert(i, format!("attestation mismatch: the manifest pins {expected}, the files hash to {}", c.source.content_hash));
        }
    }
    // Dependencies, to a fixed point: a refused or disabled dependency refuses its dependents.
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
                    Some(&d) if refused.contains_key(&d) => Some(format!("dependency '{dep}' was refused: {}", refused[&d])),
                    Some(&d) if !range.matches(&cands[d].manifest.version) => {
                        Some(format!("dependency '{dep}' {range} is not satisfied by the installed {}", cands[d].manifest.reference()))
                    }
                    Some(_) => None,
                };
                if let Some(why) = why {
                    refused.insert(i, why);
                    changed = true;
                    break;
                }
            }
        }
        if !changed {
            break;
        }
    }
    // Cycles among the remaining dependencies, and a topological order.
    let live: Vec<usize> = plan.effective.keys().copied().filter(|i| !refused.contains_key(i) && cands[*i].enabled).collect();
    let mut topo = Topo { cands, plan: &plan, names: &names, state: BTreeMap::new(), order: Vec::new(), refused: &mut refused };
    for &i in &live {
        topo.visit(i, &mut Vec::new());
    }
    let order = std::mem::take(&mut topo.order);
    // Conflicts: the package that declares the conflict is the one refused.
    let mut accepted: Vec<usize> = Vec::new();
    for i in order {
        if refused.contains_key(&i) || !cands[i].enabled {
            continue;
        }
        let m = &plan.effective[&i];
        let clash = accepted.iter().find(|a| {
            let other = &plan.effective[*a];
            m.conflicts_with.contains(&other.name) || other.conflicts_with.contains(&m.name)
        });
        if let Some(&a) = clash {
            refused.insert(i, format!("conflicts with {}, which is installed", cands[a].manifest.reference()));
            continue;
        }
        if m.dependencies.keys().any(|d| names.get(d.as_str()).is_some_and(|x| refused.contains_key(x))) {
            refused.insert(i, "a dependency was refused".into());
            continue;
        }
        accepted.push(i);
    }
    plan.order = accepted;
    plan.rejected = refused.into_iter().collect();
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
        p.rejected.iter().find(|(i, _)| cands[*i].manifest.name == name).map(|(_, w)| w.clone()).unwrap_or_default()
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
        assert!(why(&c, &p, "e").contains("conflicts with d@1.0.0"));
        assert!(why(&c, &p, "f").contains("requires limina >=9"));
        assert!(why(&c, &p, "g").contains("dependency 'f' was refused"));
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
