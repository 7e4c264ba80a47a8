//! `world.digest`: a world observed without pixels. It stays within its byte cap at 10,000
//! entities, a lower cap trims each section to a prefix of its ranking and says how many rows
//! it left out (the same bytes every time), `around` keeps what lies within the radius, nearest
//! first, and each caller sees only what its permissions show; hostile inputs are refused with
//! the field named, and reading changes nothing.

use limina::host::{Engine, EngineConfig, Output};
use limina::policy::{Permission, PermissionSet, Profile};
use limina::skills::Caller;
use serde_json::{Value, json};

fn engine(capacity: usize) -> Engine {
    Engine::new(EngineConfig { output: Output::Silent, entity_capacity: capacity, ..EngineConfig::new(crate::root()) }).unwrap()
}

fn ok(e: &Engine, caller: &Caller, name: &str, input: Value) -> Value {
    let r = e.call(caller, name, input.clone());
    assert!(r.success, "{name} {input} failed: {:?}", r.error);
    r.result.unwrap()
}

fn digest(e: &Engine, input: Value) -> Value {
    ok(e, e.script_caller(), "world.digest", input)
}

/// Bytes of the compact JSON a client is sent as the result.
fn bytes(v: &Value) -> usize {
    serde_json::to_string(v).unwrap().len()
}

/// `n` entities of every shape on a lattice, sizes and colours varied; every 7th tagged
/// `target`, every 50th also `goal` and a tag of 64 four-byte characters.
fn populate(e: &Engine, n: usize) {
    e.run_source(
        &format!(
            r#"
            local shapes = {{ "box", "sphere", "capsule" }}
            local long = string.rep("\u{{1F600}}", 64)
            for i = 1, {n} do
                local r = limina.call("scene.createEntity", {{
                    shape = shapes[i % 3 + 1],
                    size = 0.25 + (i * 37 % 100) / 40,
                    color = (i * 2654435761) % 0x1000000,
                    position = {{ (i * 7 % 201) - 100, (i % 5) * 0.5, (i * 13 % 199) - 99 }},
                }})
                assert(r.success, r.error and r.error.message)
                if i % 7 == 0 then
                    assert(limina.call("ecs.addComponent", {{ entity = r.result.entity, component = "target" }}).success)
                end
                if i % 50 == 0 then
                    assert(limina.call("ecs.addComponent", {{ entity = r.result.entity, component = "goal" }}).success)
                    assert(limina.call("ecs.addComponent", {{ entity = r.result.entity, component = long }}).success)
                end
            end
            "#
        ),
        "populate.lua",
    )
    .unwrap();
}

/// The ids (or tag names) a section shows, in order.
fn shown(d: &Value, section: &str) -> Vec<String> {
    match &d[section] {
        Value::Array(rows) => rows.iter().map(|r| r.get("id").or(r.get("seq")).map(|v| v.to_string()).unwrap_or_default()).collect(),
        Value::Object(map) => map.keys().cloned().collect(),
        _ => Vec::new(),
    }
}

