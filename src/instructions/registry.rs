//! `InstructionRegistry`: the instruction skills a world offers, by id, in registration order.
//!
//! The operations and their failures are agentfootprint's `SkillRegistry`'s: `register` fails
//! on a duplicate id, `replace` fails on an unknown one, `unregister` of an absent id does
//! nothing, `get`/`has`/`list` (registration order)/`size`/`clear`. It also holds the surface
//! mode cascade's registry default and provider/model rules, and a `generation` bumped on every
//! change so transports can say the list changed (MCP `notifications/prompts/list_changed`).

use std::collections::HashMap;
use std::sync::Arc;

use super::surface::{self, ModelRule, Reason};
use super::{InstructionSkill, SurfaceMode};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InstructionRegistryError {
    #[error("an instruction skill with id '{0}' is already registered (use replace to swap it)")]
    Duplicate(String),
    #[error("no instruction skill with id '{0}' is registered")]
    NotFound(String),
}

#[derive(Debug)]
pub struct InstructionRegistry {
    skills: Vec<Arc<InstructionSkill>>,
    index: HashMap<String, usize>,
    default_mode: Option<SurfaceMode>,
    rules: Vec<ModelRule>,
    generation: u64,
}

impl Default for InstructionRegistry {
    fn default() -> Self {
        InstructionRegistry { skills: Vec::new(), index: HashMap::new(), default_mode: None, rules: ModelRule::defaults(), generation: 0 }
    }
}

impl InstructionRegistry {
    /// Empty, no default mode, `ModelRule::defaults()` as its rules.
    pub fn new() -> Self {
        Self::default()
    }

    fn reindex(&mut self) {
        self.index = self.skills.iter().enumerate().map(|(i, s)| (s.id.clone(), i)).collect();
    }

    pub fn register(&mut self, skill: InstructionSkill) -> Result<(), InstructionRegistryError> {
        if self.index.contains_key(&skill.id) {
            return Err(InstructionRegistryError::Duplicate(skill.id));
        }
        self.index.insert(skill.id.clone(), self.skills.len());
        self.skills.push(Arc::new(skill));
        self.generation += 1;
        Ok(())
    }

    /// Swaps a registered skill for a new version, keeping its place; returns the old one.
    pub fn replace(&mut self, skill: InstructionSkill) -> Result<Arc<InstructionSkill>, InstructionRegistryError> {
        let Some(&at) = self.index.get(&skill.id) else {
            return Err(InstructionRegistryError::NotFound(skill.id));
        };
        let old = std::mem::replace(&mut self.skills[at], Arc::new(skill));
        self.generation += 1;
        Ok(old)
    }

    /// Removes `id`; nothing happens (and `None` comes back) when it is absent.
    pub fn unregister(&mut self, id: &str) -> Option<Arc<InstructionSkill>> {
        let at = self.index.get(id).copied()?;
        let removed = self.skills.remove(at);
        self.reindex();
        self.generation += 1;
        Some(removed)
    }

    pub fn get(&self, id: &str) -> Option<Arc<InstructionSkill>> {
        self.index.get(id).map(|&i| Arc::clone(&self.skills[i]))
    }

    pub fn has(&self, id: &str) -> bool {
        self.index.contains_key(id)
    }

    /// In registration order.
    pub fn list(&self) -> impl Iterator<Item = &Arc<InstructionSkill>> {
        self.skills.iter()
    }

    pub fn size(&self) -> usize {
        self.skills.len()
    }

    pub fn is_empty(&self) -> bool {
        self.skills.is_empty()
    }

    pub fn clear(&mut self) {
        if !self.skills.is_empty() {
            self.generation += 1;
        }
        self.skills.clear();
        self.index.clear();
    }

