//! Instruction skills: named, versioned bodies of knowledge (`SKILL.md`, the Claude Skills
//! format) that agents discover cheaply and read when they need them. The second kind of skill
//! beside the typed ones in `skills`; it never runs code.
//!
//! This folder owns the format (`front_matter`, `skill`), reading one from disk within bounds
//! and inside its folder (`files`), the registry (`registry`) and the surface-mode cascade
//! (`surface`). It sits in the rules layer, below `agents` and `skills`, so both can hold and
//! read instruction skills; it names nothing above the base modules. Which typed tools exist,
//! what a package may gate, and how skills reach agents and MCP clients are decided above:
//! `SkillRegistry::instructions` holds the world's `InstructionRegistry`, the package loader
//! fills it from `scripts/`, and `mcp` serves it as prompts and resources.

mod files;
pub mod front_matter;
mod registry;
mod skill;
mod surface;

pub use files::{
    Location, MAX_RESOURCE_BYTES, MAX_RESOURCE_DEPTH, MAX_RESOURCE_TOTAL_BYTES, MAX_RESOURCES, SINGLE_FILE_SUFFIX, SKILL_FILE, load,
};
pub use registry::{InstructionRegistry, InstructionRegistryError};
pub use skill::{
    Expected, FormatError, GatedTool, InstructionSkill, MAX_BODY_BYTES, MAX_COMPATIBILITY_CHARS, MAX_DESCRIPTION_CHARS, MAX_GATED_TOOLS,
    MAX_NAME_CHARS, Problem, Resource, SurfaceMode, is_valid_id, parse,
};
pub use surface::{ENV_DEFAULT_MODE, ENV_MODE_RULES, MAX_MODEL_RULES, ModelRule, Reason, SurfaceConfig, SurfaceConfigError, parse_rules};
