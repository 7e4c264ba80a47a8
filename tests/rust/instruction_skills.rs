//! Instruction skills (issue 29): `SKILL.md` under `scripts/` is loaded into the registry beside
//! the typed skills, served to MCP clients as prompts and `skill://` resources, and hot reloaded
//! keeping the last good version on a broken edit, with the file and line in the trace.

use std::path::Path;

use limina::host::Engine;
use limina::mcp::{McpSession, handle_text};
use limina::policy::Profile;
use serde_json::{Value, json};

use crate::packages::{engine, events_of, step_until};

const LIGHT: &str = "---\nname: light\ndescription: Light a scene so captures read.\nversion: 1.0.0\nsurfaceMode: both\ntools: [scene.createEntity]\n---\n# Lighting\nKey light first.\n";

fn scripts_with_skills(dir: &Path) -> std::path::PathBuf {
    let scripts = dir.join("scripts");
    std::fs::create_dir_all(scripts.join("light/refs")).unwrap();
    std::fs::write(scripts.join("light/SKILL.md"), LIGHT).unwrap();
    std::fs::write(scripts.join("light/refs/rig.md"), "three-point rig").unwrap();
    // A Luau example beside a SKILL.md is a resource, never a mod.
    std::fs::write(scripts.join("light/refs/example.luau"), "error('never run')").unwrap();
    std::fs::write(scripts.join("names.skill.md"), "---\nname: names\ndescription: Name things so others find them.\n---\nUse nouns.\n")
        .unwrap();
    scripts
}

/// Every message `text` brings back: the response first, then any notifications.
fn send(e: &Engine, s: &mut McpSession, id: u64, method: &str, params: Value) -> Vec<Value> {
    handle_text(e, s, &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string())
}

fn session(e: &Engine) -> (McpSession, Value) {
    let mut s = McpSession::new(1, Profile::parse("builder.readWrite").unwrap(), e);
    let init = send(
        e,
        &mut s,
        0,
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
    );
    (s, init[0]["result"].clone())
}

#[test]
fn skill_md_files_are_served_as_prompts_and_resources() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = scripts_with_skills(dir.path());
    let e = engine(&scripts, false);
    assert_eq!(e.registry().instructions().list().map(|s| s.id.clone()).collect::<Vec<_>>(), ["light", "names"]);
    assert!(e.mods().packages.iter().all(|p| !p.source.path.ends_with("example.luau")), "a resource was loaded as a mod");
    let (mut s, init) = session(&e);
    assert_eq!(init["capabilities"]["prompts"], json!({"listChanged": true}), "{init}");
    let listed = send(&e, &mut s, 1, "prompts/list", json!({}));
    assert_eq!(listed[0]["result"]["prompts"][0], json!({"name": "light", "description": "Light a scene so captures read."}));
    let got = send(&e, &mut s, 2, "prompts/get", json!({"name": "light"}));
    assert_eq!(got[0]["result"]["messages"][0]["content"]["text"], "# Lighting\nKey light first.\n");
    let unknown = send(&e, &mut s, 3, "prompts/get", json!({"name": "nope"}));
    assert_eq!(unknown[0]["error"]["code"], -32602);
    let resources = send(&e, &mut s, 4, "resources/list", json!({}));
    let uris: Vec<&str> = resources[0]["result"]["resources"].as_array().unwrap().iter().map(|r| r["uri"].as_str().unwrap()).collect();
    assert_eq!(
        uris,
        ["ui://limina/world", "skill://light", "skill://light/refs/example.luau", "skill://light/refs/rig.md", "skill://names"]
    );
    let rig = send(&e, &mut s, 5, "resources/read", json!({"uri": "skill://light/refs/rig.md"}));
    assert_eq!(rig[0]["result"]["contents"][0]["text"], "three-point rig");
    for bad in ["skill://light/../names", "skill://light/refs%2Frig.md", "skill://light/SKILL.md", "skill://ghost"] {
        let r = send(&e, &mut s, 6, "resources/read", json!({"uri": bad}));
        assert_eq!(r[0]["error"]["code"], -32002, "{bad}: {r:?}");
    }
}

