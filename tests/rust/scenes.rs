//! Scene files (issue 13, item 5): `scene.save` / `scene.load` and `limina run scenes/x.lua`.
//! A saved world loads into a fresh engine under the same hash; the shipped scenes load and
//! step; names and symlinks never leave `scenes/`; players are refused; hostile or malformed
//! files are refused with the field named and the world unchanged.

use std::path::Path;
use std::process::Command;

use limina::host::{Engine, EngineConfig, Output};
use limina::skills::{Caller, ErrorCode};
use serde_json::{Value, json};

/// A project folder of its own (scene files are written under it), with the repository's models.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("assets/models")).unwrap();
    for model in ["crate.glb", "ball.glb"] {
        std::fs::copy(crate::root().join("assets/models").join(model), dir.path().join("assets/models").join(model)).unwrap();
    }
    dir
}

fn engine(project: &Path) -> Engine {
    Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(project) }).unwrap()
}

fn call(e: &Engine, skill: &str, input: Value) -> Value {
    let r = e.call(e.script_caller(), skill, input.clone());
    assert!(r.success, "{skill} {input}: {:?}", r.error);
    r.result.unwrap()
}

/// A refused call: its code and message.
fn refused(e: &Engine, caller: &Caller, skill: &str, input: Value) -> (ErrorCode, String) {
    let r = e.call(caller, skill, input.clone());
    assert!(!r.success, "{skill} {input} should be refused: {:?}", r.result);
    let f = r.error.unwrap();
    (f.code, f.message)
}

fn entity(e: &Engine, input: Value) -> String {
    call(e, "scene.createEntity", input)["entity"].as_str().unwrap().to_string()
}

/// Everything a load could change, to compare before and after a refusal.
fn state(e: &Engine) -> (String, usize, usize, String) {
    let w = e.world();
    (e.world_hash(), w.entity_count(), e.summary().bodies, format!("{:?} {:?}", w.lighting, w.camera))
}

/// A world with every kind of thing a scene holds, moved by the physics for a while: static and
/// dynamic bodies that tumble (so rotations are arbitrary quaternions), every shape, a model with
/// a colour and a body, scales, Euler rotations, materials, tags, lighting and camera.
fn build_rich_world(e: &Engine) {
    let floor = entity(e, json!({"shape": "box", "static": true, "position": [0, -0.5, 0], "color": 0x556677, "friction": 0.9}));
    call(e, "ecs.updateComponent", json!({"entity": floor, "component": "scale", "value": [30, 1, 30]}));
    call(e, "three.setMaterial", json!({"entity": floor, "roughness": 0.9, "castShadow": false}));
    call(e, "ecs.addComponent", json!({"entity": floor, "component": "ground"}));
    for i in 0..6 {
        let x = f64::from(i) * 0.37 - 1.0;
        let id = entity(
            e,
            json!({"shape": "box", "dynamic": true, "position": [x, 0.5 + f64::from(i) * 1.1, f64::from(i) * 0.13], "color": 0xa0703c + i, "friction": 0.8, "size": 0.9}),
        );
        call(e, "ecs.addComponent", json!({"entity": id, "component": "crate"}));
        if i % 2 == 0 {
            call(e, "ecs.addComponent", json!({"entity": id, "component": format!("crate \"{i}\"\n")}));
        }
    }
    let ball = entity(e, json!({"shape": "sphere", "dynamic": true, "position": [0.2, 9, 0.1], "restitution": 0.5, "size": 0.7}));
    call(e, "three.setMaterial", json!({"entity": ball, "roughness": 0.25, "metalness": 0.75}));
    let pill = entity(e, json!({"shape": "capsule", "dynamic": true, "collider": "sphere", "position": [3, 2, -1], "size": 1.3}));
    call(e, "three.setTransform", json!({"entity": pill, "rotationEuler": [0.3, 1.1, -0.4], "scale": [1.5, 1, 1.5]}));
    let post = entity(e, json!({"shape": "capsule", "position": [-4, 1, 4], "size": 2, "color": 0x334455}));
    call(e, "ecs.updateComponent", json!({"entity": post, "component": "rotation", "value": [0.1, 0.2, 0.3, 0.9]}));
    if cfg!(feature = "render") {
        let model = call(e, "three.loadGLTF", json!({"assetId": "models/crate", "position": [-2, 4, -2], "dynamic": true, "size": 1.2}));
        let model = model["entity"].as_str().unwrap();
        call(e, "three.setMaterial", json!({"entity": model, "color": 0x8844aa, "roughness": 0.2, "receiveShadow": false}));
        call(e, "ecs.addComponent", json!({"entity": model, "component": "model"}));
    }
    call(e, "three.setLighting", json!({"castShadow": true, "direction": [-3, 8, 2.5], "ambientIntensity": 0.7, "shadowBias": -0.0005}));
    call(e, "render.setCamera", json!({"position": [6.1, 4.3, 9.7], "target": [0.3, 0.7, -0.2], "fov": 47.5}));
    e.step(90).unwrap();
}

