//! No input kills the engine: hostile geometry (huge, tiny, overflowing, degenerate) is refused
//! at the skill boundary with the value in the message, and a panic that gets past the bounds
//! anyway (a bug) becomes a `handler_error` or a step error plus a traced event, never a dead
//! process.
//!
//! Every attack is followed by the same three checks: the refused call changed nothing (world
//! hash, camera, lighting), the engine still steps, and a benign call still answers.

use limina::host::{Engine, EngineConfig, Output};
use limina::skills::{ErrorCode, SkillResponse};
use serde_json::{Value, json};

use crate::mcp::StdioServer;

fn engine() -> Engine {
    Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(crate::root()) }).unwrap()
}

fn call(e: &Engine, name: &str, input: Value) -> SkillResponse {
    e.call(e.script_caller(), name, input)
}

fn ok(e: &Engine, name: &str, input: Value) -> Value {
    let r = call(e, name, input.clone());
    assert!(r.success, "{name} {input} failed: {:?}", r.error);
    r.result.unwrap()
}

/// A static floor and a dynamic capsule resting above it; returns the capsule's id.
fn arena(e: &Engine) -> String {
    let floor = ok(e, "scene.createEntity", json!({"shape": "box", "static": true, "position": [0, -0.5, 0]}))["entity"].clone();
    ok(e, "ecs.updateComponent", json!({"entity": floor, "component": "scale", "value": [20, 1, 20]}));
    let capsule = ok(e, "scene.createEntity", json!({"shape": "capsule", "dynamic": true, "position": [0, 2, 0]}));
    e.step(2).unwrap();
    capsule["entity"].as_str().unwrap().to_string()
}

/// The engine steps and a benign call still answers.
fn still_alive(e: &Engine) {
    let tick = e.tick();
    e.step(3).expect("the engine still steps");
    assert_eq!(e.tick(), tick + 3, "the clock advanced");
    let listed = ok(e, "scene.queryEntities", json!({}));
    assert!(listed["entities"].is_array(), "{listed}");
}

/// The call is refused as `invalid_input` with a message containing every needle, changes
/// nothing, and the engine lives on.
fn assert_refused(e: &Engine, name: &str, input: Value, needles: &[&str]) {
    let (hash, camera, lighting) = (e.world_hash(), e.world().camera, e.world().lighting);
    let r = call(e, name, input.clone());
    assert!(!r.success, "{name} {input} was accepted: {:?}", r.result);
    let error = r.error.unwrap();
    assert_eq!(error.code, ErrorCode::InvalidInput, "{name} {input}: {error:?}");
    for needle in needles {
        assert!(error.message.contains(needle), "{name} {input}: '{}' does not mention '{needle}'", error.message);
    }
    assert_eq!(e.world_hash(), hash, "{name} {input}: a refused call changes no transform");
    assert_eq!(e.world().camera, camera, "{name} {input}: a refused call leaves the camera");
    assert_eq!(e.world().lighting, lighting, "{name} {input}: a refused call leaves the lighting");
    still_alive(e);
}

#[test]
fn a_capsule_scaled_by_1e20_is_refused_and_the_next_step_runs() {
    let e = engine();
    let capsule = arena(&e);
    let hash = e.world_hash();
    let r = call(&e, "ecs.updateComponent", json!({"entity": capsule, "component": "scale", "value": [1e20, 1e20, 1e20]}));
    // The step comes first: before the bounds, this is where parry panicked and took the
    // process with it.
    still_alive(&e);
    let error = r.error.expect("a 1e20 scale is refused");
    assert_eq!(error.code, ErrorCode::InvalidInput);
    for needle in ["value[0]", "1e20", "maximum"] {
        assert!(error.message.contains(needle), "'{}' does not mention '{needle}'", error.message);
    }
    assert_ne!(e.world_hash(), hash, "the capsule kept simulating at its old scale");
    // Within the schema's ±1e6 but outside the scale range: the op names the value and the range.
    assert_refused(
        &e,
        "ecs.updateComponent",
        json!({"entity": capsule, "component": "scale", "value": [1, 5000, 1]}),
        &["value[1] = 5000 is outside [0.001, 1000]"],
    );
    assert_refused(&e, "three.setTransform", json!({"entity": capsule, "scale": [1, 1e20, 1]}), &["scale[1]", "1e20"]);
    // A legal rescale still works, and the body keeps simulating.
    ok(&e, "ecs.updateComponent", json!({"entity": capsule, "component": "scale", "value": [2, 2, 2]}));
    still_alive(&e);
}

