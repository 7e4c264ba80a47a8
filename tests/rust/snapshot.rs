//! Snapshots (issue 13, a durable world): a restored engine steps on exactly like the one saved
//! (bodies resting in contact, stacked and colliding, so the solver's contact state matters),
//! issues the same next ids, keeps its agents, policy and `math.random` sequence; a broken
//! snapshot is refused with its reason and changes nothing; `world.snapshot` stays in its folder.

use std::path::Path;

use limina::host::{Engine, EngineConfig, Output};
use limina::skills::Caller;
use limina::snapshot::{FORMAT_VERSION, SnapshotError};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

fn engine_with(seed: u64, snapshots: Option<&Path>) -> Engine {
    let config =
        EngineConfig { seed, output: Output::Silent, snapshots_dir: snapshots.map(Path::to_path_buf), ..EngineConfig::new(crate::root()) };
    Engine::new(config).unwrap()
}

fn engine() -> Engine {
    engine_with(0, None)
}

fn call(e: &Engine, skill: &str, input: Value) -> Value {
    let r = e.call(&e.script_caller().clone(), skill, input.clone());
    assert!(r.success, "{skill} {input}: {:?}", r.error);
    r.result.unwrap()
}

fn create(e: &Engine, input: Value) -> String {
    call(e, "scene.createEntity", input)["entity"].as_str().unwrap().to_string()
}

/// A floor, a tower of boxes settling on it, a heap of spheres, and balls thrown at the tower,
/// plus the rest of world state: tags, a material, a destroyed entity, lighting, UI, a sound.
fn build_scene(e: &Engine) {
    create(e, json!({"static": true, "size": 50, "position": [0, -25, 0], "friction": 0.9}));
    for i in 0..8 {
        let x = if i % 2 == 0 { 0.0 } else { 0.05 };
        create(e, json!({"dynamic": true, "size": 1, "position": [x, 0.5 + i as f64 * 1.01, 0], "friction": 0.7}));
    }
    for i in 0..24 {
        let (x, z) = ((i % 4) as f64 * 0.9 - 6.0, (i / 4 % 3) as f64 * 0.9 + 2.0);
        create(e, json!({"dynamic": true, "shape": "sphere", "size": 0.8, "position": [x, 0.4 + (i / 12) as f64, z], "restitution": 0.2}));
    }
    for i in 0..4 {
        let ball = create(e, json!({"dynamic": true, "shape": "sphere", "size": 0.6, "position": [-8.0 - i as f64, 0.3, 0.2 * i as f64]}));
        call(e, "physics.applyImpulse", json!({"entity": ball, "impulse": [2.5 + i as f64 * 0.4, 0.3, 0]}));
        call(e, "ecs.addComponent", json!({"entity": ball, "component": "ball"}));
    }
    let gone = create(e, json!({"position": [20, 0, 20]}));
    call(e, "scene.destroyEntity", json!({"entity": gone}));
    call(e, "three.setMaterial", json!({"entity": "ent_0002", "roughness": 0.2, "color": 0xff8800}));
    call(e, "three.setLighting", json!({"ambientIntensity": 0.35}));
    call(e, "ui.label", json!({"anchor": {"kind": "world", "entity": "ent_0003", "offset": [0, 1, 0]}, "text": "top of the tower"}));
    call(e, "audio.play", json!({"freq": 440, "secs": 10}));
}

#[test]
fn a_restored_engine_steps_on_exactly_like_the_one_saved() {
    let original = engine();
    build_scene(&original);
    // Mid-flight: the tower is settling, the heap jostles, the balls are on their way.
    original.step(40).unwrap();
    let bytes = original.snapshot().unwrap();
    let restored = engine_with(99, None);
    restored.restore(&bytes).unwrap();
    assert_eq!(restored.tick(), original.tick());
    assert_eq!(restored.world_hash(), original.world_hash(), "the restored world hashes as the saved one");
    assert_eq!(restored.summary(), original.summary());
    let mut moved = 0;
    for round in 0..10 {
        let before = original.world_hash();
        original.step(30).unwrap();
        restored.step(30).unwrap();
        assert_eq!(restored.world_hash(), original.world_hash(), "round {round} (tick {})", original.tick());
        moved += usize::from(original.world_hash() != before);
    }
    assert!(moved >= 3, "the world kept moving after the snapshot ({moved} of 10 rounds changed it)");
    // The last ball hit the tower: the contacts, not just the poses, carried over.
    let a = call(&original, "scene.queryEntities", json!({"tag": "ball"}));
    let b = call(&restored, "scene.queryEntities", json!({"tag": "ball"}));
    assert_eq!(a, b);
}

