//! Same script + same seed ⇒ the same world hash; a different seed ⇒ a different world.

use limina::host::{Engine, EngineConfig, Output};

fn billiards_hash(seed: u64, steps: u64) -> String {
    let config = EngineConfig { seed, output: Output::Silent, ..EngineConfig::new(crate::root()) };
    let engine = Engine::new(config).unwrap();
    engine.run_file(&crate::root().join("demos/billiards.lua")).unwrap();
    engine.step(steps).unwrap();
    assert_eq!(engine.tick(), steps);
    engine.world_hash()
}

#[test]
fn same_script_and_seed_give_the_same_world_hash_after_600_steps() {
    let a = billiards_hash(7, 600);
    let b = billiards_hash(7, 600);
    assert_eq!(a, b);
}

#[test]
fn a_different_seed_gives_a_different_world() {
    assert_ne!(billiards_hash(1, 600), billiards_hash(2, 600));
}

#[test]
fn the_world_actually_moves() {
    // Guards the two tests above against a world that never changes.
    assert_ne!(billiards_hash(7, 10), billiards_hash(7, 600));
}

#[test]
fn billiard_balls_roll_their_rotation_is_synced_from_physics() {
    let config = EngineConfig { output: Output::Silent, ..EngineConfig::new(crate::root()) };
    let engine = Engine::new(config).unwrap();
    engine.run_file(&crate::root().join("demos/billiards.lua")).unwrap();
    engine.step(240).unwrap();
    let world = engine.world();
    // Balls are ent_0006.. (after the felt and four rails); after the break most have turned.
    let rolled =
        (6..=21).filter_map(|n| world.transform(limina::world::EntityId(n))).filter(|t| (t.rotation[3].abs() - 1.0).abs() > 1e-3).count();
    assert!(rolled >= 8, "only {rolled} of 16 balls show any rotation");
    // The rails never move.
    let rail = world.transform(limina::world::EntityId(2)).unwrap();
    assert_eq!(rail.rotation, [0.0, 0.0, 0.0, 1.0]);
}

/// Committed world hashes: a change to physics, the step order, a demo or the hash itself shows
/// up here as a diff to review (re-bless with `LIMINA_BLESS=1` when the change is intended).
/// Compares `actual` with `tests/rust/golden/NAME.world_hash` (`LIMINA_BLESS=1` writes it).
pub(crate) fn golden_hash(name: &str, actual: &str) {
    let golden = crate::root().join(format!("tests/rust/golden/{name}.world_hash"));
    if std::env::var_os("LIMINA_BLESS").is_some() {
        std::fs::write(&golden, format!("{actual}\n")).unwrap();
    }
    let expected = std::fs::read_to_string(&golden).expect("golden file (run with LIMINA_BLESS=1 to create it)");
    assert_eq!(actual, expected.trim_end(), "{name}: the world hash drifted from the committed golden; review and re-bless if intended");
}

#[test]
fn billiards_seed_0_after_600_steps_matches_the_committed_hash() {
    golden_hash("billiards_seed0_600", &billiards_hash(0, 600));
}

#[test]
fn the_builder_demo_matches_the_committed_hash() {
    let dir = tempfile::tempdir().unwrap();
    // The demo exports its trace under the project; run it in a scratch project that can still
    // `require` the demo's folder.
    let config = EngineConfig { output: Output::Silent, extra_roots: vec![crate::root().join("demos")], ..EngineConfig::new(dir.path()) };
    let engine = Engine::new(config).unwrap();
    engine.run_file(&crate::root().join("demos/builder.lua")).unwrap();
    golden_hash("builder", &engine.world_hash());
}

/// Several worlds in one process: two engines (their own registry, physics, RNG and trace)
/// stepped interleaved on one thread each end at their solo hash — nothing is shared between
/// worlds that could make one depend on the other.
#[test]
fn worlds_stepped_interleaved_in_one_process_match_their_solo_runs() {
    let billiards = |seed| {
        let engine = Engine::new(EngineConfig { seed, output: Output::Silent, ..EngineConfig::new(crate::root()) }).unwrap();
        engine.run_file(&crate::root().join("demos/billiards.lua")).unwrap();
        engine
    };
    let (a, b) = (billiards(0), billiards(7));
    for _ in 0..300 {
        a.step(2).unwrap();
        b.step(1).unwrap();
        b.step(1).unwrap();
    }
    assert_eq!(a.world_hash(), billiards_hash(0, 600), "world A as if alone");
    assert_eq!(b.world_hash(), billiards_hash(7, 600), "world B as if alone");
    assert_ne!(a.world_hash(), b.world_hash());
}
