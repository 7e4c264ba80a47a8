//! `limina packages publish DIR --key FILE --registry DIR`: validates a package folder as an
//! install would read it (its manifest in a sandboxed VM and its code loaded in the untrusted
//! tier, or its SKILL.md), packs it reproducibly, signs it and adds it to a registry folder. A
//! published version is never replaced. Uploading the folder to a static host is the
//! publisher's business.
//!
//! A code package that ships tests (`tests/*.luau` inside its folder) has them run first, by the
//! command (`test_stage` lays out a throwaway project for that: the package as an install would
//! unpack it, beside the dependencies the publisher has installed); a failing test stops the
//! publish.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::RegistryError;
use super::archive;
use super::index::{self, Entry, Index, PackageKind};
use super::keys::{self, SecretKey};
use crate::packages::discover::{self, Source};
use crate::packages::manifest::{CATEGORY_RULE, Manifest, Trust, is_valid_category};
use crate::packages::read_manifest;
use crate::packages::secrets::SecretStore;

fn io(what: impl std::fmt::Display, e: std::io::Error) -> RegistryError {
    RegistryError::Io(format!("{what}: {e}"))
}

/// `publish DIR --key FILE --registry DIR`: validates the package folder (its manifest read as
/// the engine reads it, or its SKILL.md), packs it, signs it and adds it to the registry folder.
/// A published version is never replaced.
pub fn publish(package: &Path, key: &SecretKey, registry_dir: &Path, author: &str) -> Result<Entry, RegistryError> {
    let refuse = |problem: String| RegistryError::Refused(format!("{}: {problem}", package.display()));
    if !package.is_dir() {
        return Err(refuse("not a folder (publish a package folder holding package.luau, or a skill folder holding SKILL.md)".into()));
    }
    // As the engine reads it: a folder with a package manifest is a code package, whatever else
    // it holds (a SKILL.md in it is one of its files).
    let is_skill = package.join(crate::instructions::SKILL_FILE).is_file() && crate::packages::discover::manifest_file(package).is_none();
    let (name, version, kind, description, capabilities, dependencies, conflicts, secrets, category) = if is_skill {
        let at = crate::instructions::Location::Folder(package.to_path_buf());
        let skill = crate::instructions::load(&at, "SKILL.md").map_err(|e| refuse(e.to_string()))?;
        let version = skill.version.clone().ok_or_else(|| refuse("its SKILL.md has no version; a published skill needs one".into()))?;
        let deps = skill.dependencies.iter().map(|(n, r)| (n.clone(), r.to_string())).collect();
        let tools = skill.tool_names().map(str::to_string).collect();
        // A skill's category rides in the Claude Skills `metadata` map, which the engine shows
        // and never interprets; a registry holds it to the code packages' rule.
        let category = skill.metadata.get("category").cloned();
        if let Some(c) = &category
            && !is_valid_category(c)
        {
            return Err(refuse(format!("its SKILL.md's metadata.category {c:?} must be {CATEGORY_RULE}")));
        }
        (
            skill.id.clone(),
            version,
            PackageKind::Instruction,
            skill.description.clone(),
            tools,
            deps,
            skill.conflicts_with.clone(),
            Vec::new(),
            category,
        )
    } else {
        let root = package.parent().unwrap_or(package);
        let source = discover::read_package(root, package).map_err(|e| refuse(e.to_string()))?;
        let m = read_manifest(&source).map_err(|e| refuse(e.to_string()))?;
        let mut deps: BTreeMap<String, String> = m.dependencies.iter().map(|(n, r)| (n.clone(), r.to_string())).collect();
        for parent in &m.extends {
            deps.entry(parent.clone()).or_insert_with(|| "*".into());
        }
        check_code(&source, &m).map_err(refuse)?;
        let caps = m.capabilities.iter().map(|c| c.as_str().to_string()).collect();
        (
            m.name.clone(),
            m.version.clone(),
            PackageKind::Folder,
            m.description.clone(),
            caps,
            deps,
            m.conflicts_with.clone(),
            m.secrets.clone(),
            m.category.clone(),
        )
    };
    let version = version.to_string();
    let bytes = archive::pack(package)?;
    // The archive must unpack under the same rules an install applies.
    archive::read(&bytes)?;
    if bytes.len() as u64 > archive::MAX_ARCHIVE_BYTES {
        return Err(refuse(format!("its archive is {} bytes, more than {}", bytes.len(), archive::MAX_ARCHIVE_BYTES)));
    }
    let index_file = registry_dir.join(index::index_path(&name)?);
    let mut idx = match std::fs::read(&index_file) {
        Ok(b) => index::parse_index(&b, &name, &registry_dir.display().to_string())?,
        Err(_) => Index { format: index::INDEX_FORMAT.into(), name: name.clone(), versions: Vec::new() },
    };
    if idx.versions.iter().any(|e| e.version == version) {
        return Err(refuse(format!("{name}@{version} is already published in {}; publish a new version", registry_dir.display())));
    }
    let sha256 = keys::sha256_hex(&bytes);
    let size = bytes.len() as u64;
    let entry = Entry {
        version: version.clone(),
        kind,
        description,
        author: author.into(),
        capabilities,
        dependencies,
        conflicts_with: conflicts,
        secrets,
        category,
        archive: index::archive_path(&name, &version),
        signature: key.sign(&name, &version, &sha256, size),
        sha256,
        size,
    };
    let archive_file = registry_dir.join(&entry.archive);
    for dir in [registry_dir.join("archives"), registry_dir.join("index")] {
        std::fs::create_dir_all(&dir).map_err(|e| io(dir.display(), e))?;
    }
    std::fs::write(&archive_file, &bytes).map_err(|e| io(archive_file.display(), e))?;
    idx.versions.push(entry.clone());
    idx.versions.sort_by_key(|a| a.semver());
    write_json(&index_file, &idx)?;
    let listing_file = registry_dir.join("packages.json");
    let mut listing = match std::fs::read(&listing_file) {
        Ok(b) => index::parse_listing(&b, &registry_dir.display().to_string())?,
        Err(_) => index::Listing { format: index::REGISTRY_FORMAT.into(), packages: Vec::new() },
    };
    if !listing.packages.contains(&name) {
        listing.packages.push(name.clone());
        listing.packages.sort();
    }
    write_json(&listing_file, &listing)?;
    Ok(entry)
}