/// Found running the official MCP conformance suite (tests/node/conformance.test.mjs): the
/// lists ignored a `cursor` and answered the first page again, and a not-found for another
/// scheme said the server had only the MCP Apps view.
#[test]
fn unissued_cursors_are_invalid_params_and_not_found_names_the_skill_resources() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = scripts_with_skills(dir.path());
    let e = engine(&scripts, false);
    let (mut s, _) = session(&e);
    for method in ["prompts/list", "resources/list", "resources/templates/list"] {
        for cursor in [json!("abc"), json!("0"), json!(3)] {
            let r = send(&e, &mut s, 1, method, json!({"cursor": cursor}));
            assert_eq!(r[0]["error"]["code"], -32602, "{method} {cursor}: {r:?}");
        }
        let r = send(&e, &mut s, 2, method, json!({"cursor": null}));
        assert!(r[0]["result"].is_object(), "{method}: {r:?}");
        assert!(r[0]["result"].get("nextCursor").is_none(), "{method}: {r:?}");
    }
    let r = send(&e, &mut s, 3, "resources/read", json!({"uri": "test://static-text"}));
    assert_eq!(r[0]["error"]["code"], -32002, "{r:?}");
    let message = r[0]["error"]["message"].as_str().unwrap();
    assert!(message.contains("ui://limina/world") && message.contains("skill://"), "{message}");
}

#[test]
fn prompts_are_not_advertised_when_there_are_none() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    std::fs::create_dir_all(&scripts).unwrap();
    let e = engine(&scripts, false);
    let (_, init) = session(&e);
    assert!(init["capabilities"].get("prompts").is_none(), "{init}");
}

#[test]
fn a_skill_gating_an_unknown_tool_is_refused_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    std::fs::create_dir_all(scripts.join("bad")).unwrap();
    std::fs::write(
        scripts.join("bad/SKILL.md"),
        "---\nname: bad\ndescription: d\ntools:\n  - scene.createEntity\n  - scene.teleportEverything\n---\nx\n",
    )
    .unwrap();
    let e = engine(&scripts, false);
    assert!(!e.registry().instructions().has("bad"));
    let rejected = events_of(&e, "package.rejected");
    let ev = rejected.iter().find(|ev| ev["ref"] == "bad").unwrap_or_else(|| panic!("{rejected:?}"));
    assert_eq!(
        (ev["file"].as_str(), ev["line"].as_u64(), ev["rule"].as_str()),
        (Some("bad/SKILL.md"), Some(6), Some("profile.denied")),
        "{ev}"
    );
}

#[test]
fn a_broken_edit_keeps_the_last_good_version_and_a_good_one_says_list_changed() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = scripts_with_skills(dir.path());
    let e = engine(&scripts, true);
    let (mut s, _) = session(&e);
    let skill = scripts.join("light/SKILL.md");
    let failures = |e: &Engine| events_of(e, "dev.skill.reload.failed").into_iter().filter(|ev| ev["ref"] == "light").collect::<Vec<_>>();

    // Malformed front matter: refused with file and line, the old body still served.
    std::fs::write(&skill, LIGHT.replace("version: 1.0.0\n", "version: 1.0.0\ncolour: red\n")).unwrap();
    step_until(&e, "the malformed edit refused", |e| !failures(e).is_empty());
    let ev = &failures(&e)[0];
    assert_eq!((ev["file"].as_str(), ev["line"].as_u64()), (Some("light/SKILL.md"), Some(5)), "{ev}");
    assert!(ev["reason"].as_str().unwrap().contains("the last good version keeps running"), "{ev}");
    assert_eq!(e.registry().instructions().get("light").unwrap().body, "# Lighting\nKey light first.\n");

    // An oversized body: refused at the body's first line.
    std::fs::write(&skill, format!("{LIGHT}{}", "x".repeat(70 * 1024))).unwrap();
    step_until(&e, "the oversized edit refused", |e| failures(e).len() >= 2);
    let ev = &failures(&e)[1];
    assert_eq!(ev["line"].as_u64(), Some(8), "{ev}");
    assert!(ev["reason"].as_str().unwrap().contains("above the maximum of 65536"), "{ev}");
    assert_eq!(e.registry().instructions().get("light").unwrap().body, "# Lighting\nKey light first.\n");

    // A good edit replaces it, and a client hears that prompts and resources changed.
    let _ = send(&e, &mut s, 1, "ping", json!({}));
    std::fs::write(&skill, LIGHT.replace("Key light first.", "Fill light second.")).unwrap();
    step_until(&e, "the good edit loaded", |e| e.registry().instructions().get("light").is_some_and(|s| s.body.contains("Fill")));
    let after = send(&e, &mut s, 2, "ping", json!({}));
    let methods: Vec<&str> = after.iter().filter_map(|m| m["method"].as_str()).collect();
    assert!(
        methods.contains(&"notifications/prompts/list_changed") && methods.contains(&"notifications/resources/list_changed"),
        "{after:?}"
    );
}