#[test]
fn the_1e20_capsule_over_mcp_leaves_the_server_answering() {
    // Empty: the entities are read back by index below.
    let mut s = StdioServer::start(&["--empty"]);
    s.request(1, "initialize", json!({"agentId": "agt_attacker", "sessionId": "ses_a", "profile": "builder.readWrite"}));
    let floor = json!({"name": "scene.createEntity", "arguments": {"shape": "box", "static": true, "position": [0, -0.5, 0]}});
    assert_eq!(s.request(20, "tools/call", floor)["result"]["success"], true);
    let created = s.request(
        2,
        "tools/call",
        json!({"name": "scene.createEntity", "arguments": {"shape": "capsule", "dynamic": true, "position": [0, 2, 0]}}),
    );
    let capsule = created["result"]["result"]["entity"].clone();
    let scaled = s.request(
        3,
        "tools/call",
        json!({"name": "ecs.updateComponent", "arguments": {"entity": capsule, "component": "scale", "value": [1e20, 1e20, 1e20]}}),
    );
    // Let the server tick (it steps in real time between requests), then it must still answer:
    // before the bounds, the next step panicked in parry and the process exited.
    std::thread::sleep(std::time::Duration::from_millis(200));
    let listed = s.request(4, "tools/call", json!({"name": "scene.queryEntities", "arguments": {}}));
    assert_eq!(listed["result"]["result"]["entities"][1]["entity"], capsule, "{listed}");
    assert_eq!(scaled["error"]["data"]["error"]["code"], "invalid_input", "{scaled}");
    assert_eq!(s.request(5, "ping", json!({}))["result"], json!({}));
    assert_eq!(s.finish(), Some(0));
}

/// Values no geometric vector field may take: overflowing f32, beyond f64's useful range, and
/// beyond the world's ±1e6 bounds.
const HOSTILE: [f64; 5] = [1e300, -1e300, 1e39, -3.4e38, 2e6];

#[test]
fn every_geometric_vector_field_refuses_overflow_and_out_of_bounds_values() {
    let e = engine();
    let capsule = arena(&e);
    // (skill, input with `V` marking the attacked vector, the field path the message names)
    let cases: Vec<(&str, Value, &str)> = vec![
        ("scene.createEntity", json!({"position": "V"}), "position[2]"),
        ("scene.createEntity", json!({"position": "V", "dynamic": true}), "position[2]"),
        ("three.loadGLTF", json!({"assetId": "models/ball.glb", "position": "V", "dynamic": true}), "position[2]"),
        ("ecs.updateComponent", json!({"entity": capsule, "component": "position", "value": "V"}), "value[2]"),
        ("ecs.updateComponent", json!({"entity": capsule, "component": "scale", "value": "V"}), "value[2]"),
        ("three.setTransform", json!({"entity": capsule, "position": "V"}), "position[2]"),
        ("three.setTransform", json!({"entity": capsule, "rotationEuler": "V"}), "rotationEuler[2]"),
        ("three.setTransform", json!({"entity": capsule, "scale": "V"}), "scale[2]"),
        ("physics.applyImpulse", json!({"entity": capsule, "impulse": "V"}), "impulse[2]"),
        ("physics.raycast", json!({"origin": "V", "direction": [0, -1, 0]}), "origin[2]"),
        ("physics.raycast", json!({"origin": [0, 10, 0], "direction": "V"}), "direction[2]"),
        ("scene.queryEntities", json!({"near": "V"}), "near[2]"),
        ("render.setCamera", json!({"position": "V"}), "position[2]"),
        ("render.setCamera", json!({"target": "V"}), "target[2]"),
        ("render.capture", json!({"camera": {"position": "V"}}), "position[2]"),
        ("render.capture", json!({"camera": {"target": "V"}}), "target[2]"),
        ("three.setLighting", json!({"direction": "V"}), "direction[2]"),
    ];
    for (skill, template, path) in &cases {
        for bad in HOSTILE {
            let input = serde_json::from_str(&template.to_string().replace("\"V\"", &format!("[1, 1, {bad:e}]"))).unwrap();
            assert_refused(&e, skill, input, &[path]);
        }
    }
}

