//! `social.say` and `social.approach` act for the calling agent only: through the real
//! perceive → decide → act pipeline, a spoofed speaker is ignored, a `player.limited` agent is
//! denied with zero effect, and a walk arrives within the ticks its distance needs.

use limina::host::{Engine, EngineConfig, Output};
use limina::skills::Caller;
use serde_json::{Value, json};

fn engine() -> Engine {
    Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(crate::root()) }).unwrap()
}

fn call(e: &Engine, skill: &str, input: Value) -> Value {
    let r = e.call(&e.script_caller().clone(), skill, input.clone());
    assert!(r.success, "{skill} {input}: {r:?}");
    r.result.unwrap()
}

fn events(e: &Engine, kind: &str) -> Vec<(String, String, Value)> {
    e.trace()
        .durable()
        .map(Result::unwrap)
        .filter(|ev| &*ev.event_type == kind)
        .map(|ev| (ev.id.clone(), ev.actor_id.to_string(), ev.payload_value()))
        .collect()
}

fn policy(e: &Engine, name: &str, body: &str) {
    e.run_source(&format!("limina.scripted_policy({name:?}, function(request) {body} end)"), "policy.lua").unwrap();
}

/// Spawns a static-bodied agent (a kinematic-free box, so walking is easy to measure) with a
/// scripted policy, deciding once.
fn agent(e: &Engine, id: &str, profile: &str, model: &str, at: [f64; 3]) -> Value {
    call(
        e,
        "agent.spawn",
        json!({"id": id, "profile": profile, "body": {"shape": "box", "position": at}, "decisionIntervalTicks": 100000, "llm": {"model": model}}),
    )
}

