//! `limina types > limina.d.luau`: Luau definitions for the script API and every skill.

use clap::Args;

use super::{CliError, CliResult};
use crate::host::{Engine, EngineConfig, Output};
use crate::script::typedefs::luau_definitions;

#[derive(Debug, Args)]
pub(crate) struct TypesArgs {}

pub fn run(_: &TypesArgs) -> CliResult {
    let engine = Engine::new(EngineConfig {
        output: Output::Stderr,
        scripts: super::scripts_root(None),
        ..EngineConfig::new(super::project_root())
    })
    .map_err(CliError::failed)?;
    outln!("{}", luau_definitions(engine.registry().signatures()).trim_end());
    Ok(())
}
