//! `install`, `update`, `remove`, `search` and `info`: the registry operations, with
//! the operator's approval asked through an [`Approver`] (the CLI prompts; tests pass `--yes`).
//!
//! An install plans first (every requested package and its dependencies, across registries, each
//! version the newest that every requirement accepts; locked and cached versions without the
//! network), then fetches each archive (from the cache when its hash matches), verifies its hash
//! and signature, unpacks it into a staging folder under `.limina/staging`, reads it as the
//! engine would (manifest in a sandboxed VM), and runs the engine's own resolver over the
//! installed packages plus the staged ones: a staged package refused, or an installed one that
//! would stop loading (a child of an updated parent), fails the whole install with the
//! resolver's reasons. Only then is the operator asked, and only then are the folders renamed
//! into `scripts/`, trust granted and the lockfile written.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

use semver::{Version, VersionReq};

use super::RegistryError;
use super::archive;
use super::config::Registry;
use super::fetch::{Fetched, Fetcher};
use super::index::{self, Entry, Index, PackageKind};
use super::keys;
use super::lock::{Lock, Locked};
use crate::packages::discover::{self, Source};
use crate::packages::manifest::{Manifest, Trust};
use crate::packages::resolve::{self, Candidate};
use crate::packages::trust::{Grants, TrustDecision};
use crate::packages::{Status, admission, engine_version, read_manifest, survey};
use crate::policy::profile_permissions;

/// The project an operation works on.
pub struct Project {
    pub root: PathBuf,
    pub scripts: PathBuf,
    pub registries: Vec<Registry>,
    /// The loading profile (over-claims are refused at install as at start-up).
    pub profile: String,
}

impl Project {
    fn registry(&self, name: &str) -> Result<&Registry, RegistryError> {
        self.registries
            .iter()
            .find(|r| r.name == name)
            .ok_or_else(|| RegistryError::Usage(format!("no registry named '{name}' in {}/limina.toml", self.root.display())))
    }

    fn cache_dir(&self, registry: &str) -> PathBuf {
        self.root.join(".limina/cache").join(registry)
    }

    fn no_registries(&self) -> RegistryError {
        RegistryError::Usage(format!(
            "no registries configured: add a [[registry]] table (name, url, tier, keys) to {}/limina.toml (docs/registries.md)",
            self.root.display()
        ))
    }
}

/// What the operator is asked to approve for one package.
#[derive(Debug, Clone)]
pub struct Approval {
    pub reference: String,
    pub registry: String,
    pub kind: PackageKind,
    pub tier: Trust,
    /// Resolved capabilities (after `extends` and dependencies), or an instruction skill's
    /// gated tools.
    pub capabilities: Vec<String>,
    pub secrets: Vec<String>,
    pub dependencies: Vec<String>,
    /// Why it is asked (new, widened, a minor/major update).
    pub why: String,
}

/// Asks the operator.
pub trait Approver {
    fn approve(&mut self, asks: &[Approval]) -> bool;
}

/// One package the install will put in place.
struct Pick {
    name: String,
    registry: String,
    entry: Entry,
    /// Who asked for it (shown when requirements disagree).
    wanted_by: Vec<(String, VersionReq)>,
    /// The operator asked for an approval whatever changed (`update --to`).
    force_approval: bool,
}

/// One request: a name and optionally a range, and whether approval is always asked.
#[derive(Debug, Clone)]
pub struct Request {
    pub name: String,
    pub range: Option<VersionReq>,
    pub force_approval: bool,
}

/// A hash over every file of a package, manifest included (what the lockfile pins).
fn all_files_hash(source: &Source) -> String {
    discover::content_hash(&source.files)
}

/// What is installed now, by name: version, and whether it came from a registry.
fn installed_versions(project: &Project) -> BTreeMap<String, (Version, PathBuf)> {
    let mut out = BTreeMap::new();
    for p in survey(&project.scripts, &project.profile) {
        if let Some(m) = &p.manifest {
            out.insert(m.name.clone(), (m.version.clone(), p.source.path.clone()));
        }
    }
    for s in crate::packages::instructions::survey(&project.scripts) {
        if let Ok(skill) = &s.read {
            let path = crate::packages::instructions::skill_path(&s.location).to_path_buf();
            out.insert(skill.id.clone(), (skill.version.clone().unwrap_or(Version::new(0, 0, 0)), path));
        }
    }
    out
}

/// Reads `name`'s index from every registry that has it.
fn indexes(project: &Project, fetcher: &mut Fetcher, name: &str, only: Option<&str>) -> Result<Vec<(String, Index)>, RegistryError> {
    let path = index::index_path(name)?;
    let mut out = Vec::new();
    for r in project.registries.iter().filter(|r| only.is_none_or(|o| o == r.name)) {
        match fetcher.get(r, &path, index::MAX_INDEX_BYTES)? {
            Fetched::Found(bytes) => out.push((r.name.clone(), index::parse_index(&bytes, name, &r.name)?)),
            Fetched::Missing => {}
        }
    }
    Ok(out)
}

