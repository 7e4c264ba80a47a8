//! `limina types > limina.d.luau`: Luau definitions for the script API and every skill.

use clap::Args;

use super::{EXIT_FAILURE, EXIT_OK, report_error};
use crate::host::{Engine, EngineConfig, Output};
use crate::script::typedefs::luau_definitions;

#[derive(Debug, Args)]
pub(crate) struct TypesArgs {}

pub fn run(_: &TypesArgs) -> i32 {
    match Engine::new(EngineConfig {
        output: Output::Stderr,
        scripts: super::scripts_root(None),
        ..EngineConfig::new(super::project_root())
    }) {
        Ok(engine) => {
            outln!("{}", luau_definitions(engine.registry().signatures()).trim_end());
            EXIT_OK
        }
        Err(e) => {
            report_error(&e.to_string(), None);
            EXIT_FAILURE
        }
    }
}
