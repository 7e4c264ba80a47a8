//! Hot reload obeys every load rule (issue 15, item 7). A package's identity is its path; a
//! reload runs the same resolver and gates as start-up; the declarer of a conflict is refused.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use limina::host::Engine;
use limina::packages::Status;
use serde_json::{Value, json};

use crate::packages::{BENIGN, HANG_GUARD, call, echo_mod, engine, events_of, step_until, within, write_package};

/// A single-file mod named `name` serving `hot.echo` with `value`.
fn named_echo(name: &str, value: &str) -> String {
    echo_mod(value).replacen("return { skills", &format!("return {{ package = {{ name = \"{name}\", version = \"1.0.0\" }}, skills"), 1)
}

/// A package folder serving `skill`, answering `{ v = value }`.
fn skill_package(scripts: &Path, dir: &str, manifest: &str, skill: &str, value: &str) {
    write_package(scripts, dir, manifest);
    std::fs::write(
        scripts.join(dir).join("init.luau"),
        format!(
            r#"return {{ skills = {{ {{
    name = "{skill}", version = "1.0.0", category = "mods", description = "Answers {value}.",
    permissions = {{}}, input = s.object({{}}), output = s.object({{ v = s.string() }}),
    handler = function() return {{ v = "{value}" }} end,
}} }} }}
"#
        ),
    )
    .unwrap();
}

fn answer(e: &Engine, skill: &str) -> Option<Value> {
    call(e, skill, json!({})).result.map(|r| r["v"].clone())
}

/// Steps until a reload event (completed or failed) names `file`.
fn until_reloaded(e: &Engine, file: &Path) {
    let file = file.display().to_string();
    step_until(e, &format!("a reload event for {file}"), |e| {
        ["dev.skill.reload.completed", "dev.skill.reload.failed"]
            .iter()
            .any(|k| events_of(e, k).iter().any(|ev| ev["file"].as_str().is_some_and(|f| f == file)))
    });
}

/// Rewrites a file with the same code and a new comment: an editor's save.
fn touch(path: &Path) {
    let text = std::fs::read_to_string(path).unwrap();
    std::fs::write(path, format!("{text}\n-- saved\n")).unwrap();
}

fn sound(e: &Engine) {
    let before = (e.world_hash(), e.tick());
    e.step(5).unwrap();
    assert_eq!((e.world_hash(), e.tick()), (before.0, before.1 + 5), "the engine ticks and the world is unchanged");
    assert_eq!(call(e, "benign.echo", json!({})).result, Some(json!({"ok": true})), "a bystander still answers");
}

#[test]
fn a_second_file_named_like_an_installed_package_never_takes_its_skills() {
    within(HANG_GUARD, "name takeover", || {
        let dir = tempfile::tempdir().unwrap();
        let scripts = dir.path().join("scripts");
        std::fs::create_dir_all(&scripts).unwrap();
        std::fs::write(scripts.join("benign.luau"), BENIGN).unwrap();
        // Installed at start-up beside the original: neither may win the name by sorting first.
        std::fs::write(scripts.join("a_echo.luau"), named_echo("echo", "original")).unwrap();
        std::fs::write(scripts.join("b_echo.luau"), named_echo("echo", "impostor")).unwrap();
        let e = engine(&scripts, true);
        touch(&scripts.join("b_echo.luau"));
        until_reloaded(&e, &scripts.join("b_echo.luau"));
        assert_ne!(answer(&e, "hot.echo"), Some(json!("impostor")), "a same-named file took over the package on save");
        for file in ["a_echo.luau", "b_echo.luau"] {
            let mods = e.mods();
            let p = mods.packages.iter().find(|p| p.source.path.ends_with(file)).unwrap();
            let Status::Refused { reason, .. } = &p.status else { panic!("{file}: {:?}", p.status) };
            assert!(reason.contains("a_echo.luau") && reason.contains("b_echo.luau") && reason.contains("'echo'"), "{reason}");
        }
        sound(&e);

        // Loaded alone, then a newcomer with its name appears (sorting first) and is saved twice.
        std::fs::remove_file(scripts.join("b_echo.luau")).unwrap();
        let e = engine(&scripts, true);
        assert_eq!(answer(&e, "hot.echo"), Some(json!("original")));
        let newcomer = scripts.join("0_echo.luau");
        std::fs::write(&newcomer, named_echo("echo", "impostor")).unwrap();
        until_reloaded(&e, &newcomer);
        touch(&newcomer);
        step_until(&e, "the second save", |e| {
            events_of(e, "dev.skill.reload.failed").iter().filter(|ev| ev["file"].as_str() == newcomer.to_str()).count() >= 2
        });
        assert_eq!(answer(&e, "hot.echo"), Some(json!("original")), "the loaded package keeps its name and skills");
        let failed = events_of(&e, "dev.skill.reload.failed").pop().unwrap();
        let error = failed["error"].as_str().unwrap();
        assert!(error.contains("'echo'") && error.contains("a_echo.luau"), "{error}");
        sound(&e);
    });
}

