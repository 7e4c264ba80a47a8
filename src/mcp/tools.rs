//! Skills as MCP tools: the standard `tools/list` shape (title, input/output schemas,
//! annotations) and the reference's native shape (`name, description, input_schema`).

use serde_json::{Value, json};

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

/// Behaviour hints derived from the skill's declared effects: only those that differ from what
/// MCP assumes when a hint is absent (`readOnlyHint` false, `destructiveHint` true,
/// `idempotentHint` false, `openWorldHint` true), since every listed byte costs a client context
/// on every turn; the title is the tool's own `title`. A client reads the same facts.
pub fn annotations(skill: &Skill) -> Value {
    let effects = skill.effects;
    let mut hints = serde_json::Map::new();
    if effects.read_only() {
        hints.insert("readOnlyHint".into(), json!(true));
    } else if !effects.contains(Effect::Destructive) {
        // (a read-only tool's destructiveHint means nothing)
        hints.insert("destructiveHint".into(), json!(false));
    }
    if effects.idempotent {
        hints.insert("idempotentHint".into(), json!(true));
    }
    if !effects.contains(Effect::Network) {
        hints.insert("openWorldHint".into(), json!(false));
    }
    Value::Object(hints)
}

/// A standard tool definition. Its schemas go without `$schema`: every client pays for each listed
/// definition on every turn, and the keywords our schemas use mean the same under draft-07 and the
/// MCP default dialect (2020-12). The native shape keeps the reference's draft-07 `$schema`.
pub(crate) fn standard_tool(skill: &Skill) -> Value {
    json!({
        "name": skill.name,
        "title": title(&skill.name),
        "description": skill.description,
        "inputSchema": skill.listed_input_schema,
        "outputSchema": skill.listed_output_schema,
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