#[test]
fn render_and_lighting_scalars_refuse_values_that_overflow_f32() {
    let e = engine();
    assert_refused(&e, "three.setLighting", json!({"shadowCameraFar": 1e300}), &["shadowCameraFar"]);
    assert_refused(&e, "three.setLighting", json!({"shadowCameraNear": 1e299, "shadowCameraFar": 1e300}), &["shadowCamera"]);
    assert_refused(&e, "three.setLighting", json!({"shadowCameraNear": 1e-300}), &["shadowCameraNear"]);
    assert_refused(&e, "three.setLighting", json!({"direction": [1e-300, 0, 0]}), &["direction"]);
    assert_refused(&e, "three.setMaterial", json!({"entity": "ent_0001", "roughness": 1e300}), &["roughness"]);
    assert_refused(&e, "three.setMaterial", json!({"entity": "ent_0001", "metalness": -1e300}), &["metalness"]);
    assert_refused(&e, "render.setCamera", json!({"fov": 1e300}), &["fov"]);
    assert_refused(&e, "render.setCamera", json!({"position": [3, 3, 3], "target": [3, 3, 3]}), &["target"]);
    assert_refused(&e, "physics.raycast", json!({"origin": [0, 0, 0], "direction": [0, 1, 0], "maxDistance": 1e300}), &["maxDistance"]);
    assert_refused(&e, "physics.raycast", json!({"origin": [0, 0, 0], "direction": [1e-300, 0, 0]}), &["direction"]);
    ok(&e, "render.setCamera", json!({"position": [0, 5, 10], "target": [0, 0, 0], "fov": 60}));
    assert_eq!(e.world().camera.fov_deg, 60.0);
}

#[test]
fn nan_and_infinity_from_a_script_are_refused_in_every_vector_field() {
    let e = engine();
    arena(&e);
    // JSON cannot carry NaN or infinity; a script can, and must meet the same refusal.
    let script = r#"
        local fields = {
            { "scene.createEntity", function(v) return { position = v } end },
            { "ecs.updateComponent", function(v) return { entity = "ent_0002", component = "position", value = v } end },
            { "ecs.updateComponent", function(v) return { entity = "ent_0002", component = "scale", value = v } end },
            { "three.setTransform", function(v) return { entity = "ent_0002", rotationEuler = v } end },
            { "physics.applyImpulse", function(v) return { entity = "ent_0002", impulse = v } end },
            { "render.setCamera", function(v) return { target = v } end },
            { "three.setLighting", function(v) return { direction = v } end },
        }
        local refused = 0
        for _, f in fields do
            for _, bad in { 0 / 0, 1 / 0, -1 / 0 } do
                local r = limina.call(f[1], f[2]({ 1, bad, 1 }))
                assert(not r.success, f[1] .. " accepted a non-finite number")
                assert(r.error.code == "invalid_input", f[1] .. ": " .. r.error.code)
                refused += 1
            end
        end
        return refused
    "#;
    let hash = e.world_hash();
    let refused = e.run_source(script, "hostile_nan.luau").unwrap();
    assert_eq!(refused.as_integer(), Some(21));
    assert_eq!(e.world_hash(), hash);
    still_alive(&e);
}

#[test]
fn zero_denormal_and_overflowing_quaternions_are_refused_and_others_normalised() {
    let e = engine();
    let capsule = arena(&e);
    let rotation = |value: Value| json!({"entity": capsule, "component": "rotation", "value": value});
    assert_refused(&e, "ecs.updateComponent", rotation(json!([0, 0, 0, 0])), &["quaternion", "zero"]);
    assert_refused(&e, "ecs.updateComponent", rotation(json!([1e-40, 0, 0, 1e-41])), &["quaternion"]);
    assert_refused(&e, "ecs.updateComponent", rotation(json!([1e-20, 1e-20, 0, 0])), &["quaternion"]);
    assert_refused(&e, "ecs.updateComponent", rotation(json!([1e300, 0, 0, 1])), &["value[0]"]);
    assert_refused(&e, "ecs.updateComponent", rotation(json!([3e38, 3e38, 3e38, 3e38])), &["value[0]"]);
    ok(&e, "ecs.updateComponent", rotation(json!([0, 0, 0, 2])));
    ok(&e, "ecs.updateComponent", rotation(json!([1, 1, 1, 1])));
    let stored = e.world().transform(e.world().resolve(&capsule).unwrap()).unwrap().rotation;
    let length = stored.iter().map(|c| c * c).sum::<f32>().sqrt();
    assert!((length - 1.0).abs() < 1e-6, "stored rotations are unit quaternions: {stored:?}");
    still_alive(&e);
}

