//! The starter library of instruction skills (issue 29): eight short craft guides for the agents
//! that build and live in limina worlds, kept as `scripts/starter/<id>/SKILL.md` in this
//! repository and shipped inside the binary, so `limina new` gives every project a copy
//! (`scripts/<id>/SKILL.md`) and the skills bench measures the same text.

/// Each skill's id and its `SKILL.md`, in the order `list_skills` shows them.
pub(crate) const STARTER_SKILLS: &[(&str, &str)] = &[
    ("readable-captures", include_str!("../../scripts/starter/readable-captures/SKILL.md")),
    ("light-a-scene", include_str!("../../scripts/starter/light-a-scene/SKILL.md")),
    ("stable-structures", include_str!("../../scripts/starter/stable-structures/SKILL.md")),
    ("findable-places", include_str!("../../scripts/starter/findable-places/SKILL.md")),
    ("time-and-playtests", include_str!("../../scripts/starter/time-and-playtests/SKILL.md")),
    ("conversation-manners", include_str!("../../scripts/starter/conversation-manners/SKILL.md")),
    ("permissions-and-budgets", include_str!("../../scripts/starter/permissions-and-budgets/SKILL.md")),
    ("watching-the-world", include_str!("../../scripts/starter/watching-the-world/SKILL.md")),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Every starter skill parses, is named after its folder, is short (150-400 words of body)
    /// and gates only tools the engine registers.
    #[test]
    fn the_starter_skills_parse_and_gate_only_real_tools() {
        let engine = crate::host::Engine::new(crate::host::EngineConfig {
            output: crate::host::Output::Silent,
            ..crate::host::EngineConfig::new(super::super::project_root())
        })
        .unwrap();
        let registry = engine.registry();
        for (id, text) in STARTER_SKILLS {
            let expected = crate::instructions::Expected { name: id, place: "folder" };
            let skill = crate::instructions::parse(text.as_bytes(), id, Some(expected)).unwrap_or_else(|e| panic!("{id}: {e}"));
            skill.check_tools(|tool| registry.get(tool).is_some()).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert!(skill.tools.len() >= 2, "{id} gates the tools it is about");
            let words = skill.body.split_whitespace().count();
            assert!((150..=400).contains(&words), "{id}: {words} words");
        }
    }
}