fn write_json(path: &Path, value: &impl serde::Serialize) -> Result<(), RegistryError> {
    let text = serde_json::to_string_pretty(value).unwrap_or_default() + "\n";
    let temporary = path.with_extension("json.tmp");
    std::fs::write(&temporary, text).map_err(|e| io(path.display(), e))?;
    std::fs::rename(&temporary, path).map_err(|e| io(path.display(), e))
}

/// Stands in for the engine while `publish` loads a package: no skill can be invoked from a
/// package's top-level code, and nothing is recorded.
struct NoEngine;

impl crate::packages::Host for NoEngine {
    fn invoke(&self, _: &crate::skills::Caller, skill: &str, _: serde_json::Value) -> crate::skills::SkillResponse {
        crate::skills::SkillResponse::failure(crate::skills::ErrorCode::HandlerError, format!("{skill}: no engine while publishing"))
    }

    fn record(&self, _: &str, _: &str, _: &str, _: serde_json::Value) -> String {
        String::new()
    }
}

/// Loads the package as the engine would, in the untrusted tier with every capability it
/// declares: its code must run to its skill definitions within the untrusted limits, and each
/// definition (name, schemas) must be valid.
fn check_code(source: &Source, manifest: &Manifest) -> Result<(), String> {
    let limits = manifest.limits_for(Trust::Untrusted).map_err(|e| e.to_string())?;
    let mut granted = crate::policy::PermissionSet::EMPTY;
    for c in &manifest.capabilities {
        granted.insert(*c);
    }
    let host: std::rc::Rc<dyn crate::packages::Host> = std::rc::Rc::new(NoEngine);
    // The publisher's own code, on their machine: the restricted VM is barrier enough here.
    crate::packages::PackageRuntime::load(
        source,
        source.shown(),
        manifest,
        Trust::Untrusted,
        limits,
        granted,
        host,
        &crate::packages::worker::Isolation::InProcess,
        crate::packages::secrets::PackageSecrets::new(&manifest.name, &manifest.secrets, &[], std::rc::Rc::new(SecretStore::new(None))),
    )
    .map(|_| ())
    .map_err(|e| format!("its code does not load: {e}"))
}

/// A throwaway project holding a package about to be published, for its tests; removed on drop.
#[derive(Debug)]
pub struct TestStage {
    /// Holds `scripts/`, the package and its dependencies.
    pub project: PathBuf,
    /// The package's `tests/` folder, inside `scripts/`.
    pub tests: PathBuf,
}

impl Drop for TestStage {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.project);
    }
}

/// Lays out `package` (a code package folder that ships `tests/`) for its tests: packed and
/// unpacked under the archive's rules into `scripts/<name>`, with each dependency and parent the
/// publisher has installed in `installed` (a scripts folder) copied beside it. `None` when the
/// package ships no tests.
pub fn test_stage(package: &Path, installed: Option<&Path>) -> Result<Option<TestStage>, RegistryError> {
    let refuse = |problem: String| RegistryError::Refused(format!("{}: {problem}", package.display()));
    if !package.join("tests").is_dir() || discover::manifest_file(package).is_none() {
        return Ok(None);
    }
    let root = package.parent().unwrap_or(package);
    let source = discover::read_package(root, package).map_err(|e| refuse(e.to_string()))?;
    let m = read_manifest(&source).map_err(|e| refuse(e.to_string()))?;
    let project = std::env::temp_dir().join(format!("limina-publish-{}-{}", std::process::id(), crate::unguessable::hex(8)));
    std::fs::create_dir(&project).map_err(|e| io(project.display(), e))?;
    let scripts = project.join("scripts");
    let stage = TestStage { tests: scripts.join(&m.name).join("tests"), project };
    std::fs::create_dir(&scripts).map_err(|e| io(scripts.display(), e))?;
    archive::write(&archive::read(&archive::pack(package)?)?, &scripts.join(&m.name))?;
    let needed: std::collections::BTreeSet<&String> = m.dependencies.keys().chain(&m.extends).collect();
    for dep in needed {
        let Some(installed) = installed else { break };
        let folder = installed.join(dep);
        let file = installed.join(format!("{dep}.luau"));
        if folder.join("package.luau").is_file() || folder.join("package.lua").is_file() {
            archive::write(&archive::read(&archive::pack(&folder)?)?, &scripts.join(dep))?;
        } else if file.is_file() {
            let text = std::fs::read(&file).map_err(|e| io(file.display(), e))?;
            std::fs::write(scripts.join(format!("{dep}.luau")), text).map_err(|e| io(file.display(), e))?;
        }
    }
    Ok(Some(stage))
}