#[test]
fn next_entity_ids_continue_after_restore_and_destroyed_ids_stay_destroyed() {
    let original = engine();
    build_scene(&original);
    original.step(5).unwrap();
    let restored = engine();
    create(&restored, json!({"position": [1, 1, 1]}));
    restored.restore(&original.snapshot().unwrap()).unwrap();
    let next = create(&original, json!({"position": [3, 3, 3]}));
    assert_eq!(create(&restored, json!({"position": [3, 3, 3]})), next);
    assert_eq!(next, "ent_0039", "37 created, one destroyed, then this one");
    let gone = |e: &Engine| {
        e.call(&e.script_caller().clone(), "ecs.addComponent", json!({"entity": "ent_0038", "component": "x"})).error.unwrap().message
    };
    assert_eq!(gone(&restored), gone(&original));
    assert!(gone(&restored).contains("destroyed at tick 0"), "{}", gone(&restored));
    assert_eq!(restored.world_hash(), original.world_hash());
}

/// A scripted player that pushes its own body, draws from `math.random` and reads what it
/// remembers (its recent events), so every part of the agents' state decides what it does.
fn register_policy(e: &Engine) {
    e.run_source(
        r#"limina.scripted_policy("jitter", function(request)
            local p = request.perception
            if not p.selfEntity then return {} end
            local push = (math.random() - 0.5) * 0.4 + #p.recentEvents * 0.01 + #request.previousResults * 0.001
            return { { tool = "physics.applyImpulse", input = { entity = p.selfEntity, impulse = { push, 0.05, math.random(-3, 3) * 0.02 } } } }
        end)"#,
        "policy.lua",
    )
    .unwrap();
}

#[test]
fn agents_and_policy_state_survive_a_restore_and_act_the_same() {
    let original = engine();
    register_policy(&original);
    build_scene(&original);
    for i in 0..3 {
        call(
            &original,
            "agent.spawn",
            json!({"body": {"shape": "sphere", "position": [4.0 + i as f64 * 2.0, 0.5, -4]}, "decisionIntervalTicks": 7 + i, "llm": {"model": "jitter"}}),
        );
    }
    call(&original, "policy.quota", json!({"sessionId": "ses_reader", "cap": "scene.read", "limit": 3, "windowTicks": 100_000}));
    call(&original, "policy.budget", json!({"sessionId": "ses_agt_0002", "calls": 1000}));
    call(&original, "policy.revoke", json!({"agentId": "agt_rogue"}));
    let reader = Caller::new("agt_reader", "ses_reader", "system.readonly");
    for _ in 0..2 {
        assert!(original.call(&reader, "scene.queryEntities", json!({})).success);
    }
    original.step(45).unwrap();
    let bytes = original.snapshot().unwrap();

    let restored = engine();
    register_policy(&restored);
    restored.restore(&bytes).unwrap();
    assert_eq!(restored.world_hash(), original.world_hash());
    assert_eq!(call(&restored, "agent.list", json!({})), call(&original, "agent.list", json!({})));
    assert_eq!(call(&restored, "policy.snapshot", json!({})), call(&original, "policy.snapshot", json!({})));
    // One call left in the reader's quota window, in both.
    for e in [&original, &restored] {
        assert!(e.call(&reader, "scene.queryEntities", json!({})).success);
        let denied = e.call(&reader, "scene.queryEntities", json!({}));
        assert_eq!(denied.error.map(|f| f.code.as_str()), Some("forbidden"));
    }
    for round in 0..6 {
        original.step(20).unwrap();
        restored.step(20).unwrap();
        assert_eq!(restored.world_hash(), original.world_hash(), "round {round}");
    }
    let acted = |e: &Engine| e.trace().durable().filter(|ev| &*ev.as_ref().unwrap().event_type == "skill.executed").count();
    assert!(acted(&restored) > 10, "the restored agents decided and acted");
    // The next agent gets the next id in both.
    let next = |e: &Engine| call(e, "agent.spawn", json!({"llm": {"model": "jitter"}}))["agentId"].clone();
    assert_eq!(next(&restored), next(&original));
}

