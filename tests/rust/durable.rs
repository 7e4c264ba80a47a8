//! The durable world: command logs replay to every checkpoint, an altered log diverges where it
//! was altered, a killed run is recovered to the uninterrupted run's hash, and what MCP
//! acknowledged survives a kill.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use limina::durable::{self, Record};
use limina::host::{self, ReplayOptions};
use limina::host::{Engine, EngineConfig, Output};
use serde_json::json;

fn options(verify: bool) -> ReplayOptions {
    ReplayOptions { verify, until: None, project: crate::root() }
}

/// Runs a demo in-process with a command log (checkpoints every `every` ticks) for `frames`
/// steps after its script; returns the live world hash.
fn logged_demo(demo: &str, log: &Path, every: u64, frames: u64) -> String {
    logged(demo, durable::LogConfig { checkpoint_every: every, ..durable::LogConfig::new(log) }, frames)
}

/// Billiards logged with checkpoints every 10 ticks and a snapshot every 50.
fn logged_with_snapshots(log: &Path, frames: u64) -> String {
    logged("billiards.lua", durable::LogConfig { checkpoint_every: 10, snapshot_every: Some(50), ..durable::LogConfig::new(log) }, frames)
}

/// Runs a demo for `frames` steps under `log`; the world hash it ended with.
fn logged(demo: &str, log: durable::LogConfig, frames: u64) -> String {
    let mut config =
        EngineConfig { output: Output::Silent, extra_roots: vec![crate::root().join("demos")], ..EngineConfig::new(crate::root()) };
    config.log = Some(log);
    let engine = Engine::new(config).unwrap();
    engine.run_file(&crate::root().join("demos").join(demo)).unwrap();
    engine.step(frames).unwrap();
    engine.make_durable().unwrap();
    engine.world_hash()
}

fn checkpoints(log: &Path) -> Vec<(u64, String)> {
    let mut reader = durable::LogReader::open(log).unwrap();
    let mut out = Vec::new();
    while let Some(record) = reader.next_record().unwrap() {
        if let Record::Checkpoint { tick, hash } = record {
            out.push((tick, hash));
        }
    }
    out
}

#[test]
fn demo_runs_replay_to_every_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    for (demo, frames) in [("billiards.lua", 300), ("builder.lua", 0), ("player.lua", 120), ("numbers_party.lua", 60)] {
        let log = dir.path().join(format!("{demo}.log"));
        let live = logged_demo(demo, &log, 5, frames);
        let count = checkpoints(&log).len();
        assert!(count >= 10, "{demo}: {count} checkpoints");
        let (engine, report) = host::replay(&log, &options(true)).unwrap();
        assert_eq!(report.divergence, None, "{demo}");
        assert_eq!(report.checkpoints as usize, count, "{demo}: every checkpoint compared");
        assert_eq!(engine.world_hash(), live, "{demo}: the replayed world is the live one");
    }
}

/// Rewrites the first record `pick` chooses with `alter`.
fn tamper(log: &Path, pick: impl Fn(&serde_json::Value) -> bool, alter: impl Fn(&mut serde_json::Value)) -> u64 {
    let text = std::fs::read_to_string(log).unwrap();
    let mut out = String::new();
    let mut altered = None;
    for (i, line) in text.lines().enumerate() {
        let mut value: serde_json::Value = serde_json::from_str(line).unwrap();
        if altered.is_none() && pick(&value) {
            alter(&mut value);
            altered = Some(i as u64 + 1);
        }
        out.push_str(&value.to_string());
        out.push('\n');
    }
    std::fs::write(log, out).unwrap();
    altered.expect("a record to alter")
}

