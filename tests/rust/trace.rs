//! The world log end to end: a real engine's export verifies with `limina trace verify`, and
//! every kind of tampering is caught at the right line with the right reason: edits, deletions,
//! duplicated keys, unhashed integrity fields, a cut tail, and a re-forged seal (caught by the
//! anchor kept at export).

use std::path::Path;
use std::process::Command;

use limina::host::{Engine, EngineConfig, Output};
use serde_json::{Value, json};

fn limina(args: &[&str], cwd: &Path) -> (i32, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_limina")).args(args).current_dir(cwd).output().expect("run limina");
    (o.status.code().unwrap_or(-1), String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr))
}

/// Exports a small real session and returns its lines.
fn exported_lines(dir: &Path) -> Vec<String> {
    let engine = Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(dir.to_path_buf()) }).unwrap();
    let caller = engine.script_caller().clone();
    for i in 0..5 {
        assert!(engine.call(&caller, "scene.createEntity", json!({"position": [i, 1, 0], "color": 0x123456})).success);
    }
    let r = engine.call(&caller, "trace.export", json!({"name": "session"}));
    assert!(r.success, "{r:?}");
    let text = std::fs::read_to_string(dir.join("traces/session.jsonl")).unwrap();
    text.lines().map(str::to_string).collect()
}

fn write(dir: &Path, name: &str, lines: &[String], trailing_newline: bool) -> String {
    let mut text = lines.join("\n");
    if trailing_newline {
        text.push('\n');
    }
    std::fs::write(dir.join(name), text).unwrap();
    name.to_string()
}

#[test]
fn an_export_verifies_and_each_tampering_names_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let lines = exported_lines(dir.path());
    // A decision and an execution per call, the export's own decision, and the seal.
    assert_eq!(lines.len(), 12);
    let d = dir.path();

    let (code, out) = limina(&["trace", "verify", "traces/session.jsonl"], d);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("ok: 11 events, sealed (anchor sha256:"), "{out}");

    // Flip one byte of a payload (the colour 0x123456 = 1193046 -> 1193047) on line 4.
    let mut flipped = lines.clone();
    assert!(flipped[3].contains("1193046"), "{}", flipped[3]);
    flipped[3] = flipped[3].replacen("1193046", "1193047", 1);
    let f = write(d, "flipped.jsonl", &flipped, true);
    let (code, out) = limina(&["trace", "verify", &f], d);
    assert_eq!(code, 1);
    assert!(out.starts_with("flipped.jsonl:4: hash_mismatch"), "{out}");

    let mut deleted = lines.clone();
    deleted.remove(4);
    let f = write(d, "deleted.jsonl", &deleted, true);
    let (code, out) = limina(&["trace", "verify", &f], d);
    assert_eq!(code, 1);
    assert!(out.starts_with("deleted.jsonl:5: previous_hash_mismatch"), "{out}");

    let mut stripped = lines.clone();
    let mut v: Value = serde_json::from_str(&stripped[6]).unwrap();
    v.as_object_mut().unwrap().remove("integrity");
    stripped[6] = v.to_string();
    let f = write(d, "stripped.jsonl", &stripped, true);
    let (code, out) = limina(&["trace", "verify", &f], d);
    assert_eq!(code, 1);
    assert!(out.starts_with("stripped.jsonl:7: missing_integrity"), "{out}");

    let mut torn = lines.clone();
    let last = torn.len() - 1;
    let half = torn[last].len() / 2;
    torn[last].truncate(half);
    let f = write(d, "torn.jsonl", &torn, false);
    let (code, out) = limina(&["trace", "verify", &f], d);
    assert_eq!(code, 1);
    assert!(out.starts_with("torn.jsonl:12: partial_final_line"), "{out}");
    // Everything before the torn line still verifies, as a chain that is not shown complete.
    let f = write(d, "before_tear.jsonl", &lines[..11], true);
    let (code, out) = limina(&["trace", "verify", &f, "--live"], d);
    assert_eq!((code, out.trim()), (0, "ok: 11 events, unsealed (possibly truncated or still being written)"));

    let mut garbage = lines.clone();
    garbage[2] = "{ this is not json".into();
    let f = write(d, "garbage.jsonl", &garbage, true);
    let (code, out) = limina(&["trace", "verify", &f], d);
    assert_eq!(code, 1);
    assert!(out.starts_with("garbage.jsonl:3: invalid_json"), "{out}");

    let (code, out) = limina(&["trace", "verify", "missing.jsonl"], d);
    assert_eq!(code, 1);
    assert!(out.contains("missing.jsonl: cannot read"), "{out}");
}