#[test]
fn a_digest_of_ten_thousand_entities_stays_within_its_cap_and_counts_everything() {
    let e = engine(10_000);
    populate(&e, 10_000);
    ok(&e, e.script_caller(), "ui.hudPanel", json!({"anchor": {"kind": "screen", "corner": "top-left"}, "text": "x".repeat(8000)}));
    for cap in [None, Some(1024), Some(4096), Some(65_536)] {
        let input = cap.map_or(json!({}), |c| json!({"maxBytes": c}));
        let d = digest(&e, input);
        let limit = cap.unwrap_or(4096);
        assert!(bytes(&d) <= limit, "{} bytes for a cap of {limit}", bytes(&d));
        assert_eq!(d["counts"]["entities"], 10_000);
        assert_eq!(d["world"]["entities"], 10_000);
        let shapes = d["counts"]["shapes"].as_object().unwrap();
        assert_eq!(shapes.values().map(|n| n.as_u64().unwrap()).sum::<u64>(), 10_000, "{shapes:?}");
        assert_eq!(d["counts"]["tags"], 3, "target, goal and the long one");
        let rows = d["entities"].as_array().unwrap();
        // Tagged entities rank first (no agents here), the largest of them first.
        if let Some(first) = rows.first() {
            assert!(first["tags"].is_array(), "{first}");
        }
        // The HUD's 8000 characters are clipped.
        let ui = d["ui"].as_array().unwrap();
        if let Some(hud) = ui.first() {
            assert!(hud["text"].as_str().unwrap().chars().count() <= 121, "clipped");
        }
        if limit >= 4096 {
            assert!(rows.len() >= 10, "{} rows at {limit}", rows.len());
        }
        assert_eq!(d["cut"]["entities"].as_u64().unwrap(), 10_000 - rows.len() as u64);
        if limit == 65_536 {
            assert!(bytes(&d) > 32_768, "a large cap is used: {} bytes", bytes(&d));
        }
    }
}

#[test]
fn lowering_the_cap_trims_deterministically_and_says_so() {
    let e = engine(1000);
    populate(&e, 120);
    e.run_source(
        r#"
        for i = 1, 30 do
            assert(limina.call("ui.label", { anchor = { kind = "world", point = { i, 1, 0 } }, text = "label " .. i }).success)
        end
        "#,
        "labels.lua",
    )
    .unwrap();
    let full = digest(&e, json!({"maxBytes": 65_536}));
    assert_eq!(full["cut"], json!({}), "everything fits in 64 KiB: {}", full["cut"]);
    for cap in [16_384, 8192, 4096, 2048, 1024] {
        let d = digest(&e, json!({"maxBytes": cap}));
        let again = digest(&e, json!({"maxBytes": cap}));
        assert_eq!(serde_json::to_string(&d).unwrap(), serde_json::to_string(&again).unwrap(), "the same bytes at {cap}");
        assert!(bytes(&d) <= cap, "{} bytes for {cap}", bytes(&d));
        let mut total = 0;
        for section in ["entities", "ui", "events", "agents"] {
            let (all, some) = (shown(&full, section), shown(&d, section));
            assert_eq!(all[..some.len()], some[..], "{section} at {cap} is a prefix of its ranking");
            let left_out = all.len() - some.len();
            assert_eq!(d["cut"][section].as_u64().unwrap_or(0), left_out as u64, "{section} at {cap}: {}", d["cut"]);
            total += some.len();
        }
        // Tags are an object (sorted by name): the ones shown are the most used.
        let tags = d["tags"].as_object().unwrap();
        assert_eq!(d["cut"]["tags"].as_u64().unwrap_or(0), 3 - tags.len() as u64);
        if !tags.is_empty() {
            assert!(tags.contains_key("target"), "the most used tag goes first: {tags:?}");
        }
        if cap <= 8192 {
            assert!(d["cut"].as_object().unwrap().contains_key("entities"), "{cap} cannot hold 120 entities: {}", d["cut"]);
        }
        assert!(total > 0 || cap == 1024, "{cap} shows something");
    }
}