#[test]
fn math_random_continues_the_same_sequence_after_restore() {
    let original = engine_with(7, None);
    original.run_source("for i = 1, 13 do math.random() end", "draw.lua").unwrap();
    let bytes = original.snapshot().unwrap();
    let draws = "return { math.random(), math.random(1, 1000000), math.random(6), math.random() }";
    let restored = engine_with(12345, None);
    let unrestored: Vec<f64> = restored.lua().load(draws).eval().unwrap();
    restored.restore(&bytes).unwrap();
    let expected: Vec<f64> = original.lua().load(draws).eval().unwrap();
    let actual: Vec<f64> = restored.lua().load(draws).eval().unwrap();
    assert_eq!(actual, expected);
    assert_ne!(unrestored, expected, "another seed draws another sequence");
}

/// A snapshot file around `body`, with a correct checksum (`format.rs` layout).
fn seal(body: &[u8]) -> Vec<u8> {
    let version = limina::snapshot::ENGINE_VERSION.as_bytes();
    let mut out = b"LIMSNAP\0".to_vec();
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(version.len() as u16).to_le_bytes());
    out.extend_from_slice(version);
    out.extend_from_slice(&Sha256::digest(body));
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(body);
    out
}

fn body(snapshot: &[u8]) -> &[u8] {
    let n = u16::from_le_bytes([snapshot[12], snapshot[13]]) as usize;
    &snapshot[14 + n + 40..]
}

#[test]
fn broken_snapshots_are_refused_with_their_reason_and_change_nothing() {
    let source = engine();
    build_scene(&source);
    source.step(12).unwrap();
    let good = source.snapshot().unwrap();

    let target = engine_with(3, None);
    create(&target, json!({"dynamic": true, "position": [0, 5, 0]}));
    target.step(4).unwrap();
    let unchanged = |e: &Engine| (e.world_hash(), e.tick(), e.summary(), e.lua().load("return math.random()").eval::<f64>().unwrap());
    let mut expected = unchanged(&target);

    let mut flipped = good.clone();
    let middle = good.len() - body(&good).len() / 2;
    flipped[middle] ^= 0x10;
    let mut magic = good.clone();
    magic[..4].copy_from_slice(b"PK\x03\x04");
    let mut version = good.clone();
    version[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    let mut engine_version = good.clone();
    engine_version[14] = b'7';
    let cases: Vec<(&str, Vec<u8>, String)> = vec![
        ("a flipped byte", flipped, "the snapshot is corrupt: its body hashes to sha256:".into()),
        (
            "a truncated file",
            good[..good.len() - 100].to_vec(),
            format!("its body needs {} bytes, {} are left", body(&good).len(), body(&good).len() - 100),
        ),
        ("a cut header", good[..20].to_vec(), "the snapshot is truncated: its body hash needs 32 bytes".into()),
        ("the wrong magic", magic, r#"not a limina snapshot: it starts with "PK\x03\x04NAP\x00""#.into()),
        (
            "another format",
            version,
            format!("the snapshot is format version {}; this engine reads format version {FORMAT_VERSION}", FORMAT_VERSION + 1),
        ),
        ("another engine", engine_version, "the snapshot was written by limina 7".into()),
        ("an empty file", Vec::new(), "not a limina snapshot".into()),
    ];
    for (what, bytes, reason) in cases {
        // Each refusal leaves the target as it was, draws included (the check draws one).
        let err = target.restore(&bytes).unwrap_err().to_string();
        assert!(err.contains(&reason), "{what}: {err}");
        let now = unchanged(&target);
        assert_eq!((&now.0, now.1, &now.2), (&expected.0, expected.1, &expected.2), "{what} changed the engine");
        expected = now;
    }
    // A well-sealed body that does not decode is refused too, still before anything changes.
    let mut garbled = body(&good).to_vec();
    garbled.truncate(garbled.len() - 1);
    for bytes in [seal(&garbled), seal(&[body(&good), &[0]].concat()), seal(b"")] {
        let err = target.restore(&bytes).unwrap_err();
        assert!(matches!(err, SnapshotError::Decode { .. } | SnapshotError::World(_) | SnapshotError::TrailingSections { .. }), "{err}");
        assert_eq!(target.world_hash(), expected.0);
    }
    // The good one still restores.
    target.restore(&good).unwrap();
    assert_eq!(target.world_hash(), source.world_hash());
}

#[test]
fn a_hostile_length_prefix_is_refused_without_allocating_it() {
    // The engine counters, then the scene section whose first field (the models list) claims
    // u64::MAX entries: decoding must fail when the bytes run out, not try to allocate them.
    let mut hostile = vec![0u8, 0u8];
    hostile.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    hostile.extend_from_slice(&[3, b'a', b'b', b'c']);
    let target = engine();
    let err = target.restore(&seal(&hostile)).unwrap_err();
    assert!(err.to_string().contains("the scene section does not decode"), "{err}");
    // A string claiming a terabyte inside an otherwise plausible scene.
    let mut long_string = vec![0u8, 0u8, 1];
    long_string.extend_from_slice(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x20]);
    long_string.extend_from_slice(b"short");
    assert!(target.restore(&seal(&long_string)).is_err());
}

#[test]
fn resealed_random_corruptions_never_panic_and_never_half_load() {
    let source = engine();
    build_scene(&source);
    source.step(3).unwrap();
    let good = source.snapshot().unwrap();
    let body = body(&good).to_vec();
    let target = engine();
    let hash = target.world_hash();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut refused = 0;
    for _ in 0..150 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mut bytes = body.clone();
        let at = (state % bytes.len() as u64) as usize;
        bytes[at] = bytes[at].wrapping_add(1 + (state >> 40) as u8 % 250);
        match target.restore(&seal(&bytes)) {
            Err(_) => {
                refused += 1;
                assert_eq!(target.world_hash(), hash, "a refused snapshot changed the world");
            }
            // A change in a float or a name can decode fine: that world is then the target's.
            Ok(()) => {
                let fresh = engine();
                target.restore(&fresh.snapshot().unwrap()).unwrap();
                assert_eq!(target.world_hash(), hash);
            }
        }
    }
    assert!(refused > 0, "some corruptions are structural");
}

