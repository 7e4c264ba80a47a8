//! `SkillRegistry`: the named, ordered set of skills a world offers.
//!
//! Registration order is the listing order. The tool list is memoized and invalidated on every
//! change; `generation` counts changes so transports can tell clients the list changed.
//!
//! One registry, both kinds: it also holds the world's instruction skills
//! (`instructions()`, an `InstructionRegistry` with its own operations and generation), so whoever
//! holds the typed skills holds the instruction skills with them.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use serde_json::Value;

use super::Skill;
use crate::instructions::InstructionRegistry;
use crate::policy::Permission;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RegistryError {
    #[error("a skill named '{0}' is already registered (use replace to swap its implementation)")]
    Duplicate(String),
    #[error("no skill named '{0}' is registered")]
    NotFound(String),
}

/// `name` + `description`, the `skills.list` / MCP `tools/list` view of one skill.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSummary {
    pub name: String,
    pub description: String,
    pub input_schema: Value,
    /// What a caller must hold to call it (`skills.list` shows a caller only what it may call).
    pub permissions: Vec<Permission>,
}

#[derive(Default)]
pub struct SkillRegistry {
    skills: Vec<Rc<Skill>>,
    index: HashMap<String, usize>,
    generation: u64,
    tools: RefCell<Option<Rc<[ToolSummary]>>>,
    instructions: InstructionRegistry,
}

impl std::fmt::Debug for SkillRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SkillRegistry").field("skills", &self.skills.len()).field("generation", &self.generation).finish()
    }
}

impl SkillRegistry {
    pub fn new() -> Self {
        Self::default()
    }

    fn changed(&mut self) {
        self.generation += 1;
        self.tools.replace(None);
    }

    fn reindex(&mut self) {
        self.index = self.skills.iter().enumerate().map(|(i, s)| (s.name.clone(), i)).collect();
    }

    pub fn register(&mut self, skill: Skill) -> Result<(), RegistryError> {
        if self.index.contains_key(&skill.name) {
            return Err(RegistryError::Duplicate(skill.name));
        }
        self.index.insert(skill.name.clone(), self.skills.len());
        self.skills.push(Rc::new(skill));
        self.changed();
        Ok(())
    }

    /// Swaps the implementation of a registered skill, keeping its place in the listing. A call
    /// already running keeps the version it started with (it holds its own `Rc`).
    pub fn replace(&mut self, skill: Skill) -> Result<Rc<Skill>, RegistryError> {
        let Some(&at) = self.index.get(&skill.name) else {
            return Err(RegistryError::NotFound(skill.name));
        };
        let old = std::mem::replace(&mut self.skills[at], Rc::new(skill));
        self.changed();
        Ok(old)
    }

    pub fn unregister(&mut self, name: &str) -> Result<Rc<Skill>, RegistryError> {
        let at = self.index.get(name).copied().ok_or_else(|| RegistryError::NotFound(name.to_string()))?;
        let removed = self.skills.remove(at);
        self.reindex();
        self.changed();
        Ok(removed)
    }

    pub fn get(&self, name: &str) -> Option<Rc<Skill>> {
        self.index.get(name).map(|&i| Rc::clone(&self.skills[i]))
    }

    pub fn has(&self, name: &str) -> bool {
        self.index.contains_key(name)
    }

    /// The registered name closest to `name`, when one is close enough to be what was meant.
    pub fn did_you_mean(&self, name: &str) -> Option<&str> {
        super::suggest::did_you_mean(name, self.skills.iter().map(|s| s.name.as_str()))
    }

    /// `no skill named 'x' (did you mean 'y'? skills.list shows them all)`: the message for a
    /// call to a name nothing is registered under.
    pub fn unknown_skill(&self, name: &str) -> String {
        let shown = crate::clip::shown(name);
        let name = shown.as_str();
        match self.did_you_mean(name) {
            Some(near) => format!("no skill named '{name}' (did you mean '{near}'? skills.list shows them all)"),
            None => format!("no skill named '{name}' (skills.list shows them all)"),
        }
    }

    /// Skills in registration order.
    pub fn list(&self) -> impl Iterator<Item = &Rc<Skill>> {
        self.skills.iter()
    }

    /// Names, descriptions and schemas, in registration order (for `limina types`).
    pub fn signatures(&self) -> impl Iterator<Item = crate::script::typedefs::SkillSignature<'_>> {
        self.skills.iter().map(|s| crate::script::typedefs::SkillSignature {
            name: &s.name,
            description: &s.description,
            input_schema: &s.input_schema,
            output_schema: &s.output_schema,
        })
    }

    pub fn size(&self) -> usize {
        self.skills.len()
    }

    pub fn clear(&mut self) {
        self.skills.clear();
        self.index.clear();
        self.changed();
    }

    /// Bumped on every register/replace/unregister/clear.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The instruction skills (`SKILL.md`) beside the typed ones.
    pub fn instructions(&self) -> &InstructionRegistry {
        &self.instructions
    }

    pub fn instructions_mut(&mut self) -> &mut InstructionRegistry {
        &mut self.instructions
    }

    /// The memoized tool list.
    pub fn tools(&self) -> Rc<[ToolSummary]> {
        if let Some(tools) = self.tools.borrow().as_ref() {
            return Rc::clone(tools);
        }
        let tools: Rc<[ToolSummary]> = self
            .skills
            .iter()
            .map(|s| ToolSummary {
                name: s.name.clone(),
                description: s.description.clone(),
                input_schema: s.input_schema.clone(),
                permissions: s.permissions.clone(),
            })
            .collect();
        self.tools.replace(Some(Rc::clone(&tools)));
        tools
    }
}