#[test]
fn around_keeps_what_lies_within_the_radius_nearest_first() {
    let e = engine(1000);
    populate(&e, 400);
    ok(&e, e.script_caller(), "ui.label", json!({"anchor": {"kind": "world", "point": [1, 0, 1]}, "text": "near"}));
    ok(&e, e.script_caller(), "ui.label", json!({"anchor": {"kind": "world", "point": [90, 0, 90]}, "text": "far"}));
    ok(&e, e.script_caller(), "ui.hudPanel", json!({"anchor": {"kind": "screen"}, "text": "score 3"}));
    let around = json!({"point": [0, 0, 0], "radius": 20});
    let d = digest(&e, json!({"maxBytes": 65_536, "around": around}));
    let within = ok(&e, e.script_caller(), "scene.queryEntities", json!({"near": [0, 0, 0], "radius": 20}));
    let expected = within["entities"].as_array().unwrap().len();
    assert!(expected > 5 && expected < 400, "{expected} entities within 20 m");
    assert_eq!(d["counts"]["entities"], expected);
    assert_eq!(d["around"], json!({"point": [0, 0, 0], "radius": 20}));
    let rows = d["entities"].as_array().unwrap();
    assert_eq!(rows.len(), expected, "all fit in 64 KiB");
    // Tagged first, then the rest; nearest first within each.
    let key = |r: &Value| (r.get("tags").is_none(), r["dist"].as_f64().unwrap());
    for pair in rows.windows(2) {
        assert!(key(&pair[0]) <= key(&pair[1]), "{} before {}", pair[0], pair[1]);
    }
    assert!(rows.iter().all(|r| r["dist"].as_f64().unwrap() <= 20.0));
    let ids: std::collections::HashSet<&str> =
        within["entities"].as_array().unwrap().iter().map(|r| r["entity"].as_str().unwrap()).collect();
    assert!(rows.iter().all(|r| ids.contains(r["id"].as_str().unwrap())));
    // World-anchored UI outside the radius is left out; the screen is always in view.
    let texts: Vec<&str> = d["ui"].as_array().unwrap().iter().map(|r| r["text"].as_str().unwrap()).collect();
    assert_eq!(texts, ["near", "score 3"]);
    // Without `around`, everything is in scope and no row has a distance.
    let all = digest(&e, json!({"maxBytes": 65_536}));
    assert_eq!(all["counts"]["entities"], 400);
    assert!(all["entities"].as_array().unwrap().iter().all(|r| r.get("dist").is_none()));
}