#[test]
fn an_altered_input_diverges_at_its_tick_and_names_the_command_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("billiards.log");
    logged_demo("billiards.lua", &log, 1, 120);
    // The cue strike happens in a step callback at tick 20: make it a little harder.
    let line = tamper(
        &log,
        |v| v["r"] == "call" && v["skill"] == "physics.applyImpulse",
        |v| {
            let x = v["input"]["impulse"][0].as_f64().unwrap();
            v["input"]["impulse"][0] = json!(x + 0.5);
        },
    );
    let (_, report) = host::replay(&log, &options(true)).unwrap();
    let d = report.divergence.expect("the altered strike shows");
    assert_eq!(d.tick, 21, "the first checkpoint after the strike of tick 20: {d}");
    // The strike's step also drained the collision events: the last command is of tick 20,
    // at or after the altered line.
    let (last_line, last) = d.last_command.clone().unwrap();
    assert!(last_line >= line && last.contains("tick 20"), "{d}");
    // --until stops at a tick boundary: the state the checkpoint of that tick describes.
    let (stopped, report) = host::replay(&log, &ReplayOptions { until: Some(15), ..options(true) }).unwrap();
    assert_eq!((report.tick, report.divergence), (15, None));
    assert_eq!(Some(stopped.world_hash()), checkpoints(&log).into_iter().find(|(t, _)| *t == 15).map(|(_, h)| h));
    // Without --verify the same log replays (nothing compares the hashes).
    let (_, unverified) = host::replay(&log, &options(false)).unwrap();
    assert_eq!(unverified.divergence, None);

    // An altered outcome is a divergence at the call itself.
    let log2 = dir.path().join("billiards2.log");
    logged_demo("billiards.lua", &log2, 1, 30);
    tamper(&log2, |v| v["r"] == "call" && v["skill"] == "scene.createEntity", |v| v["outcome"] = json!("invalid_input"));
    let (_, report) = host::replay(&log2, &options(false)).unwrap();
    let d = report.divergence.expect("an outcome that differs");
    assert_eq!(d.tick, 0);
    assert!(d.reason.contains("it ended ok") && d.reason.contains("the log says invalid_input"), "{d}");
}

#[test]
fn torn_tails_are_left_out_and_corruption_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("b.log");
    logged_demo("billiards.lua", &log, 10, 100);
    let bytes = std::fs::read(&log).unwrap();

    // A killed run leaves half a line: the rest replays.
    let torn = dir.path().join("torn.log");
    std::fs::write(&torn, &bytes[..bytes.len() - 7]).unwrap();
    let (_, report) = host::replay(&torn, &options(true)).unwrap();
    assert!(report.torn_tail);
    assert_eq!(report.divergence, None);
    assert!(report.tick >= 99, "{}", report.tick);

    // A damaged line in the middle is corruption, by line number.
    let text = String::from_utf8(bytes.clone()).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[5] = "{\"r\":\"call\",\"tick\":";
    let broken = dir.path().join("broken.log");
    std::fs::write(&broken, lines.join("\n") + "\n").unwrap();
    let e = host::replay(&broken, &options(true)).unwrap_err().to_string();
    assert!(e.contains("broken.log:6: corrupt record"), "{e}");

    // Not a log at all; another format version.
    let other = dir.path().join("other.log");
    std::fs::write(&other, "hello\n").unwrap();
    assert!(host::replay(&other, &options(true)).unwrap_err().to_string().contains("not a limina command log"));
    let newer = dir.path().join("newer.log");
    std::fs::write(&newer, text.replacen("\"format\":1", "\"format\":9", 1)).unwrap();
    let e = host::replay(&newer, &options(true)).unwrap_err().to_string();
    assert!(e.contains("format 9") && e.contains("format 1"), "{e}");

    // A hand-made record of a skill a log never holds (one that writes files) is not run.
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let exported = dir.path().join("exported.jsonl");
    let forged = json!({"r": "call", "tick": 0, "phase": "between",
        "caller": {"agent": "agt_script", "session": "ses_script", "profile": "builder.readWrite", "permissions": []},
        "skill": "trace.export", "version": "1.0.0", "input": {"path": exported.to_str().unwrap()}, "outcome": "ok"});
    lines.insert(1, forged.to_string());
    let forged_log = dir.path().join("forged.log");
    std::fs::write(&forged_log, lines.join("\n") + "\n").unwrap();
    let (_, report) = host::replay(&forged_log, &options(false)).unwrap();
    let d = report.divergence.expect("the forged record is refused");
    assert!(d.reason.contains("not a skill a command log records"), "{d}");
    assert!(!exported.exists());

    // A log is never written over.
    let mut config = EngineConfig { output: Output::Silent, ..EngineConfig::new(crate::root()) };
    config.log = Some(durable::LogConfig::new(&log));
    let e = Engine::new(config).unwrap_err().to_string();
    assert!(e.contains("exists already"), "{e}");
    assert_eq!(std::fs::read(&log).unwrap(), bytes, "the existing log is untouched");
}

