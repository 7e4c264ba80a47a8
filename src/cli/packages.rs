//! `limina packages list | inspect NAME | enable NAME | disable NAME`: installed mods and
//! packages, with the capability set each one resolves to after `extends` and dependencies.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde_json::json;

use super::{EXIT_FAILURE, EXIT_OK, EXIT_USAGE, report_error};
use crate::host::{Engine, EngineConfig, Output};
use crate::packages::{Status, set_enabled};

#[derive(Debug, Args)]
pub struct PackagesArgs {
    #[command(subcommand)]
    pub command: Option<PackagesCommand>,
    /// Mods and packages root (default: ./scripts).
    #[arg(long, value_name = "DIR", global = true)]
    pub scripts: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum PackagesCommand {
    /// One line per package: ref, kind, trust, status (the default).
    List,
    /// A package's manifest, resolved capabilities, skills and status, as JSON.
    Inspect { name: String },
    /// Load this package again at start-up.
    Enable { name: String },
    /// Keep this package installed but do not load it.
    Disable { name: String },
}

pub fn run(args: &PackagesArgs) -> i32 {
    let root = args.scripts.clone().unwrap_or_else(|| PathBuf::from("scripts"));
    if let Some(PackagesCommand::Enable { name } | PackagesCommand::Disable { name }) = &args.command {
        let enable = matches!(args.command, Some(PackagesCommand::Enable { .. }));
        return match set_enabled(&root, name, enable) {
            Ok(()) => {
                outln!("{name}: {}", if enable { "enabled" } else { "disabled" });
                EXIT_OK
            }
            Err(e) => {
                report_error(&e, None);
                EXIT_FAILURE
            }
        };
    }
    let engine = match Engine::new(EngineConfig { output: Output::Stderr, scripts: Some(root), ..EngineConfig::new(super::project_root()) })
    {
        Ok(e) => e,
        Err(e) => {
            report_error(&e.to_string(), None);
            return EXIT_FAILURE;
        }
    };
    let mods = engine.mods();
    let status_text = |s: &Status| match s {
        Status::Loaded { skills } => format!("loaded ({})", skills.join(", ")),
        Status::Refused { rule, reason } => format!("refused [{rule}]: {reason}"),
        Status::Disabled => "disabled".to_string(),
    };
    match &args.command {
        None | Some(PackagesCommand::List) => {
            for p in &mods.packages {
                let trust = p.manifest.as_ref().map(|m| m.trust.as_str()).unwrap_or("-");
                outln!("{:<24} {:<11} {:<9} {}", p.reference(), p.source.kind.as_str(), trust, status_text(&p.status));
            }
            EXIT_OK
        }
        Some(PackagesCommand::Inspect { name }) => {
            let Some(p) = mods.packages.iter().find(|p| p.name() == *name || p.reference() == *name) else {
                report_error(&format!("no package named '{name}' (limina packages list shows them)"), None);
                return EXIT_USAGE;
            };
            let declared = p.manifest.as_ref().map(|m| m.capabilities.iter().map(|c| c.as_str()).collect::<Vec<_>>()).unwrap_or_default();
            let resolved = p.effective.as_ref().map(|m| m.capabilities.iter().map(|c| c.as_str()).collect::<Vec<_>>()).unwrap_or_default();
            let granted = mods.runtime(&p.name()).map(|r| r.capabilities.names()).unwrap_or_default();
            let m = p.manifest.as_ref();
            let v = json!({
                "ref": p.reference(),
                "path": p.source.path.display().to_string(),
                "kind": p.source.kind.as_str(),
                "trust": m.map(|m| m.trust.as_str()),
                "description": m.map(|m| m.description.clone()),
                "engine": m.map(|m| m.engine.to_string()),
                "extends": m.map(|m| m.extends.clone()),
                "dependencies": p.effective.as_ref().map(|m| m.dependencies.iter().map(|(k, v)| (k.clone(), v.to_string())).collect::<std::collections::BTreeMap<_, _>>()),
                "conflicts_with": m.map(|m| m.conflicts_with.clone()),
                "declaredCapabilities": declared,
                "resolvedCapabilities": resolved,
                "grantedCapabilities": granted,
                "limits": m.map(|m| json!({"memoryBytes": m.limits.memory_bytes.min(u64::MAX as usize) as f64, "cpuMs": if m.limits.cpu_ms.is_finite() { json!(m.limits.cpu_ms) } else { json!(null) }})),
                "contentHash": p.source.content_hash,
                "attestation": m.and_then(|m| m.attestation.clone()),
                "status": status_text(&p.status),
            });
            outln!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
            EXIT_OK
        }
        Some(PackagesCommand::Enable { .. } | PackagesCommand::Disable { .. }) => EXIT_OK,
    }
}
