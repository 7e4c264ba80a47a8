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
