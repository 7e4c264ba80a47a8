//! Sharing one world (issue 27, item 5): entity revisions and `ifRevision`, leases and who they
//! hold back. A refused write changes nothing (same hash, same revision, same transform), is
//! in the command log with its code, and a replay refuses it again and ends on the same hash;
//! revisions and leases survive a snapshot.

use std::path::Path;
use std::rc::Rc;

use limina::durable;
use limina::host::{self, Engine, EngineConfig, Output, ReplayOptions};
use limina::policy::Principal;
use limina::skills::{Caller, SkillResponse};
use serde_json::{Value, json};

fn engine_logged(log: Option<&Path>) -> Engine {
    let mut config = EngineConfig { output: Output::Silent, ..EngineConfig::new(crate::root()) };
    config.log = log.map(|l| durable::LogConfig { checkpoint_every: 5, ..durable::LogConfig::new(l) });
    Engine::new(config).unwrap()
}

fn engine() -> Engine {
    engine_logged(None)
}

fn session(name: &str) -> Caller {
    Caller::new(&format!("agt_{name}"), &format!("ses_{name}"), "builder.readWrite")
}

fn ok(r: SkillResponse, what: &str) -> Value {
    assert!(r.success, "{what}: {:?}", r.error);
    r.result.unwrap()
}

fn refused(r: &SkillResponse, code: &str) -> String {
    let e = r.error.as_ref().unwrap_or_else(|| panic!("expected {code}, the call succeeded: {:?}", r.result));
    assert_eq!(e.code.as_str(), code, "{}", e.message);
    e.message.clone()
}

fn create(e: &Engine, by: &Caller) -> String {
    ok(e.call(by, "scene.createEntity", json!({"position": [0, 1, 0], "dynamic": true})), "create")["entity"].as_str().unwrap().to_string()
}

fn revision(e: &Engine, entity: &str) -> u64 {
    let id = e.world().resolve(entity).unwrap();
    e.world().revision(id).unwrap()
}

/// What a refused call must leave as it was.
fn state(e: &Engine, entity: &str) -> (String, u64, Option<[f32; 3]>) {
    let id = e.world().resolve(entity);
    (e.world_hash(), id.and_then(|id| e.world().revision(id)).unwrap_or(0), id.and_then(|id| e.world().transform(id)).map(|t| t.position))
}

fn move_to(entity: &str, x: f64, if_revision: Option<Value>) -> Value {
    let mut input = json!({"entity": entity, "position": [x, 1, 0]});
    if let Some(r) = if_revision {
        input["ifRevision"] = r;
    }
    input
}

#[test]
fn a_stale_if_revision_is_a_conflict_that_changes_nothing() {
    let e = engine();
    let (a, b) = (session("a"), session("b"));
    let ent = create(&e, &a);
    assert_eq!(revision(&e, &ent), 1, "a new entity is at revision 1");
    ok(e.call(&a, "three.setTransform", move_to(&ent, 2.0, Some(json!(1)))), "a's conditional write");
    assert_eq!(revision(&e, &ent), 2);
    // The same value again is no change: the revision stays (an idempotent retry never conflicts).
    ok(e.call(&a, "three.setTransform", move_to(&ent, 2.0, None)), "same value");
    assert_eq!(revision(&e, &ent), 2);

    let before = state(&e, &ent);
    let message = refused(&e.call(&b, "three.setTransform", move_to(&ent, 9.0, Some(json!(1)))), "conflict");
    assert!(message.contains("revision 2") && message.contains("ifRevision 1"), "{message}");
    assert_eq!(state(&e, &ent), before, "a conflict changes nothing");
    for skill_input in [
        ("ecs.addComponent", json!({"entity": ent, "component": "x", "ifRevision": 1})),
        ("physics.applyImpulse", json!({"entity": ent, "impulse": [1, 0, 0], "ifRevision": 1})),
        ("scene.destroyEntity", json!({"entity": ent, "ifRevision": 1})),
    ] {
        refused(&e.call(&b, skill_input.0, skill_input.1), "conflict");
        assert_eq!(state(&e, &ent), before, "{} changed nothing", skill_input.0);
    }
    // The current revision passes.
    ok(e.call(&b, "three.setTransform", move_to(&ent, 3.0, Some(json!(2)))), "b with the current revision");
    assert_eq!(revision(&e, &ent), 3);

    // Reads show it; the trace names the revision a write left.
    let rows = ok(e.call(&b, "scene.queryEntities", json!({})), "query");
    assert_eq!(rows["entities"][0]["revision"], json!(3), "{rows}");
    let executed = e
        .trace()
        .tail()
        .rev()
        .find(|ev| ev.event_type.as_ref() == "skill.executed" && ev.payload_value().to_string().contains("setTransform"))
        .map(|ev| ev.payload_value().to_string());
    assert!(executed.as_deref().is_some_and(|p| p.contains("\"revision\":3")), "{executed:?}");
}

