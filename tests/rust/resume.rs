//! Resuming a world: a logged MCP server killed with SIGKILL is recovered and resumed by a new
//! server, which keeps serving; every tick of the two logs, and the resumed server's own world
//! hash, equal an engine that ran the same calls at the same ticks without ever stopping. The
//! resumed log is a segment that replays from its own base snapshot. Crafted snapshots, missing
//! files, taken names and a smaller capacity are refused, with nothing started.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use limina::durable::{self, Record};
use limina::host::{self, Engine, EngineConfig, Output, ReplayOptions, Resume};
use limina::policy::Profile;
use limina::skills::Caller;
use serde_json::{Value, json};

use crate::mcp::StdioServer;

fn options() -> ReplayOptions {
    ReplayOptions { verify: true, until: None, project: crate::root() }
}

/// A client's calls in a log, with their ticks (the operator's own default-world calls are not
/// a client's), and the checkpoints.
struct Logged {
    calls: Vec<(u64, String, String, String, Value)>,
    checkpoints: BTreeMap<u64, String>,
}

fn read_log(log: &Path) -> Logged {
    let mut reader = durable::LogReader::open(log).unwrap();
    let mut out = Logged { calls: Vec::new(), checkpoints: BTreeMap::new() };
    while let Some(record) = reader.next_record().unwrap() {
        match record {
            Record::Call { tick, caller, skill, input, .. } if caller.agent != "agt_script" => {
                out.calls.push((tick, caller.agent, caller.session, skill, input));
            }
            Record::Checkpoint { tick, hash } => {
                out.checkpoints.insert(tick, hash);
            }
            _ => {}
        }
    }
    out
}

/// Waits until the log names a snapshot taken after tick `after` (a kill then recovers from a
/// snapshot plus the calls after it).
fn wait_for_snapshot(log: &Path, after: u64) -> u64 {
    for _ in 0..3000 {
        if let Ok(mut reader) = durable::LogReader::open(log) {
            let mut newest = None;
            while let Ok(Some(record)) = reader.next_record() {
                if let Record::Snapshot { tick, .. } = record
                    && tick > after
                {
                    newest = Some(tick);
                }
            }
            if let Some(tick) = newest {
                return tick;
            }
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("{}: no snapshot after tick {after} within 30 s", log.display());
}

fn call(s: &mut StdioServer, id: u64, name: &str, arguments: Value) -> Value {
    let reply = s.request(id, "tools/call", json!({"name": name, "arguments": arguments}));
    assert_eq!(reply["result"]["success"], json!(true), "{name}: {reply}");
    reply["result"]["result"].clone()
}

fn logged_server(extra: &[&str]) -> StdioServer {
    let mut args = vec!["--checkpoint-every", "1", "--snapshot-every", "20"];
    args.extend_from_slice(extra);
    let mut s = StdioServer::start(&args);
    s.request(1, "initialize", json!({"agentId": "agt_builder", "sessionId": "ses_builder", "profile": "builder.readWrite"}));
    s
}

/// The uninterrupted run: an engine that starts with the server's default world and makes the
/// same calls at the same ticks, never stopped, snapshotted or restored. Returns its hash at
/// every tick up to `until` (before that tick's calls) and once all calls of `until` are made.
fn uninterrupted(calls: &[(u64, String, String, String, Value)], until: u64) -> (BTreeMap<u64, String>, String) {
    let engine = Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(crate::root()) }).unwrap();
    let scene = limina::scenes::parse(limina::mcp::DEFAULT_WORLD.as_bytes(), "default world", engine.world().capacity()).unwrap();
    engine.load_scene(&scene).unwrap();
    let mut hashes = BTreeMap::from([(0, engine.world_hash())]);
    let mut calls = calls.iter().peekable();
    while engine.tick() <= until {
        while let Some((_, agent, session, skill, input)) = calls.next_if(|c| c.0 == engine.tick()) {
            let r = engine.call(&Caller::with_profile(agent, session, Profile::BuilderReadWrite), skill, input.clone());
            assert!(r.success, "{skill} at tick {}: {:?}", engine.tick(), r.error);
        }
        if engine.tick() == until {
            break;
        }
        engine.step(1).unwrap();
        hashes.insert(engine.tick(), engine.world_hash());
    }
    assert!(calls.next().is_none(), "every call was made by tick {until}");
    (hashes, engine.world_hash())
}