#[test]
fn world_snapshot_writes_into_its_folder_only() {
    let dir = tempfile::tempdir().unwrap();
    let snapshots = dir.path().join("snapshots");
    let e = engine_with(0, Some(&snapshots));
    build_scene(&e);
    e.step(9).unwrap();
    let written = call(&e, "world.snapshot", json!({"name": "before-the-fall"}));
    let path = snapshots.join("before-the-fall.snap");
    // The server's own folders are not shown: outside the project, the folder's name and the file.
    assert_eq!(written["path"], "snapshots/before-the-fall.snap");
    assert_eq!(written["tick"], 9);
    assert_eq!(written["worldHash"], e.world_hash());
    assert_eq!(written["bytes"].as_u64().unwrap(), std::fs::metadata(&path).unwrap().len());
    let named_by_tick = call(&e, "world.snapshot", json!({}));
    assert!(named_by_tick["path"].as_str().unwrap().ends_with("tick-0000000009.snap"), "{named_by_tick}");

    let restored = engine();
    restored.read_snapshot(&path).unwrap();
    assert_eq!(restored.world_hash(), e.world_hash());
    assert_eq!(restored.tick(), 9);

    for name in ["../escape", "a/b", "..", ".hidden", "x.snap", "", "名前", &"n".repeat(65)] {
        let r = e.call(&e.script_caller().clone(), "world.snapshot", json!({"name": name}));
        assert_eq!(r.error.as_ref().map(|f| f.code.as_str()), Some("invalid_input"), "{name:?}: {r:?}");
    }
    // Players cannot write the world out; builders (and the operator) can.
    let player = Caller::new("agt_p", "ses_p", "player.limited");
    let r = e.call(&player, "world.snapshot", json!({"name": "mine"}));
    assert_eq!(r.error.map(|f| f.code.as_str()), Some("forbidden"));
    let builder = Caller::new("agt_b", "ses_b", "builder.readWrite");
    assert!(e.call(&builder, "world.snapshot", json!({"name": "theirs"})).success);

    let mut names: Vec<String> = std::fs::read_dir(&snapshots).unwrap().map(|d| d.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["before-the-fall.snap", "theirs.snap", "tick-0000000009.snap"]);
    assert!(!dir.path().join("escape.snap").exists());
}

#[cfg(unix)]
#[test]
fn world_snapshot_refuses_symlinks_out_of_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let outside = dir.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    // A snapshots folder that is a link elsewhere.
    let linked = dir.path().join("linked");
    std::os::unix::fs::symlink(&outside, &linked).unwrap();
    let e = engine_with(0, Some(&linked));
    let r = e.call(&e.script_caller().clone(), "world.snapshot", json!({"name": "x"}));
    let error = r.error.unwrap();
    assert!(error.message.contains("is a symbolic link"), "{}", error.message);
    assert!(!error.message.contains(dir.path().to_str().unwrap()), "the server's folders are not shown: {}", error.message);
    // A file in the folder that is a link elsewhere.
    let snapshots = dir.path().join("snapshots");
    std::fs::create_dir(&snapshots).unwrap();
    std::os::unix::fs::symlink(outside.join("target.snap"), snapshots.join("trap.snap")).unwrap();
    let e = engine_with(0, Some(&snapshots));
    let r = e.call(&e.script_caller().clone(), "world.snapshot", json!({"name": "trap"}));
    assert!(r.error.unwrap().message.contains("is a symbolic link"));
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0, "nothing was written outside");
}