#[test]
fn a_hostile_if_revision_is_invalid_input() {
    let e = engine();
    let a = session("a");
    let ent = create(&e, &a);
    let before = state(&e, &ent);
    for bad in [json!(1.5), json!(-1), json!(0), json!(9_223_372_036_854_775_807u64), json!(1e300), json!("1"), json!(null), json!([1])] {
        let message = refused(&e.call(&a, "three.setTransform", move_to(&ent, 5.0, Some(bad.clone()))), "invalid_input");
        assert!(message.contains("ifRevision"), "{bad}: {message}");
        assert_eq!(state(&e, &ent), before, "{bad} changed nothing");
    }
    // On a skill that targets no entity there is no such field.
    refused(&e.call(&a, "three.setLighting", json!({"ambientIntensity": 0.5, "ifRevision": 1})), "invalid_input");
}

#[test]
fn a_leased_entity_refuses_other_sessions_until_the_lease_lapses() {
    let e = engine();
    let (a, b) = (session("a"), session("b"));
    let ent = create(&e, &a);
    let lease = ok(e.call(&a, "scene.lease", json!({"entities": [ent], "ticks": 30})), "lease");
    assert_eq!(lease["expiresAt"], json!(30));
    assert_eq!(lease["holder"], json!("ses_a"));
    assert_eq!(lease["entities"][0]["revision"], json!(1));

    let before = state(&e, &ent);
    for (skill, input) in [
        ("three.setTransform", move_to(&ent, 9.0, None)),
        ("three.setMaterial", json!({"entity": ent, "roughness": 0.1})),
        ("ecs.updateComponent", json!({"entity": ent, "component": "position", "value": [4, 4, 4]})),
        ("ecs.addComponent", json!({"entity": ent, "component": "mine"})),
        ("physics.applyImpulse", json!({"entity": ent, "impulse": [5, 0, 0]})),
        ("scene.destroyEntity", json!({"entity": ent})),
        ("agent.spawn", json!({"entity": ent})),
        ("scene.lease", json!({"entities": [ent], "ticks": 10})),
        ("scene.release", json!({"entities": [ent]})),
    ] {
        let message = refused(&e.call(&b, skill, input), "leased");
        assert!(message.contains("ses_a") && message.contains("tick 30"), "{skill}: {message}");
        assert_eq!(state(&e, &ent), before, "{skill} by another session changed nothing");
    }
    // The holder writes; the lease shows in reads.
    ok(e.call(&a, "three.setTransform", move_to(&ent, 2.0, None)), "the holder writes");
    let rows = ok(e.call(&b, "scene.queryEntities", json!({})), "query");
    assert_eq!((&rows["entities"][0]["leasedBy"], &rows["entities"][0]["leaseExpiresAt"]), (&json!("ses_a"), &json!(30)));

    // The lease lapses at tick 30, at the boundary: a write at tick 29 is refused, at 30 it passes.
    e.step(29).unwrap();
    refused(&e.call(&b, "three.setTransform", move_to(&ent, 9.0, None)), "leased");
    e.step(1).unwrap();
    ok(e.call(&b, "three.setTransform", move_to(&ent, 9.0, None)), "after the lease lapsed");
    assert!(e.trace().tail().any(|ev| ev.event_type.as_ref() == "lease.expired"));
    assert!(e.world().leases().is_empty());
}

