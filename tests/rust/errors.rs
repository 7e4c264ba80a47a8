//! Errors an agent can act on (issue 14): the common mistakes over MCP `tools/call` read exactly
//! as reviewed here; every skill that takes an entity id answers an id that names no live entity
//! with `not_found` (never existed / destroyed at tick N) or `invalid_input` (malformed), with zero
//! effect on the world and a `skill.failed` event carrying the code.

use limina::host::{Engine, EngineConfig, Output};
use limina::mcp::{McpSession, handle_message};
use limina::policy::Profile;
use serde_json::{Value, json};

fn engine() -> Engine {
    Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(crate::root()) }).unwrap()
}

/// An initialized standard MCP session under `profile`, calling in process.
fn client(e: &Engine, profile: &str) -> McpSession {
    let mut s = McpSession::new(1, Profile::parse(profile).expect("a catalog profile"), e);
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    handle_message(e, &mut s, &init).unwrap();
    s
}

fn tools_call(e: &Engine, s: &mut McpSession, name: &str, arguments: Value) -> Value {
    let message = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}});
    handle_message(e, s, &message).unwrap()
}

/// The text of an `isError` result (failing the test when the call succeeded).
fn error_text(reply: &Value) -> String {
    assert_eq!(reply["result"]["isError"], true, "{reply}");
    reply["result"]["content"][0]["text"].as_str().unwrap().to_string()
}

fn created(reply: &Value) -> String {
    assert_eq!(reply["result"]["isError"], false, "{reply}");
    reply["result"]["structuredContent"]["entity"].as_str().unwrap().to_string()
}

#[test]
fn the_five_common_mistakes_read_as_reviewed() {
    let e = engine();
    let mut builder = client(&e, "builder.readWrite");
    let before = e.world_hash();
    let mistakes = [
        (
            json!({"size": "big"}),
            "invalid_input: invalid input for scene.createEntity: size: expected a number in [0.001, 50], got the string 'big'",
        ),
        (
            json!({"shape": "sphre"}),
            "invalid_input: invalid input for scene.createEntity: shape: 'sphre' is not one of 'box', 'sphere', 'capsule' (did you mean 'sphere'?)",
        ),
        (
            json!({"colour": 255}),
            "invalid_input: invalid input for scene.createEntity: unknown field 'colour' (did you mean 'color'?); allowed fields: collider, color, dynamic, friction, position, restitution, shape, size, static",
        ),
    ];
    for (arguments, expected) in mistakes {
        assert_eq!(error_text(&tools_call(&e, &mut builder, "scene.createEntity", arguments)), expected);
    }
    assert_eq!(e.world_hash(), before, "a refused call creates nothing");

    // A destroyed entity: the tick it went is named.
    let id = created(&tools_call(&e, &mut builder, "scene.createEntity", json!({})));
    e.step(3).unwrap();
    tools_call(&e, &mut builder, "scene.destroyEntity", json!({"entity": id}));
    e.step(2).unwrap();
    let reply = tools_call(&e, &mut builder, "three.setTransform", json!({"entity": id, "position": [1, 2, 3]}));
    assert_eq!(error_text(&reply), "not_found: entity: ent_0001 was destroyed at tick 3");

    // A missing permission: the caller's profile, and the profile that grants it.
    let mut reader = client(&e, "system.readonly");
    let reply = tools_call(&e, &mut reader, "scene.createEntity", json!({}));
    assert_eq!(
        error_text(&reply),
        "forbidden: missing permission: scene.write (profile system.readonly lacks it; granted by builder.readWrite)"
    );
}

#[test]
fn an_unknown_tool_name_suggests_the_near_one() {
    let e = engine();
    let mut s = client(&e, "builder.readWrite");
    let reply = tools_call(&e, &mut s, "scene.createEntty", json!({}));
    assert_eq!(
        reply["error"]["message"],
        "unknown tool: scene.createEntty (did you mean 'scene.createEntity'? skills.search finds tools by name or purpose)"
    );
    let reply = tools_call(&e, &mut s, "teleport", json!({}));
    assert_eq!(reply["error"]["message"], "unknown tool: teleport (skills.search finds tools by name or purpose)");
    // From a script (or native mode), the same hint in the not_found message.
    let r = e.call(&e.script_caller().clone(), "createEntity", json!({}));
    assert_eq!(r.error.unwrap().message, "no skill named 'createEntity' (did you mean 'scene.createEntity'? skills.list shows them all)");
}

/// Every skill that takes an entity id, with otherwise valid input naming `id`.
fn entity_calls(id: &str) -> Vec<(&'static str, Value)> {
    vec![
        ("three.setTransform", json!({"entity": id, "position": [1, 2, 3]})),
        ("three.setMaterial", json!({"entity": id, "color": 0xff0000})),
        ("physics.applyImpulse", json!({"entity": id, "impulse": [0, 1, 0]})),
        ("ecs.updateComponent", json!({"entity": id, "component": "position", "value": [1, 2, 3]})),
        ("ecs.addComponent", json!({"entity": id, "component": "target"})),
        ("ecs.removeComponent", json!({"entity": id, "component": "target"})),
        ("scene.destroyEntity", json!({"entity": id})),
        ("ui.label", json!({"text": "hi", "anchor": {"kind": "world", "entity": id}})),
        ("agent.spawn", json!({"entity": id, "llm": {"model": "idle"}})),
    ]
}

/// The field each skill names the entity in.
fn field_of(skill: &str) -> &'static str {
    if skill.starts_with("ui.") { "anchor.entity" } else { "entity" }
}