#[test]
fn discovery_shows_both_kinds_and_skills_read_serves_the_body() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = scripts_with_skills(dir.path());
    let e = engine(&scripts, false);
    let found = crate::packages::call(&e, "skills.search", json!({"query": "light scene", "limit": 25})).result.unwrap();
    let rows = found["results"].as_array().unwrap();
    let light = rows.iter().find(|r| r["name"] == "light").unwrap_or_else(|| panic!("{found}"));
    assert_eq!((light["kind"].as_str(), light["tools"].clone()), (Some("instruction"), json!(["scene.createEntity"])));
    assert!(rows.iter().any(|r| r["kind"] == "tool"), "{found}");
    let categories = crate::packages::call(&e, "skills.browse", json!({})).result.unwrap();
    assert!(categories["categories"].as_array().unwrap().contains(&json!({"name": "instructions", "count": 2})), "{categories}");
    let browsed = crate::packages::call(&e, "skills.browse", json!({"category": "instructions"})).result.unwrap();
    assert_eq!(browsed["skills"].as_array().unwrap().len(), 2, "{browsed}");
    let read = crate::packages::call(&e, "skills.read", json!({"id": "light"})).result.unwrap();
    assert_eq!(read["body"], "# Lighting\nKey light first.\n");
    assert_eq!((read["surfaceMode"].as_str(), read["resources"].clone()), (Some("both"), json!(["refs/example.luau", "refs/rig.md"])));
    let file = crate::packages::call(&e, "skills.read", json!({"id": "light", "file": "refs/rig.md"})).result.unwrap();
    assert_eq!(file["text"], "three-point rig");
    for bad in [json!({"id": "ghost"}), json!({"id": "light", "file": "../names.skill.md"})] {
        let r = crate::packages::call(&e, "skills.read", bad.clone());
        assert_eq!(r.error.as_ref().map(|f| f.code.as_str()), Some("not_found"), "{bad}: {:?}", r.error);
    }
}