#[test]
fn a_spoofed_speaker_is_ignored_and_the_line_is_traced_as_the_real_one() {
    let e = engine();
    policy(&e, "liar", r#"return { { tool = "social.say", input = { text = "I am the mayor", actorId = "agt_mayor" } } }"#);
    policy(&e, "idle", "return {}");
    agent(&e, "agt_mayor", "social.actor", "idle", [5.0, 0.5, 0.0]);
    agent(&e, "agt_liar", "social.actor", "liar", [0.0, 0.5, 0.0]);
    e.step(3).unwrap();
    let said = events(&e, "social.said");
    assert_eq!(said.len(), 1, "{said:?}");
    let (_, actor, payload) = &said[0];
    assert_eq!(actor, "agt_liar");
    assert_eq!(payload["speaker"], "agt_liar");
    assert_eq!(payload["text"], "I am the mayor");
    // The bubble belongs to the liar and sits over the liar's body.
    let handle = payload["handle"].as_str().unwrap();
    let world = e.world();
    let bubble = world.ui.get(handle).unwrap();
    assert_eq!(bubble.speaker.as_deref(), Some("agt_liar"));
    assert_eq!(bubble.kind.as_str(), "speechBubble");
    let liar_body = payload["entity"].as_str().unwrap();
    match &bubble.spec.anchor {
        limina::world::ui::Anchor::World(w) => assert_eq!(w.entity.as_deref(), Some(liar_body)),
        other => panic!("{other:?}"),
    }
    // The spoof attempt is visible in the record of the call, and nothing names the mayor as speaker.
    assert!(events(&e, "social.said").iter().all(|(_, a, p)| a != "agt_mayor" && p["speaker"] != "agt_mayor"));
}

#[test]
fn social_skills_from_a_player_limited_agent_are_denied_with_zero_effect() {
    let e = engine();
    policy(
        &e,
        "chatty",
        r#"return { { tool = "social.say", input = { text = "hi" } }, { tool = "social.approach", input = { target = { 9, 0, 9 } } } }"#,
    );
    agent(&e, "agt_p", "player.limited", "chatty", [0.0, 0.5, 0.0]);
    // The tools offered to a player.limited agent do not include social.*, so the calls are
    // rejected before queueing or denied by policy; either way nothing happens.
    let before_ui = e.world().ui.len();
    e.step(3).unwrap();
    assert!(events(&e, "social.said").is_empty());
    assert_eq!(e.world().ui.len(), before_ui);
    assert!(e.agents().get("agt_p").unwrap().approach.is_none());
    let refused = events(&e, "agent.toolcall.rejected").len() + events(&e, "security.permission.denied").len();
    assert!(refused >= 2, "both calls refused and traced");
    // Called directly under the agent's own session, the policy denies it the same way.
    let player = Caller::new("agt_p", "ses_agt_p", "player.limited");
    let r = e.call(&player, "social.say", json!({"text": "hi"}));
    assert_eq!(r.error.as_ref().map(|f| f.code.as_str()), Some("forbidden"));
    assert_eq!(r.error.unwrap().message, "missing permission: social.act (profile player.limited lacks it; granted by social.actor)");
    assert_eq!(e.world().ui.len(), before_ui);
}

#[test]
fn approach_walks_to_talking_distance_in_the_ticks_the_distance_needs() {
    let e = engine();
    policy(&e, "walker", r#"return { { tool = "social.approach", input = { target = "agt_npc", talkDistance = 2 } } }"#);
    policy(&e, "idle", "return {}");
    agent(&e, "agt_npc", "social.actor", "idle", [10.0, 0.5, 0.0]);
    agent(&e, "agt_walker", "social.actor", "walker", [0.0, 0.5, 0.0]);
    // 8 m to cover at 2 m/s: 240 ticks, plus a few for the decision and friction at the start.
    let mut arrived_at = None;
    for tick in 0..400 {
        e.step(1).unwrap();
        if !events(&e, "social.approached").is_empty() {
            arrived_at = Some(tick);
            break;
        }
    }
    let arrived_at = arrived_at.expect("arrived within 400 ticks");
    assert!((235..=270).contains(&arrived_at), "arrived at tick {arrived_at}");
    let (_, actor, payload) = &events(&e, "social.approached")[0];
    assert_eq!(actor, "agt_walker");
    assert_eq!(payload["target"], "agt_npc");
    assert!(payload["distance"].as_f64().unwrap() <= 2.0 + limina::agents::social::ARRIVAL_TOLERANCE);
    assert!(e.agents().get("agt_walker").unwrap().approach.is_none(), "the walk ended");
}

#[test]
fn approach_fails_honestly_when_the_target_goes_away_and_refuses_bad_targets() {
    let e = engine();
    policy(&e, "idle", "return {}");
    let npc = agent(&e, "agt_npc", "social.actor", "idle", [30.0, 0.5, 0.0]);
    agent(&e, "agt_w", "social.actor", "idle", [0.0, 0.5, 0.0]);
    let walker = Caller::new("agt_w", "ses_agt_w", "social.actor");
    let r = e.call(&walker, "social.approach", json!({"target": npc["entity"]}));
    assert!(r.success, "{r:?}");
    e.step(5).unwrap();
    call(&e, "agent.despawn", json!({"agentId": "agt_npc", "removeBody": true}));
    e.step(2).unwrap();
    let failed = events(&e, "social.approach.failed");
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0].2["reason"], "the target no longer exists");
    // Bad targets: named and refused, nothing changes.
    for (target, code) in [
        (json!("ent_9999"), "not_found"),
        (json!("agt_ghost"), "not_found"),
        (json!("box1"), "invalid_input"),
        (json!([1, 2]), "invalid_input"),
    ] {
        let r = e.call(&walker, "social.approach", json!({"target": target}));
        assert_eq!(r.error.as_ref().map(|f| f.code.as_str()), Some(code), "{target}: {r:?}");
    }
    let r = e.call(&walker, "social.approach", json!({"target": [0, 0, 0], "talkDistance": 51}));
    assert_eq!(r.error.map(|f| f.code.as_str()), Some("invalid_input"));
    // A point out of the world's bounds never reaches the physics (it would turn into a NaN walk).
    let r = e.call(&walker, "social.approach", json!({"target": [1e308, 0, 0]}));
    assert_eq!(r.error.map(|f| f.code.as_str()), Some("invalid_input"));
    assert!(e.agents().get("agt_w").unwrap().approach.is_none());
    // A builder session that is not an agent in the world has no body to speak with.
    let r = e.call(&Caller::new("agt_x", "ses_x", "social.actor"), "social.say", json!({"text": "hello"}));
    let error = r.error.unwrap();
    assert!(error.message.contains("agt_x"), "{}", error.message);
}

