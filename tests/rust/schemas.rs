//! Compiled skill schemas: valid draft-07, and pinned by committed golden files.
//!
//! To accept an intended schema change, run with `LIMINA_BLESS=1` and review the diff.

use limina::host::{Engine, EngineConfig, Output};
use serde_json::Value;

fn engine() -> Engine {
    Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(crate::root()) }).unwrap()
}

#[test]
fn every_core_schema_passes_the_draft07_meta_schema() {
    let engine = engine();
    let registry = engine.registry();
    assert!(registry.size() >= 12);
    for skill in registry.list() {
        for (which, schema) in [("input", &skill.input_schema), ("output", &skill.output_schema)] {
            assert_eq!(schema["$schema"], "http://json-schema.org/draft-07/schema#", "{} {which}", skill.name);
            if let Err(e) = jsonschema::draft7::meta::validate(schema) {
                panic!("{} {which} schema is not valid draft-07: {e}", skill.name);
            }
        }
    }
}

#[test]
fn every_default_satisfies_its_own_schema() {
    let engine = engine();
    for skill in engine.registry().list() {
        let Some(props) = skill.input_schema["properties"].as_object() else {
            continue;
        };
        for (field, schema) in props {
            if let Some(default) = schema.get("default") {
                assert!(jsonschema::draft7::is_valid(schema, default), "{}.{field}: default {default} violates {schema}", skill.name);
            }
        }
    }
}

#[test]
fn scene_create_entity_schema_matches_the_golden_file() {
    let engine = engine();
    let skill = engine.registry().get("scene.createEntity").unwrap();
    let actual = serde_json::to_string_pretty(&skill.input_schema).unwrap() + "\n";
    let golden = crate::root().join("tests/rust/golden/scene.createEntity.input.json");
    if std::env::var_os("LIMINA_BLESS").is_some() {
        std::fs::write(&golden, &actual).unwrap();
    }
    let expected = std::fs::read_to_string(&golden).expect("golden file (run with LIMINA_BLESS=1 to create it)");
    assert_eq!(actual, expected, "compiled schema changed; review and re-bless if intended");

    // The catalog's bounds and defaults, checked field by field.
    let schema: Value = serde_json::from_str(&expected).unwrap();
    let p = &schema["properties"];
    assert_eq!(p["size"]["exclusiveMinimum"], 0);
    assert_eq!(p["size"]["maximum"], 50);
    assert_eq!(p["size"]["default"], 1);
    assert_eq!(p["color"]["maximum"], 0xffffff);
    assert_eq!(p["color"]["type"], serde_json::json!(["integer", "string"]));
    assert_eq!(p["friction"]["maximum"], 10);
    assert_eq!(p["restitution"]["maximum"], 2);
    assert_eq!(p["position"]["default"], serde_json::json!([0, 0, 0]));
    assert_eq!(schema["additionalProperties"], false);
    assert!(schema.get("required").is_none(), "fields with defaults are not required");
}

#[test]
fn every_core_skill_schema_matches_the_committed_golden_file() {
    let engine = engine();
    let registry = engine.registry();
    let all: serde_json::Map<String, Value> = registry
        .list()
        .map(|s| {
            let entry = serde_json::json!({
                "version": s.version,
                "tier": s.tier.as_str(),
                "permissions": s.permissions.iter().map(|p| p.as_str()).collect::<Vec<_>>(),
                "effects": s.effects.names(),
                "idempotent": s.effects.idempotent,
                "input": s.input_schema,
                "output": s.output_schema,
            });
            (s.name.clone(), entry)
        })
        .collect();
    let actual = serde_json::to_string_pretty(&Value::Object(all)).unwrap() + "\n";
    let golden = crate::root().join("tests/rust/golden/core_skills.json");
    if std::env::var_os("LIMINA_BLESS").is_some() {
        std::fs::write(&golden, &actual).unwrap();
    }
    let expected = std::fs::read_to_string(&golden).expect("golden file (run with LIMINA_BLESS=1 to create it)");
    assert!(
        actual == expected,
        "a core skill's schema, permissions or effects changed; review `git diff` after re-blessing with LIMINA_BLESS=1"
    );
}