#[test]
fn a_killed_server_resumed_keeps_serving_the_uninterrupted_world() {
    let dir = tempfile::tempdir().unwrap();
    let (first, second) = (dir.path().join("first"), dir.path().join("second"));
    std::fs::create_dir_all(&first).unwrap();
    std::fs::create_dir_all(&second).unwrap();
    let log1 = first.join("world.log");
    let log2 = second.join("world.log");

    // The first server: boxes fall onto the default ground, some are pushed; a snapshot is
    // written; more calls; then SIGKILL right after the last answer.
    let mut s = logged_server(&["--log", log1.to_str().unwrap()]);
    let mut boxes = Vec::new();
    for i in 0..8u64 {
        let made = call(
            &mut s,
            10 + i,
            "scene.createEntity",
            json!({"shape": "box", "position": [i as f64 * 1.5 - 6.0, 2.0 + i as f64, 0], "dynamic": true}),
        );
        boxes.push(made["entity"].as_str().unwrap().to_string());
    }
    let snapped = wait_for_snapshot(&log1, 0);
    for (i, entity) in boxes.iter().enumerate().take(4) {
        call(&mut s, 30 + i as u64, "physics.applyImpulse", json!({"entity": entity, "impulse": [0.5, 2.0, -0.25 * i as f64]}));
    }
    let ball = call(&mut s, 40, "scene.createEntity", json!({"shape": "sphere", "position": [0, 6, 3], "dynamic": true}));
    s.kill();
    assert!(boxes[0] != "ent_0001", "the default world's ground is the first entity");

    // The second server resumes the killed run's folder, logging into a new one.
    let mut s = logged_server(&["--resume", first.to_str().unwrap(), "--log", log2.to_str().unwrap()]);
    let segment = durable::LogReader::open(&log2).unwrap().header;
    let base = segment.base.clone().expect("a resumed log names the snapshot it starts from");
    assert!(base.tick >= snapped, "resumed at tick {} (snapshot at {snapped})", base.tick);
    for (i, entity) in boxes.iter().enumerate().skip(2) {
        call(&mut s, 100 + i as u64, "physics.applyImpulse", json!({"entity": entity, "impulse": [-0.75, 3.0, 0.5]}));
    }
    call(&mut s, 120, "physics.applyImpulse", json!({"entity": ball["entity"], "impulse": [1.0, 0.0, -1.0]}));
    let late = call(&mut s, 121, "scene.createEntity", json!({"shape": "box", "position": [3, 4, 3], "dynamic": true}));
    assert!(late["entity"].as_str().unwrap() > ball["entity"].as_str().unwrap(), "ids go on where the killed run left them: {late}");
    wait_for_snapshot(&log2, base.tick);
    let seen = call(&mut s, 130, "inspector.snapshot", json!({"limit": 0}));
    let (served_tick, served_hash) = (seen["world"]["tick"].as_u64().unwrap(), seen["world"]["hash"].as_str().unwrap().to_string());
    s.kill();

    // The uninterrupted run, tick by tick.
    let (a, b) = (read_log(&log1), read_log(&log2));
    let calls: Vec<_> = a.calls.iter().filter(|c| c.0 <= base.tick).chain(&b.calls).cloned().collect();
    assert_eq!(calls.len(), 8 + 4 + 1 + 6 + 1 + 1, "every acknowledged call is in the logs");
    let recovered = host::recover(&second, &crate::root()).unwrap();
    assert_eq!(recovered.report.divergence, None);
    let until = served_tick.max(recovered.report.tick);
    let (hashes, _) = uninterrupted(&calls, until);
    let mut compared = 0;
    for (tick, hash) in a.checkpoints.range(..=base.tick).chain(b.checkpoints.iter()) {
        assert_eq!(Some(hash), hashes.get(tick), "tick {tick}: the killed-and-resumed run's checkpoint");
        compared += 1;
    }
    assert!(compared as u64 > base.tick, "{compared} checkpoints compared");
    assert_eq!(uninterrupted(&calls, served_tick).1, served_hash, "the resumed server's own hash at tick {served_tick}");
    assert_eq!(uninterrupted(&calls, recovered.report.tick).1, recovered.engine.world_hash(), "the second run recovered");

    // The resumed log alone replays from its base and verifies every checkpoint.
    let (engine, report) = host::replay(&log2, &options()).unwrap();
    assert_eq!(report.divergence, None);
    assert!(report.checkpoints > 10, "{} checkpoints verified", report.checkpoints);
    assert_eq!(engine.world_hash(), recovered.engine.world_hash());
}

