//! Colours: every skill that takes one accepts `0xRRGGBB` as an integer and the strings
//! `"#rrggbb"` / `"0xrrggbb"`, and records the integer whichever form was sent, so the world, the
//! trace and a replay are the same; a bad string is refused naming the value.

use limina::host::{Engine, EngineConfig, Output};
use limina::skills::ErrorCode;
use serde_json::{Value, json};

fn engine() -> Engine {
    Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(crate::root()) }).unwrap()
}

/// The calls of a small scene with every colour-taking core skill, `color` given in the form `c`.
fn calls(c: &dyn Fn(u32) -> Value) -> Vec<(&'static str, Value)> {
    vec![
        ("scene.createEntity", json!({"shape": "sphere", "color": c(0xff8800)})),
        ("three.setMaterial", json!({"entity": "ent_0001", "color": c(0x3366cc)})),
        ("three.setLighting", json!({"ambientColor": c(0x202030), "directionalColor": c(0xfff0e0)})),
        (
            "ui.label",
            json!({"text": "hi", "anchor": {"kind": "screen"}, "style": {"background": {"color": c(0x112233)}, "text": {"color": c(0xabcdef)}, "runs": [{"text": "a", "color": c(0x010203)}]}}),
        ),
        ("agent.spawn", json!({"llm": {"model": "idle"}, "body": {"color": c(0x00ff7f)}})),
    ]
}

/// Runs the calls on a fresh engine: the world hash and the inputs the trace recorded.
fn run(c: &dyn Fn(u32) -> Value) -> (String, Vec<Value>) {
    let e = engine();
    e.run_source(r#"limina.scripted_policy("idle", function() return {} end)"#, "policy.lua").unwrap();
    let caller = e.script_caller().clone();
    for (name, input) in calls(c) {
        let r = e.call(&caller, name, input.clone());
        assert!(r.success, "{name} {input}: {:?}", r.error);
    }
    let inputs = e
        .trace()
        .durable()
        .map(Result::unwrap)
        .filter(|ev| &*ev.event_type == "skill.executed")
        .map(|ev| ev.payload_value()["input"].clone())
        .collect();
    (e.world_hash(), inputs)
}

#[test]
fn every_colour_form_makes_the_same_world_and_the_same_trace() {
    let integer = run(&|c| json!(c));
    let hash = run(&|c| json!(format!("#{c:06x}")));
    let hex = run(&|c| json!(format!("0x{c:06X}")));
    assert_eq!(hash, integer, "'#rrggbb' records what the integer does");
    assert_eq!(hex, integer, "'0xRRGGBB' records what the integer does");
    let recorded = integer.1[0]["color"].clone();
    assert_eq!(recorded, json!(0xff8800), "the trace holds the integer");
    assert_eq!(integer.1[3]["style"]["runs"][0]["color"], json!(0x010203), "nested colours too");
}

#[test]
fn a_script_may_pass_a_colour_string_too() {
    let e = engine();
    e.run_source(r##"assert(limina.call("scene.createEntity", { color = "#ff8800" }).success)"##, "test/colour.lua").unwrap();
    let other = engine();
    other.call(&other.script_caller().clone(), "scene.createEntity", json!({"color": 0xff8800}));
    assert_eq!(e.world_hash(), other.world_hash());
}

#[test]
fn a_bad_colour_string_is_refused_naming_it() {
    let e = engine();
    let caller = e.script_caller().clone();
    for (name, input, shown) in [
        ("scene.createEntity", json!({"color": "#ff88zz"}), "color: '#ff88zz' is not a colour"),
        ("scene.createEntity", json!({"color": "orange"}), "color: 'orange' is not a colour"),
        ("three.setLighting", json!({"ambientColor": "0x12345"}), "ambientColor: '0x12345' is not a colour"),
        (
            "ui.label",
            json!({"anchor": {"kind": "screen"}, "style": {"text": {"color": "#abc"}}}),
            "style.text.color: '#abc' is not a colour",
        ),
    ] {
        let r = e.call(&caller, name, input.clone());
        let error = r.error.unwrap_or_else(|| panic!("{name} {input} was accepted"));
        assert_eq!(error.code, ErrorCode::InvalidInput);
        assert!(error.message.contains(shown), "{name}: {}", error.message);
        assert!(error.message.contains("'#rrggbb'"), "the message says which forms are taken: {}", error.message);
    }
    assert_eq!(e.world().entity_count(), 0, "nothing was created");
}