/// A tiny deterministic generator for the kill points.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    *state >> 33
}

fn run_child(log: &Path, frames: u64, snapshot_every: Option<u64>) -> std::process::Child {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_limina"));
    cmd.args(["run", "demos/billiards.lua", "--frames", &frames.to_string(), "--checkpoint-every", "1", "--log"])
        .arg(log)
        .current_dir(crate::root())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if let Some(n) = snapshot_every {
        cmd.args(["--snapshot-every", &n.to_string()]);
    }
    cmd.spawn().unwrap()
}

#[test]
#[ignore = "slow: runs with the full suite (cargo test -- --include-ignored)"]
fn a_run_killed_at_random_points_recovers_to_the_uninterrupted_hash() {
    const FRAMES: u64 = 1500;
    let dir = tempfile::tempdir().unwrap();
    let reference = dir.path().join("reference.log");
    let status = run_child(&reference, FRAMES, None).wait().unwrap();
    assert!(status.success());
    let hashes: std::collections::HashMap<u64, String> = checkpoints(&reference).into_iter().collect();
    assert_eq!(hashes.len() as u64, FRAMES);

    // Kill points are taken in log bytes, not in time: the run has got that far whatever the
    // machine's speed, and where the kill lands inside a tick is still up to chance.
    let size = std::fs::metadata(&reference).unwrap().len();
    let mut state = 0x5eed;
    for trial in 0..20 {
        let run = dir.path().join(format!("trial{trial}"));
        std::fs::create_dir(&run).unwrap();
        let log = run.join("world.log");
        let kill_at = size / 20 + next(&mut state) % (size * 3 / 4);
        let mut child = run_child(&log, FRAMES, (trial % 2 == 1).then_some(97));
        while std::fs::metadata(&log).map_or(0, |m| m.len()) < kill_at {
            assert!(child.try_wait().unwrap().is_none(), "trial {trial}: the run ended before the kill point");
            std::thread::sleep(Duration::from_millis(1));
        }
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        let r = host::recover(&run, &crate::root()).unwrap_or_else(|e| panic!("trial {trial}: {e}"));
        assert_eq!(r.report.divergence, None, "trial {trial}");
        let tick = r.report.tick;
        assert!(tick > 0, "trial {trial}: the kill point is past the first steps");
        assert_eq!(Some(&r.engine.world_hash()), hashes.get(&tick), "trial {trial}: recovered at tick {tick}");
    }
}

#[test]
fn every_call_mcp_acknowledged_survives_a_kill() {
    let dir = tempfile::tempdir().unwrap();
    let log: PathBuf = dir.path().join("server.log");
    let mut s = crate::mcp::StdioServer::start(&["--log", log.to_str().unwrap(), "--checkpoint-every", "1", "--log-fsync-ms", "10000"]);
    s.request(1, "initialize", json!({"agentId": "agt_builder", "sessionId": "ses_b", "profile": "builder.readWrite"}));
    let mut made = Vec::new();
    for i in 0..25u64 {
        let reply = s.request(
            10 + i,
            "tools/call",
            json!({"name": "scene.createEntity", "arguments": {"shape": "box", "position": [i as f64, 0.5, 0], "dynamic": i % 2 == 0}}),
        );
        made.push(reply["result"]["result"]["entity"].as_str().unwrap().to_string());
    }
    // Killed right after the last answer (the sync interval is far away: only the per-call
    // sync before each answer can have put them on disk).
    s.kill();
    let r = host::recover(dir.path(), &crate::root()).unwrap();
    assert_eq!(r.report.divergence, None);
    let world = r.engine.world();
    for id in &made {
        assert!(world.resolve(id).is_some(), "{id} was acknowledged and must survive");
    }
}