/// The cached archive and its entry, when the cache holds this very version.
fn cached(project: &Project, registry: &str, name: &str, version: &str) -> Option<(Entry, Vec<u8>)> {
    let dir = project.cache_dir(registry);
    let entry: Entry = serde_json::from_slice(&std::fs::read(dir.join(format!("{name}-{version}.json"))).ok()?).ok()?;
    let bytes = std::fs::read(dir.join(format!("{name}-{version}.tar.gz"))).ok()?;
    (entry.version == version && keys::sha256_hex(&bytes) == entry.sha256).then_some((entry, bytes))
}

fn io(what: impl std::fmt::Display, e: std::io::Error) -> RegistryError {
    RegistryError::Io(format!("{what}: {e}"))
}

/// Plans every package to install: the requests and, transitively, their dependencies.
fn plan(
    project: &Project,
    fetcher: &mut Fetcher,
    lock: &Lock,
    requests: &[Request],
    installed: &BTreeMap<String, (Version, PathBuf)>,
) -> Result<Vec<Pick>, RegistryError> {
    let mut picks: Vec<Pick> = Vec::new();
    let mut queue: VecDeque<(String, VersionReq, String, bool, bool)> = requests
        .iter()
        .map(|r| (r.name.clone(), r.range.clone().unwrap_or(VersionReq::STAR), "you".to_string(), r.range.is_none(), r.force_approval))
        .collect();
    while let Some((name, range, by, unranged, force)) = queue.pop_front() {
        let from_user = by == "you";
        if let Some(p) = picks.iter_mut().find(|p| p.name == name) {
            if !range.matches(&p.entry.semver()) {
                let others: Vec<String> = p.wanted_by.iter().map(|(who, r)| format!("{who} needs {name} {r}")).collect();
                return Err(RegistryError::Unsatisfiable(format!(
                    "{by} needs {name} {range}, but {} (picked {name}@{}); no single version satisfies both: change one of the requirements or install a version both accept",
                    others.join(" and "),
                    p.entry.version
                )));
            }
            p.wanted_by.push((by, range));
            continue;
        }
        // A dependency already installed at a version it accepts is left alone.
        if !from_user
            && let Some((v, _)) = installed.get(&name)
            && range.matches(v)
        {
            continue;
        }
        if let Some((v, path)) = installed.get(&name)
            && lock.get(&name).is_none()
        {
            return Err(RegistryError::Unsatisfiable(format!(
                "{by} needs {name} {range}, and {name}@{v} at {} was not installed from a registry: remove or rename it first",
                path.display()
            )));
        }
        // The locked version, from the cache, needs no network.
        let locked = lock.get(&name).filter(|l| (unranged && from_user) || Version::parse(&l.version).is_ok_and(|v| range.matches(&v)));
        let cached_pick = locked.and_then(|l| cached(project, &l.registry, &name, &l.version).map(|(e, _)| (l.registry.clone(), e)));
        let offline_ok = cached_pick.is_some() && (unranged || !from_user || installed.get(&name).is_none_or(|(v, _)| !range.matches(v)));
        let (registry, entry) = match cached_pick.filter(|_| offline_ok) {
            Some(found) => found,
            None => {
                let found = indexes(project, fetcher, &name, None)?;
                let want = match (from_user && unranged, locked) {
                    (true, Some(l)) => VersionReq::parse(&format!("={}", l.version)).unwrap_or(range.clone()),
                    _ => range.clone(),
                };
                let best = found
                    .iter()
                    .flat_map(|(r, idx)| idx.versions.iter().map(move |e| (r, e)))
                    .filter(|(_, e)| want.matches(&e.semver()))
                    .max_by(|a, b| a.1.semver().cmp(&b.1.semver()));
                match best {
                    Some((r, e)) => (r.clone(), e.clone()),
                    None if found.is_empty() => {
                        let names: Vec<&str> = project.registries.iter().map(|r| r.name.as_str()).collect();
                        return Err(RegistryError::Unsatisfiable(format!(
                            "{by} needs {name} {want}, and no configured registry ({}) has a package named '{name}'",
                            names.join(", ")
                        )));
                    }
                    None => {
                        let have: Vec<String> = found
                            .iter()
                            .map(|(r, idx)| {
                                format!("{r} has {}", idx.versions.iter().map(|e| e.version.as_str()).collect::<Vec<_>>().join(", "))
                            })
                            .collect();
                        return Err(RegistryError::Unsatisfiable(format!(
                            "{by} needs {name} {want}, and no registry has a version in that range ({}): ask for one of those versions, or relax the requirement",
                            have.join("; ")
                        )));
                    }
                }
            }
        };
        let me = format!("{name}@{}", entry.version);
        for (dep, r) in &entry.dependencies {
            let r = VersionReq::parse(r).map_err(|e| RegistryError::Refused(format!("{me}: dependency {dep} {r}: {e}")))?;
            queue.push_back((dep.clone(), r, me.clone(), false, false));
        }
        picks.push(Pick { name, registry, entry, wanted_by: vec![(by, range)], force_approval: force });
    }
    Ok(picks)
}