#[test]
fn delegates_write_for_the_holder_and_the_operator_is_traced() {
    let e = engine();
    let (a, b) = (session("a"), session("b"));
    let ent = create(&e, &a);
    ok(e.call(&a, "scene.lease", json!({"entities": [ent], "ticks": 100})), "lease");
    // An agent acting for session a (a spawned it) writes as a's delegate; one acting for b does not.
    let delegate = |root: &str| {
        let mut c = Caller::new(&format!("agt_of_{root}"), &format!("ses_agt_of_{root}"), "builder.readWrite");
        c.acting_for = Some(Rc::from([Principal { agent_id: format!("agt_{root}").into(), session_id: format!("ses_{root}").into() }]));
        c
    };
    ok(e.call(&delegate("a"), "three.setTransform", move_to(&ent, 1.0, None)), "a's delegate");
    refused(&e.call(&delegate("b"), "three.setTransform", move_to(&ent, 1.5, None)), "leased");
    // Session ids compare as their claims do, without regard to case.
    ok(e.call(&Caller::new("agt_A", "SES_A", "builder.readWrite"), "three.setTransform", move_to(&ent, 1.2, None)), "same session");
    // The operator (the host script's caller holds policy.govern) is never held back, and traced.
    let operator = e.script_caller().clone();
    ok(e.call(&operator, "three.setTransform", move_to(&ent, 7.0, None)), "the operator");
    let overridden: Vec<String> =
        e.trace().tail().filter(|ev| ev.event_type.as_ref() == "lease.overridden").map(|ev| ev.payload_value().to_string()).collect();
    assert_eq!(overridden.len(), 1, "{overridden:?}");
    assert!(overridden[0].contains("\"holder\":\"ses_a\""), "{}", overridden[0]);
    // The operator releases another's lease; then b may write.
    let released = ok(e.call(&operator, "scene.release", json!({"entities": [ent]})), "operator release");
    assert_eq!(released["released"], json!([ent]));
    ok(e.call(&b, "three.setTransform", move_to(&ent, 8.0, None)), "after release");
    assert!(e.trace().tail().any(|ev| ev.event_type.as_ref() == "lease.released"));
}

#[test]
fn hostile_leases_are_bounded_and_all_or_nothing() {
    let e = engine();
    let (a, b) = (session("a"), session("b"));
    let ents: Vec<String> = (0..70).map(|_| create(&e, &a)).collect();
    let hash = e.world_hash();
    for (input, code) in [
        (json!({"entities": [ents[0]], "ticks": 9_223_372_036_854_775_808u64}), "invalid_input"),
        (json!({"entities": [ents[0]], "ticks": 0}), "invalid_input"),
        (json!({"entities": [ents[0]], "ticks": 1.5}), "invalid_input"),
        (json!({"entities": [ents[0]], "ticks": -5}), "invalid_input"),
        (json!({"entities": ents.iter().take(65).collect::<Vec<_>>(), "ticks": 10}), "invalid_input"),
        (json!({"entities": [], "ticks": 10}), "invalid_input"),
        // An id that never existed, after a real one: nothing is leased.
        (json!({"entities": [ents[0], "ent_9999"], "ticks": 10}), "not_found"),
        (json!({"entities": [ents[0], "ent_1"], "ticks": 10}), "invalid_input"),
    ] {
        refused(&e.call(&a, "scene.lease", input.clone()), code);
        assert!(e.world().leases().is_empty(), "{input}: nothing leased");
        assert_eq!(e.world_hash(), hash);
    }
    // A session holds at most 256 leases: past that, capacity_exceeded and nothing more granted.
    let many: Vec<String> = (0..200).map(|_| create(&e, &b)).collect();
    for chunk in ents.iter().chain(&many).collect::<Vec<_>>().chunks(64).take(4) {
        ok(e.call(&a, "scene.lease", json!({"entities": chunk, "ticks": 10})), "a chunk");
    }
    assert_eq!(e.world().leases().len(), 256);
    let extra = &many[many.len() - 1];
    let message = refused(&e.call(&a, "scene.lease", json!({"entities": [extra], "ticks": 10})), "capacity_exceeded");
    assert!(message.contains("256"), "{message}");
    // Leasing then going away: the leases lapse by tick all the same.
    e.step(10).unwrap();
    assert!(e.world().leases().is_empty(), "every lease lapsed");
}

#[test]
fn an_agents_body_is_leased_only_by_whom_it_acts_for() {
    let e = engine();
    let (a, b) = (session("a"), session("b"));
    e.run_source("limina.scripted_policy('idle', function() return {} end)", "idle.lua").unwrap();
    let spawned = ok(e.call(&a, "agent.spawn", json!({"body": {"position": [0, 1, 0]}, "llm": {"model": "idle"}})), "spawn");
    let body = spawned["entity"].as_str().unwrap().to_string();
    let message = refused(&e.call(&b, "scene.lease", json!({"entities": [body], "ticks": 60})), "forbidden");
    assert!(message.contains("ses_a"), "{message}");
    assert!(e.world().leases().is_empty());
    ok(e.call(&a, "scene.lease", json!({"entities": [body], "ticks": 60})), "its spawner leases it");
}