fn scene_text(project: &Path, name: &str) -> String {
    std::fs::read_to_string(project.join("scenes").join(format!("{name}.lua"))).unwrap()
}

#[test]
fn a_saved_world_loads_into_a_fresh_engine_with_the_same_world_hash() {
    let dir = project();
    let original = engine(dir.path());
    build_rich_world(&original);
    let saved = call(&original, "scene.save", json!({"name": "snapshot"}));
    assert_eq!(saved["path"], "scenes/snapshot.lua");
    let text = scene_text(dir.path(), "snapshot");
    assert!(text.contains("rotation = {") && text.contains("body = { kind = \"dynamic\""), "{text}");

    let fresh = engine(dir.path());
    let loaded = call(&fresh, "scene.load", json!({"name": "snapshot"}));
    assert_eq!(loaded["entities"], saved["entities"]);
    assert_eq!((loaded["destroyed"].clone(), loaded["renumbered"].clone()), (json!(0), json!(false)));
    assert_eq!(fresh.world_hash(), original.world_hash(), "ids and transforms reproduced bit for bit");
    assert_eq!(fresh.world().lighting, original.world().lighting);
    assert_eq!(fresh.world().camera, original.world().camera);
    // Everything else a scene holds (shapes, sizes, colours, materials, tags, bodies) comes back
    // too: saving the loaded world writes the same file.
    call(&fresh, "scene.save", json!({"name": "again"}));
    assert_eq!(scene_text(dir.path(), "again"), text);
}

#[test]
fn the_builder_demo_world_round_trips_through_a_scene_file() {
    let dir = project();
    let demo = engine(dir.path());
    demo.run_file(&crate::root().join("demos/builder.lua")).unwrap();
    call(&demo, "scene.save", json!({"name": "builder"}));
    let fresh = engine(dir.path());
    call(&fresh, "scene.load", json!({"name": "builder"}));
    assert_eq!(fresh.world_hash(), demo.world_hash());
    assert_eq!(fresh.summary().bodies, demo.summary().bodies);
}

#[test]
fn both_shipped_scenes_load_step_and_replay_the_same() {
    let mut shipped = vec![("courtyard", 14, 13, 6)];
    if cfg!(feature = "render") {
        shipped.push(("gallery", 17, 10, 0));
    }
    for (name, entities, bodies, crates) in shipped {
        let hashes: Vec<String> = (0..2)
            .map(|_| {
                let e = engine(&crate::root());
                let loaded = call(&e, "scene.load", json!({"name": name}));
                assert_eq!(loaded["entities"], entities, "{name}");
                assert_eq!(e.summary().bodies, bodies, "{name}");
                let tagged = call(&e, "scene.queryEntities", json!({"tag": "crate"}))["entities"].as_array().unwrap().len();
                assert_eq!(tagged, crates, "{name}");
                let before = e.world_hash();
                e.step(120).unwrap();
                assert_eq!(e.world().entity_count(), entities, "{name}: nothing fell out of the world");
                assert_ne!(e.world_hash(), before, "{name}: its dynamic bodies move");
                e.world_hash()
            })
            .collect();
        assert_eq!(hashes[0], hashes[1], "{name}: a loaded scene steps deterministically");

        let o = Command::new(env!("CARGO_BIN_EXE_limina"))
            .args(["run", &format!("scenes/{name}.lua"), "--steps", "120"])
            .current_dir(crate::root())
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(out.contains(&format!("scene: scenes/{name}.lua: {entities} entities loaded")), "{out}");
        let summary = format!("summary: ticks=120 entities={entities} bodies={bodies} world_hash={}", hashes[0]);
        assert_eq!(out.lines().last(), Some(summary.as_str()), "the CLI loads through the same skills");
    }
}