#[test]
fn every_entity_taking_skill_answers_an_unknown_id_with_zero_effect_and_a_traced_failure() {
    let e = engine();
    let caller = e.script_caller().clone();
    e.run_source("limina.scripted_policy('idle', function(request) return {} end)", "policy.lua").unwrap();
    let ok = |skill: &str, input: Value| {
        let r = e.call(&caller, skill, input);
        assert!(r.success, "{r:?}");
        r.result.unwrap()
    };
    ok("scene.createEntity", json!({"dynamic": true}));
    let doomed = ok("scene.createEntity", json!({"dynamic": true}))["entity"].as_str().unwrap().to_string();
    e.step(7).unwrap();
    ok("scene.destroyEntity", json!({"entity": doomed}));
    e.step(1).unwrap();
    let cases = [
        ("ent_0099", "not_found", "ent_0099 never existed (ids so far go up to ent_0002)".to_string()),
        (doomed.as_str(), "not_found", format!("{doomed} was destroyed at tick 7")),
        ("box1", "invalid_input", "'box1' is not an entity id (expected the form ent_0001: ent_ then 4 or more digits)".to_string()),
        ("ent_x", "invalid_input", "'ent_x' is not an entity id (expected the form ent_0001: ent_ then 4 or more digits)".to_string()),
    ];
    for (id, code, why) in &cases {
        for (skill, input) in entity_calls(id) {
            let (hash, entities, events) = (e.world_hash(), e.world().entity_count(), e.trace().len());
            let r = e.call(&caller, skill, input.clone());
            let error = r.error.unwrap_or_else(|| panic!("{skill} {input} succeeded"));
            assert_eq!(error.code.as_str(), *code, "{skill} {input}: {error:?}");
            assert_eq!(error.message, format!("{}: {why}", field_of(skill)), "{skill} {input}");
            assert_eq!((e.world_hash(), e.world().entity_count()), (hash, entities), "{skill} {input}: no effect");
            let failed: Vec<Value> = e
                .trace()
                .since(events as u64)
                .map(Result::unwrap)
                .filter(|ev| &*ev.event_type == "skill.failed")
                .map(|ev| ev.payload_value())
                .collect();
            assert_eq!(failed.len(), 1, "{skill} {input}: one skill.failed event");
            assert_eq!((failed[0]["skill"].as_str(), failed[0]["code"].as_str()), (Some(skill), Some(*code)));
            assert_eq!(failed[0]["message"].as_str(), Some(error.message.as_str()));
        }
    }
}

#[test]
fn a_second_destroy_is_not_found_naming_the_first() {
    let e = engine();
    let caller = e.script_caller().clone();
    let id = e.call(&caller, "scene.createEntity", json!({})).result.unwrap()["entity"].as_str().unwrap().to_string();
    e.step(4).unwrap();
    assert_eq!(e.call(&caller, "scene.destroyEntity", json!({"entity": id})).result, Some(json!({"removed": true})));
    e.step(4).unwrap();
    let error = e.call(&caller, "scene.destroyEntity", json!({"entity": id})).error.unwrap();
    assert_eq!((error.code.as_str(), error.message.as_str()), ("not_found", "entity: ent_0001 was destroyed at tick 4"));
}

/// Refusals name what was wrong without echoing it whole: a 4 MiB name costs a short message.
#[test]
fn huge_names_are_cut_short_in_error_messages() {
    let e = engine();
    let mut s = client(&e, "builder.readWrite");
    let huge = "q".repeat(4 << 20);
    let mut fields = serde_json::Map::new();
    fields.insert(huge.clone(), json!(1));
    for reply in [
        tools_call(&e, &mut s, "scene.createEntity", Value::Object(fields)),
        tools_call(&e, &mut s, "three.setTransform", json!({"entity": huge, "position": [0, 0, 0]})),
        tools_call(&e, &mut s, "skills.describe", json!({"name": huge})),
        tools_call(&e, &mut s, &huge, json!({})),
        tools_call(&e, &mut s, "skills.browse", json!({"category": huge})),
        limina::mcp::handle_message(&e, &mut s, &json!({"jsonrpc": "2.0", "id": 9, "method": huge})).unwrap(),
    ] {
        let text = reply.to_string();
        assert!(text.len() < 2000, "{} bytes: {:.300}", text.len(), text);
        assert!(text.contains("4194304"), "the size is named instead: {text:.300}");
    }
}

#[test]
fn handler_errors_never_show_the_servers_absolute_paths() {
    // A remote client learns the project's layout (`traces/`, a mod's file), never where the
    // server keeps it.
    let project = tempfile::tempdir().unwrap();
    let scripts = project.path().join("scripts");
    std::fs::create_dir(&scripts).unwrap();
    std::fs::write(
        scripts.join("broken.luau"),
        "return { skills = { { name = 'mods.broken', version = '1.0.0', category = 'mods', description = 'fails',\n\
         permissions = {}, input = s.object({}), output = s.object({}),\n\
         handler = function() error('boom') end } } }\n",
    )
    .unwrap();
    // `traces` is a file, so an export cannot go there.
    std::fs::write(project.path().join("traces"), "").unwrap();
    let config = EngineConfig { output: Output::Silent, scripts: Some(scripts.clone()), ..EngineConfig::new(project.path()) };
    let e = Engine::new(config).unwrap();
    let mut s = client(&e, "builder.readWrite");
    let secret = project.path().canonicalize().unwrap().display().to_string();
    let secret_as_given = project.path().display().to_string();
    let calls = [("mods.broken", json!({}), "broken.luau:3: boom"), ("trace.export", json!({"name": "x"}), "cannot export into traces/")];
    for (tool, arguments, expected) in calls {
        let reply = tools_call(&e, &mut s, tool, arguments);
        let text = error_text(&reply);
        assert!(text.contains(expected), "{tool}: {text}");
        assert!(!text.contains(&secret) && !text.contains(&secret_as_given), "{tool} shows the server's path: {text}");
    }
}