/// The archive of `pick`, verified: from the cache when it holds these bytes, else fetched and
/// cached. Nothing of the archive is read before its size, hash and signature check out.
fn verified_archive(project: &Project, fetcher: &mut Fetcher, pick: &Pick) -> Result<Vec<u8>, RegistryError> {
    let registry = project.registry(&pick.registry)?;
    let e = &pick.entry;
    let package = format!("{}@{} from '{}'", pick.name, e.version, registry.name);
    let refuse = |problem: String| RegistryError::Verify { package: package.clone(), problem };
    let bytes = match cached(project, &registry.name, &pick.name, &e.version).filter(|(c, _)| c.sha256 == e.sha256) {
        Some((_, bytes)) => bytes,
        None => match fetcher.get(registry, &e.archive, archive::MAX_ARCHIVE_BYTES)? {
            Fetched::Found(bytes) => bytes,
            Fetched::Missing => return Err(refuse(format!("its archive {} is missing from the registry", e.archive))),
        },
    };
    if bytes.len() as u64 != e.size {
        return Err(refuse(format!("the archive has {} bytes, its index entry says {}", bytes.len(), e.size)));
    }
    let sha = keys::sha256_hex(&bytes);
    if sha != e.sha256 {
        return Err(refuse(format!("the archive was tampered with: its sha256 is {sha}, the signed index entry says {}", e.sha256)));
    }
    keys::verify(&registry.keys, &e.signature, &pick.name, &e.version, &e.sha256, e.size).map_err(|why| {
        refuse(format!(
            "{why}: unsigned, signed by someone else or altered; if the registry rotated its key, add the new key to limina.toml"
        ))
    })?;
    let dir = project.cache_dir(&registry.name);
    std::fs::create_dir_all(&dir).map_err(|err| io(dir.display(), err))?;
    // Built as strings: `with_extension` would cut a version's last `.N`.
    let file = |suffix: &str| dir.join(format!("{}-{}{suffix}", pick.name, e.version));
    let entry_json = serde_json::to_vec_pretty(e).unwrap_or_default();
    std::fs::write(file(".tar.gz.tmp"), &bytes).map_err(|err| io(file(".tar.gz").display(), err))?;
    std::fs::rename(file(".tar.gz.tmp"), file(".tar.gz")).map_err(|err| io(file(".tar.gz").display(), err))?;
    std::fs::write(file(".json"), entry_json).map_err(|err| io(file(".json").display(), err))?;
    Ok(bytes)
}

/// One unpacked, read package, ready to be moved into place.
struct Staged {
    pick_index: usize,
    /// Its staging folder.
    dir: PathBuf,
    kind: PackageKind,
    /// A code package's source (its path set to where it will be installed) and manifest.
    package: Option<(Source, Manifest)>,
    /// An instruction skill's gated tools and content hash.
    skill: Option<(Vec<String>, String)>,
    files_hash: String,
}

/// A staging folder under `.limina/staging`, removed when dropped.
struct Staging(PathBuf);