#[test]
fn scene_names_never_leave_the_scenes_folder() {
    let dir = project();
    let e = engine(dir.path());
    entity(&e, json!({"position": [1, 2, 3]}));
    let before = state(&e);
    let me = e.script_caller().clone();
    for name in ["../x", "/etc/passwd", "a/b", "..", "x.lua", "", "a\\b", "ok\0"] {
        for skill in ["scene.load", "scene.save"] {
            let (code, message) = refused(&e, &me, skill, json!({"name": name}));
            assert_eq!(code, ErrorCode::InvalidInput, "{skill} {name:?}: {message}");
        }
    }
    assert_eq!(state(&e), before);
    assert!(!dir.path().join("x.lua").exists() && !dir.path().join("scenes/a").exists());

    // A file planted as a symlink to a scene outside, and a scenes/ folder that is one.
    let outside = tempfile::tempdir().unwrap();
    let secret = "return { format = 1, entities = { { position = { 9, 9, 9 } } } }\n";
    std::fs::create_dir_all(dir.path().join("scenes")).unwrap();
    std::fs::write(outside.path().join("secret.lua"), secret).unwrap();
    std::os::unix::fs::symlink(outside.path().join("secret.lua"), dir.path().join("scenes/leak.lua")).unwrap();
    let (code, message) = refused(&e, &me, "scene.load", json!({"name": "leak"}));
    assert_eq!(
        (code, message.as_str()),
        (ErrorCode::InvalidInput, "scenes/leak.lua leads outside scenes/ (through a symlink); scene files stay inside it")
    );
    let (code, _) = refused(&e, &me, "scene.save", json!({"name": "leak", "overwrite": true}));
    assert_eq!(code, ErrorCode::InvalidInput);
    assert_eq!(std::fs::read_to_string(outside.path().join("secret.lua")).unwrap(), secret);

    let linked = project();
    std::os::unix::fs::symlink(outside.path(), linked.path().join("scenes")).unwrap();
    let e2 = engine(linked.path());
    let (_, message) = refused(&e2, &me, "scene.load", json!({"name": "secret"}));
    assert!(message.contains("leads outside the project"), "{message}");
    refused(&e2, &me, "scene.save", json!({"name": "fresh"}));
    assert!(!outside.path().join("fresh.lua").exists());
    assert_eq!(state(&e), before);
}

#[test]
fn a_player_is_denied_scene_load_and_save_with_zero_effect() {
    let dir = project();
    let e = engine(dir.path());
    entity(&e, json!({"position": [0, 1, 0], "dynamic": true}));
    call(&e, "scene.save", json!({"name": "good"}));
    entity(&e, json!({"position": [5, 1, 0]}));
    let before = state(&e);
    let player = Caller::new("agt_p", "ses_p", "player.limited");
    let (code, message) = refused(&e, &player, "scene.load", json!({"name": "good"}));
    assert_eq!(code, ErrorCode::Forbidden);
    assert!(message.starts_with("missing permission: scene.write (profile player.limited lacks it"), "{message}");
    let (code, _) = refused(&e, &player, "scene.save", json!({"name": "mine"}));
    assert_eq!(code, ErrorCode::Forbidden);
    assert_eq!(state(&e), before);
    assert!(!dir.path().join("scenes/mine.lua").exists());
    let acted = e.trace().tail().filter(|ev| &*ev.actor_id == "agt_p" && &*ev.event_type == "skill.executed").count();
    assert_eq!(acted, 0, "no nested call ran for the player");
}

#[test]
fn a_load_the_quota_cannot_cover_is_refused_before_any_change() {
    let dir = project();
    let e = engine(dir.path());
    for i in 0..4 {
        entity(&e, json!({"position": [i, 0, 0]}));
    }
    call(&e, "scene.save", json!({"name": "four"}));
    call(&e, "policy.quota", json!({"sessionId": "ses_script", "cap": "scene.write", "limit": 8, "windowTicks": 600}));
    let before = state(&e);
    // 4 destroys + 4 creates + lighting + camera: 10 scene.write calls (and the load itself).
    let (code, message) = refused(&e, &e.script_caller().clone(), "scene.load", json!({"name": "four"}));
    assert_eq!(code, ErrorCode::Forbidden);
    assert!(message.contains("quota of 8 calls per 600 ticks for scene.write") && message.contains("the world is as it was"), "{message}");
    assert_eq!(state(&e), before);
}

