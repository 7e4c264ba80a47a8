//! Skills: typed, permissioned, traced actions, and the registry that holds them.
//!
//! A skill is declared in Luau (name, version, category, description, permissions, input and
//! output schemas built with the schema DSL, a handler, optional hooks). The registry compiles its
//! schemas once; `invoke` runs every call through the one pipeline. Core skills ship inside the
//! binary (`core/*.luau`) and reach the world only through the native ops the host gives them.

mod definition;
mod invoke;
mod registry;
pub mod schema;

pub use definition::{CallInfo, DefinitionError, ExternalHandler, Handler, Skill, is_valid_skill_name};
pub use invoke::{Caller, HandlerFailure, InvokeEnv, ResponseMetadata, SkillFailure, SkillResponse, invoke};
pub use registry::{RegistryError, SkillRegistry, ToolSummary};

use serde::Serialize;

/// The schema DSL source, loaded into every VM that declares skills.
pub const SCHEMA_DSL: &str = include_str!("schema.luau");

/// Core skill files shipped in the binary, in registration order.
pub const CORE_SKILL_FILES: [(&str, &str); 9] = [
    ("core/scene.luau", include_str!("core/scene.luau")),
    ("core/ecs.luau", include_str!("core/ecs.luau")),
    ("core/three.luau", include_str!("core/three.luau")),
    ("core/physics.luau", include_str!("core/physics.luau")),
    ("core/agent.luau", include_str!("core/agent.luau")),
    ("core/system.luau", include_str!("core/system.luau")),
    ("core/audit.luau", include_str!("core/audit.luau")),
    ("core/render.luau", include_str!("core/render.luau")),
    ("core/packages.luau", include_str!("core/packages.luau")),
];

/// The error codes of a failed call (also the MCP error codes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    NotFound,
    InvalidInput,
    Forbidden,
    HandlerError,
    CapacityExceeded,
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::NotFound => "not_found",
            ErrorCode::InvalidInput => "invalid_input",
            ErrorCode::Forbidden => "forbidden",
            ErrorCode::HandlerError => "handler_error",
            ErrorCode::CapacityExceeded => "capacity_exceeded",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        [ErrorCode::NotFound, ErrorCode::InvalidInput, ErrorCode::Forbidden, ErrorCode::HandlerError, ErrorCode::CapacityExceeded]
            .into_iter()
            .find(|c| c.as_str() == text)
    }
}