#[test]
fn a_player_sees_what_it_may_see() {
    let e = engine(1000);
    populate(&e, 60);
    e.run_source(r#"limina.scripted_policy("idle", function() return {} end)"#, "policy.lua").unwrap();
    let spawned = ok(
        &e,
        e.script_caller(),
        "agent.spawn",
        json!({"id": "agt_walker", "body": {"shape": "capsule", "position": [3, 1, 3]}, "llm": {"model": "idle"}}),
    );
    let body = spawned["entity"].as_str().unwrap().to_string();
    ok(&e, e.script_caller(), "ui.hudPanel", json!({"anchor": {"kind": "screen"}, "text": "round 1"}));
    let player = Caller::with_profile("agt_player", "ses_player", Profile::PlayerLimited);
    // A refused write: a notable event for those who may read the log.
    assert!(!e.call(&player, "scene.createEntity", json!({})).success);
    e.step(2).unwrap();

    let seen = ok(&e, &player, "world.digest", json!({"maxBytes": 65_536}));
    assert_eq!(seen["counts"]["entities"], 61);
    assert_eq!(seen["ui"][0]["text"], "round 1");
    assert_eq!(seen["agents"][0]["id"], "agt_walker", "player.limited holds agent.read");
    assert_eq!(seen["entities"][0]["id"], body, "an agent's body ranks first");
    assert_eq!(seen["entities"][0]["agent"], "agt_walker");
    assert!(seen.get("events").is_none(), "no trace.read, no events: {}", seen["events"]);
    assert_eq!(seen["withheld"], json!({"events": "needs trace.read"}));

    // The builder (trace.read) sees the log's notable events, newest first: the refusal and the
    // writes, never the reads (the digests just made, the queries).
    let builder = digest(&e, json!({"maxBytes": 65_536}));
    assert_eq!(builder["withheld"], json!({}));
    let events = builder["events"].as_array().unwrap();
    let types: Vec<&str> = events.iter().map(|r| r["type"].as_str().unwrap()).collect();
    assert!(types.contains(&"policy.denied") || types.contains(&"security.permission.denied"), "{types:?}");
    assert!(events.iter().any(|r| r["skill"] == "agent.spawn"), "{types:?}");
    assert!(events.iter().all(|r| r["skill"] != "world.digest" && r["skill"] != "scene.queryEntities"), "{events:?}");
    let seqs: Vec<u64> = events.iter().map(|r| r["seq"].as_u64().unwrap()).collect();
    assert!(seqs.windows(2).all(|w| w[0] > w[1]), "newest first: {seqs:?}");

    // Holding only scene.read: no agents, and no row or order gives an agent's body away.
    let mut reader = Caller::new("agt_reader", "ses_reader", "system.readonly");
    reader.permissions = PermissionSet::of(&[Permission::SceneRead]);
    let bare = ok(&e, &reader, "world.digest", json!({"maxBytes": 65_536}));
    assert_eq!(bare["withheld"], json!({"agents": "needs agent.read", "events": "needs trace.read"}));
    assert!(bare.get("agents").is_none() && bare["counts"].get("agents").is_none());
    assert!(bare["entities"].as_array().unwrap().iter().all(|r| r.get("agent").is_none()));
    assert_ne!(bare["entities"][0]["id"], body);

    // Without scene.read, nothing.
    let mut blind = reader.clone();
    blind.permissions = PermissionSet::of(&[Permission::AgentRead]);
    let refused = e.call(&blind, "world.digest", json!({}));
    assert_eq!(refused.error.unwrap().code.as_str(), "forbidden");
}

#[test]
fn hostile_inputs_are_refused_naming_the_field_and_change_nothing() {
    let e = engine(100);
    populate(&e, 20);
    let hash = e.world_hash();
    for (input, field) in [
        (json!({"maxBytes": 0}), "maxBytes"),
        (json!({"maxBytes": 9_223_372_036_854_775_808u64}), "maxBytes"),
        (json!({"maxBytes": -1}), "maxBytes"),
        (json!({"maxBytes": 4096.5}), "maxBytes"),
        (json!({"maxBytes": 65_537}), "maxBytes"),
        (json!({"around": {"point": [0, 0, 0], "radius": 1e308}}), "radius"),
        (json!({"around": {"point": [0, 0, 0], "radius": 0}}), "radius"),
        (json!({"around": {"point": [1e7, 0, 0], "radius": 5}}), "point"),
        (json!({"around": {"point": [0, 0], "radius": 5}}), "point"),
        (json!({"around": {"radius": 5}}), "point"),
        (json!({"tags": ["x"]}), "tags"),
    ] {
        let r = e.call(e.script_caller(), "world.digest", input.clone());
        let error = r.error.unwrap_or_else(|| panic!("{input} was accepted"));
        assert_eq!(error.code.as_str(), "invalid_input", "{input}: {}", error.message);
        assert!(error.message.contains(field), "{input}: {}", error.message);
    }
    // NaN and infinity from a script never reach the op.
    e.run_source(
        r#"
        for _, p in { { 0/0, 0, 0 }, { math.huge, 0, 0 } } do
            local r = limina.call("world.digest", { around = { point = p, radius = 5 } })
            assert(not r.success and r.error.code == "invalid_input", r.error and r.error.message)
        end
        local r = limina.call("world.digest", { around = { point = { 0, 0, 0 }, radius = 0/0 } })
        assert(not r.success and r.error.code == "invalid_input", r.error and r.error.message)
        local r = limina.call("world.digest", { maxBytes = 2^63 })
        assert(not r.success and r.error.code == "invalid_input", r.error and r.error.message)
        "#,
        "hostile.lua",
    )
    .unwrap();
    assert_eq!(e.world_hash(), hash);
}

#[test]
fn reading_a_digest_changes_nothing_and_two_reads_agree() {
    let e = engine(100);
    populate(&e, 50);
    e.step(5).unwrap();
    let hash = e.world_hash();
    let first = serde_json::to_string(&digest(&e, json!({}))).unwrap();
    let second = serde_json::to_string(&digest(&e, json!({}))).unwrap();
    assert_eq!(first, second, "a digest is not a notable event, so the next one reads alike");
    assert_eq!(e.world_hash(), hash);
}
