//! `limina skills [list | describe NAME | schema [NAME]]`: the registered skills, from a fresh
//! engine (core skills today; mods once they load at start-up).

use clap::{Args, Subcommand};
use serde_json::{Map, Value, json};

use super::{CliError, CliResult};
use crate::host::{Engine, EngineConfig, Output};

#[derive(Debug, Args)]
pub(crate) struct SkillsArgs {
    #[command(subcommand)]
    pub command: Option<SkillsCommand>,
}

#[derive(Debug, Subcommand)]
pub(crate) enum SkillsCommand {
    /// One line per skill: name, permissions, description (the default).
    List,
    /// A skill's metadata and input/output JSON Schemas, as JSON.
    Describe { name: String },
    /// Input JSON Schemas (draft-07) of one skill, or of all keyed by name.
    Schema { name: Option<String> },
}

pub fn run(args: &SkillsArgs) -> CliResult {
    let engine = Engine::new(EngineConfig {
        output: Output::Stderr,
        scripts: super::scripts_root(None),
        ..EngineConfig::new(super::project_root())
    })
    .map_err(CliError::failed)?;
    let registry = engine.registry();
    let pretty = |v: &Value| serde_json::to_string_pretty(v).unwrap_or_default();
    let unknown = |name: &str| Err(CliError::usage(format_args!("no skill named '{name}' (limina skills list shows them all)")));
    match args.command.as_ref().unwrap_or(&SkillsCommand::List) {
        SkillsCommand::List => {
            let width = registry.list().map(|s| s.name.len()).max().unwrap_or(0);
            for s in registry.list() {
                let perms: Vec<&str> = s.permissions.iter().map(|p| p.as_str()).collect();
                let perms = if perms.is_empty() { "-".to_string() } else { perms.join(",") };
                outln!("{:width$}  {:<14}  {}", s.name, perms, s.description);
            }
            Ok(())
        }
        SkillsCommand::Describe { name } => match registry.get(name) {
            Some(s) => {
                let v = json!({
                    "name": s.name, "version": s.version, "category": s.category, "tier": s.tier.as_str(), "description": s.description,
                    "permissions": s.permissions.iter().map(|p| p.as_str()).collect::<Vec<_>>(),
                    "input_schema": s.input_schema, "output_schema": s.output_schema,
                });
                outln!("{}", pretty(&v));
                Ok(())
            }
            None => unknown(name),
        },
        SkillsCommand::Schema { name: Some(name) } => match registry.get(name) {
            Some(s) => {
                outln!("{}", pretty(&s.input_schema));
                Ok(())
            }
            None => unknown(name),
        },
        SkillsCommand::Schema { name: None } => {
            let all: Map<String, Value> = registry.list().map(|s| (s.name.clone(), s.input_schema.clone())).collect();
            outln!("{}", pretty(&Value::Object(all)));
            Ok(())
        }
    }
}