#[test]
fn append_on_emit_writes_the_same_chain_live() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("drop.lua"),
        "limina.call('scene.createEntity', {dynamic = true, position = {0, 5, 0}})\nreturn { frames = 30 }\n",
    )
    .unwrap();
    let (code, out) = limina(&["run", "drop.lua", "--trace", "live.jsonl"], dir.path());
    assert_eq!(code, 0, "{out}");
    let (code, out) = limina(&["trace", "verify", "live.jsonl"], dir.path());
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("ok: 2 events, sealed (anchor sha256:"), "{out}");
    let (code, out) = limina(&["run", "drop.lua", "--trace", "no/such/dir/live.jsonl"], dir.path());
    assert_eq!(code, 1);
    assert!(out.contains("no/such/dir/live.jsonl"), "{out}");
}

#[test]
fn the_builder_demo_governs_builds_denies_and_verifies_its_export() {
    let root = crate::root();
    let (code, out) = limina(&["run", "demos/builder.lua"], &root);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("builder: discovered"), "{out}");
    assert!(out.contains("-> forbidden (quota of 8 calls per 60 ticks"), "{out}");
    assert!(out.contains("reviewer: scene.destroyEntity -> forbidden: missing permission: scene.write (profile system.readonly lacks it; granted by builder.readWrite) (world unchanged)"), "{out}");
    assert!(out.contains("trace: verify traces/builder.jsonl -> ok:"), "{out}");
}

/// The anchor `limina trace verify` prints for an intact, sealed file.
fn anchor_of(file: &str, dir: &Path) -> String {
    let (code, out) = limina(&["trace", "verify", file], dir);
    assert_eq!(code, 0, "{out}");
    let at = out.find("sha256:").unwrap_or_else(|| panic!("no anchor in {out:?}"));
    out[at..at + 7 + 64].to_string()
}

/// Chains `body` (a JSON object without integrity) after `previous`, as an exporter would.
fn chained(body: &Value, previous: Option<&str>) -> String {
    let canonical = serde_json::to_string(body).unwrap();
    let hash = limina::trace::chain_hash(canonical.as_bytes(), previous);
    let mut line = body.clone();
    line["integrity"] = json!({"hash": hash, "previousHash": previous});
    line.to_string()
}

fn hash_of(line: &str) -> String {
    let v: Value = serde_json::from_str(line).unwrap();
    v["integrity"]["hash"].as_str().unwrap().to_string()
}

#[test]
fn trace_verify_refuses_a_duplicated_key_that_a_first_wins_reader_would_believe() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut lines = exported_lines(d);
    // The colour is 0x123456 = 1193046; a first-wins reader would see red instead, while a
    // last-wins reader (serde_json) sees the genuine value and the hash still matches.
    assert!(lines[3].contains("\"color\":1193046"), "{}", lines[3]);
    lines[3] = lines[3].replacen("\"color\":1193046", "\"color\":16711680,\"color\":1193046", 1);
    let f = write(d, "dup.jsonl", &lines, true);
    let (code, out) = limina(&["trace", "verify", &f], d);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("dup.jsonl:4: duplicate_key"), "{out}");
    assert!(out.contains("color\""), "the key is named: {out}");
}

#[test]
fn trace_verify_refuses_an_unhashed_field_inside_integrity() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut lines = exported_lines(d);
    lines[5] = lines[5].replacen("\"integrity\":{", "\"integrity\":{\"approvedBy\":\"auditor\",", 1);
    let f = write(d, "extra.jsonl", &lines, true);
    let (code, out) = limina(&["trace", "verify", &f], d);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("extra.jsonl:6: unknown_integrity_field"), "{out}");
    assert!(out.contains("approvedBy"), "{out}");
}