#[test]
fn an_oversized_file_is_refused_before_it_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.snap");
    std::fs::write(&path, vec![0u8; 4096]).unwrap();
    let err = limina::snapshot::read_snapshot_file(&path, 1024).unwrap_err();
    assert_eq!(err.to_string(), "4096 bytes is more than the 1024-byte limit for a snapshot");
    let missing = engine().read_snapshot(&dir.path().join("missing.snap")).unwrap_err();
    assert!(missing.to_string().contains("missing.snap"), "{missing}");
}

/// The body's bytes for a fixed world are pinned: a change to any type a snapshot stores (or to
/// rapier's serde form) shows up here as a diff, the reminder to bump `FORMAT_VERSION` so older
/// snapshots are refused by version instead of misread. Re-bless with `LIMINA_BLESS=1`.
#[test]
fn the_snapshot_body_of_a_fixed_world_is_pinned() {
    let snap = |_| {
        let e = engine();
        build_scene(&e);
        e.step(20).unwrap();
        e.snapshot().unwrap()
    };
    let (a, b) = (snap(0), snap(1));
    assert!(a == b, "the same world gives the same bytes");
    let actual = format!("format {FORMAT_VERSION} body sha256:{:x}", Sha256::digest(body(&a)));
    let golden = crate::root().join("tests/rust/golden/snapshot_body.sha256");
    if std::env::var_os("LIMINA_BLESS").is_some() {
        std::fs::write(&golden, format!("{actual}\n")).unwrap();
    }
    let expected = std::fs::read_to_string(&golden).expect("golden file (run with LIMINA_BLESS=1 to create it)");
    assert_eq!(actual, expected.trim_end(), "the snapshot body changed: bump FORMAT_VERSION if its layout did, then re-bless");
}

#[test]
fn a_snapshot_asked_for_inside_a_step_is_refused_and_between_steps_is_taken() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine_with(0, Some(dir.path()));
    e.run_source(
        r#"
        refused = nil
        limina.on_step(function(tick)
            if tick == 1 then
                local r = limina.call("world.snapshot", { name = "mid-step" })
                refused = if r.success then "taken" else r.error.message
            end
        end)
        "#,
        "mid_step.lua",
    )
    .unwrap();
    e.step(3).unwrap();
    let refused: String = e.lua().load("return refused").eval().unwrap();
    assert!(refused.contains("cannot be taken inside a step (tick 1"), "{refused}");
    assert!(!dir.path().join("mid-step.snap").exists());
    let r: bool = e.lua().load(r#"return limina.call("world.snapshot", { name = "between" }).success"#).eval().unwrap();
    assert!(r && dir.path().join("between.snap").exists());
}

/// Bytes flipped throughout a real snapshot's body, resealed so every header check passes: each
/// variant is refused with its reason, or loads and steps on without a panic (no step fails,
/// so the physics never halts).
#[test]
fn every_resealed_bit_flip_is_refused_or_steps_without_a_physics_halt() {
    let source = engine();
    build_scene(&source);
    source.step(20).unwrap();
    let good = source.snapshot().unwrap();
    let body = body(&good).to_vec();
    let target = engine();
    // About 2,500 variants spread over the whole body, each byte position hit with its own mask.
    let stride = (body.len() / 2500).max(1);
    let (mut refused, mut loaded) = (0, 0);
    let mut halted = Vec::new();
    for at in (0..body.len()).step_by(stride) {
        let mut bytes = body.clone();
        bytes[at] ^= [0x01, 0x80, 0xff, 0x10][at % 4];
        match target.restore(&seal(&bytes)) {
            Err(e) => {
                refused += 1;
                assert!(!e.to_string().is_empty());
            }
            Ok(()) => {
                loaded += 1;
                if let Err(e) = target.step(5) {
                    halted.push(format!("byte {at}: {e}"));
                }
            }
        }
    }
    assert!(halted.is_empty(), "{} of {loaded} loaded variants halted:\n{}", halted.len(), halted.join("\n"));
    assert!(refused > 0 && loaded > 0, "refused {refused}, loaded {loaded}");
}
