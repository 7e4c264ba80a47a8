//! `limina packages list | inspect NAME | enable NAME | disable NAME | trust NAME | untrust NAME`:
//! installed mods and packages as a start-up would judge them, and the operator's trust grants.
//!
//! Nothing here starts an engine or runs package code beyond reading manifests (in throwaway
//! sandboxed VMs under a deadline): a listing is a survey. `trust` is the only way a package gets
//! more than the untrusted tier; it records the grant beside the scripts root, outside it (see
//! `packages::trust`).

use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde_json::{Value, json};

use super::{EXIT_FAILURE, EXIT_OK, EXIT_USAGE, report_error};
use crate::host::EngineConfig;
use crate::packages::manifest::{Limits, Trust};
use crate::packages::trust::{ATTESTATION_MEANS, Grants};
use crate::packages::{InstalledPackage, Status, admission, set_enabled, survey};
use crate::policy::profile_permissions;

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
    /// Grant a package the trust tier its manifest asks for (or a lower one), for its files as
    /// they are now; any later edit drops it back to untrusted until granted again.
    Trust {
        /// Package name, name@version, or path under the scripts root.
        name: String,
        /// Grant less than the manifest asks for.
        #[arg(long, value_enum)]
        tier: Option<TierArg>,
    },
    /// Withdraw a package's trust grant: it runs untrusted from the next start.
    Untrust { name: String },
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

/// The one package `name` designates (a name, a ref, or a path under the root).
fn find<'a>(root: &std::path::Path, packages: &'a [InstalledPackage], name: &str) -> Result<&'a InstalledPackage, String> {
    let matches: Vec<&InstalledPackage> = packages
        .iter()
        .filter(|p| (p.manifest.is_some() && (p.name() == name || p.reference() == name)) || shown(root, p) == name)
        .collect();
    match matches.as_slice() {
        [one] => Ok(one),
        [] => Err(format!("no package named '{name}' under {} (limina packages list shows them)", root.display())),
        many => {
            let paths: Vec<String> = many.iter().map(|p| shown(root, p)).collect();
            Err(format!("{} packages are named '{name}' ({}): name one by its path", many.len(), paths.join(", ")))
        }
    }
}

fn limits_json(l: &Limits) -> Value {
    json!({"memoryBytes": l.memory_bytes, "cpuMs": l.cpu_ms, "valueBytes": l.value_bytes, "valueNodes": l.value_nodes, "valueDepth": l.value_depth})
}

