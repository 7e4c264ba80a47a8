//! From what the registries list and what `limina.lock` says to the browser's [`Row`]s: one per
//! package per registry, its newest version summarised, every string cleaned (`text.rs`), and
//! whether the project has it installed, cached, or behind a newer version.

use std::collections::BTreeMap;

use semver::Version;

use super::model::{Local, Row, Transport};
use super::text::{MAX_DESCRIPTION, MAX_FIELD, clean, clean_list};
use crate::packages::registry::config::{Location, Registry};
use crate::packages::registry::index::Index;
use crate::packages::registry::lock::Lock;
use crate::packages::registry::ops::{self, Project};

fn transport(registry: &Registry) -> Transport {
    match &registry.location {
        Location::Dir(_) => Transport::File,
        Location::Http(url) if url.starts_with("https:") => Transport::Https,
        Location::Http(_) => Transport::LoopbackHttp,
    }
}

/// One row per (registry, index) that lists at least one version.
pub fn rows(project: &Project, indexes: &[(String, Index)]) -> Vec<Row> {
    let mut out = Vec::with_capacity(indexes.len());
    for (registry_name, index) in indexes {
        let Some(registry) = project.registries.iter().find(|r| &r.name == registry_name) else { continue };
        let mut versions: Vec<(Version, usize)> = index.versions.iter().enumerate().map(|(i, e)| (e.semver(), i)).collect();
        versions.sort_by(|a, b| b.0.cmp(&a.0));
        let Some(&(_, newest)) = versions.first() else { continue };
        let e = &index.versions[newest];
        let description = clean(&e.description, MAX_DESCRIPTION);
        let dependencies: Vec<String> = e.dependencies.iter().map(|(n, r)| format!("{n} {r}")).collect();
        out.push(Row {
            registry: registry.name.clone(),
            transport: transport(registry),
            tier: registry.tier,
            haystack: format!("{} {}", index.name, description.to_lowercase()),
            name: index.name.clone(),
            kind: e.kind,
            category: e.category.as_deref().map(|c| clean(c, MAX_FIELD)),
            version: clean(&e.version, MAX_FIELD),
            others: clean_list(versions[1..].iter().map(|(_, i)| index.versions[*i].version.as_str())),
            description,
            author: clean(&e.author, MAX_FIELD),
            capabilities: clean_list(e.capabilities.iter().map(String::as_str)),
            dependencies: clean_list(dependencies.iter().map(String::as_str)),
            conflicts: clean_list(e.conflicts_with.iter().map(String::as_str)),
            secrets: clean_list(e.secrets.iter().map(String::as_str)),
            local: Local::NotInstalled { cached: false },
        });
    }
    out
}

/// Marks each row installed (from this registry, per `limina.lock`), cached or neither.
pub fn mark_local(project: &Project, lock: &Lock, rows: &mut [Row]) {
    let locked: BTreeMap<(&str, &str), &str> =
        lock.packages.iter().map(|l| ((l.registry.as_str(), l.name.as_str()), l.version.as_str())).collect();
    for row in rows {
        row.local = match locked.get(&(row.registry.as_str(), row.name.as_str())) {
            Some(v) => {
                let newer = matches!((Version::parse(v), Version::parse(&row.version)), (Ok(have), Ok(newest)) if newest > have);
                Local::Installed { version: clean(v, MAX_FIELD), update: newer }
            }
            None => Local::NotInstalled { cached: ops::is_cached(project, &row.registry, &row.name, &row.version) },
        };
    }
}