/// Who hears that the instruction skills changed: a stateless client only on a listen stream
/// that asked (stamped with its id), a handshake client unasked — `prompts/list_changed` only if
/// its `initialize` declared prompts; one that connected before the first skill hears of it
/// through `resources/list_changed` (the `skill://` resources).
#[test]
fn skill_changes_reach_listen_streams_that_asked_and_only_declared_capabilities() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    std::fs::create_dir_all(&scripts).unwrap();
    let e = engine(&scripts, false);
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}});
    let mut stateless = McpSession::new(1, Profile::BuilderReadWrite, &e);
    let ask = |s: &mut McpSession, id: u64, method: &str, mut params: Value| {
        params["_meta"] = meta.clone();
        handle_text(&e, s, &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string())
    };
    let discovered = ask(&mut stateless, 1, "server/discover", json!({}));
    assert!(discovered[0]["result"]["capabilities"].get("prompts").is_none(), "no skills, no prompts capability");
    let ack = ask(
        &mut stateless,
        2,
        "subscriptions/listen",
        json!({"notifications": {"promptsListChanged": true, "resourcesListChanged": true}}),
    );
    assert_eq!(ack[0]["params"]["notifications"], json!({"promptsListChanged": true, "resourcesListChanged": true}));
    let tools_only = ask(&mut stateless, 3, "subscriptions/listen", json!({"notifications": {"toolsListChanged": true}}));
    assert_eq!(tools_only.len(), 1);
    let (mut early, init) = session(&e);
    assert!(init["capabilities"].get("prompts").is_none());

    e.instructions_mut().register(limina::instructions::parse(LIGHT.as_bytes(), "light/SKILL.md", None).unwrap()).unwrap();

    let out = ask(&mut stateless, 4, "ping", json!({}));
    let notes: Vec<(String, Value)> = out[1..]
        .iter()
        .map(|n| (n["method"].as_str().unwrap().to_string(), n["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"].clone()))
        .collect();
    assert_eq!(
        notes,
        [("notifications/prompts/list_changed".to_string(), json!(2)), ("notifications/resources/list_changed".to_string(), json!(2))],
        "{out:?}"
    );
    let out = send(&e, &mut early, 5, "ping", json!({}));
    let methods: Vec<&str> = out[1..].iter().map(|n| n["method"].as_str().unwrap()).collect();
    assert_eq!(methods, ["notifications/resources/list_changed"], "prompts were never declared to it: {out:?}");
    let (mut late, init) = session(&e);
    assert!(init["capabilities"]["prompts"]["listChanged"] == true);
    e.instructions_mut().unregister("light");
    let out = send(&e, &mut late, 6, "ping", json!({}));
    let methods: Vec<&str> = out[1..].iter().map(|n| n["method"].as_str().unwrap()).collect();
    assert_eq!(methods, ["notifications/prompts/list_changed", "notifications/resources/list_changed"]);
}

fn skill_text(name: &str, extra: &str, body: &str) -> String {
    format!("---\nname: {name}\ndescription: {name} here.\n{extra}---\n{body}\n")
}

fn rejected_reason(e: &Engine, file: &str) -> String {
    let all = events_of(e, "package.rejected");
    let ev = all.iter().find(|ev| ev["file"] == file).unwrap_or_else(|| panic!("{file} not refused: {all:?}"));
    ev["reason"].as_str().unwrap().to_string()
}