#[test]
fn a_loaded_scene_is_logged_as_the_calls_it_made_and_replays() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("scene.log");
    let mut config = EngineConfig { output: Output::Silent, ..EngineConfig::new(crate::root()) };
    config.log = Some(durable::LogConfig { checkpoint_every: 5, ..durable::LogConfig::new(&log) });
    let engine = Engine::new(config).unwrap();
    engine.run_or_load_file(&crate::root().join("scenes/courtyard.lua")).unwrap();
    engine.step(60).unwrap();
    engine.make_durable().unwrap();
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("\"skill\":\"scene.createEntity\""), "the load's own calls are logged");
    assert!(!text.contains("\"skill\":\"scene.load\""), "the file read is not: a replay never reads the scene file");
    let (replayed, report) = host::replay(&log, &options(true)).unwrap();
    assert_eq!(report.divergence, None);
    assert_eq!(replayed.world_hash(), engine.world_hash());
}

#[test]
fn recovery_takes_only_the_snapshots_the_log_names_as_they_were_written() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("world.log");
    let hash = logged_with_snapshots(&log, 170);
    let snap = |tick: u64| dir.path().join(format!("world-{tick:012}.snap"));
    assert!(snap(50).exists() && snap(100).exists() && snap(150).exists());

    let r = host::recover(dir.path(), &crate::root()).unwrap();
    assert_eq!((r.snapshot.clone().map(|s| s.1), r.engine.world_hash()), (Some(150), hash.clone()));

    // A file of another tick under the newest name is not taken for it: the next one is used.
    std::fs::copy(snap(50), snap(150)).unwrap();
    let r = host::recover(dir.path(), &crate::root()).unwrap();
    assert_eq!((r.snapshot.clone().map(|s| s.1), r.engine.world_hash()), (Some(100), hash.clone()));
    assert!(r.skipped.iter().any(|s| s.contains("not this run's snapshot")), "{:?}", r.skipped);

    // Links and FIFOs are never read (a link could lead anywhere; a FIFO never ends).
    std::fs::remove_file(snap(100)).unwrap();
    std::os::unix::fs::symlink("/dev/zero", snap(100)).unwrap();
    let r = host::recover(dir.path(), &crate::root()).unwrap();
    assert_eq!((r.snapshot.clone().map(|s| s.1), r.engine.world_hash()), (Some(50), hash.clone()));
    assert!(r.skipped.iter().any(|s| s.contains("not a regular file")), "{:?}", r.skipped);

    // replay --from refuses a snapshot the log does not name, or one that is not what it named.
    let e = host::replay_from(&log, &snap(150), &options(true)).unwrap_err().to_string();
    assert!(e.contains("not this run's snapshot"), "{e}");
    let stray = dir.path().join("stray.snap");
    std::fs::copy(snap(50), &stray).unwrap();
    let e = host::replay_from(&log, &stray, &options(true)).unwrap_err().to_string();
    assert!(e.contains("names no snapshot stray.snap"), "{e}");
    let (engine, report) = host::replay_from(&log, &snap(50), &options(true)).unwrap();
    assert_eq!((report.divergence, engine.world_hash()), (None, hash));
}