#[test]
fn a_load_replaces_the_scene_through_traced_calls_caused_by_the_load() {
    let dir = project();
    let e = engine(dir.path());
    let a = entity(&e, json!({"position": [1, 0, 0]}));
    call(&e, "ecs.addComponent", json!({"entity": a, "component": "kept"}));
    entity(&e, json!({"position": [2, 0, 0], "static": true}));
    call(&e, "scene.save", json!({"name": "two"}));
    let loaded = call(&e, "scene.load", json!({"name": "two"}));
    assert_eq!(loaded, json!({"name": "two", "entities": 2, "destroyed": 2, "renumbered": true, "calls": 7}));
    let found = call(&e, "scene.queryEntities", json!({"tag": "kept"}));
    assert_eq!(found["entities"][0]["entity"], "ent_0003", "ids are never reused: the load renumbers");

    let trace = e.trace();
    let load_decision = trace
        .tail()
        .rev()
        .find(|ev| &*ev.event_type == "policy.decision" && ev.payload_value()["skill"] == "scene.load")
        .map(|ev| ev.id.clone())
        .unwrap();
    let nested: Vec<String> = trace
        .tail()
        .filter(|ev| &*ev.event_type == "skill.executed" && ev.caused_by.contains(&load_decision))
        .map(|ev| ev.payload_value()["skill"].as_str().unwrap().to_string())
        .filter(|skill| skill != "scene.load")
        .collect();
    let expected = [
        "scene.destroyEntity",
        "scene.destroyEntity",
        "scene.createEntity",
        "ecs.addComponent",
        "scene.createEntity",
        "three.setLighting",
        "render.setCamera",
    ];
    assert_eq!(nested, expected, "every change is a traced skill call caused by the load");
    assert!(trace.tail().all(|ev| &*ev.event_type != "skill.executed" || &*ev.actor_id == "agt_script"));
}

#[test]
fn a_world_with_agents_in_its_entities_is_not_replaced() {
    let dir = project();
    let e = engine(dir.path());
    call(&e, "scene.save", json!({"name": "empty"}));
    let body = entity(&e, json!({"position": [0, 1, 0], "dynamic": true}));
    e.run_source("limina.scripted_policy('idle', function() return {} end)", "policy.lua").unwrap();
    call(&e, "agent.spawn", json!({"entity": body, "llm": {"model": "idle"}}));
    let before = state(&e);
    let (code, message) = refused(&e, &e.script_caller().clone(), "scene.load", json!({"name": "empty"}));
    assert_eq!(code, ErrorCode::HandlerError);
    assert!(message.contains("inhabits ent_0001") && message.contains("agent.despawn"), "{message}");
    assert_eq!(state(&e), before);
}

#[test]
fn malformed_scene_files_are_refused_with_the_field_named_and_the_world_unchanged() {
    let dir = project();
    let e = engine(dir.path());
    build_rich_world(&e);
    std::fs::create_dir_all(dir.path().join("scenes")).unwrap();
    let before = state(&e);
    let me = e.script_caller().clone();
    let many = format!("local e = {{ shape = 'box' }}\nreturn {{ format = 1, entities = {{ {} }} }}\n", "e,".repeat(1_000_000));
    let huge = format!("return {{ format = 1, description = \"{}\" }}\n", "x".repeat(limina::scenes::MAX_FILE_BYTES));
    let capacity = e.world().capacity();
    let too_many = format!("entities: 1000000 entities, more than the world holds ({capacity})");
    let size_cap = format!("above the {}-byte limit of a scene file", limina::scenes::MAX_FILE_BYTES);
    let cases: Vec<(&str, String, &str)> = vec![
        ("syntax", "return { format = 1, entities = { { shape = 'box' }\n".into(), "scenes/bad.lua:2:"),
        ("endless loop", "while true do end".into(), "ran past its budget of"),
        (
            "100 MB string",
            "local s = 'x' for i = 1, 27 do s = s .. s end return { format = 1, description = s }".into(),
            "(134217728 bytes) must be 1 to 1024 bytes long",
        ),
        (
            "strings past the memory limit",
            "local s = 'x' for i = 1, 30 do s = s .. s end return { format = 1 }".into(),
            "needed more than its 268435456-byte memory limit",
        ),
        ("file past the size cap", huge, &size_cap),
        ("a million entities", many, &too_many),
        (
            "NaN position",
            "return { format = 1, entities = { {}, { position = { 0, 0/0, 0 } } } }".into(),
            "entities[2].position[2]: NaN is not a finite number",
        ),
        ("unknown shape", "return { format = 1, entities = { { shape = 'cone' } } }".into(), "entities[1].shape: unknown shape 'cone'"),
        (
            "string size",
            "return { format = 1, entities = { { size = 'big' } } }".into(),
            "entities[1].size: expected a number, got \"big\"",
        ),
        (
            "tags not a list",
            "return { format = 1, entities = { { tags = 'crate' } } }".into(),
            "entities[1].tags: expected a table, got \"crate\"",
        ),
        (
            "body not a table",
            "return { format = 1, entities = { { body = true } } }".into(),
            "entities[1].body: expected a table, got true",
        ),
        ("entities not a list", "return { format = 1, entities = 5 }".into(), "entities: expected a table, got 5"),
        ("unknown field", "return { format = 1, entities = { { colour = 1 } } }".into(), "entities[1]: unknown field 'colour'"),
        ("reaches for the engine", "return limina.call('scene.createEntity', {})".into(), "scenes/bad.lua:1:"),
        ("no table", "return 'scene'".into(), "the file must return a scene table, not \"scene\""),
    ];
    for (what, source, expected) in cases {
        std::fs::write(dir.path().join("scenes/bad.lua"), source).unwrap();
        let (code, message) = refused(&e, &me, "scene.load", json!({"name": "bad"}));
        assert_eq!(code, ErrorCode::InvalidInput, "{what}: {message}");
        assert!(message.contains(expected), "{what}: {message:?} should contain {expected:?}");
        assert_eq!(state(&e), before, "{what}: the world is unchanged");
    }
    let (code, message) = refused(&e, &me, "scene.load", json!({"name": "absent"}));
    assert_eq!((code, message.as_str()), (ErrorCode::NotFound, "scenes/absent.lua: no such scene file"));
}