/// Attacks found by an outside check: a second file with a loaded skill's name, a conflict
/// declared to evict another skill, a dependency that leaves during a hot reload, a flood of
/// skills, and a `SKILL.md` dropped into a typed package's folder.
#[test]
fn a_newcomer_never_takes_a_skill_s_id_and_a_conflict_refuses_only_its_declarer() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    for d in ["lighting", "0/lighting", "victim", "base", "child"] {
        std::fs::create_dir_all(scripts.join(d)).unwrap();
    }
    std::fs::write(scripts.join("lighting/SKILL.md"), skill_text("lighting", "", "OPERATOR")).unwrap();
    std::fs::write(scripts.join("0/lighting/SKILL.md"), skill_text("lighting", "", "ATTACKER")).unwrap();
    std::fs::write(scripts.join("victim/SKILL.md"), skill_text("victim", "", "V")).unwrap();
    std::fs::write(scripts.join("aaa.skill.md"), skill_text("aaa", "conflicts_with: [victim]\n", "A")).unwrap();
    std::fs::write(scripts.join("base/SKILL.md"), skill_text("base", "version: 1.0.0\n", "B")).unwrap();
    std::fs::write(scripts.join("child/SKILL.md"), skill_text("child", "dependencies: [base@^1]\n", "C")).unwrap();
    let e = engine(&scripts, true);
    let has = |e: &Engine, id: &str| e.registry().instructions().has(id);
    // Two files claim `lighting` at start-up: both refused, both named.
    assert!(!has(&e, "lighting"));
    let reason = rejected_reason(&e, "lighting/SKILL.md");
    assert!(reason.contains("2 files claim the id 'lighting' (0/lighting, lighting): all are refused"), "{reason}");
    // The declarer of a conflict is refused, whatever the names' order.
    assert!(has(&e, "victim") && !has(&e, "aaa"));
    assert!(rejected_reason(&e, "scripts/aaa.skill.md").contains("declares a conflict with 'victim'"));
    assert!(has(&e, "base") && has(&e, "child"));

    // Live: once one `lighting` is loaded, a newcomer with its name is refused and it stays.
    std::fs::remove_dir_all(scripts.join("0")).unwrap();
    step_until(&e, "lighting loaded", |e| has(e, "lighting"));
    std::fs::create_dir_all(scripts.join("zz/lighting")).unwrap();
    std::fs::write(scripts.join("zz/lighting/SKILL.md"), skill_text("lighting", "", "ATTACKER AGAIN")).unwrap();
    step_until(&e, "the newcomer refused", |e| {
        events_of(e, "package.rejected")
            .iter()
            .any(|ev| ev["reason"].as_str().is_some_and(|r| r.contains("belongs to the loaded skill at lighting")))
    });
    assert!(e.registry().instructions().get("lighting").unwrap().body.contains("OPERATOR"));
    // A dependency that leaves takes its dependant with it (no "last good" for a broken set).
    std::fs::remove_dir_all(scripts.join("base")).unwrap();
    step_until(&e, "child unloaded with its dependency", |e| !has(e, "child"));
    drop(e);

    // A SKILL.md inside a typed package's folder is one of the package's files.
    std::fs::create_dir_all(scripts.join("dual")).unwrap();
    std::fs::write(scripts.join("dual/package.luau"), "return { name = \"dual\", version = \"1.0.0\" }\n").unwrap();
    std::fs::write(scripts.join("dual/init.luau"), "return { skills = {} }\n").unwrap();
    std::fs::write(scripts.join("dual/SKILL.md"), skill_text("dual", "", "D")).unwrap();
    // A flood: only the first 256 in path order are read, and that is said once.
    std::fs::create_dir_all(scripts.join("flood")).unwrap();
    for i in 0..300 {
        std::fs::write(scripts.join(format!("flood/f{i:03}.skill.md")), skill_text(&format!("f{i:03}"), "", "x")).unwrap();
    }
    let e = engine(&scripts, false);
    assert!(!has(&e, "dual"));
    assert!(has(&e, "f000") && !has(&e, "f299") && e.registry().instructions().size() <= 256);
    let flood: Vec<Value> = events_of(&e, "package.rejected")
        .into_iter()
        .filter(|ev| ev["reason"].as_str().is_some_and(|r| r.starts_with("more than 256 instruction skills")))
        .collect();
    assert_eq!(flood.len(), 1, "{flood:?}");
}

/// A client is never shown a tool its profile cannot call, not even as a name a skill gates.
#[test]
fn discovery_shows_a_player_only_the_gated_tools_it_may_call() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = scripts_with_skills(dir.path());
    let e = engine(&scripts, false);
    let mut player = McpSession::new(1, Profile::parse("player.limited").unwrap(), &e);
    send(
        &e,
        &mut player,
        0,
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "p", "version": "1"}}),
    );
    let call = |s: &mut McpSession, id: u64, name: &str, args: Value| {
        let out = send(&e, s, id, "tools/call", json!({"name": name, "arguments": args}));
        out[0]["result"]["structuredContent"].clone()
    };
    let read = call(&mut player, 1, "skills.read", json!({"id": "light"}));
    assert_eq!(read["tools"], json!([]), "player.limited may not call scene.createEntity: {read}");
    let browsed = call(&mut player, 2, "skills.browse", json!({"category": "instructions"}));
    assert!(browsed.to_string().contains("\"light\"") && !browsed.to_string().contains("scene.createEntity"), "{browsed}");
    let (mut builder, _) = session(&e);
    let read = call(&mut builder, 3, "skills.read", json!({"id": "light"}));
    assert_eq!(read["tools"], json!(["scene.createEntity"]), "{read}");
}
