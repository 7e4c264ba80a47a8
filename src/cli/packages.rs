//! `limina packages list | inspect NAME | enable NAME | disable NAME | trust NAME | untrust NAME`:
//! installed mods, packages and instruction skills as a start-up would judge them, and the
//! operator's trust grants.
//!
//! Nothing here starts an engine or runs package code beyond reading manifests (in throwaway
//! sandboxed VMs under a deadline): a listing is a survey. `trust` is the only way a package gets
//! more than the untrusted tier; it records the grant beside the scripts root, outside it (see
//! `packages::trust`).

use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde_json::{Value, json};

use super::{CliError, CliResult};
use crate::host::EngineConfig;
use crate::packages::instructions::{Surveyed, TierBounds, skill_path};
use crate::packages::manifest::{Limits, Trust};
use crate::packages::trust::{ATTESTATION_MEANS, Grants};
use crate::packages::{InstalledPackage, Status, admission, set_enabled, survey};

#[derive(Debug, Args)]
pub(crate) struct PackagesArgs {
    #[command(subcommand)]
    pub command: Option<PackagesCommand>,
    /// Mods and packages root (default: ./scripts).
    #[arg(long, value_name = "DIR", global = true)]
    pub scripts: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub(crate) enum PackagesCommand {
    /// One line per package: ref, kind, trust tier, status (the default).
    List,
    /// A package's manifest, trust, resolved capabilities, limits and status, as JSON.
    Inspect { name: String },
    /// Load this package again at start-up.
    Enable { name: String },
    /// Keep this package installed but do not load it.
    Disable { name: String },
    /// Grant a package the trust tier its manifest asks for (or a lower one), or an instruction
    /// skill verified (or --tier), for its files as they are now; any later edit drops it back to
    /// untrusted until granted again.
    Trust {
        /// Package name, name@version, or path under the scripts root.
        name: String,
        /// Grant less than the manifest asks for.
        #[arg(long, value_enum)]
        tier: Option<TierArg>,
    },
    /// Withdraw a package's trust grant: it runs untrusted from the next start.
    Untrust { name: String },
    /// Packages in the project's registries whose name or description contains QUERY.
    Search {
        #[arg(default_value = "")]
        query: String,
    },
    /// A package's versions in every registry that has it, as JSON.
    Info { name: String },
    /// Browse every registry in a terminal: categories, search, a full preview, and install
    /// with the same approval as `install` (docs/registries.md).
    Browse,
    /// Install packages (NAME or NAME@RANGE) and their dependencies from the registries, after
    /// approval; with no name, everything in limina.lock (from the cache when offline).
    Install {
        names: Vec<String>,
        /// Approve without asking (for scripts).
        #[arg(long)]
        yes: bool,
    },
    /// Apply patch releases of installed packages; list newer minor/major ones (applied with
    /// --to VERSION, after approval).
    Update {
        name: Option<String>,
        #[arg(long, value_name = "VERSION")]
        to: Option<String>,
        #[arg(long)]
        yes: bool,
    },
    /// Remove a package installed from a registry.
    Remove { name: String },
    /// Validate, sign and add a package folder to a registry folder.
    Publish {
        dir: PathBuf,
        /// The publisher's secret key file (limina packages keygen).
        #[arg(long, value_name = "FILE")]
        key: PathBuf,
        /// The registry folder to write into.
        #[arg(long, value_name = "DIR")]
        registry: PathBuf,
        #[arg(long)]
        author: Option<String>,
        /// Seconds the tests a package ships (its tests/ folder) may take in all before the
        /// publish is refused.
        #[arg(long, value_name = "SECS", default_value_t = 300)]
        test_timeout: u64,
    },
    /// Make a signing key: writes the secret key (mode 0600) and prints the public key.
    Keygen {
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum TierArg {
    Verified,
    Local,
}

impl TierArg {
    fn trust(self) -> Trust {
        match self {
            TierArg::Verified => Trust::Verified,
            TierArg::Local => Trust::Local,
        }
    }
}

fn status_text(s: &Status) -> String {
    match s {
        Status::Loaded { skills } => format!("loaded ({})", skills.join(", ")),
        Status::Refused { rule, reason } => format!("refused [{rule}]: {reason}"),
        Status::Disabled => "disabled".to_string(),
        Status::Pending => "would load".to_string(),
    }
}

/// A package path as the operator typed it: relative to the scripts root.
fn shown(root: &std::path::Path, p: &InstalledPackage) -> String {
    p.source.path.strip_prefix(root).unwrap_or(&p.source.path).display().to_string()
}

/// Why a name does not designate exactly one installed package.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum FindError {
    #[error("no package named '{name}' under {} (limina packages list shows them)", root.display())]
    None { name: String, root: PathBuf },
    #[error("{} packages or skills are named '{name}' ({}): name one by its path", paths.len(), paths.join(", "))]
    Many { name: String, paths: Vec<String> },
}

impl From<FindError> for CliError {
    fn from(e: FindError) -> Self {
        CliError::usage(e)
    }
}

fn limits_json(l: &Limits) -> Value {
    json!({
        "memoryBytes": l.memory_bytes,
        "cpuMs": l.cpu_ms,
        "valueBytes": l.value_bytes,
        "valueNodes": l.value_nodes,
        "valueDepth": l.value_depth,
        "processMemoryBytes": l.process_memory_bytes,
        "processCpuSeconds": l.process_cpu_seconds,
        "processFiles": l.process_files,
    })
}

fn skill_shown(root: &std::path::Path, s: &Surveyed) -> String {
    let path = skill_path(&s.location);
    path.strip_prefix(root).unwrap_or(path).display().to_string()
}

/// A typed package or an instruction skill, whichever `name` designates (both: ambiguous).
enum Found<'a> {
    Package(&'a InstalledPackage),
    Skill(&'a Surveyed),
}

/// The one package or instruction skill `name` designates: by name or ref when only one thing
/// carries it, else by path under the root (`benign.luau`, `benign/` for a skill's folder,
/// `packs/lighting`). A name several things carry (a package and a skill, two skills) with no
/// path to tell them apart is refused listing their paths.
fn find_any<'a>(
    root: &std::path::Path,
    packages: &'a [InstalledPackage],
    skills: &'a [Surveyed],
    name: &str,
) -> Result<Found<'a>, FindError> {
    let mut named: Vec<Found<'a>> = packages
        .iter()
        .filter(|p| p.manifest.is_some() && (p.name() == name || p.reference() == name))
        .map(Found::Package)
        .chain(skills.iter().filter(|s| s.location.name() == name || skill_ref(s) == name).map(Found::Skill))
        .collect();
    if named.len() == 1 {
        return Ok(named.remove(0));
    }
    let mut by_path: Vec<Found<'a>> = packages
        .iter()
        .filter(|p| shown(root, p) == name)
        .map(Found::Package)
        .chain(
            skills
                .iter()
                .filter(|s| {
                    let path = skill_shown(root, s);
                    name == format!("{path}/") || (name == path && path != s.location.name())
                })
                .map(Found::Skill),
        )
        .collect();
    if by_path.len() == 1 {
        return Ok(by_path.remove(0));
    }
    if named.is_empty() {
        return Err(FindError::None { name: name.to_string(), root: root.to_path_buf() });
    }
    let paths = named
        .iter()
        .map(|f| match f {
            Found::Package(p) => shown(root, p),
            Found::Skill(s) => match s.location {
                crate::instructions::Location::Folder(_) => format!("{}/", skill_shown(root, s)),
                crate::instructions::Location::File(_) => skill_shown(root, s),
            },
        })
        .collect();
    Err(FindError::Many { name: name.to_string(), paths })
}

fn skill_ref(s: &Surveyed) -> String {
    match &s.read {
        Ok(skill) => format!("{}@{}", skill.id, skill.version.as_ref().map_or("0.0.0".to_string(), |v| v.to_string())),
        Err(_) => s.location.name(),
    }
}

fn skill_status(s: &Surveyed) -> String {
    match (s.disabled, s.problem()) {
        (true, _) => "disabled".to_string(),
        (false, Some(e)) => format!("refused: {e}"),
        (false, None) => "would load".to_string(),
    }
}

/// `limina packages inspect` of an instruction skill.
fn inspect_skill(root: &std::path::Path, s: &Surveyed) -> Value {
    let path = skill_path(&s.location);
    let shown_path = path.strip_prefix(root).unwrap_or(path).display().to_string();
    let skill = s.read.as_ref().ok();
    let bounds = s.trust.as_ref().map(|t| {
        let b = TierBounds::of(t.effective);
        json!({"bodyBytes": b.body_bytes, "resources": b.resources, "resourceBytes": b.resource_bytes})
    });
    json!({
        "ref": skill_ref(s),
        "path": shown_path,
        "kind": "instruction",
        "trust": s.trust.as_ref().map(|t| json!({"granted": t.granted.map(Trust::as_str), "effective": t.effective.as_str(), "why": t.why})),
        "description": skill.map(|k| k.description.clone()),
        "surfaceMode": skill.and_then(|k| k.surface_mode).map(|m| m.as_str()),
        "license": skill.and_then(|k| k.license.clone()),
        "compatibility": skill.and_then(|k| k.compatibility.clone()),
        "metadata": skill.map(|k| k.metadata.clone()),
        "gatedTools": skill.map(|k| k.tool_names().collect::<Vec<_>>()),
        "dependencies": skill.map(|k| k.dependencies.iter().map(|(n, r)| (n.clone(), r.to_string())).collect::<std::collections::BTreeMap<_, _>>()),
        "conflicts_with": skill.map(|k| k.conflicts_with.clone()),
        "bodyBytes": skill.map(|k| k.body.len()),
        "resources": skill.map(|k| k.resources.iter().map(|r| r.path.clone()).collect::<Vec<_>>()),
        "bounds": bounds,
        "contentHash": skill.map(|k| k.content_hash.clone()),
        "status": skill_status(s),
    })
}

/// `limina packages trust` of an instruction skill: any tier up to local (default verified).
fn trust_skill(root: &std::path::Path, s: &Surveyed, tier: Option<TierArg>) -> CliResult {
    let path = skill_path(&s.location);
    let shown_path = path.strip_prefix(root).unwrap_or(path).display().to_string();
    let skill = s.read.as_ref().map_err(|e| CliError::failed(format_args!("{shown_path}: cannot be trusted: {e}")))?;
    let tier = tier.map_or(Trust::Verified, TierArg::trust);
    let mut grants = Grants::read(root);
    let granted = grants.grant_instruction(path, &skill.id, &skill.content_hash, tier).map_err(CliError::failed)?;
    let file = grants.save(root).map_err(CliError::failed)?;
    outln!(
        "{} ({shown_path}): instruction skill granted {} for content {}; recorded in {}",
        skill_ref(s),
        granted.tier,
        granted.content_hash,
        file.display()
    );
    let b = TierBounds::of(tier);
    outln!(
        "  it may now hold a {}-byte body and {} resource files ({} bytes); it gates: {}; any edit to its files drops it to untrusted until granted again",
        b.body_bytes,
        b.resources,
        b.resource_bytes,
        match skill.tools.is_empty() {
            true => "no tools".to_string(),
            false => skill.tool_names().collect::<Vec<_>>().join(", "),
        }
    );
    Ok(())
}

pub fn run(args: &PackagesArgs) -> CliResult {
    let root = super::scripts_root(args.scripts.as_deref()).unwrap_or_else(|| super::project_root().join("scripts"));
    // Commands that rewrite the trust file or the disabled list hold the project's packages
    // lock, as install does, so no two of them lose each other's change.
    let _held = match &args.command {
        Some(
            PackagesCommand::Trust { .. }
            | PackagesCommand::Untrust { .. }
            | PackagesCommand::Enable { .. }
            | PackagesCommand::Disable { .. },
        ) => Some(crate::packages::registry::ops::ProjectLock::take_at(&super::project_root())?),
        _ => None,
    };
    match &args.command {
        Some(PackagesCommand::Search { query }) => return super::packages_registry::search(&root, query),
        Some(PackagesCommand::Info { name }) => return super::packages_registry::info(&root, name),
        Some(PackagesCommand::Browse) => return super::packages_registry::browse(&root),
        Some(PackagesCommand::Install { names, yes }) => return super::packages_registry::install(&root, names, *yes),
        Some(PackagesCommand::Update { name, to, yes }) => {
            return super::packages_registry::update(&root, name.as_deref(), to.as_deref(), *yes);
        }
        Some(PackagesCommand::Remove { name }) => return super::packages_registry::remove(&root, name),
        Some(PackagesCommand::Publish { dir, key, registry, author, test_timeout }) => {
            let tests = std::time::Duration::from_secs(*test_timeout);
            return super::packages_registry::publish(&root, dir, key, registry, author.as_deref(), tests);
        }
        Some(PackagesCommand::Keygen { out }) => return super::packages_registry::keygen(out),
        Some(PackagesCommand::Enable { name } | PackagesCommand::Disable { name }) => {
            let enable = matches!(args.command, Some(PackagesCommand::Enable { .. }));
            set_enabled(&root, name, enable).map_err(CliError::failed)?;
            outln!("{name}: {}", if enable { "enabled" } else { "disabled" });
            return Ok(());
        }
        Some(PackagesCommand::Untrust { name }) => {
            let packages = survey(&root, EngineConfig::new(super::project_root()).profile.as_str());
            let skills = crate::packages::instructions::survey(&root);
            let (reference, path, shown_path) = match find_any(&root, &packages, &skills, name)? {
                Found::Package(pkg) => (pkg.reference(), pkg.source.path.clone(), shown(&root, pkg)),
                Found::Skill(s) => {
                    let path = skill_path(&s.location).to_path_buf();
                    let shown_path = path.strip_prefix(&root).unwrap_or(&path).display().to_string();
                    (skill_ref(s), path, shown_path)
                }
            };
            let mut grants = Grants::read(&root);
            let Some(grant) = grants.revoke(&path) else {
                outln!("{reference} ({shown_path}): had no trust grant");
                return Ok(());
            };
            let file = grants.save(&root).map_err(CliError::failed)?;
            outln!(
                "{reference} ({shown_path}): {} trust withdrawn in {}; it is untrusted from the next start (or its next reload)",
                grant.tier,
                file.display()
            );
            return Ok(());
        }
        _ => {}
    }
    let profile = EngineConfig::new(super::project_root()).profile;
    let packages = survey(&root, profile.as_str());
    let skills = crate::packages::instructions::survey(&root);
    match &args.command {
        None | Some(PackagesCommand::List) => {
            for p in &packages {
                let trust = match p.trust.effective == p.trust.requested {
                    true => p.trust.effective.as_str().to_string(),
                    false => format!("{} (asks {})", p.trust.effective.as_str(), p.trust.requested.as_str()),
                };
                let trust = if p.manifest.is_some() { trust } else { "-".into() };
                outln!("{:<24} {:<11} {:<22} {}", p.reference(), p.source.kind.as_str(), trust, status_text(&p.status));
            }
            for s in &skills {
                let trust = s.trust.as_ref().map_or("-", |t| t.effective.as_str());
                outln!("{:<24} {:<11} {:<22} {}", skill_ref(s), "instruction", trust, skill_status(s));
            }
            Ok(())
        }
        Some(PackagesCommand::Inspect { name }) => {
            let p = match find_any(&root, &packages, &skills, name)? {
                Found::Package(p) => p,
                Found::Skill(s) => {
                    outln!("{}", serde_json::to_string_pretty(&inspect_skill(&root, s)).unwrap_or_default());
                    return Ok(());
                }
            };
            let names = |m: Option<&crate::packages::manifest::Manifest>| -> Vec<&str> {
                m.map(|m| m.capabilities.iter().map(|c| c.as_str()).collect()).unwrap_or_default()
            };
            let granted_by_profile = profile.permissions();
            let granted: Vec<&str> = p
                .effective
                .as_ref()
                .map(|m| m.capabilities.iter().filter(|c| granted_by_profile.contains(**c)).map(|c| c.as_str()).collect())
                .unwrap_or_default();
            let m = p.manifest.as_ref();
            let limits = p.effective.as_ref().map(|m| match admission(m, &p.trust, &p.source.path, granted_by_profile, profile.as_str()) {
                Ok(l) => limits_json(&l),
                Err(r) => json!({"refused": r.rule.as_str(), "reason": r.message}),
            });
            let store = crate::packages::secrets::SecretStore::new(Some(&root));
            let v = json!({
                "ref": p.reference(),
                "path": shown(&root, p),
                "kind": p.source.kind.as_str(),
                "trust": {
                    "requested": p.trust.requested.as_str(),
                    "granted": p.trust.granted.map(Trust::as_str),
                    "effective": p.trust.effective.as_str(),
                    "why": p.trust.why,
                },
                "description": m.map(|m| m.description.clone()),
                "engine": m.map(|m| m.engine.to_string()),
                "extends": m.map(|m| m.extends.clone()),
                "dependencies": p.effective.as_ref().map(|m| m.dependencies.iter().map(|(k, v)| (k.clone(), v.to_string())).collect::<std::collections::BTreeMap<_, _>>()),
                "conflicts_with": m.map(|m| m.conflicts_with.clone()),
                "declaredCapabilities": names(m),
                "resolvedCapabilities": names(p.effective.as_ref()),
                "grantedCapabilities": granted,
                "secrets": m.map(|m| crate::packages::secrets::status(&store, &m.name, &m.secrets, &p.trust.secrets)),
                "secretsFile": m.filter(|m| !m.secrets.is_empty()).and_then(|_| store.problem()),
                "profile": profile.as_str(),
                "limits": limits,
                "contentHash": p.source.content_hash,
                "manifestHash": p.source.manifest_hash(),
                "attestation": m.and_then(|m| m.attestation.clone()).map(|a| json!({"pins": a, "means": ATTESTATION_MEANS})),
                "status": status_text(&p.status),
            });
            outln!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
            Ok(())
        }
        Some(PackagesCommand::Trust { name, tier }) => {
            let p = match find_any(&root, &packages, &skills, name)? {
                Found::Package(p) => p,
                Found::Skill(s) => return trust_skill(&root, s, *tier),
            };
            let Some(manifest) = &p.manifest else {
                let why = match &p.status {
                    Status::Refused { reason, .. } => reason.clone(),
                    _ => "no manifest".into(),
                };
                return Err(CliError::failed(format_args!("{}: cannot be trusted: {why}", shown(&root, p))));
            };
            if manifest.requested_trust == Trust::Untrusted && manifest.secrets.is_empty() {
                return Err(CliError::failed(format_args!(
                    "{} ({}) asks for no trust (its manifest's `trust` is untrusted or absent) and declares no secrets: there is nothing to grant",
                    manifest.reference(),
                    shown(&root, p)
                )));
            }
            let mut grants = Grants::read(&root);
            let granted = grants.grant(&p.source, manifest, tier.map(TierArg::trust)).map_err(CliError::failed)?;
            let file = grants.save(&root).map_err(CliError::failed)?;
            let caps: Vec<&str> = manifest.capabilities.iter().map(|c| c.as_str()).collect();
            let what = if granted.tier == Trust::Untrusted.as_str() {
                "approved its secrets (it stays untrusted)".to_string()
            } else {
                format!("granted {}", granted.tier)
            };
            outln!(
                "{} ({}): {what} for content {}{}; recorded in {}",
                manifest.reference(),
                shown(&root, p),
                granted.content_hash,
                granted.manifest_hash.as_deref().map(|h| format!(" and manifest {h}")).unwrap_or_default(),
                file.display()
            );
            outln!(
                "  it declares capabilities: {}; any edit to its files drops it to untrusted until granted again",
                if caps.is_empty() { "none".to_string() } else { caps.join(", ") }
            );
            if !granted.secrets.is_empty() {
                outln!(
                    "  secrets approved: {} (values: [{}] in {} beside the scripts folder, mode 0600, or {}NAME in the environment)",
                    granted.secrets.join(", "),
                    manifest.name,
                    crate::packages::secrets::SECRETS_FILE,
                    crate::packages::secrets::ENV_PREFIX
                );
            }
            Ok(())
        }
        _ => Ok(()),
    }
}