#[test]
fn trace_verify_detects_a_cut_tail() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let lines = exported_lines(d);
    for keep in [lines.len() - 1, lines.len() - 3, 1] {
        let f = write(d, "cut.jsonl", &lines[..keep], true);
        let (code, out) = limina(&["trace", "verify", &f], d);
        assert_eq!(code, 1, "keeping {keep} lines: {out}");
        assert!(out.starts_with(&format!("cut.jsonl:{}: truncated", keep + 1)), "keeping {keep} lines: {out}");
    }
}

#[test]
fn the_export_anchor_catches_a_reforged_seal() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let lines = exported_lines(d);
    let anchor = anchor_of("traces/session.jsonl", d);

    // Cut the last event and re-seal what is left, rehashing like an exporter would. Without
    // a key nothing in the file can tell this from a genuine export of 10 events...
    let mut forged = lines[..lines.len() - 2].to_vec();
    let last = hash_of(forged.last().unwrap());
    let seal: Value = serde_json::from_str(lines.last().unwrap()).unwrap();
    assert_eq!(seal["type"], "trace.sealed", "{seal}");
    let mut body = seal.clone();
    body.as_object_mut().unwrap().remove("integrity");
    body["events"] = json!(forged.len());
    body["lastHash"] = json!(last);
    forged.push(chained(&body, Some(&last)));
    let f = write(d, "reforged.jsonl", &forged, true);
    let (code, out) = limina(&["trace", "verify", &f], d);
    assert_eq!((code, out.starts_with("ok: 10 events, sealed")), (0, true), "{out}");

    // ...but the anchor kept at export time can.
    let (code, out) = limina(&["trace", "verify", &f, "--anchor", &anchor], d);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with(&format!("reforged.jsonl:{}: anchor_mismatch", forged.len())), "{out}");
    assert!(out.contains(&anchor), "the expected anchor is named: {out}");
    let (code, out) = limina(&["trace", "verify", "traces/session.jsonl", "--anchor", &anchor], d);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("ok: 11 events, sealed"), "{out}");
    // A re-seal that keeps the old count does not even pass the chain.
    let mut stale = lines[..lines.len() - 2].to_vec();
    body["events"] = json!(11);
    stale.push(chained(&body, Some(&last)));
    let f = write(d, "stale.jsonl", &stale, true);
    let (code, out) = limina(&["trace", "verify", &f], d);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with(&format!("stale.jsonl:{}: seal_mismatch", stale.len())), "{out}");
}

#[test]
fn a_live_trace_is_sealed_on_close_and_an_unsealed_one_is_never_ok_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("drop.lua"), "limina.call('scene.createEntity', {dynamic = true, position = {0, 5, 0}})\n").unwrap();
    let (code, out) = limina(&["run", "drop.lua", "--trace", "live.jsonl"], d);
    assert_eq!(code, 0, "{out}");
    let text = std::fs::read_to_string(d.join("live.jsonl")).unwrap();
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    assert!(lines.last().unwrap().contains("\"type\":\"trace.sealed\""), "{text}");
    let (code, out) = limina(&["trace", "verify", "live.jsonl"], d);
    assert_eq!((code, out.starts_with("ok: 2 events, sealed")), (0, true), "{out}");

    // Without its seal (a crash, a kill, or a cut) the file is not ok by default...
    let f = write(d, "unsealed.jsonl", &lines[..lines.len() - 1], true);
    let (code, out) = limina(&["trace", "verify", &f], d);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("unsealed.jsonl:3: truncated"), "{out}");
    // ...and `--live` accepts it while saying it may be cut off or still being written.
    let (code, out) = limina(&["trace", "verify", &f, "--live"], d);
    assert_eq!((code, out.trim()), (0, "ok: 2 events, unsealed (possibly truncated or still being written)"));
}