/// A log naming thousands of snapshots costs a bounded number of tries: each name once, the
/// newest eight at most, then the log alone; names are shown with control characters escaped.
#[test]
fn a_log_naming_thousands_of_snapshots_is_recovered_in_a_few_tries() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("world.log");
    let hash = logged_with_snapshots(&log, 60);
    // After the real marker: 20 names, then one name 2000 times, then one with terminal
    // escapes; none of them a file.
    let text = std::fs::read_to_string(&log).unwrap();
    let mut out = String::new();
    for line in text.lines() {
        out.push_str(line);
        out.push('\n');
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        if value["r"] == "snapshot" {
            let ghost = |file: &str| {
                let mut v = value.clone();
                v["file"] = json!(file);
                format!("{v}\n")
            };
            for i in 0..20 {
                out.push_str(&ghost(&format!("ghost-{i}.snap")));
            }
            out.push_str(&ghost("same.snap").repeat(2000));
            out.push_str(&ghost("\u{1b}[2Jfake.snap"));
        }
    }
    std::fs::write(&log, out).unwrap();
    let r = host::recover(dir.path(), &crate::root()).unwrap();
    assert_eq!((r.snapshot.clone(), r.engine.world_hash()), (None, hash), "the log alone, after eight tries");
    assert_eq!(r.skipped.len(), 9, "{:?}", r.skipped);
    assert!(r.skipped[0].starts_with("\\u{1b}[2Jfake.snap: "), "{:?}", r.skipped[0]);
    assert!(r.skipped[1].starts_with("same.snap: ") && r.skipped[2].starts_with("ghost-19.snap: "), "{:?}", r.skipped);
    assert_eq!(r.skipped[8], "older snapshots: not tried (at most the newest 8 names are)");
}

/// A step's records wait parsed until the step runs: a crafted log cannot make one step hold
/// more than 64 MiB of them (156 MB of records in one step reached 2.6 GB).
/// A fleet's take-over: the old owner's log ends inside a step, the new owner's `owner` record
/// follows, then the new owner runs that step whole. Replay drops the unfinished step's records
/// at the `owner` record and reaches the live world.
#[test]
fn a_step_left_unfinished_before_a_take_over_is_dropped_on_replay() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("owners.log");
    let live = logged_demo("billiards.lua", &log, 10, 30);
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let cut = lines
        .iter()
        .position(|line| {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            value["r"] == "call" && value["phase"] != "between"
        })
        .expect("the demo logs a call inside a step");
    let mut unfinished: serde_json::Value = serde_json::from_str(lines[cut]).unwrap();
    let tick = unfinished["tick"].as_u64().unwrap();
    // What the old owner's step had recorded when it stopped: a creation, which would show in
    // the world hash were it applied.
    unfinished["skill"] = json!("scene.createEntity");
    unfinished["input"] = json!({"shape": "box", "position": [3.0, 9.0, 3.0]});
    let unfinished = unfinished.to_string();
    let owner = json!({"r": "owner", "tick": tick, "epoch": 7, "owner": "standby"}).to_string();
    let spliced: Vec<&str> =
        lines[..cut].iter().copied().chain([unfinished.as_str(), owner.as_str()]).chain(lines[cut..].iter().copied()).collect();
    std::fs::write(&log, spliced.join("\n") + "\n").unwrap();
    let (engine, report) = host::replay(&log, &options(true)).unwrap();
    assert_eq!(report.divergence, None);
    assert_eq!(engine.world_hash(), live);
    // An owner record at another tick is no take-over of this log.
    let wrong = json!({"r": "owner", "tick": tick + 5, "epoch": 7, "owner": "standby"}).to_string();
    let spliced: Vec<&str> =
        lines[..cut].iter().copied().chain([unfinished.as_str(), wrong.as_str()]).chain(lines[cut..].iter().copied()).collect();
    std::fs::write(&log, spliced.join("\n") + "\n").unwrap();
    let e = host::replay(&log, &options(true)).unwrap_err().to_string();
    assert!(e.contains(&format!("a take-over at tick {} while the replay is at tick {tick}", tick + 5)), "{e}");
}