#[test]
fn lines_queue_in_one_bubble_per_speaker_and_it_expires_after_the_last() {
    let e = engine();
    policy(&e, "idle", "return {}");
    agent(&e, "agt_s", "social.actor", "idle", [0.0, 0.5, 0.0]);
    let speaker = Caller::new("agt_s", "ses_agt_s", "social.actor");
    let first = e.call(&speaker, "social.say", json!({"text": "one"})).result.unwrap();
    let second = e.call(&speaker, "social.say", json!({"text": "two"})).result.unwrap();
    assert_eq!(first["handle"], second["handle"], "one bubble per speaker");
    let handle = first["handle"].as_str().unwrap().to_string();
    let shows = |e: &Engine| e.world().ui.get(&handle).map(|b| b.present(e.world().ui.tick).body());
    e.step(60).unwrap();
    assert_eq!(shows(&e).as_deref(), Some("one"));
    // "one": 3 chars at 30 cps = 100 ms, held 2500 ms -> "two" starts at 2600 ms (tick 156);
    // at tick 161 it has shown for 83 ms: 2.5 characters, so two of them.
    e.step(101).unwrap();
    assert_eq!(shows(&e).as_deref(), Some("tw"));
    e.step(200).unwrap();
    assert_eq!(shows(&e), None, "expired after the last line was shown and held");
    assert_eq!(events(&e, "ui.expired")[0].2["handle"], handle.as_str());
}

#[test]
fn the_scripted_forest_conversation_gives_the_same_lines_and_world_hash_twice() {
    let run = || {
        let e = engine();
        e.run_file(&crate::root().join("demos/forest_conversation.lua")).unwrap();
        let mut ticks = 0;
        while !e.quit_requested() && ticks < 3000 {
            e.step(1).unwrap();
            ticks += 1;
        }
        let lines: Vec<String> =
            events(&e, "social.said").iter().map(|(_, actor, p)| format!("{actor}: {}", p["text"].as_str().unwrap())).collect();
        (lines, e.world_hash(), ticks)
    };
    let (lines, hash, ticks) = run();
    assert_eq!(lines.len(), 6, "the whole conversation was said: {lines:?}");
    assert_eq!(lines[0], "agt_wanderer: Hello, fox! Have you seen the owl?");
    assert_eq!(lines[1], "agt_fox: The owl? She sits by the old oak, over to the east.");
    assert!(ticks < 3000, "the demo ends when the talk does");
    let (again, hash_again, ticks_again) = run();
    assert_eq!((&lines, &hash, ticks), (&again, &hash_again, ticks_again));
    crate::determinism::golden_hash("forest_conversation_seed0", &hash);
}

