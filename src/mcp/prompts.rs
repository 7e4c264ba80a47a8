//! Instruction skills served to MCP clients: as prompts (`prompts/list`, `prompts/get`) and as
//! resources (`skill://<id>` for the body, `skill://<id>/<path>` for a file beside it).
//!
//! Everything is answered from the registry's memory: a `resources/read` never touches the file
//! system, so a URI cannot name a path at all, only a key. Ids and resource paths are plain ASCII
//! (`instructions` refuses anything else at load), so a URI is matched byte for byte: a `..`, a
//! `%2e` or any other spelling simply matches nothing and is "resource not found".

use base64::Engine as _;
use serde_json::{Value, json};

use super::dispatcher::RpcError;
use super::protocol;
use crate::instructions::{InstructionRegistry, InstructionSkill};

/// The scheme of instruction skill resources.
pub(crate) const SCHEME: &str = "skill://";

fn invalid(message: String) -> RpcError {
    RpcError { code: protocol::INVALID_PARAMS, message, data: None }
}

/// `prompts/list`: every instruction skill, in registration order. No arguments: a skill's body
/// is what it is.
pub(crate) fn list(registry: &InstructionRegistry) -> Value {
    let prompts: Vec<Value> = registry.list().map(|s| json!({"name": s.id, "description": s.description})).collect();
    json!({"prompts": prompts})
}

/// `prompts/get {name}`: the skill's body as one user message. An unknown name, or any argument
/// (these prompts take none), is invalid params, as the spec asks.
pub(crate) fn get(registry: &InstructionRegistry, params: &Value) -> Result<Value, RpcError> {
    let name = match params.get("name") {
        Some(Value::String(n)) => n,
        Some(other) => return Err(invalid(format!("name must be a string, got {}", crate::skills::schema::type_name(other)))),
        None => return Err(invalid("prompts/get needs the prompt's name".into())),
    };
    match params.get("arguments") {
        None | Some(Value::Null) => {}
        Some(Value::Object(args)) if args.is_empty() => {}
        Some(Value::Object(args)) => {
            let first = args.keys().next().map(|k| crate::clip::shown(k)).unwrap_or_default();
            return Err(invalid(format!("prompt '{}' takes no arguments (got '{first}')", crate::clip::shown(name))));
        }
        Some(other) => return Err(invalid(format!("arguments must be an object, got {}", crate::skills::schema::type_name(other)))),
    }
    let Some(skill) = registry.get(name) else {
        return Err(invalid(format!("no prompt named '{}' (prompts/list shows them)", crate::clip::shown(name))));
    };
    Ok(json!({
        "description": skill.description,
        "messages": [{"role": "user", "content": {"type": "text", "text": skill.body}}],
    }))
}

fn mime_of(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).as_deref() {
        Some("md") => "text/markdown",
        Some("txt") => "text/plain",
        Some("json") => "application/json",
        Some("lua" | "luau") => "text/x-lua",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        _ => "application/octet-stream",
    }
}

/// The resources of every instruction skill: its body, then its files.
pub(crate) fn resources(registry: &InstructionRegistry) -> Vec<Value> {
    let mut out = Vec::new();
    for s in registry.list() {
        out.push(json!({"uri": format!("{SCHEME}{}", s.id), "name": s.id, "description": s.description, "mimeType": "text/markdown"}));
        for r in &s.resources {
            out.push(json!({"uri": format!("{SCHEME}{}/{}", s.id, r.path), "name": format!("{}/{}", s.id, r.path), "mimeType": mime_of(&r.path), "size": r.bytes.len()}));
        }
    }
    out
}

/// `resources/read` of a `skill://` URI: the body, or one resource file (text, or a base64 blob
/// when it is not UTF-8); `None` when no skill has it.
pub(crate) fn read(registry: &InstructionRegistry, uri: &str) -> Option<Value> {
    let rest = uri.strip_prefix(SCHEME)?;
    let (id, path) = match rest.split_once('/') {
        Some((id, path)) => (id, Some(path)),
        None => (rest, None),
    };
    let skill: std::sync::Arc<InstructionSkill> = registry.get(id)?;
    let content = match path {
        None => json!({"uri": uri, "mimeType": "text/markdown", "text": skill.body}),
        Some(path) => {
            let r = skill.resource(path)?;
            match r.text() {
                Some(text) => json!({"uri": uri, "mimeType": mime_of(path), "text": text}),
                None => json!({"uri": uri, "mimeType": mime_of(path), "blob": base64::engine::general_purpose::STANDARD.encode(&r.bytes)}),
            }
        }
    };
    Some(json!({"contents": [content]}))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instructions::{Resource, parse};

    fn registry() -> InstructionRegistry {
        let mut r = InstructionRegistry::new();
        let mut s = parse(b"---\nname: light\ndescription: Light a scene.\n---\nKey first.\n", "t", None).unwrap();
        s.resources.push(Resource { path: "refs/rig.md".into(), bytes: std::sync::Arc::from(&b"three"[..]) });
        s.resources.push(Resource { path: "a.png".into(), bytes: std::sync::Arc::from(&[0xffu8, 0][..]) });
        r.register(s).unwrap();
        r
    }

    #[test]
    fn uris_match_byte_for_byte_or_not_at_all() {
        let r = registry();
        assert_eq!(read(&r, "skill://light").unwrap()["contents"][0]["text"], "Key first.\n");
        assert_eq!(read(&r, "skill://light/refs/rig.md").unwrap()["contents"][0]["text"], "three");
        assert_eq!(read(&r, "skill://light/a.png").unwrap()["contents"][0]["blob"], "/wA=");
        for bad in [
            "skill://light/../light",
            "skill://light/refs/../refs/rig.md",
            "skill://light/refs%2Frig.md",
            "skill://%6cight",
            "skill://light/",
            "skill://light//refs/rig.md",
            "skill://light/SKILL.md",
            "skill:///etc/passwd",
            "skill://",
            "file:///etc/passwd",
        ] {
            assert!(read(&r, bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn prompts_get_refuses_unknown_names_and_arguments() {
        let r = registry();
        assert_eq!(get(&r, &json!({"name": "light"})).unwrap()["messages"][0]["content"]["text"], "Key first.\n");
        assert!(get(&r, &json!({"name": "light", "arguments": {}})).is_ok());
        for bad in [
            json!({"name": "dark"}),
            json!({"name": 3}),
            json!({}),
            json!({"name": "light", "arguments": {"x": "1"}}),
            json!({"name": "light", "arguments": [1]}),
        ] {
            assert_eq!(get(&r, &bad).unwrap_err().code, protocol::INVALID_PARAMS, "{bad}");
        }
        assert_eq!(list(&r), json!({"prompts": [{"name": "light", "description": "Light a scene."}]}));
        assert_eq!(resources(&r).len(), 3);
    }
}