#[test]
fn skills_and_types_commands_describe_the_registry() {
    let root = crate::root();
    let (code, out) = limina(&["skills", "list"], &root);
    assert_eq!(code, 0);
    for name in ["scene.createEntity", "trace.tail", "audit.usage", "inspector.snapshot", "dev.reload", "agent.emitEvent"] {
        assert!(out.contains(name), "{name} missing from:\n{out}");
    }
    let (code, out) = limina(&["skills", "describe", "trace.tail"], &root);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["input_schema"]["properties"]["limit"]["maximum"], 1000);
    let (code, out) = limina(&["skills", "schema", "audit.query"], &root);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["properties"]["limit"]["default"], 200);
    assert_eq!(limina(&["skills", "describe", "no.such"], &root).0, 2);

    let (code, defs) = limina(&["types"], &root);
    assert_eq!(code, 0);
    assert!(defs.contains("declare limina: {"), "{defs}");
    assert!(defs.contains(r#"((name: "scene.createEntity", input: SceneCreateEntityInput?) -> SkillResponse<SceneCreateEntityOutput>)"#));
    assert!(defs.contains("type TraceTailInput = { actorId: string?, afterSeq: number?, limit: number?, type: string? }"), "{defs}");
}

#[test]
fn generated_type_aliases_are_valid_luau() {
    let engine = Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(crate::root()) }).unwrap();
    let aliases = limina::script::typedefs::luau_type_aliases(engine.registry().signatures());
    let chunk = format!("{aliases}\nreturn true");
    let ok: bool = engine.lua().load(chunk).set_name("@limina.d.luau").eval().unwrap();
    assert!(ok);
}

#[test]
fn explaining_an_event_long_spilled_to_disk_finds_its_causes_and_children() {
    let dir = tempfile::tempdir().unwrap();
    let window = limina::trace::TraceWindow { events: 32, bytes: usize::MAX };
    let config = EngineConfig { output: Output::Silent, trace_window: window, ..EngineConfig::new(dir.path().to_path_buf()) };
    let e = Engine::new(config).unwrap();
    let caller = e.script_caller().clone();
    let made = e.call(&caller, "scene.createEntity", json!({"position": [0, 1, 0]}));
    let entity = made.result.unwrap()["entity"].as_str().unwrap().to_string();
    let (executed, decision) = {
        let trace = e.trace();
        let ev = trace.tail().find(|ev| &*ev.event_type == "skill.executed").unwrap();
        (ev.id.clone(), ev.caused_by[0].clone())
    };
    for i in 0..2_000 {
        let r = e.call(&caller, "ecs.updateComponent", json!({"entity": entity, "component": "position", "value": [i, 1, 0]}));
        assert!(r.success, "{r:?}");
    }
    assert!(e.trace().len() > 4_000 && e.trace().resident_len() <= 32, "{} in memory", e.trace().resident_len());

    let r = e.call(&caller, "trace.explainEvent", json!({"eventId": decision})).result.unwrap();
    assert_eq!(r["event"]["type"], "policy.decision", "{r}");
    assert_eq!(r["children"].as_array().unwrap().iter().map(|c| c["id"].clone()).collect::<Vec<_>>(), [json!(executed)], "{r}");
    let r = e.call(&caller, "trace.explainEvent", json!({"eventId": executed})).result.unwrap();
    assert_eq!(r["parents"][0]["id"], json!(decision), "{r}");
    assert_eq!(r["ancestors"][0]["id"], json!(decision), "{r}");
    assert_eq!(r["event"]["payload"]["input"]["position"], json!([0, 1, 0]), "the payload read back: {r}");
    let r = e.call(&caller, "audit.explain", json!({"eventId": executed})).result.unwrap();
    assert_eq!(r["decision"]["eventId"], json!(decision), "{r}");
    let r = e.call(&caller, "audit.query", json!({"limit": 1})).result.unwrap();
    assert!(r["summary"]["total"].as_u64().unwrap() > 2_000, "the whole history: {r}");

    // The export holds every event, the spilled ones first, and verifies.
    let r = e.call(&caller, "trace.export", json!({"name": "long"}));
    assert!(r.success, "{r:?}");
    let (code, out) = limina(&["trace", "verify", "traces/long.jsonl"], dir.path());
    assert_eq!(code, 0, "{out}");
    let text = std::fs::read_to_string(dir.path().join("traces/long.jsonl")).unwrap();
    let line = format!("\"id\":\"{decision}\"");
    assert_eq!(text.lines().filter(|l| l.contains(&line)).count(), 1, "the oldest events are in the export");
}