#[test]
fn a_crafted_step_cannot_hold_more_than_64_mib_of_records() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("big.log");
    logged_demo("billiards.lua", &log, 10, 30);
    let text = std::fs::read_to_string(&log).unwrap();
    let mut out = String::new();
    let mut tick = None;
    for line in text.lines() {
        out.push_str(line);
        out.push('\n');
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        if value["r"] == "call" && value["phase"] != "between" {
            let mut big = value.clone();
            big["input"] = json!({"pad": "x".repeat(7 << 20)});
            let big = format!("{big}\n");
            for _ in 0..10 {
                out.push_str(&big);
            }
            tick = value["tick"].as_u64();
            break;
        }
    }
    let tick = tick.expect("the demo logs a call inside a step");
    std::fs::write(&log, out).unwrap();
    let e = host::replay(&log, &options(true)).unwrap_err().to_string();
    assert!(e.contains(&format!("more than 67108864 bytes of records in the step of tick {tick}")), "{e}");
}

#[test]
fn a_crafted_log_cannot_overflow_the_tick() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("huge.log");
    let header = json!({"r": "header", "format": 1, "engine": "0.1.0", "seed": 0, "entityCapacity": 16, "checkpointEvery": 1,
        "scheduler": null, "startTick": u64::MAX});
    std::fs::write(&log, format!("{header}\n{}\n", json!({"r": "step", "now": 0}))).unwrap();
    let e = host::replay(&log, &options(true)).unwrap_err().to_string();
    assert!(e.contains("beyond the limit"), "{e}");

    // Nor give its agents a budget no spawn could.
    let mut scheduler = serde_json::to_value(limina::agents::budget::SchedulerBudget::default()).unwrap();
    scheduler["defaultAgentBudget"]["maxActionsPerTick"] = json!(0);
    let header = json!({"r": "header", "format": 1, "engine": "0.1.0", "seed": 0, "entityCapacity": 16, "checkpointEvery": 1,
        "scheduler": scheduler, "startTick": 0});
    std::fs::write(&log, format!("{header}\n")).unwrap();
    let e = host::replay(&log, &options(true)).unwrap_err().to_string();
    assert!(e.contains("the default agent budget's maxActionsPerTick 0 is outside [1, 64]"), "{e}");
}

#[test]
fn clients_cannot_fill_the_disk_with_snapshots() {
    let dir = tempfile::tempdir().unwrap();
    let snaps = dir.path().join("snaps");
    std::fs::create_dir(&snaps).unwrap();
    for i in 0..limina::snapshot::MAX_NAMED_SNAPSHOTS {
        // Snapshot files (world.snapshot replaces only those).
        std::fs::write(snaps.join(format!("old{i}.snap")), b"LIMSNAP\0x").unwrap();
    }
    let config = EngineConfig { output: Output::Silent, snapshots_dir: Some(snaps.clone()), ..EngineConfig::new(dir.path()) };
    let engine = Engine::new(config).unwrap();
    let caller = engine.script_caller().clone();
    let r = engine.call(&caller, "world.snapshot", json!({"name": "one-more"}));
    let error = r.error.expect("a new name past the bound is refused");
    assert_eq!(error.code.as_str(), "capacity_exceeded", "{}", error.message);
    assert!(!snaps.join("one-more.snap").exists());
    let r = engine.call(&caller, "world.snapshot", json!({"name": "old7"}));
    assert!(r.success, "writing over a snapshot it holds is allowed: {:?}", r.error);
}

/// Replaces line `n` (1-based) of `log` with `text`; returns the log's lines before the change.
fn corrupt_line(log: &Path, n: usize, text: &str) -> Vec<String> {
    let lines: Vec<String> = std::fs::read_to_string(log).unwrap().lines().map(str::to_string).collect();
    let mut out = lines.clone();
    out[n - 1] = text.to_string();
    std::fs::write(log, out.join("\n") + "\n").unwrap();
    lines
}

/// The 1-based line of the first record after the checkpoint of `tick`.
fn line_after_checkpoint(log: &Path, tick: u64) -> usize {
    let text = std::fs::read_to_string(log).unwrap();
    let at = text.lines().position(|l| {
        let v: serde_json::Value = serde_json::from_str(l).unwrap_or_default();
        v["r"] == "checkpoint" && v["tick"] == tick
    });
    at.expect("a checkpoint of that tick") + 2
}

