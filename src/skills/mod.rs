//! Skills: typed, permissioned, traced actions, and the registry that holds them.
//!
//! A skill is declared in Luau (name, version, category, description, permissions, input and
//! output schemas built with the schema DSL, a handler, optional hooks). The registry compiles its
//! schemas once; `invoke` runs every call through the one pipeline. Core skills ship inside the
//! binary (`core/`) and reach the world only through the native ops beside them (`core/ops/`).

mod colour;
pub mod core;
mod ctx;
pub(crate) mod deferred;
mod definition;
pub(crate) mod discovery;
mod effects;
mod invoke;
pub(crate) mod record;
mod registry;
pub mod schema;
mod sharing;
mod stages;
mod suggest;
mod validation;

pub use core::CORE_SKILL_FILES;
pub(crate) use ctx::CallContexts;
pub(crate) use deferred::HeavyWork;
pub use definition::{CallInfo, DefinitionError, ExternalHandler, Handler, IF_REVISION, Skill, Targets, Tier, is_valid_skill_name};
pub use effects::{Effect, Effects, EffectsError};
pub(crate) use invoke::{CallInput, Invoked, complete_deferred, invoke_call, invoke_deferrable};
pub use invoke::{Caller, HandlerFailure, InvalidInput, InvokeEnv, ResponseMetadata, SkillFailure, SkillResponse, check_input, invoke};
pub use record::{CallOutcome, Phase};
pub use registry::{RegistryError, SkillRegistry, ToolSummary};
pub(crate) use stages::{Stage, StageClock, lap};

use serde::Serialize;

/// The schema DSL source, loaded into every VM that declares skills.
pub(crate) const SCHEMA_DSL: &str = include_str!("schema.luau");

/// The error codes of a failed call (also the MCP error codes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    NotFound,
    InvalidInput,
    Forbidden,
    HandlerError,
    CapacityExceeded,
    /// The call's `ifRevision` is not the entity's revision: someone wrote it since (the
    /// message names the current revision). Nothing changed.
    Conflict,
    /// Another session leases the entity (the message names the holder and the expiry tick).
    /// Nothing changed.
    Leased,
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::NotFound => "not_found",
            ErrorCode::InvalidInput => "invalid_input",
            ErrorCode::Forbidden => "forbidden",
            ErrorCode::HandlerError => "handler_error",
            ErrorCode::CapacityExceeded => "capacity_exceeded",
            ErrorCode::Conflict => "conflict",
            ErrorCode::Leased => "leased",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        [
            ErrorCode::NotFound,
            ErrorCode::InvalidInput,
            ErrorCode::Forbidden,
            ErrorCode::HandlerError,
            ErrorCode::CapacityExceeded,
            ErrorCode::Conflict,
            ErrorCode::Leased,
        ]
        .into_iter()
        .find(|c| c.as_str() == text)
    }
}