/// A world with `n` boxes at tick 30, as a snapshot.
fn small_world(n: usize) -> Vec<u8> {
    let engine = Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(crate::root()) }).unwrap();
    for i in 0..n {
        let r = engine.call(
            engine.script_caller(),
            "scene.createEntity",
            json!({"shape": "box", "position": [i as f64, 1, 0], "dynamic": true}),
        );
        assert!(r.success);
    }
    engine.step(30).unwrap();
    engine.snapshot().unwrap()
}

fn resume_into(bytes: &[u8], log: Option<&Path>, capacity: usize) -> Result<Engine, host::EngineError> {
    Engine::new(EngineConfig {
        output: Output::Silent,
        entity_capacity: capacity,
        log: log.map(durable::LogConfig::new),
        resume: Some(Resume { from: "test.snap".into(), bytes: bytes.into(), notes: Vec::new() }),
        ..EngineConfig::new(crate::root())
    })
}

/// The snapshot's body resealed: a flipped bit the checksum no longer catches.
fn resealed(bytes: &[u8], flip_at: usize) -> Vec<u8> {
    use sha2::{Digest, Sha256};
    let version_len = u16::from_le_bytes([bytes[12], bytes[13]]) as usize;
    let body_at = 14 + version_len + 32 + 8;
    let mut out = bytes.to_vec();
    out[body_at + flip_at % (bytes.len() - body_at)] ^= 0x40;
    let digest = Sha256::digest(&out[body_at..]);
    out[14 + version_len..14 + version_len + 32].copy_from_slice(&digest);
    out
}

#[test]
fn a_crafted_or_foreign_snapshot_is_refused_and_starts_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = small_world(10);
    let log = dir.path().join("world.log");

    // A bit flipped: the checksum refuses it. Resealed flips: each is refused or restores a
    // world that is checked like any snapshot; a refusal starts no log and writes no base.
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 1;
    let e = resume_into(&flipped, Some(&log), 65536).unwrap_err().to_string();
    assert!(e.contains("test.snap: cannot resume it: the snapshot is corrupt"), "{e}");
    let mut refused = 0;
    for at in (0..4000).step_by(97) {
        if resume_into(&resealed(&bytes, at), Some(&log), 65536).is_err() {
            refused += 1;
            assert!(!log.exists(), "a refused resume starts no log");
        } else {
            std::fs::remove_file(&log).unwrap();
            for f in std::fs::read_dir(dir.path()).unwrap() {
                std::fs::remove_file(f.unwrap().path()).unwrap();
            }
        }
    }
    assert!(refused > 0, "some resealed flips are caught by the body's checks");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "nothing left behind");

    // A snapshot of more entities than this engine holds.
    let e = resume_into(&bytes, Some(&log), 8).unwrap_err().to_string();
    assert!(e.contains("cannot resume it") && e.contains("10") && e.contains('8'), "{e}");
    assert!(!log.exists());

    // Onto an existing log: refused, the log untouched, no base written beside it.
    std::fs::write(&log, b"an earlier run's log\n").unwrap();
    let e = resume_into(&bytes, Some(&log), 65536).unwrap_err().to_string();
    assert!(e.contains("exists already"), "{e}");
    assert_eq!(std::fs::read(&log).unwrap(), b"an earlier run's log\n");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    std::fs::remove_file(&log).unwrap();

    // The base's name taken by someone else's file: refused, that file untouched, and the log
    // just created is removed (it would name a base that is not there).
    let taken = dir.path().join("world-000000000030.snap");
    std::fs::write(&taken, b"mine").unwrap();
    let e = resume_into(&bytes, Some(&log), 65536).unwrap_err().to_string();
    assert!(e.contains("cannot write the snapshot the resumed log starts from"), "{e}");
    assert_eq!(std::fs::read(&taken).unwrap(), b"mine");
    assert!(!log.exists(), "no log naming a missing base is left");
    std::fs::remove_file(&taken).unwrap();

    // Resumed for real: the segment starts at tick 30 and replays from its base.
    let engine = resume_into(&bytes, Some(&log), 65536).unwrap();
    assert_eq!(engine.tick(), 30);
    engine.step(12).unwrap();
    engine.make_durable().unwrap();
    let live = engine.world_hash();
    drop(engine);
    let (replayed, report) = host::replay(&log, &options()).unwrap();
    assert_eq!((report.divergence, replayed.world_hash()), (None, live));

    // The base gone: replay and recovery say which file the segment needs.
    std::fs::remove_file(&taken).unwrap();
    let e = host::replay(&log, &options()).unwrap_err().to_string();
    assert!(e.contains("world-000000000030.snap") && e.contains("the resumed log starts from it"), "{e}");
    let e = host::recover(dir.path(), &crate::root()).unwrap_err().to_string();
    assert!(e.contains("continues a resumed run from its snapshot world-000000000030.snap"), "{e}");
}