#[test]
fn huge_impulses_are_refused_and_the_largest_legal_ones_never_break_a_step() {
    let e = engine();
    let capsule = arena(&e);
    assert_refused(&e, "physics.applyImpulse", json!({"entity": capsule, "impulse": [1e30, 0, 0]}), &["impulse[0]", "1e30"]);
    assert_refused(&e, "physics.applyImpulse", json!({"entity": capsule, "impulse": [0, -1e7, 0]}), &["impulse[1]"]);
    // The smallest body the bounds allow, hit with the largest impulse allowed, many times over,
    // then left to collide with the floor and the capsule.
    let speck =
        ok(&e, "scene.createEntity", json!({"shape": "sphere", "size": 0.001, "dynamic": true, "position": [0, 5, 0]}))["entity"].clone();
    for i in 0..200 {
        let sign = if i % 2 == 0 { 1.0 } else { -1.0 };
        let r = call(&e, "physics.applyImpulse", json!({"entity": speck, "impulse": [0, sign * 1e6, 1e6]}));
        assert!(r.success || r.error.as_ref().is_some_and(|f| f.code == ErrorCode::InvalidInput), "{:?}", r.error);
        e.step(1).expect("a step after a legal impulse runs");
    }
    e.step(120).expect("the world keeps stepping");
    let hash = e.world_hash();
    assert!(hash.starts_with("sha256:"));
    still_alive(&e);
}

#[test]
fn tiny_huge_and_lopsided_sizes_and_scales_are_refused() {
    let e = engine();
    let capsule = arena(&e);
    assert_refused(&e, "scene.createEntity", json!({"size": 1e-30, "dynamic": true}), &["size", "1e-30"]);
    assert_refused(&e, "scene.createEntity", json!({"size": 0}), &["size"]);
    assert_refused(&e, "scene.createEntity", json!({"size": 1e300, "dynamic": true}), &["size"]);
    assert_refused(&e, "three.loadGLTF", json!({"assetId": "models/ball.glb", "size": 1e-30}), &["size"]);
    let scale = |value: Value| json!({"entity": capsule, "component": "scale", "value": value});
    assert_refused(&e, "ecs.updateComponent", scale(json!([0, 1, 1])), &["value[0]"]);
    assert_refused(&e, "ecs.updateComponent", scale(json!([1, -2, 1])), &["value[1]"]);
    assert_refused(&e, "ecs.updateComponent", scale(json!([1, 1, 1e-30])), &["value[2]", "1e-30"]);
    assert_refused(&e, "ecs.updateComponent", scale(json!([1000, 1000, 1000])), &["scale", "product"]);
    assert_refused(&e, "ecs.updateComponent", scale(json!([0.001, 0.001, 0.01])), &["scale", "product"]);
    assert_refused(&e, "three.setTransform", json!({"entity": capsule, "scale": [1000, 1000, 2]}), &["product"]);
    // The edges of the documented ranges are accepted and simulate.
    ok(&e, "ecs.updateComponent", scale(json!([1000, 0.001, 1000])));
    ok(&e, "ecs.updateComponent", scale(json!([1000, 1000, 1])));
    ok(&e, "scene.createEntity", json!({"size": 50, "dynamic": true, "position": [0, 100, 0]}));
    ok(&e, "scene.createEntity", json!({"size": 0.001, "dynamic": true, "position": [0, 100, 0]}));
    still_alive(&e);
}