#[test]
fn touching_a_package_refused_at_start_up_never_loads_it() {
    within(HANG_GUARD, "touching refused packages", || {
        let dir = tempfile::tempdir().unwrap();
        let scripts = dir.path().join("scripts");
        skill_package(&scripts, "plain", r#"return { name = "plain", version = "1.0.0" }"#, "plain.run", "plain");
        skill_package(&scripts, "rival", r#"return { name = "rival", version = "1.0.0", conflicts_with = { "plain" } }"#, "rival.run", "x");
        let cyc = |n: &str, o: &str| format!(r#"return {{ name = "{n}", version = "1.0.0", dependencies = {{ ["{o}"] = "*" }} }}"#);
        skill_package(&scripts, "cyc-a", &cyc("cyc-a", "cyc-b"), "cyca.run", "x");
        skill_package(&scripts, "cyc-b", &cyc("cyc-b", "cyc-a"), "cycb.run", "x");
        skill_package(&scripts, "dup-one", r#"return { name = "dup", version = "1.0.0" }"#, "dupone.run", "x");
        skill_package(&scripts, "dup-two", r#"return { name = "dup", version = "1.0.0" }"#, "duptwo.run", "x");
        skill_package(&scripts, "off", r#"return { name = "off", version = "1.0.0" }"#, "off.run", "x");
        limina::packages::set_enabled(&scripts, "off", false).unwrap();
        std::fs::write(scripts.join("benign.luau"), BENIGN).unwrap();
        let e = engine(&scripts, true);
        let refused = ["rival.run", "cyca.run", "cycb.run", "duptwo.run", "off.run"];
        for skill in refused {
            assert!(!e.registry().has(skill), "{skill} loaded at start-up");
        }
        for dir in ["rival", "cyc-a", "cyc-b", "dup-two", "off"] {
            let init = scripts.join(dir).join("init.luau");
            touch(&init);
            until_reloaded(&e, &scripts.join(dir));
        }
        for skill in refused {
            assert!(!e.registry().has(skill), "touching the file loaded {skill}");
        }
        assert_eq!(answer(&e, "plain.run"), Some(json!("plain")));
        sound(&e);
    });
}

#[test]
fn the_declarer_of_a_conflict_is_refused_whatever_the_order() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    // `aaa-evict` sorts first, declares a conflict with the victim and serves the victim's skill.
    skill_package(
        &scripts,
        "aaa-evict",
        r#"return { name = "aaa-evict", version = "1.0.0", conflicts_with = { "victim" } }"#,
        "victim.run",
        "evicted",
    );
    skill_package(&scripts, "victim", r#"return { name = "victim", version = "1.0.0" }"#, "victim.run", "victim");
    std::fs::write(scripts.join("benign.luau"), BENIGN).unwrap();
    let e = engine(&scripts, false);
    assert_eq!(answer(&e, "victim.run"), Some(json!("victim")), "a conflict declaration evicted another package");
    let mods = e.mods();
    let evict = mods.packages.iter().find(|p| p.name() == "aaa-evict").unwrap();
    let Status::Refused { rule, reason } = &evict.status else { panic!("{:?}", evict.status) };
    assert_eq!(rule.as_str(), "resolve");
    assert!(reason.contains("conflicts_with 'victim'") && reason.contains("victim@1.0.0"), "{reason}");
    drop(mods);
    sound(&e);
}

#[test]
fn hot_reload_runs_the_resolver_like_a_restart() {
    within(HANG_GUARD, "reload resolver", || {
        let dir = tempfile::tempdir().unwrap();
        let scripts = dir.path().join("scripts");
        skill_package(&scripts, "base", r#"return { name = "base", version = "1.0.0" }"#, "base.run", "base");
        skill_package(&scripts, "app", r#"return { name = "app", version = "1.0.0", dependencies = { base = "^1" } }"#, "app.run", "app");
        std::fs::write(scripts.join("benign.luau"), BENIGN).unwrap();
        let e = engine(&scripts, true);
        assert_eq!(answer(&e, "app.run"), Some(json!("app")));
        // An edit the resolver refuses (a missing dependency) keeps the last good version.
        std::fs::write(
            scripts.join("app/package.luau"),
            r#"return { name = "app", version = "1.1.0", dependencies = { base = "^1", missing = "*" } }"#,
        )
        .unwrap();
        until_reloaded(&e, &scripts.join("app"));
        let failed = events_of(&e, "dev.skill.reload.failed").pop().unwrap();
        assert!(failed["error"].as_str().unwrap().contains("dependency 'missing'"), "{failed}");
        assert_eq!(answer(&e, "app.run"), Some(json!("app")));
        // A newcomer declaring a conflict with a loaded package is the one refused.
        skill_package(
            &scripts,
            "intruder",
            r#"return { name = "intruder", version = "1.0.0", conflicts_with = { "base" } }"#,
            "base.run",
            "x",
        );
        until_reloaded(&e, &scripts.join("intruder"));
        assert_eq!(answer(&e, "base.run"), Some(json!("base")));
        // The operator disables a dependency while the engine runs: what a restart would not
        // load is unloaded, and comes back when enabled again. (With base disabled, the intruder
        // would pass every rule, as at a restart: it goes first.)
        std::fs::remove_dir_all(scripts.join("intruder")).unwrap();
        limina::packages::set_enabled(&scripts, "base", false).unwrap();
        step_until(&e, "base and app unloaded", |e| !e.registry().has("base.run") && !e.registry().has("app.run"));
        limina::packages::set_enabled(&scripts, "base", true).unwrap();
        step_until(&e, "base back", |e| e.registry().has("base.run"));
        assert_eq!(answer(&e, "base.run"), Some(json!("base")));
        sound(&e);
    });
}

#[test]
fn a_package_an_agent_loaded_survives_unrelated_reloads() {
    within(HANG_GUARD, "package.load and reload", || {
        let dir = tempfile::tempdir().unwrap();
        let scripts = dir.path().join("scripts");
        skill_package(
            &scripts,
            "talker",
            r#"return { name = "talker", version = "1.0.0", capabilities = { "social.act" } }"#,
            "talker.run",
            "talk",
        );
        std::fs::write(scripts.join("benign.luau"), BENIGN).unwrap();
        let e = engine(&scripts, true);
        assert!(!e.registry().has("talker.run"), "over-claims under builder.readWrite");
        let mut social = limina::skills::Caller::new("agt_s", "ses_s", "social.actor");
        social.permissions.insert(limina::policy::Permission::AgentWrite);
        let input = json!({"ref": "talker@1.0.0", "agentId": "agt_s", "sessionId": "ses_s", "profile": "social.actor"});
        assert_eq!(e.call(&social, "package.load", input).result.unwrap()["ok"], true);
        let other = scripts.join("other.luau");
        std::fs::write(&other, echo_mod("other")).unwrap();
        until_reloaded(&e, &other);
        assert_eq!(answer(&e, "talker.run"), Some(json!("talk")), "judged again under the profile it was loaded with");
        sound(&e);
    });
}

#[test]
fn a_relative_scripts_path_still_hot_reloads() {
    within(HANG_GUARD, "relative --scripts", || {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("mods")).unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_limina"))
            .args(["mcp", "--stdio", "--scripts", "mods"])
            .current_dir(dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel::<Value>();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(serde_json::from_str(&line).unwrap_or(Value::Null)).is_err() {
                    break;
                }
            }
        });
        let mut send = |v: Value| writeln!(stdin, "{v}").unwrap();
        let next = |what: &str| lines.recv_timeout(Duration::from_secs(60)).unwrap_or_else(|_| panic!("no {what}"));
        send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25"}}));
        assert_eq!(next("initialize reply")["id"], 1);
        std::fs::write(dir.path().join("mods/hot.luau"), echo_mod("relative")).unwrap();
        assert_eq!(next("a tools/list_changed notification")["method"], "notifications/tools/list_changed");
        send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "hot.echo", "arguments": {}}}));
        assert_eq!(next("the call's reply")["result"]["structuredContent"], json!({"v": "relative"}));
        let _ = child.kill();
        let _ = child.wait();
    });
}