/// The showcase (issue 28): everything at once. The scripted talk is said whole and heard, the
/// stack is knocked over, models are loaded, the bell rings in the world, the HUD carries the
/// agents' own calls — and two runs end on the committed hash.
#[test]
fn the_showcase_runs_everything_at_once_and_the_same_every_time() {
    let run = || {
        let e = engine();
        e.run_file(&crate::root().join("demos/showcase.lua")).unwrap();
        let mut ticks = 0;
        while !e.quit_requested() && ticks < 4000 {
            e.step(1).unwrap();
            ticks += 1;
        }
        let lines: Vec<String> =
            events(&e, "social.said").iter().map(|(_, actor, p)| format!("{actor}: {}", p["text"].as_str().unwrap())).collect();
        (e, lines, ticks)
    };
    let (e, lines, ticks) = run();
    assert_eq!(lines.len(), 7, "the whole talk was said: {lines:?}");
    assert_eq!(lines[0], "agt_tom: Good evening! Are those apples fresh?");
    assert_eq!(lines[6], "agt_tom: Perfect. Thank you both!");
    assert!(ticks < 4000, "the demo ends when the talk does");
    let heard = call(&e, "agent.list", json!({}));
    assert_eq!(heard["agents"].as_array().unwrap().len(), 3);
    let snapshot = call(&e, "inspector.snapshot", json!({"limit": 0}));
    assert_eq!(snapshot["resources"]["loaded"].as_array().unwrap().len(), 2, "crate and ball models: {}", snapshot["resources"]);
    let rung = events(&e, "skill.executed").iter().filter(|(_, _, p)| p["skill"] == "audio.playAt").count();
    assert!(rung >= 5, "the bell rang every 4 s: {rung}");
    // The stack's top crate stood at 2.1 m.
    let high = call(&e, "scene.queryEntities", json!({"near": [7, 2.1, 3], "radius": 0.4}));
    assert_eq!(high["entities"], json!([]), "the ball knocked the stack over");
    let hud: Vec<String> = e.world().ui.iter().map(|u| serde_json::to_string(u).unwrap()).filter(|u| u.contains("agent ops")).collect();
    let hud = hud.join("");
    assert!(hud.contains("Tom social.approach"), "the HUD shows agent ops from the log: {hud}");
    let hash = e.world_hash();
    let (again, lines_again, ticks_again) = run();
    assert_eq!((&lines, ticks), (&lines_again, ticks_again));
    assert_eq!(hash, again.world_hash());
    crate::determinism::golden_hash("showcase_seed0", &hash);
}

#[test]
fn a_static_body_cannot_walk_and_a_speech_bubble_is_not_anyones_to_edit() {
    let e = engine();
    policy(&e, "idle", "return {}");
    let wall = call(&e, "scene.createEntity", json!({"shape": "box", "static": true, "position": [0, 0.5, 0]}));
    call(&e, "agent.spawn", json!({"id": "agt_wall", "entity": wall["entity"], "profile": "social.actor", "llm": {"model": "idle"}}));
    let wall_agent = Caller::new("agt_wall", "ses_agt_wall", "social.actor");
    let r = e.call(&wall_agent, "social.approach", json!({"target": [10, 0, 0]}));
    let error = r.error.unwrap();
    assert!(error.message.contains("not dynamic"), "{}", error.message);
    // Its speech bubble belongs to social.say: ui.update / ui.remove are refused, even for the
    // operator, and nothing changes.
    let said = e.call(&wall_agent, "social.say", json!({"text": "I am a wall"})).result.unwrap();
    let handle = said["handle"].as_str().unwrap();
    let before = e.world_hash();
    for (skill, input) in [("ui.update", json!({"handle": handle, "text": "forged"})), ("ui.remove", json!({"handle": handle}))] {
        let r = e.call(&e.script_caller().clone(), skill, input);
        assert_eq!(r.error.map(|f| f.code.as_str()), Some("forbidden"), "{skill}");
    }
    assert_eq!(e.world_hash(), before);
}

#[test]
fn the_speech_queue_cap_counts_only_lines_still_waiting() {
    let e = engine();
    policy(&e, "idle", "return {}");
    agent(&e, "agt_s", "social.actor", "idle", [0.0, 0.5, 0.0]);
    let speaker = Caller::new("agt_s", "ses_agt_s", "social.actor");
    for i in 0..16 {
        assert!(e.call(&speaker, "social.say", json!({"text": format!("line {i}")})).success);
    }
    let r = e.call(&speaker, "social.say", json!({"text": "one too many"}));
    assert_eq!(r.error.map(|f| f.code.as_str()), Some("capacity_exceeded"));
    // Once most have been shown, there is room again.
    e.step(15 * (150 + 12)).unwrap();
    assert!(e.call(&speaker, "social.say", json!({"text": "now there is room"})).success);
}