    /// Bumped by every register, replace, unregister and clear that changed something.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    pub fn default_mode(&self) -> Option<SurfaceMode> {
        self.default_mode
    }

    /// The registry's default (the cascade's second step); `None` lets the rules decide.
    pub fn set_default_mode(&mut self, mode: Option<SurfaceMode>) {
        self.default_mode = mode;
    }

    pub fn model_rules(&self) -> &[ModelRule] {
        &self.rules
    }

    /// Replaces the provider/model rules (the cascade's third step), first match wins.
    pub fn set_model_rules(&mut self, rules: Vec<ModelRule>) {
        self.rules = rules;
    }

    /// The surface mode of skill `id` for a decision by `model` on `provider`, and which step of
    /// the cascade chose it. An unregistered id is an error, never a silent default.
    pub fn resolve_surface_mode(&self, id: &str, provider: &str, model: &str) -> Result<(SurfaceMode, Reason), InstructionRegistryError> {
        let skill = self.index.get(id).map(|&i| &self.skills[i]).ok_or_else(|| InstructionRegistryError::NotFound(id.to_string()))?;
        Ok(surface::cascade(skill.surface_mode, self.default_mode, &self.rules, provider, model))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instructions::parse;

    fn skill(id: &str, mode: Option<&str>) -> InstructionSkill {
        let mode = mode.map(|m| format!("surfaceMode: {m}\n")).unwrap_or_default();
        parse(format!("---\nname: {id}\ndescription: about {id}\n{mode}---\nbody of {id}\n").as_bytes(), "t", None).unwrap()
    }

    #[test]
    fn operations_fail_as_agentfootprint_specifies() {
        let mut r = InstructionRegistry::new();
        r.register(skill("b", None)).unwrap();
        r.register(skill("a", None)).unwrap();
        assert_eq!(r.register(skill("a", None)), Err(InstructionRegistryError::Duplicate("a".into())));
        assert_eq!(r.replace(skill("zz", None)).unwrap_err(), InstructionRegistryError::NotFound("zz".into()));
        let before = r.generation();
        assert!(r.unregister("absent").is_none());
        assert_eq!(r.generation(), before, "a no-op unregister changes nothing");
        assert_eq!(r.list().map(|s| s.id.as_str()).collect::<Vec<_>>(), ["b", "a"], "registration order");
        let old = r.replace(skill("b", Some("both"))).unwrap();
        assert_eq!(old.surface_mode, None);
        assert_eq!(r.list().map(|s| s.id.as_str()).collect::<Vec<_>>(), ["b", "a"], "replace keeps the place");
        assert!(r.has("a") && !r.has("c"));
        assert_eq!(r.get("b").unwrap().surface_mode, Some(SurfaceMode::Both));
        assert_eq!(r.size(), 2);
        assert_eq!(r.unregister("b").unwrap().id, "b");
        assert_eq!(r.get("a").unwrap().id, "a", "the index survives a removal");
        r.clear();
        assert_eq!((r.size(), r.has("a")), (0, false));
    }

    #[test]
    fn the_surface_mode_cascade() {
        let rule = |p: &str, m: &str, mode| ModelRule::new(p, m, mode);
        struct Row {
            own: Option<&'static str>,
            default: Option<SurfaceMode>,
            rules: Vec<ModelRule>,
            provider: &'static str,
            model: &'static str,
            want: SurfaceMode,
            reason: &'static str,
        }
        use SurfaceMode::*;
        let rows = [
            // The skill's own mode beats everything.
            Row {
                own: Some("both"),
                default: Some(ToolOnly),
                rules: vec![rule("*", "*", SystemPrompt)],
                provider: "ollama",
                model: "x",
                want: Both,
                reason: "skill",
            },
            // Else the registry default beats the rules.
            Row {
                own: None,
                default: Some(Both),
                rules: vec![rule("*", "*", SystemPrompt)],
                provider: "ollama",
                model: "x",
                want: Both,
                reason: "registry-default",
            },
            // Else the first matching rule.
            Row {
                own: None,
                default: None,
                rules: vec![rule("openai", "*", Both), rule("ollama", "*", SystemPrompt)],
                provider: "ollama",
                model: "llama3.2:1b",
                want: SystemPrompt,
                reason: "model-rule",
            },
            Row {
                own: None,
                default: None,
                rules: vec![rule("*", "*:1b", SystemPrompt), rule("*", "*", Both)],
                provider: "openai",
                model: "qwen:1b",
                want: SystemPrompt,
                reason: "model-rule",
            },
            // The default rules: a local Ollama model gets system-prompt...
            Row {
                own: None,
                default: None,
                rules: ModelRule::defaults(),
                provider: "ollama",
                model: "llama3.2",
                want: SystemPrompt,
                reason: "model-rule",
            },
            // ...and anything else falls through to tool-only.
            Row {
                own: None,
                default: None,
                rules: ModelRule::defaults(),
                provider: "openai",
                model: "gpt-4o",
                want: ToolOnly,
                reason: "fallback",
            },
            Row { own: None, default: None, rules: vec![], provider: "scripted", model: "", want: ToolOnly, reason: "fallback" },
        ];
        for (i, row) in rows.into_iter().enumerate() {
            let mut r = InstructionRegistry::new();
            r.register(skill("s", row.own)).unwrap();
            r.set_default_mode(row.default);
            r.set_model_rules(row.rules);
            let (mode, reason) = r.resolve_surface_mode("s", row.provider, row.model).unwrap();
            assert_eq!((mode, reason.as_str()), (row.want, row.reason), "row {i}");
        }
        let r = InstructionRegistry::new();
        assert_eq!(r.resolve_surface_mode("nope", "ollama", "m"), Err(InstructionRegistryError::NotFound("nope".into())));
    }
}