/// `inspector.snapshot` needs no `trace.read`, so it shows the log's recent events and actors
/// only to callers who could read the log: they carry every caller's inputs.
#[test]
fn the_inspector_shows_the_log_only_to_callers_who_may_read_it() {
    let e = Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(crate::root()) }).unwrap();
    let builder = e.script_caller().clone();
    assert!(e.call(&builder, "agent.emitEvent", json!({"type": "note", "payload": {"password": "hunter2"}})).success);
    let player = limina::skills::Caller::new("agt_p", "ses_p", "player.limited");
    let seen = |caller| {
        let r = e.call(caller, "inspector.snapshot", json!({"limit": 0}));
        assert!(r.success, "{r:?}");
        r.result.unwrap()["trace"].clone()
    };
    let (mine, theirs) = (seen(&builder), seen(&player));
    assert!(mine["recent"].to_string().contains("hunter2") && !mine["actors"].as_array().unwrap().is_empty(), "{mine}");
    assert_eq!((theirs["recent"].clone(), theirs["actors"].clone()), (json!([]), json!([])), "{theirs}");
    assert!(theirs["eventCount"].as_u64().unwrap() > mine["eventCount"].as_u64().unwrap(), "the count is no secret");
}

/// `trace.export` writes only into a real `traces/` folder, never through a link planted there,
/// never over a file it did not make (the operator's live `--trace` file), and may write its
/// own export again. Every refusal leaves the files as they were.
#[test]
fn an_export_never_follows_a_link_nor_replaces_a_file_it_did_not_make() {
    use std::os::unix::fs::symlink;
    let outside = tempfile::tempdir().unwrap();
    let victim = outside.path().join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    let project = tempfile::tempdir().unwrap();
    let traces = project.path().join("traces");
    std::fs::create_dir(&traces).unwrap();
    // The old attack (a link at the temporary name) and links at the export's own name,
    // dangling or not.
    symlink(&victim, traces.join("a.jsonl.partial")).unwrap();
    symlink(&victim, traces.join("b.jsonl")).unwrap();
    symlink(outside.path().join("made-by-link"), traces.join("c.jsonl")).unwrap();
    let live = traces.join("live.jsonl");
    let config = EngineConfig { output: Output::Silent, trace_append: Some(live.clone()), ..EngineConfig::new(project.path()) };
    let engine = Engine::new(config).unwrap();
    let caller = engine.script_caller().clone();
    assert!(engine.call(&caller, "scene.createEntity", json!({})).success);
    let export = |name: &str| engine.call(&caller, "trace.export", json!({ "name": name }));

    let r = export("a");
    assert!(r.success, "{r:?}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert!(std::fs::symlink_metadata(traces.join("a.jsonl")).unwrap().is_file());
    for name in ["b", "c"] {
        let r = export(name);
        let e = r.error.unwrap();
        assert_eq!(e.code.as_str(), "invalid_input", "{}", e.message);
        assert!(e.message.contains(&format!("{name}.jsonl is a symbolic link")), "{}", e.message);
    }
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert!(!outside.path().join("made-by-link").exists());

    // The operator's live trace is not replaced by name (with or without `.jsonl`).
    let before = std::fs::read(&live).unwrap();
    for name in ["live", "live.jsonl"] {
        let e = export(name).error.unwrap();
        assert!(e.message.contains("is not a file the engine may replace"), "{}", e.message);
    }
    let after = std::fs::read(&live).unwrap();
    assert!(after.starts_with(&before), "the live trace was only appended to");
    // A file it made it may write again.
    assert!(export("a").success);
    let left: Vec<_> = std::fs::read_dir(&traces)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");

    // A `traces/` that is itself a link is refused.
    let linked = tempfile::tempdir().unwrap();
    symlink(outside.path(), linked.path().join("traces")).unwrap();
    let engine = Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(linked.path()) }).unwrap();
    let caller = engine.script_caller().clone();
    let e = engine.call(&caller, "trace.export", json!({"name": "x"})).error.unwrap();
    assert!(e.message.contains("traces is a symbolic link"), "{}", e.message);
    assert!(!outside.path().join("x.jsonl").exists());
}