/// `.limina/packages.lock`, held exclusively (`flock`) while a command changes the project's
/// packages, so two installs never interleave their renames, grants and lockfile writes. The
/// kernel drops it when the process ends, however it ends.
pub(crate) struct ProjectLock(#[allow(dead_code, reason = "held for its lock, released on drop")] std::fs::File);

impl ProjectLock {
    fn take(project: &Project) -> Result<Self, RegistryError> {
        Self::take_at(&project.root)
    }

    /// The lock of the project at `root` (also taken by `packages trust`, `untrust`, `enable`
    /// and `disable`, which rewrite the files an install writes).
    pub(crate) fn take_at(root: &Path) -> Result<Self, RegistryError> {
        let dir = root.join(".limina");
        std::fs::create_dir_all(&dir).map_err(|e| io(dir.display(), e))?;
        let path = dir.join("packages.lock");
        let file = std::fs::OpenOptions::new().create(true).truncate(false).write(true).open(&path).map_err(|e| io(path.display(), e))?;
        match rustix::fs::flock(&file, rustix::fs::FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => Ok(ProjectLock(file)),
            Err(rustix::io::Errno::WOULDBLOCK) => Err(RegistryError::Refused(format!(
                "another limina packages command is changing this project (it holds {}): nothing was changed; run this again when it ends",
                path.display()
            ))),
            Err(e) => Err(io(path.display(), e.into())),
        }
    }
}

/// The renames of an install's commit, undone in reverse if a later step fails: each package
/// moved into `scripts/`, with where its previous version was set aside.
#[derive(Default)]
struct Moves(Vec<(PathBuf, Option<PathBuf>)>);

impl Moves {
    /// Puts `scripts/` back as it was; a failure here is reported with the original one.
    fn undo(&mut self, why: RegistryError) -> RegistryError {
        let mut stuck = Vec::new();
        for (dest, old) in self.0.drain(..).rev() {
            let back = std::fs::remove_dir_all(&dest).and_then(|()| match &old {
                Some(old) => std::fs::rename(old, &dest),
                None => Ok(()),
            });
            if let Err(e) = back {
                stuck.push(format!("{}: {e}", dest.display()));
            }
        }
        if stuck.is_empty() {
            return RegistryError::Refused(format!("{why}; nothing was changed"));
        }
        RegistryError::Refused(format!("{why}; and putting back what it replaced failed too: {}", stuck.join("; ")))
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn stage(project: &Project, staging: &Path, i: usize, pick: &Pick, bytes: &[u8]) -> Result<Staged, RegistryError> {
    let files = archive::read(bytes)?;
    let dir = staging.join(&pick.name);
    archive::write(&files, &dir)?;
    let me = format!("{}@{}", pick.name, pick.entry.version);
    let refuse = |problem: String| RegistryError::Refused(format!("{me}: {problem}"));
    // The kind comes from the verified files, as the engine will read them (a folder with a
    // package manifest is a code package even with a SKILL.md in it), never from the unsigned
    // index entry alone.
    let has = |name: &str| files.iter().any(|(p, _)| p == name);
    let is_skill = has(crate::instructions::SKILL_FILE) && !has("package.luau") && !has("package.lua");
    if is_skill != (pick.entry.kind == PackageKind::Instruction) {
        return Err(refuse(format!(
            "the index says kind '{}', the archive holds {}",
            pick.entry.kind,
            if is_skill { "a SKILL.md" } else { "no SKILL.md" }
        )));
    }
    if is_skill {
        let at = crate::instructions::Location::Folder(dir.clone());
        let skill = crate::instructions::load(&at, &format!("{}/SKILL.md", pick.name)).map_err(|e| refuse(e.to_string()))?;
        if skill.id != pick.name || skill.version.as_ref().map(Version::to_string).unwrap_or("0.0.0".into()) != pick.entry.version {
            return Err(refuse(format!("its SKILL.md says {}@{:?}", skill.id, skill.version)));
        }
        let tools = skill.tool_names().map(str::to_string).collect();
        return Ok(Staged {
            pick_index: i,
            dir,
            kind: PackageKind::Instruction,
            package: None,
            skill: Some((tools, skill.content_hash.clone())),
            files_hash: skill.content_hash,
        });
    }
    let mut source = discover::read_package(staging, &dir).map_err(|e| refuse(e.to_string()))?;
    let manifest = read_manifest(&source).map_err(|e| refuse(e.to_string()))?;
    if manifest.name != pick.name || manifest.version.to_string() != pick.entry.version {
        return Err(refuse(format!("its manifest says {}, the signed index entry {me}", manifest.reference())));
    }
    let files_hash = all_files_hash(&source);
    source.path = project.scripts.join(&pick.name);
    Ok(Staged { pick_index: i, dir, kind: PackageKind::Folder, package: Some((source, manifest)), skill: None, files_hash })
}

/// The tier a package from `registry` is granted: the registry's, at most what it asks for.
fn tier_for(registry: &Registry, manifest: Option<&Manifest>) -> Trust {
    match manifest {
        Some(m) => registry.tier.min(m.requested_trust),
        None => registry.tier,
    }
}

/// Runs the engine's resolver over the installed packages with the staged ones in place, and
/// returns each staged package's resolved capabilities; fails with every refusal it causes.
fn check_resolution(project: &Project, picks: &[Pick], staged: &[Staged]) -> Result<BTreeMap<String, Vec<String>>, RegistryError> {
    let replaced: BTreeSet<&str> = picks.iter().map(|p| p.name.as_str()).collect();
    let before = survey(&project.scripts, &project.profile);
    let mut cands: Vec<Candidate> = Vec::new();
    let mut trusts: Vec<TrustDecision> = Vec::new();
    let mut was_refused: Vec<bool> = Vec::new();
    for p in &before {
        let Some(m) = &p.manifest else { continue };
        if replaced.contains(m.name.as_str()) {
            continue;
        }
        cands.push(Candidate { manifest: m.clone(), source: p.source.clone(), enabled: !matches!(p.status, Status::Disabled) });
        trusts.push(p.trust.clone());
        was_refused.push(matches!(p.status, Status::Refused { .. }));
    }
    let first_staged = cands.len();
    for s in staged {
        let Some((source, manifest)) = &s.package else { continue };
        let registry = project.registry(&picks[s.pick_index].registry)?;
        let tier = tier_for(registry, Some(manifest));
        cands.push(Candidate { manifest: manifest.clone(), source: source.clone(), enabled: true });
        trusts.push(TrustDecision {
            requested: manifest.requested_trust,
            granted: Some(tier),
            effective: tier,
            why: "at install".into(),
            secrets: manifest.secrets.clone(),
        });
        was_refused.push(false);
    }
    let granted = profile_permissions(&project.profile);
    let gate = |i: usize, m: &Manifest| admission(m, &trusts[i], &cands[i].source.path, granted, &project.profile).map(|_| ());
    let plan = resolve::plan(&cands, &engine_version(), &BTreeMap::new(), &gate);
    let broken: Vec<String> = plan
        .rejected
        .iter()
        .filter(|(i, _, _)| *i >= first_staged || !was_refused[*i])
        .map(|(i, rule, why)| {
            let who = if *i >= first_staged { "" } else { " (installed)" };
            format!("{}{who} [{rule}]: {why}", cands[*i].manifest.reference())
        })
        .collect();
    if !broken.is_empty() {
        let names: Vec<String> = picks.iter().map(|p| format!("{}@{}", p.name, p.entry.version)).collect();
        return Err(RegistryError::Unsatisfiable(format!(
            "installing {} would leave packages that cannot load; nothing was changed:\n  {}",
            names.join(", "),
            broken.join("\n  ")
        )));
    }
    Ok((first_staged..cands.len())
        .map(|i| {
            let caps = plan.effective.get(&i).map(|m| m.capabilities.iter().map(|c| c.as_str().to_string()).collect()).unwrap_or_default();
            (cands[i].manifest.name.clone(), caps)
        })
        .collect())
}

/// What an install did, per package.
#[derive(Debug, Clone)]
pub struct Done {
    pub reference: String,
    pub registry: String,
    pub tier: Trust,
    /// False when it was already installed as locked and nothing changed.
    pub changed: bool,
}

/// Installs `requests` and their dependencies (module doc).
pub fn install(
    project: &Project,
    fetcher: &mut Fetcher,
    requests: &[Request],
    approver: &mut dyn Approver,
) -> Result<Vec<Done>, RegistryError> {
    let _held = ProjectLock::take(project)?;
    install_locked(project, fetcher, requests, approver)
}

/// `install` with the project lock held.
fn install_locked(
    project: &Project,
    fetcher: &mut Fetcher,
    requests: &[Request],
    approver: &mut dyn Approver,
) -> Result<Vec<Done>, RegistryError> {
    if project.registries.is_empty() {
        return Err(project.no_registries());
    }
    let mut lock = Lock::read(&project.root)?;
    let installed = installed_versions(project);
    let picks = plan(project, fetcher, &lock, requests, &installed)?;
    // What is already in place, as locked, needs nothing.
    let mut todo: Vec<usize> = Vec::new();
    let mut done: Vec<Done> = Vec::new();
    for (i, pick) in picks.iter().enumerate() {
        let dest = project.scripts.join(&pick.name);
        let locked = lock.get(&pick.name);
        let in_place = locked.is_some_and(|l| l.version == pick.entry.version && l.archive_sha256 == pick.entry.sha256)
            && current_hash(project, &dest, locked.map(|l| l.kind)).as_deref() == locked.map(|l| l.content_hash.as_str());
        if in_place {
            let tier = locked.and_then(|l| Trust::parse(&l.tier)).unwrap_or(Trust::Untrusted);
            done.push(Done {
                reference: format!("{}@{}", pick.name, pick.entry.version),
                registry: pick.registry.clone(),
                tier,
                changed: false,
            });
            continue;
        }
        // Never over a package the registry tooling did not put there, nor over local edits.
        let exists = dest.symlink_metadata().is_ok() || project.scripts.join(format!("{}.luau", pick.name)).exists();
        match locked {
            None if exists => {
                return Err(RegistryError::Refused(format!(
                    "{} already exists and was not installed from a registry: remove or rename it first",
                    dest.display()
                )));
            }
            Some(l) if exists && current_hash(project, &dest, Some(l.kind)).as_deref() != Some(l.content_hash.as_str()) => {
                return Err(RegistryError::Refused(format!(
                    "{} was edited since {}@{} was installed (its files no longer hash to the lockfile's {}): keep your copy elsewhere and remove it first",
                    dest.display(),
                    l.name,
                    l.version,
                    l.content_hash
                )));
            }
            _ => {}
        }
        todo.push(i);
    }
    if todo.is_empty() {
        return Ok(done);
    }
    let staging_root = project.root.join(".limina/staging");
    std::fs::create_dir_all(&staging_root).map_err(|e| io(staging_root.display(), e))?;
    let staging = Staging(staging_root.join(format!("{}-{}", std::process::id(), crate::unguessable::hex(8))));
    std::fs::create_dir(&staging.0).map_err(|e| io(staging.0.display(), e))?;
    let mut staged = Vec::new();
    for &i in &todo {
        let bytes = verified_archive(project, fetcher, &picks[i])?;
        staged.push(stage(project, &staging.0, i, &picks[i], &bytes)?);
    }
    let resolved = check_resolution(project, &picks, &staged)?;
    // Approval: new packages, widened ones, and the ones the operator asked to approve.
    let mut asks = Vec::new();
    for s in &staged {
        let pick = &picks[s.pick_index];
        let registry = project.registry(&pick.registry)?;
        let manifest = s.package.as_ref().map(|(_, m)| m);
        let tier = tier_for(registry, manifest);
        let capabilities = match (&s.skill, manifest) {
            (Some((tools, _)), _) => tools.clone(),
            (None, _) => resolved.get(&pick.name).cloned().unwrap_or_default(),
        };
        let secrets = manifest.map(|m| m.secrets.clone()).unwrap_or_default();
        let why = match lock.get(&pick.name) {
            None => Some("new".to_string()),
            Some(_) if pick.force_approval => Some("update beyond a patch release".to_string()),
            Some(l) if l.kind != s.kind => Some(format!("changes kind from {} to {}", l.kind, s.kind)),
            Some(l) => {
                let wider: Vec<&String> =
                    capabilities.iter().chain(&secrets).filter(|c| !l.capabilities.contains(c) && !l.secrets.contains(c)).collect();
                let higher = Trust::parse(&l.tier).is_none_or(|t| tier > t);
                match (wider.is_empty(), higher) {
                    (false, _) => Some(format!(
                        "widens what {}@{} was approved for: {}",
                        l.name,
                        l.version,
                        wider.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
                    )),
                    (true, true) => Some(format!("asks for a higher tier than {} was approved at", l.tier)),
                    (true, false) => None,
                }
            }
        };
        if let Some(why) = why {
            asks.push(Approval {
                reference: format!("{}@{}", pick.name, pick.entry.version),
                registry: registry.name.clone(),
                kind: s.kind,
                tier,
                capabilities,
                secrets,
                dependencies: pick.entry.dependencies.iter().map(|(n, r)| format!("{n} {r}")).collect(),
                why,
            });
        }
    }
    if !asks.is_empty() && !approver.approve(&asks) {
        return Err(RegistryError::Refused("not approved: nothing was installed".into()));
    }
    // Commit: move each staged folder into place, grant its tier, lock it. A failure at any
    // step puts back the folders, the trust file and the lockfile as they were.
    std::fs::create_dir_all(&project.scripts).map_err(|e| io(project.scripts.display(), e))?;
    let mut grants = Grants::read(&project.scripts);
    let trust_file = crate::packages::trust::trust_file(&project.scripts);
    let trust_before = trust_file.as_ref().map(|f| std::fs::read(f).ok());
    let mut moves = Moves::default();
    let committed = (|| -> Result<(), RegistryError> {
        for s in &staged {
            let pick = &picks[s.pick_index];
            let registry = project.registry(&pick.registry)?;
            let dest = project.scripts.join(&pick.name);
            let mut old = None;
            if dest.symlink_metadata().is_ok() {
                let aside = staging.0.join(format!(".old-{}", pick.name));
                std::fs::rename(&dest, &aside).map_err(|e| io(dest.display(), e))?;
                old = Some(aside);
            }
            if let Err(e) = std::fs::rename(&s.dir, &dest) {
                if let Some(aside) = &old {
                    let _ = std::fs::rename(aside, &dest);
                }
                return Err(io(dest.display(), e));
            }
            moves.0.push((dest.clone(), old));
            let manifest = s.package.as_ref().map(|(_, m)| m);
            let tier = tier_for(registry, manifest);
            grants.revoke(&dest);
            let capabilities = match (&s.skill, manifest) {
                (Some((tools, hash)), _) => {
                    if tier != Trust::Untrusted {
                        grants.grant_instruction(&dest, &pick.name, hash, tier).map_err(|e| RegistryError::Refused(e.to_string()))?;
                    }
                    tools.clone()
                }
                (None, Some(m)) => {
                    // An untrusted package's grant approves only its secrets.
                    if tier != Trust::Untrusted || !m.secrets.is_empty() {
                        let source = discover::read_package(&project.scripts, &dest).map_err(|e| RegistryError::Refused(e.to_string()))?;
                        grants.grant(&source, m, Some(tier)).map_err(|e| RegistryError::Refused(e.to_string()))?;
                    }
                    resolved.get(&pick.name).cloned().unwrap_or_default()
                }
                (None, None) => Vec::new(),
            };
            lock.set(Locked {
                name: pick.name.clone(),
                version: pick.entry.version.clone(),
                registry: registry.name.clone(),
                kind: s.kind,
                archive_sha256: pick.entry.sha256.clone(),
                content_hash: s.files_hash.clone(),
                capabilities,
                secrets: manifest.map(|m| m.secrets.clone()).unwrap_or_default(),
                tier: tier.as_str().to_string(),
            });
            done.push(Done {
                reference: format!("{}@{}", pick.name, pick.entry.version),
                registry: registry.name.clone(),
                tier,
                changed: true,
            });
        }
        grants.save(&project.scripts).map_err(|e| RegistryError::Refused(e.to_string()))?;
        lock.write(&project.root)
    })();
    if let Err(e) = committed {
        if let (Some(file), Some(before)) = (&trust_file, trust_before) {
            let _ = match before {
                Some(bytes) => std::fs::write(file, bytes),
                None => std::fs::remove_file(file).or_else(|e| if e.kind() == std::io::ErrorKind::NotFound { Ok(()) } else { Err(e) }),
            };
        }
        return Err(moves.undo(e));
    }
    Ok(done)
}

/// The hash the lockfile pins for what is at `dest` now (`None`: nothing readable there).
fn current_hash(project: &Project, dest: &Path, kind: Option<PackageKind>) -> Option<String> {
    if !dest.is_dir() {
        return None;
    }
    if kind == Some(PackageKind::Instruction) {
        let at = crate::instructions::Location::Folder(dest.to_path_buf());
        return crate::instructions::load(&at, "SKILL.md").ok().map(|s| s.content_hash);
    }
    discover::read_package(&project.scripts, dest).ok().map(|s| all_files_hash(&s))
}

/// What `update` found for one locked package.
#[derive(Debug, Clone)]
pub struct Held {
    pub name: String,
    pub current: String,
    /// Newer minor or major versions, not applied.
    pub newer: Vec<String>,
}

/// `update [NAME] [--to VERSION]`: patch releases (same major.minor) are applied; newer minor
/// and major ones are listed, and applied only when named with `--to` (and approved).
pub fn update(
    project: &Project,
    fetcher: &mut Fetcher,
    name: Option<&str>,
    to: Option<&Version>,
    approver: &mut dyn Approver,
) -> Result<(Vec<Done>, Vec<Held>), RegistryError> {
    let _held = ProjectLock::take(project)?;
    let lock = Lock::read(&project.root)?;
    let targets: Vec<&Locked> = lock.packages.iter().filter(|l| name.is_none_or(|n| n == l.name)).collect();
    if let Some(n) = name
        && targets.is_empty()
    {
        return Err(RegistryError::Usage(format!("'{n}' is not in limina.lock: install it first (limina packages install {n})")));
    }
    let mut requests = Vec::new();
    let mut held = Vec::new();
    for l in targets {
        let current = Version::parse(&l.version)
            .map_err(|e| RegistryError::Lock { file: project.root.join("limina.lock"), problem: e.to_string() })?;
        if let Some(to) = to {
            requests.push(Request { name: l.name.clone(), range: VersionReq::parse(&format!("={to}")).ok(), force_approval: true });
            continue;
        }
        let versions: Vec<Version> = indexes(project, fetcher, &l.name, Some(&l.registry))?
            .into_iter()
            .flat_map(|(_, idx)| idx.versions)
            .map(|e| e.semver())
            .collect();
        let patch =
            versions.iter().filter(|v| v.major == current.major && v.minor == current.minor && **v > current && v.pre.is_empty()).max();
        if let Some(patch) = patch {
            requests.push(Request { name: l.name.clone(), range: VersionReq::parse(&format!("={patch}")).ok(), force_approval: false });
        }
        let mut newer: Vec<&Version> =
            versions.iter().filter(|v| (v.major, v.minor) > (current.major, current.minor) && v.pre.is_empty()).collect();
        newer.sort();
        if !newer.is_empty() {
            // Shown against what it will be at once this update's patch is applied.
            let current = patch.unwrap_or(&current).to_string();
            held.push(Held { name: l.name.clone(), current, newer: newer.iter().map(|v| v.to_string()).collect() });
        }
    }
    let done = if requests.is_empty() { Vec::new() } else { install_locked(project, fetcher, &requests, approver)? };
    Ok((done, held))
}

/// Removes a package the registry tooling installed (refused while another installed package
/// depends on it).
pub fn remove(project: &Project, name: &str) -> Result<Locked, RegistryError> {
    let _held = ProjectLock::take(project)?;
    let mut lock = Lock::read(&project.root)?;
    let Some(locked) = lock.get(name).cloned() else {
        return Err(RegistryError::Usage(format!(
            "'{name}' is not in limina.lock: only packages installed from a registry are removed here"
        )));
    };
    let dependents: Vec<String> = survey(&project.scripts, &project.profile)
        .iter()
        .filter_map(|p| p.effective.as_ref().or(p.manifest.as_ref()))
        .filter(|m| m.name != name && (m.dependencies.contains_key(name) || m.extends.iter().any(|e| e == name)))
        .map(Manifest::reference)
        .collect();
    if !dependents.is_empty() {
        return Err(RegistryError::Refused(format!("{name} is needed by {}: remove those first", dependents.join(", "))));
    }
    let dest = project.scripts.join(name);
    // Only what was installed, byte for byte: a folder with an edited, added or removed file,
    // or one the lockfile names but the registry tooling never put there, is the operator's.
    if dest.symlink_metadata().is_ok() {
        if let Err(why) = same_as_installed(project, &locked, &dest) {
            return Err(RegistryError::Refused(format!(
                "{} is not what {}@{} installed ({why}): nothing was removed; move it away yourself",
                dest.display(),
                locked.name,
                locked.version
            )));
        }
        std::fs::remove_dir_all(&dest).map_err(|e| io(dest.display(), e))?;
    }
    let mut grants = Grants::read(&project.scripts);
    if grants.revoke(&dest).is_some() {
        grants.save(&project.scripts).map_err(|e| RegistryError::Refused(e.to_string()))?;
    }
    lock.remove(name);
    lock.write(&project.root)?;
    Ok(locked)
}

/// Whether `dest` holds exactly the files of the cached archive `locked` was installed from.
fn same_as_installed(project: &Project, locked: &Locked, dest: &Path) -> Result<(), String> {
    let (_, bytes) = cached(project, &locked.registry, &locked.name, &locked.version)
        .ok_or_else(|| "its archive is not in the cache to compare it with".to_string())?;
    let mut want: BTreeMap<String, Vec<u8>> = archive::read(&bytes).map_err(|e| e.to_string())?.into_iter().collect();
    let mut stack = vec![dest.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| e.to_string())?;
            let path = entry.path();
            let relative = path.strip_prefix(dest).unwrap_or(&path).to_string_lossy().replace('\\', "/");
            let kind = entry.file_type().map_err(|e| e.to_string())?;
            if kind.is_dir() {
                stack.push(path);
            } else if !kind.is_file() {
                return Err(format!("{relative} is not a regular file"));
            } else {
                let Some(expected) = want.remove(&relative) else { return Err(format!("{relative} was not in the package")) };
                let now = std::fs::read(&path).map_err(|e| format!("{relative}: {e}"))?;
                if now != expected {
                    return Err(format!("{relative} was edited"));
                }
            }
        }
    }
    match want.keys().next() {
        Some(missing) => Err(format!("{missing} is missing")),
        None => Ok(()),
    }
}

/// What `search` found — (registry, name, newest entry) — and the registries it could not read.
pub type Searched = (Vec<(String, String, Entry)>, Vec<RegistryError>);

/// `search QUERY`: the newest version of each package whose name or description holds it, in
/// every registry (read as `catalog` reads them: a registry that fails is reported among the
/// problems, and the others are still searched).
pub fn search(project: &Project, fetcher: &mut Fetcher, query: &str) -> Result<Searched, RegistryError> {
    let catalog = catalog(project, fetcher)?;
    let query = query.to_lowercase();
    let mut out = Vec::new();
    for (registry, idx) in catalog.indexes {
        let Some(newest) = idx.versions.iter().max_by_key(|e| e.semver()) else { continue };
        if idx.name.contains(&query) || newest.description.to_lowercase().contains(&query) {
            out.push((registry, idx.name.clone(), newest.clone()));
        }
    }
    Ok((out, catalog.problems))
}

/// Everything the configured registries list, for `packages browse`: each registry's indexes,
/// and the problems met on the way. A registry that cannot be reached, or one index that does not
/// parse, is a problem in the list, never the end of the catalog: the other registries and
/// packages are still shown.
#[derive(Debug, Default)]
pub struct Catalog {
    /// (registry, index), in registry order then name order.
    pub indexes: Vec<(String, Index)>,
    pub problems: Vec<RegistryError>,
}

/// Reads every registry's `packages.json` and each package's index (each file under its cap,
/// `MAX_ENTRIES` packages per registry at most, as `search` does).
pub fn catalog(project: &Project, fetcher: &mut Fetcher) -> Result<Catalog, RegistryError> {
    if project.registries.is_empty() {
        return Err(project.no_registries());
    }
    let mut out = Catalog::default();
    for r in &project.registries {
        let listing = match fetcher.get(r, "packages.json", index::MAX_INDEX_BYTES).and_then(|f| match f {
            Fetched::Found(bytes) => index::parse_listing(&bytes, &r.name).map(Some),
            Fetched::Missing => Ok(None),
        }) {
            Ok(Some(listing)) => listing,
            Ok(None) => continue,
            Err(e) => {
                out.problems.push(e);
                continue;
            }
        };
        // The whole walk has the registry's `timeout`, not one per file: a registry listing
        // 2000 packages that each trickle in just under it cannot hold a search for hours.
        let stop = std::time::Instant::now() + r.timeout;
        let total = listing.packages.len();
        for (read, name) in listing.packages.into_iter().enumerate() {
            if std::time::Instant::now() > stop {
                out.problems.push(RegistryError::Fetch {
                    registry: r.name.clone(),
                    file: "index/".into(),
                    problem: format!(
                        "stopped after {} s (its `timeout`) with {read} of {total} indexes read; the rest are not listed",
                        r.timeout.as_secs()
                    ),
                });
                break;
            }
            match indexes(project, fetcher, &name, Some(&r.name)) {
                Ok(found) => out.indexes.extend(found),
                // A registry that stopped answering would make every further index wait out
                // its timeout: the rest of it is skipped.
                Err(e @ RegistryError::Fetch { .. }) => {
                    out.problems.push(e);
                    break;
                }
                Err(e) => out.problems.push(e),
            }
        }
    }
    Ok(out)
}

/// Whether the cache holds the archive of `name@version` from `registry` (its files are there;
/// their hash is checked when it is used).
pub fn is_cached(project: &Project, registry: &str, name: &str, version: &str) -> bool {
    let dir = project.cache_dir(registry);
    dir.join(format!("{name}-{version}.tar.gz")).is_file() && dir.join(format!("{name}-{version}.json")).is_file()
}

/// `info NAME`: its index in every registry that has it.
pub fn info(project: &Project, fetcher: &mut Fetcher, name: &str) -> Result<Vec<(String, Index)>, RegistryError> {
    if project.registries.is_empty() {
        return Err(project.no_registries());
    }
    let found = indexes(project, fetcher, name, None)?;
    if found.is_empty() {
        return Err(RegistryError::Usage(format!("no configured registry has a package named '{name}'")));
    }
    Ok(found)
}