pub fn run(args: &PackagesArgs) -> i32 {
    let root = super::scripts_root(args.scripts.as_deref()).unwrap_or_else(|| super::project_root().join("scripts"));
    let fail = |message: &str, code: i32| {
        report_error(message, None);
        code
    };
    match &args.command {
        Some(PackagesCommand::Enable { name } | PackagesCommand::Disable { name }) => {
            let enable = matches!(args.command, Some(PackagesCommand::Enable { .. }));
            return match set_enabled(&root, name, enable) {
                Ok(()) => {
                    outln!("{name}: {}", if enable { "enabled" } else { "disabled" });
                    EXIT_OK
                }
                Err(e) => fail(&e.to_string(), EXIT_FAILURE),
            };
        }
        Some(PackagesCommand::Untrust { name }) => {
            let packages = survey(&root, &EngineConfig::new(super::project_root()).profile);
            let pkg = match find(&root, &packages, name) {
                Ok(p) => p,
                Err(e) => return fail(&e, EXIT_USAGE),
            };
            let mut grants = Grants::read(&root);
            let Some(grant) = grants.revoke(&pkg.source.path) else {
                outln!("{} ({}): had no trust grant", pkg.reference(), shown(&root, pkg));
                return EXIT_OK;
            };
            return match grants.save(&root) {
                Ok(file) => {
                    outln!(
                        "{} ({}): {} trust withdrawn in {}; it runs untrusted from the next start (or its next reload)",
                        pkg.reference(),
                        shown(&root, pkg),
                        grant.tier,
                        file.display()
                    );
                    EXIT_OK
                }
                Err(e) => fail(&e.to_string(), EXIT_FAILURE),
            };
        }
        _ => {}
    }
    let profile = EngineConfig::new(super::project_root()).profile;
    let packages = survey(&root, &profile);
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
            EXIT_OK
        }
        Some(PackagesCommand::Inspect { name }) => {
            let p = match find(&root, &packages, name) {
                Ok(p) => p,
                Err(e) => return fail(&e, EXIT_USAGE),
            };
            let names = |m: Option<&crate::packages::manifest::Manifest>| -> Vec<&str> {
                m.map(|m| m.capabilities.iter().map(|c| c.as_str()).collect()).unwrap_or_default()
            };
            let granted_by_profile = profile_permissions(&profile);
            let granted: Vec<&str> = p
                .effective
                .as_ref()
                .map(|m| m.capabilities.iter().filter(|c| granted_by_profile.contains(**c)).map(|c| c.as_str()).collect())
                .unwrap_or_default();
            let m = p.manifest.as_ref();
            let limits = p.effective.as_ref().map(|m| match admission(m, &p.trust, &p.source.path, granted_by_profile, &profile) {
                Ok(l) => limits_json(&l),
                Err(r) => json!({"refused": r.rule.as_str(), "reason": r.message}),
            });
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
                "profile": profile,
                "limits": limits,
                "contentHash": p.source.content_hash,
                "manifestHash": p.source.manifest_hash(),
                "attestation": m.and_then(|m| m.attestation.clone()).map(|a| json!({"pins": a, "means": ATTESTATION_MEANS})),
                "status": status_text(&p.status),
            });
            outln!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
            EXIT_OK
        }
        Some(PackagesCommand::Trust { name, tier }) => {
            let p = match find(&root, &packages, name) {
                Ok(p) => p,
                Err(e) => return fail(&e, EXIT_USAGE),
            };
            let Some(manifest) = &p.manifest else {
                let why = match &p.status {
                    Status::Refused { reason, .. } => reason.clone(),
                    _ => "no manifest".into(),
                };
                return fail(&format!("{}: cannot be trusted: {why}", shown(&root, p)), EXIT_FAILURE);
            };
            if manifest.requested_trust == Trust::Untrusted {
                let message = format!(
                    "{} ({}) asks for no trust (its manifest's `trust` is untrusted or absent): there is nothing to grant",
                    manifest.reference(),
                    shown(&root, p)
                );
                return fail(&message, EXIT_FAILURE);
            }
            let mut grants = Grants::read(&root);
            let granted = match grants.grant(&p.source, manifest, tier.map(TierArg::trust)) {
                Ok(g) => g,
                Err(e) => return fail(&e.to_string(), EXIT_FAILURE),
            };
            match grants.save(&root) {
                Ok(file) => {
                    let caps: Vec<&str> = manifest.capabilities.iter().map(|c| c.as_str()).collect();
                    outln!(
                        "{} ({}): granted {} for content {}{}; recorded in {}",
                        manifest.reference(),
                        shown(&root, p),
                        granted.tier,
                        granted.content_hash,
                        granted.manifest_hash.as_deref().map(|h| format!(" and manifest {h}")).unwrap_or_default(),
                        file.display()
                    );
                    outln!(
                        "  it declares capabilities: {}; any edit to its files drops it to untrusted until granted again",
                        if caps.is_empty() { "none".to_string() } else { caps.join(", ") }
                    );
                    EXIT_OK
                }
                Err(e) => fail(&e.to_string(), EXIT_FAILURE),
            }
        }
        Some(PackagesCommand::Enable { .. } | PackagesCommand::Disable { .. } | PackagesCommand::Untrust { .. }) => EXIT_OK,
    }
}