#[test]
fn replacing_the_world_is_refused_while_another_session_leases_an_entity() {
    let e = engine();
    let (a, b) = (session("a"), session("b"));
    let ent = create(&e, &a);
    ok(e.call(&a, "scene.lease", json!({"entities": [ent], "ticks": 100})), "lease");
    let before = state(&e, &ent);
    let message = refused(&e.call(&b, "scene.load", json!({"name": "courtyard"})), "leased");
    assert!(message.contains(&ent), "{message}");
    assert_eq!(state(&e, &ent), before, "the world is as it was");
    // The holder may (its own lease goes with the entity it destroys).
    ok(e.call(&a, "scene.load", json!({"name": "courtyard"})), "the holder loads");
    assert!(e.world().leases().is_empty());
}

/// The same calls, refusals among them, in a logged run.
fn contested_run(log: &Path) -> String {
    let e = engine_logged(Some(log));
    let (a, b) = (session("a"), session("b"));
    let ent = create(&e, &a);
    let other = create(&e, &b);
    ok(e.call(&a, "scene.lease", json!({"entities": [ent], "ticks": 12})), "lease");
    e.step(3).unwrap();
    refused(&e.call(&b, "three.setTransform", move_to(&ent, 4.0, None)), "leased");
    refused(&e.call(&b, "physics.applyImpulse", json!({"entity": ent, "impulse": [3, 0, 0]})), "leased");
    ok(e.call(&a, "physics.applyImpulse", json!({"entity": ent, "impulse": [1, 0, 0], "ifRevision": 1})), "holder");
    refused(&e.call(&a, "three.setTransform", move_to(&other, 1.0, Some(json!(5)))), "conflict");
    ok(e.call(&b, "three.setTransform", move_to(&other, 1.0, Some(json!(1)))), "b's own");
    e.step(10).unwrap();
    // The lease lapsed at tick 12: b's write now passes.
    ok(e.call(&b, "three.setTransform", move_to(&ent, 4.0, None)), "after expiry");
    e.step(5).unwrap();
    e.make_durable().unwrap();
    e.world_hash()
}

#[test]
fn refusals_are_logged_and_replay_identically() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("contested.log");
    let live = contested_run(&log);
    let text = std::fs::read_to_string(&log).unwrap();
    assert_eq!(text.matches("\"outcome\":\"leased\"").count(), 2, "both refusals are in the log");
    assert_eq!(text.matches("\"outcome\":\"conflict\"").count(), 1);
    let (engine, report) = host::replay(&log, &ReplayOptions { verify: true, until: None, project: crate::root() }).unwrap();
    assert_eq!(report.divergence, None);
    assert!(report.checkpoints >= 3, "{} checkpoints", report.checkpoints);
    assert_eq!(engine.world_hash(), live, "the replay ends on the live hash");

    // A log whose refusal is rewritten as a success diverges there: the replay refused it again.
    let tampered = text.replacen("\"outcome\":\"leased\"", "\"outcome\":\"ok\"", 1);
    std::fs::write(&log, tampered).unwrap();
    let (_, report) = host::replay(&log, &ReplayOptions { verify: true, until: None, project: crate::root() }).unwrap();
    let divergence = report.divergence.expect("the rewritten refusal diverges");
    assert!(divergence.reason.contains("ended leased"), "{divergence}");
}

#[test]
fn revisions_and_leases_survive_a_snapshot() {
    let e = engine();
    let (a, b) = (session("a"), session("b"));
    let ent = create(&e, &a);
    ok(e.call(&a, "three.setTransform", move_to(&ent, 2.0, None)), "write");
    ok(e.call(&a, "scene.lease", json!({"entities": [ent], "ticks": 40})), "lease");
    e.step(5).unwrap();
    let bytes = e.snapshot().unwrap();
    let restored = engine();
    restored.restore(&bytes).unwrap();
    assert_eq!(restored.world_hash(), e.world_hash());
    assert_eq!(revision(&restored, &ent), 2);
    let message = refused(&restored.call(&b, "three.setTransform", move_to(&ent, 9.0, None)), "leased");
    assert!(message.contains("tick 40"), "{message}");
    restored.step(35).unwrap();
    ok(restored.call(&b, "three.setTransform", move_to(&ent, 9.0, Some(json!(2)))), "after the restored lease lapsed");
}