/// A corrupt line does not stop recovery, and nothing past it is invented: before the snapshot
/// recovery starts from it is not needed; after it, recovery ends at the last state it can prove
/// (the checkpoint just before it), and says which lines and bytes it left out.
#[test]
fn recovery_passes_a_corrupt_line_and_ends_at_the_last_state_it_can_prove() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("world.log");
    let live = logged_with_snapshots(&log, 170);
    let hashes: std::collections::HashMap<u64, String> = checkpoints(&log).into_iter().collect();
    let pristine = std::fs::read(&log).unwrap();

    // Before the newest snapshot's marker (tick 150): not needed, the live world comes back.
    let bad = line_after_checkpoint(&log, 120);
    corrupt_line(&log, bad, "{\"r\":\"call\",\"tick\":12");
    assert!(host::replay(&log, &options(true)).is_err(), "a plain replay still refuses it");
    let r = host::recover(dir.path(), &crate::root()).unwrap();
    assert_eq!((r.snapshot.clone().map(|s| s.1), r.engine.world_hash(), r.report.divergence.clone()), (Some(150), live.clone(), None));
    assert_eq!(r.left_out.len(), 1, "{:?}", r.left_out);
    assert_eq!((r.left_out[0].first, r.left_out[0].last), (bad as u64, bad as u64));
    assert!(r.left_out[0].to_string().contains("not needed: snapshot world-000000000150.snap (tick 150"), "{}", r.left_out[0]);
    assert!(!r.left_out[0].drops_later_lines(), "the snapshot holds what it recorded");

    // After it (a line longer than any record may be): recovery ends at tick 160, the checkpoint
    // before the bad line, with the world that checkpoint recorded.
    std::fs::write(&log, &pristine).unwrap();
    let bad = line_after_checkpoint(&log, 160);
    let lines = corrupt_line(&log, bad, &"x".repeat(9 << 20));
    let r = host::recover(dir.path(), &crate::root()).unwrap();
    assert_eq!((r.report.tick, r.engine.world_hash(), r.report.divergence.clone()), (160, hashes[&160].clone(), None));
    let left = &r.left_out[0];
    let tail: usize = lines[bad..].iter().map(|l| l.len() + 1).sum::<usize>() + (9 << 20) + 1;
    assert_eq!((left.first, left.last, left.bytes), (bad as u64, lines.len() as u64, tail as u64), "{left}");
    assert!(
        left.why.contains("nothing after it can be replayed") && left.why.ends_with("at tick 160, the last state it can prove"),
        "{left}"
    );
    assert!(left.drops_later_lines(), "the records after it are not in the world (a fleet member refuses to serve that)");

    // Both, with the newest snapshot gone: from tick 100, ending before the bad line of tick 120.
    std::fs::write(&log, &pristine).unwrap();
    let early = line_after_checkpoint(&log, 70);
    corrupt_line(&log, early, "not json at all");
    let bad = line_after_checkpoint(&log, 120);
    corrupt_line(&log, bad, "{\"r\":\"header\",\"format\":1}");
    std::fs::remove_file(dir.path().join("world-000000000150.snap")).unwrap();
    let r = host::recover(dir.path(), &crate::root()).unwrap();
    assert_eq!((r.snapshot.clone().map(|s| s.1), r.report.tick, r.engine.world_hash()), (Some(100), 120, hashes[&120].clone()));
    assert_eq!(r.left_out.iter().map(|l| l.first).collect::<Vec<_>>(), [early as u64, bad as u64], "{:?}", r.left_out);

    // No snapshot at all: the log from its beginning up to the first bad line.
    for tick in [50, 100] {
        std::fs::remove_file(dir.path().join(format!("world-{tick:012}.snap"))).unwrap();
    }
    let r = host::recover(dir.path(), &crate::root()).unwrap();
    assert_eq!((r.snapshot.clone(), r.report.tick, r.engine.world_hash()), (None, 70, hashes[&70].clone()));
    assert_eq!(r.left_out.len(), 1, "{:?}", r.left_out);
    assert!(r.left_out[0].why.contains("(1 more bad lines follow)"), "{}", r.left_out[0]);
}