/// Where an input property lacks a description: every property at every depth has one, or is
/// named in the description of the nearest described object holding it (a group such as a ui
/// style says its fields, with their units, in one line).
fn undescribed(node: &Value, path: &str, group: Option<&str>, out: &mut Vec<String>) {
    let named = |name: &str| group.is_some_and(|text| text.split(|c: char| !(c.is_alphanumeric() || c == '_')).any(|word| word == name));
    for option in node["anyOf"].as_array().into_iter().flatten() {
        undescribed(option, path, group, out);
    }
    if node.get("items").is_some() {
        undescribed(&node["items"], &format!("{path}[]"), group, out);
    }
    if node["additionalProperties"].is_object() {
        undescribed(&node["additionalProperties"], &format!("{path}.*"), group, out);
    }
    for (name, prop) in node["properties"].as_object().into_iter().flatten() {
        let at = if path.is_empty() { name.clone() } else { format!("{path}.{name}") };
        let own = prop["description"].as_str();
        if own.is_none_or(str::is_empty) && !named(name) {
            out.push(at.clone());
        }
        undescribed(prop, &at, own.or(group), out);
    }
}

/// Milestone and ticket names mean nothing to a client reading a tool.
fn internal_name(text: &str) -> Option<String> {
    let words: Vec<&str> = text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    for (i, w) in words.iter().enumerate() {
        let milestone = w.len() >= 2 && w.starts_with('M') && w[1..].bytes().all(|b| b.is_ascii_digit());
        let ticket = matches!(w.to_lowercase().as_str(), "issue" | "phase" | "milestone")
            && words.get(i + 1).is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()));
        if milestone || ticket || w.eq_ignore_ascii_case("phase") {
            return Some(w.to_string());
        }
    }
    None
}

#[test]
fn every_input_property_of_every_core_skill_is_described() {
    let engine = engine();
    let mut missing = Vec::new();
    // Every core skill, whoever adds it: the registry holds them all.
    for skill in engine.registry().list().filter(|s| s.builtin) {
        let mut here = Vec::new();
        undescribed(&skill.input_schema, "", None, &mut here);
        missing.extend(here.into_iter().map(|p| format!("{}: {p}", skill.name)));
    }
    assert!(missing.is_empty(), "{} input properties have no description:\n{}", missing.len(), missing.join("\n"));
}

#[test]
fn no_description_names_an_internal_milestone() {
    let engine = engine();
    for skill in engine.registry().list() {
        let mut texts = vec![skill.description.clone()];
        collect_descriptions(&skill.input_schema, &mut texts);
        for text in texts {
            assert_eq!(internal_name(&text), None, "{}: {text}", skill.name);
        }
    }
    let create = engine.registry().get("scene.createEntity").unwrap();
    assert!(create.description.contains("capsule"), "{}", create.description);
    assert_eq!(internal_name("loads it into the M6 sandbox"), Some("M6".into()));
    assert_eq!(internal_name("as issue 12 asks"), Some("issue".into()));
    assert_eq!(internal_name("Made in phase two"), Some("phase".into()));
    assert_eq!(internal_name("Metres, M is not a milestone"), None);
}

fn collect_descriptions(node: &Value, out: &mut Vec<String>) {
    match node {
        Value::Object(m) => {
            for (k, v) in m {
                match (k.as_str(), v) {
                    ("description", Value::String(text)) => out.push(text.clone()),
                    _ => collect_descriptions(v, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|v| collect_descriptions(v, out)),
        _ => {}
    }
}

#[test]
fn the_undescribed_walk_finds_a_nested_field_nobody_names() {
    let schema = serde_json::json!({"properties": {
        "a": {"description": "x"},
        "b": {"properties": {"c": {"description": "y"}}},
        "style": {"description": "text {color}", "properties": {"text": {"properties": {"color": {}, "size": {}}}}},
        "list": {"description": "z", "items": {"anyOf": [{"properties": {"k": {}}}, {"type": "number"}]}},
    }});
    let mut out = Vec::new();
    undescribed(&schema, "", None, &mut out);
    assert_eq!(out, ["b", "list[].k", "style.text.size"]);
}