#[test]
fn the_bounds_are_declared_in_the_published_schemas() {
    let e = engine();
    let registry = e.registry();
    let schema = |skill: &str| registry.get(skill).unwrap().input_schema.clone();
    let create = schema("scene.createEntity");
    assert_eq!(create["properties"]["position"]["items"]["maximum"], json!(1_000_000));
    assert_eq!(create["properties"]["position"]["items"]["minimum"], json!(-1_000_000));
    assert_eq!(create["properties"]["size"]["minimum"], json!(0.001));
    let transform = schema("three.setTransform");
    assert_eq!(transform["properties"]["scale"]["items"]["minimum"], json!(0.001));
    assert_eq!(transform["properties"]["scale"]["items"]["maximum"], json!(1000));
    assert_eq!(schema("physics.applyImpulse")["properties"]["impulse"]["items"]["maximum"], json!(1_000_000));
    assert_eq!(schema("render.setCamera")["properties"]["target"]["items"]["maximum"], json!(1_000_000));
}

/// The newest traced event of a type, as JSON.
fn last_event(e: &Engine, event_type: &str) -> Option<Value> {
    e.trace().tail().rev().find(|ev| &*ev.event_type == event_type).map(|ev| ev.payload_value())
}

#[test]
fn a_panicking_handler_becomes_a_handler_error_and_a_traced_event() {
    let e = engine();
    // A handler that is Rust code with a bug: nothing in production panics on purpose, so the
    // test brings its own (a plain Rust function as the handler, no engine backdoor).
    let def: mlua::Table = e
        .lua()
        .load(
            r#"local s = limina.schema
            return { name = "test.buggy", version = "1.0.0", category = "system", description = "Panics.",
                     permissions = {}, input = s.object({}), output = s.object({}) }"#,
        )
        .eval()
        .unwrap();
    let buggy =
        e.lua().create_function(|_, _: mlua::MultiValue| -> mlua::Result<()> { panic!("index 7 out of bounds (deliberate)") }).unwrap();
    def.set("handler", buggy).unwrap();
    e.register_skill(&def, "test").unwrap();
    arena(&e);

    let hash = e.world_hash();
    let r = call(&e, "test.buggy", json!({}));
    let error = r.error.expect("a panic is a failure");
    assert_eq!(error.code, ErrorCode::HandlerError);
    assert!(error.message.contains("test.buggy") && error.message.contains("panicked"), "{}", error.message);
    assert!(error.message.contains("index 7 out of bounds (deliberate)"), "{}", error.message);
    assert!(r.metadata.events_emitted.iter().any(|t| &**t == "skill.panicked"), "{:?}", r.metadata.events_emitted);
    let traced = last_event(&e, "skill.panicked").expect("a skill.panicked event");
    assert_eq!(traced["skill"], "test.buggy");
    assert_eq!(e.world_hash(), hash);
    still_alive(&e);

    // Through the Lua boundary too: a script's call comes back as a failure, not a throw.
    let code = e.run_source("return limina.call('test.buggy', {}).error.code", "panic_from_script.luau").unwrap();
    assert_eq!(code.as_string().unwrap().to_str().unwrap(), "handler_error");
    still_alive(&e);
}

#[test]
fn a_panic_inside_a_step_is_a_step_error_and_the_next_step_runs() {
    let e = engine();
    arena(&e);
    let armed = std::rc::Rc::new(std::cell::Cell::new(true));
    let trigger = std::rc::Rc::clone(&armed);
    let callback = e
        .lua()
        .create_function(move |_, _: mlua::MultiValue| {
            if trigger.replace(false) {
                panic!("step callback bug (deliberate)");
            }
            Ok(())
        })
        .unwrap();
    let limina: mlua::Table = e.lua().globals().get("limina").unwrap();
    limina.get::<mlua::Function>("on_step").unwrap().call::<()>(callback).unwrap();

    let tick = e.tick();
    let error = e.step(1).expect_err("the panicking step reports an error");
    assert!(error.message.contains("panicked") && error.message.contains("step callback bug (deliberate)"), "{}", error.message);
    assert_eq!(e.tick(), tick, "the step that panicked does not advance the clock");
    let traced = last_event(&e, "engine.step.panicked").expect("an engine.step.panicked event");
    assert_eq!(traced["tick"], json!(tick));
    // The re-entrancy flag was reset: a script may step again, and so may the host.
    e.run_source("limina.step(2)", "step_after_panic.luau").expect("limina.step works after a panic unwound a step");
    assert_eq!(e.tick(), tick + 2);
    still_alive(&e);
}
