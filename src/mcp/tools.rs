//! Skills as MCP tools: the standard `tools/list` shape (title, input/output schemas,
//! annotations) and the reference's native shape (`name, description, input_schema`).

use serde_json::{Value, json};

use crate::skills::schema::without_dialect;
use crate::skills::{Effect, Skill};

/// "scene.createEntity" -> "Scene: Create Entity".
pub fn title(name: &str) -> String {
    let words = |part: &str| -> String {
        let mut out = String::new();
        for (i, c) in part.chars().enumerate() {
            if i == 0 {
                out.extend(c.to_uppercase());
            } else if c.is_uppercase() {
                out.push(' ');
                out.push(c);
            } else {
                out.push(c);
            }
        }
        out
    };
    match name.split_once('.') {
        Some((domain, action)) => format!("{}: {}", words(domain), words(action)),
        None => words(name),
    }
}

/// Behaviour hints derived from the skill's declared effects.
pub fn annotations(skill: &Skill) -> Value {
    let effects = skill.effects;
    json!({
        "title": title(&skill.name),
        "readOnlyHint": effects.read_only(),
        "destructiveHint": effects.contains(Effect::Destructive),
        "idempotentHint": effects.idempotent,
        "openWorldHint": effects.contains(Effect::Network),
    })
}

/// A standard tool definition. Its schemas go without `$schema`: every client pays for each listed
/// definition on every turn, and the keywords our schemas use mean the same under draft-07 and the
/// MCP default dialect (2020-12). The native shape keeps the reference's draft-07 `$schema`.
pub(crate) fn standard_tool(skill: &Skill) -> Value {
    json!({
        "name": skill.name,
        "title": title(&skill.name),
        "description": skill.description,
        "inputSchema": without_dialect(&skill.input_schema),
        "outputSchema": without_dialect(&skill.output_schema),
        "annotations": annotations(skill),
    })
}

pub(crate) fn native_tool(skill: &Skill) -> Value {
    json!({"name": skill.name, "description": skill.description, "input_schema": skill.input_schema})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_read_like_words() {
        assert_eq!(title("scene.createEntity"), "Scene: Create Entity");
        assert_eq!(title("trace.explainEvent"), "Trace: Explain Event");
        assert_eq!(title("ping"), "Ping");
    }
}