#[test]
fn a_header_cannot_point_the_base_outside_the_folder() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("world.log");
    let engine = resume_into(&small_world(2), Some(&log), 65536).unwrap();
    engine.step(3).unwrap();
    drop(engine);
    let outside = dir.path().parent().unwrap().join("elsewhere.snap");
    let text = std::fs::read_to_string(&log).unwrap().replacen("world-000000000030.snap", "../elsewhere.snap", 2);
    std::fs::write(&log, text).unwrap();
    let e = host::replay(&log, &options()).unwrap_err().to_string();
    assert!(e.contains("not a file name beside the log"), "{e}");
    assert!(!outside.exists());
}

fn limina(args: &[&str], cwd: &Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_limina")).args(args).current_dir(cwd).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn the_cli_continues_a_snapshot_and_names_what_a_file_is() {
    let dir = tempfile::tempdir().unwrap();
    let snap: PathBuf = dir.path().join("world.snap");
    std::fs::write(&snap, small_world(3)).unwrap();
    let root = crate::root();

    // `limina run SNAPSHOT --log`: continues the world; the new log replays.
    let next = dir.path().join("next");
    std::fs::create_dir(&next).unwrap();
    let log = next.join("world.log");
    let (code, out, err) = limina(&["run", snap.to_str().unwrap(), "--frames", "20", "--log", log.to_str().unwrap()], &root);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("resume: ") && out.contains("tick 30, 3 entities"), "{out}");
    assert!(out.contains("ticks=50"), "{out}");
    let (code, replayed, err) = limina(&["replay", log.to_str().unwrap(), "--verify"], &root);
    assert_eq!(code, 0, "{replayed}{err}");
    let hash = |text: &str| text.rsplit("world_hash=").next().map(|h| h.split_whitespace().next().unwrap_or_default().to_string());
    assert_eq!(hash(&replayed), hash(&out));

    // `limina run DIR`: the logged run recovered and continued.
    let (code, out, err) = limina(&["run", next.to_str().unwrap(), "--frames", "5"], &root);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("ticks=55") && err.contains("resume: recovered"), "{out}{err}");

    // A snapshot or a log where a script is expected says what it is and what to use.
    let (code, _, err) = limina(&["mcp", "--stdio", "--scene", snap.to_str().unwrap()], &root);
    assert_eq!(code, 2);
    assert!(err.contains("is a limina snapshot") && err.contains("limina mcp --resume"), "{err}");
    let (code, _, err) = limina(&["run", log.to_str().unwrap()], &root);
    assert_eq!(code, 2);
    assert!(err.contains("is a limina command log") && err.contains("limina replay"), "{err}");

    // A log for the resumed run may not go into the folder being resumed.
    let (code, _, err) = limina(&["run", next.to_str().unwrap(), "--log", next.join("again.log").to_str().unwrap()], &root);
    assert_eq!(code, 2);
    assert!(err.contains("the folder being resumed"), "{err}");
    assert!(!next.join("again.log").exists());
}