#[test]
fn limina_run_refuses_a_malformed_scene_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.lua"), "return { format = 1, entities = { { position = { 0/0, 0, 0 } } } }\n").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_limina")).args(["run", "bad.lua"]).current_dir(dir.path()).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().next(), Some("error: bad.lua: entities[1].position[1]: NaN is not a finite number"));
}

#[test]
fn an_mcp_server_given_a_scene_file_serves_the_loaded_scene() {
    let mut s = crate::mcp::StdioServer::start(&["--scene", "scenes/courtyard.lua"]);
    s.request(1, "initialize", json!({"agentId": "agt_viewer", "sessionId": "ses_v", "profile": "system.readonly"}));
    let crates = s.request(2, "callTool", json!({"name": "scene.queryEntities", "arguments": {"tag": "crate"}}));
    assert_eq!(crates["result"]["result"]["entities"].as_array().map(Vec::len), Some(6), "{crates}");
    // A viewer may look at the scene, not replace it.
    let load = s.request(3, "callTool", json!({"name": "scene.load", "arguments": {"name": "gallery"}}));
    assert_eq!(load["error"]["code"], -32001, "{load}");
    assert_eq!(s.finish(), Some(0));
}

/// A shared "scene" that needs more than data (here `tostring`) is not run as a script with the
/// operator's permissions: in a scenes/ folder it is refused, and nothing it asks for happens.
#[test]
fn a_file_in_scenes_that_is_not_a_scene_is_never_run_as_a_script() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("scenes")).unwrap();
    let trojan = dir.path().join("scenes/trojan.lua");
    std::fs::write(&trojan, "limina.call('scene.createEntity', { shape = tostring('box') })\nreturn { format = 1, entities = {} }\n")
        .unwrap();
    let engine = limina::host::Engine::new(limina::host::EngineConfig {
        output: limina::host::Output::Silent,
        ..limina::host::EngineConfig::new(dir.path())
    })
    .unwrap();
    let e = engine.run_or_load_file(&trojan).unwrap_err().to_string();
    assert!(e.contains("is in a scenes/ folder but is not a scene file"), "{e}");
    assert_eq!(engine.world().entity_count(), 0, "the script never ran");
}

/// A crafted source under the byte cap but past the token budget of a full world is refused
/// before it is compiled (a 31 MiB `0,0,0,…` took the process to 2.3 GB: compiling runs outside
/// the VM's memory limit). A full world's scene still reads (`scenes::read`'s unit tests).
#[test]
fn a_crafted_token_flood_is_refused_before_it_is_compiled() {
    let capacity = limina::world::DEFAULT_ENTITY_CAPACITY;
    let mut flood = String::from("return { format = 1, entities = {}, x = {");
    while flood.len() < 31 << 20 {
        flood.push_str("0,");
    }
    flood.push_str("} }");
    let e = limina::scenes::parse(flood.as_bytes(), "scenes/flood.lua", capacity).unwrap_err().to_string();
    assert!(
        e.starts_with("scenes/flood.lua has more than 12599296 tokens, the most a scene for a world of 65536 entities may have"),
        "{e}"
    );
    // The same flood, smaller, passes the count and fails only as the data it is.
    let small = "return { format = 1, entities = {}, x = {".to_string() + &"0,".repeat(100_000) + "} }";
    let e = limina::scenes::parse(small.as_bytes(), "scenes/small.lua", capacity).unwrap_err().to_string();
    assert!(!e.contains("tokens"), "{e}");
}
