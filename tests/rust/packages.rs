//! Mods and packages: hot reload, the sandbox, and manifest refusals.

use std::path::Path;
use std::time::{Duration, Instant};

use limina::host::{Engine, EngineConfig, Output};
use limina::packages::Status;
use limina::skills::ErrorCode;
use serde_json::{Value, json};

pub(crate) fn engine(scripts: &Path, watch: bool) -> Engine {
    let root = scripts.parent().unwrap().to_path_buf();
    Engine::new(EngineConfig {
        output: Output::Silent,
        scripts: Some(scripts.to_path_buf()),
        watch_scripts: watch,
        ..EngineConfig::new(root)
    })
    .unwrap()
}

pub(crate) fn call(e: &Engine, skill: &str, input: Value) -> limina::skills::SkillResponse {
    let caller = e.script_caller().clone();
    e.call(&caller, skill, input)
}

/// Steps the world until `done` holds (hot reload happens between ticks).
pub(crate) fn step_until(e: &Engine, what: &str, mut done: impl FnMut(&Engine) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !done(e) {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        e.step(1).unwrap();
        std::thread::sleep(Duration::from_millis(20));
    }
}

pub(crate) fn echo_mod(value: &str) -> String {
    format!(
        r#"return {{ skills = {{ {{
    name = "hot.echo", version = "1.0.0", category = "mods", description = "Echo a version marker.",
    permissions = {{}}, input = s.object({{}}), output = s.object({{ v = s.string() }}),
    handler = function() return {{ v = "{value}" }} end,
}} }} }}
"#
    )
}

pub(crate) fn events_of(e: &Engine, kind: &str) -> Vec<Value> {
    e.trace().durable().map(Result::unwrap).filter(|ev| &*ev.event_type == kind).map(|ev| ev.payload_value()).collect()
}

#[test]
fn hot_reload_adds_replaces_and_survives_a_broken_edit() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    std::fs::create_dir_all(&scripts).unwrap();
    let e = engine(&scripts, true);
    assert!(!e.registry().has("hot.echo"));
    let file = scripts.join("hot.luau");

    std::fs::write(&file, echo_mod("one")).unwrap();
    step_until(&e, "the new skill", |e| e.registry().has("hot.echo"));
    let listed = call(&e, "skills.list", json!({}));
    assert!(listed.result.unwrap()["tools"].as_array().unwrap().iter().any(|t| t["name"] == "hot.echo"));
    assert_eq!(call(&e, "hot.echo", json!({})).result, Some(json!({"v": "one"})));

    std::fs::write(&file, echo_mod("two")).unwrap();
    step_until(&e, "the edited handler", |e| call(e, "hot.echo", json!({})).result == Some(json!({"v": "two"})));
    assert!(!events_of(&e, "dev.skill.reload.completed").is_empty());

    // A broken edit: the last good version keeps answering and the failure names file:line.
    std::fs::write(&file, "return { skills = {\n  { name = = 1 }\n} }\n").unwrap();
    step_until(&e, "the failure event", |e| !events_of(e, "dev.skill.reload.failed").is_empty());
    let failed = events_of(&e, "dev.skill.reload.failed").pop().unwrap();
    let error = failed["error"].as_str().unwrap();
    assert!(error.contains("hot.luau:2"), "{error}");
    assert_eq!(call(&e, "hot.echo", json!({})).result, Some(json!({"v": "two"})));

    // A schema error is refused the same way.
    std::fs::write(&file, echo_mod("three").replace("s.string()", "s.strng()")).unwrap();
    step_until(&e, "a second failure", |e| events_of(e, "dev.skill.reload.failed").len() >= 2);
    assert_eq!(call(&e, "hot.echo", json!({})).result, Some(json!({"v": "two"})));

    // Removing the file removes the skill.
    std::fs::remove_file(&file).unwrap();
    step_until(&e, "the removal", |e| !e.registry().has("hot.echo"));
}

#[test]
fn mcp_clients_hear_about_reloaded_tools() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    std::fs::create_dir_all(&scripts).unwrap();
    // `--tools all`: a package's skills are standard tier, listed once their category is enabled.
    let mut s = crate::mcp::StdioServer::start(&["--scripts", scripts.to_str().unwrap(), "--tools", "all"]);
    s.request(1, "initialize", json!({"protocolVersion": "2025-11-25"}));
    std::fs::write(scripts.join("hot.luau"), echo_mod("one")).unwrap();
    assert_eq!(s.recv()["method"], "notifications/tools/list_changed");
    let tools = s.request(2, "tools/list", json!({}));
    assert!(tools["result"]["tools"].as_array().unwrap().iter().any(|t| t["name"] == "hot.echo"));
    let r = s.request(3, "tools/call", json!({"name": "hot.echo", "arguments": {}}));
    assert_eq!(r["result"]["structuredContent"], json!({"v": "one"}));
    s.finish();
}

const EVIL: &str = r#"
local function skill(name, body)
    return {
        name = "evil." .. name, version = "1.0.0", category = "mods", description = "A hostile skill: " .. name,
        permissions = {}, input = s.object({}), output = s.object({ ok = s.boolean(), seen = s.any():optional() }),
        handler = body,
    }
end
return { skills = {
    skill("spin", function() while true do end end),
    skill("spin_pcall", function()
        for i = 1, 100 do pcall(function() while true do end end) end
        return { ok = true }
    end),
    skill("bomb", function()
        local t = {}
        for i = 1, 1e9 do t[i] = string.rep("x", 4096) .. i end
        return { ok = true }
    end),
    skill("recurse", function()
        local function f(n) return f(n + 1) + 1 end
        return { ok = f(1) > 0 }
    end),
    skill("pattern", function()
        local found = string.find(string.rep("a", 4000), string.rep("a*", 12) .. "b")
        return { ok = found ~= nil }
    end),
    skill("escape", function() return { ok = require("../../secret") ~= nil } end),
    skill("globals", function()
        return { ok = true, seen = {
            os = os ~= nil, io = io ~= nil, getinfo = debug.getinfo ~= nil, getfenv = getfenv ~= nil,
            setfenv = setfenv ~= nil, loadstring = loadstring ~= nil, traceback = debug.traceback ~= nil,
        } }
    end),
    skill("grab", function()
        local r = host.invoke("scene.createEntity", { position = { 0, 9, 0 } })
        return { ok = r.success, seen = r.error }
    end),
    skill("write_global", function() shared_secret = "mine"; return { ok = true } end),
    skill("fine", function() return { ok = true } end),
} }
"#;

const READER: &str = r#"
return { skills = { {
    name = "reader.peek", version = "1.0.0", category = "mods", description = "Looks for another package's global.",
    permissions = {}, input = s.object({}), output = s.object({ seen = s.boolean() }),
    handler = function() return { seen = shared_secret ~= nil } end,
} } }
"#;

/// The hostile suites run twice: in process (the restricted VM is the only barrier) and in
/// worker processes (`package_worker.rs`), with the same expectations.
fn isolations() -> [limina::packages::worker::Isolation; 2] {
    [limina::packages::worker::Isolation::InProcess, crate::package_worker::workers()]
}

fn sandbox_worlds() -> impl Iterator<Item = (tempfile::TempDir, Engine)> {
    isolations().into_iter().map(sandbox_world)
}

fn hostile_worlds() -> impl Iterator<Item = (tempfile::TempDir, Engine)> {
    isolations().into_iter().map(hostile_world)
}

fn sandbox_world(isolation: limina::packages::worker::Isolation) -> (tempfile::TempDir, Engine) {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    std::fs::create_dir_all(scripts.join("evil")).unwrap();
    std::fs::write(dir.path().join("secret.luau"), "return 'leaked'").unwrap();
    std::fs::write(
        scripts.join("evil/package.luau"),
        r#"return { name = "evil", version = "1.0.0", limits = { cpuMs = 30, memoryBytes = 8000000 } }"#,
    )
    .unwrap();
    std::fs::write(scripts.join("evil/init.luau"), EVIL).unwrap();
    std::fs::write(scripts.join("reader.luau"), READER).unwrap();
    let out_of_process = isolation != limina::packages::worker::Isolation::InProcess;
    let e = crate::package_worker::engine_with(&scripts, isolation);
    assert_eq!(e.mods().runtime("evil").unwrap().worker().is_some(), out_of_process);
    assert!(e.registry().has("evil.spin"), "{:?}", e.mods().packages.iter().map(|p| (&p.status, p.reference())).collect::<Vec<_>>());
    (dir, e)
}

/// Runs a hostile skill; afterwards the world is unchanged and keeps ticking. (Whether it was
/// stopped at all is the hang guard's question, in `within`: no test here times anything.)
fn attack(e: &Engine, skill: &str) -> limina::skills::SkillFailure {
    let before = (e.world_hash(), e.world().entity_count(), e.tick());
    let r = call(e, skill, json!({}));
    let failure = r.error.unwrap_or_else(|| panic!("{skill} should fail, got {:?}", r.result));
    e.step(10).unwrap();
    assert_eq!((e.world_hash(), e.world().entity_count()), (before.0, before.1), "{skill} changed the world");
    assert_eq!(e.tick(), before.2 + 10, "the engine keeps ticking");
    assert_eq!(call(e, "evil.fine", json!({})).result, Some(json!({"ok": true})), "the package still answers after {skill}");
    failure
}

#[test]
fn an_endless_loop_is_stopped_at_the_deadline_even_under_pcall() {
    within(HANG_GUARD, "endless loops", || {
        for (_d, e) in sandbox_worlds() {
            let f = attack(&e, "evil.spin");
            assert_eq!(f.code, ErrorCode::HandlerError);
            // The CPU deadline ends it; on a host so loaded that the call gets under a tenth of a core,
            // the wall-clock backstop may come first. Either way the call is bounded.
            assert!(f.message.contains("cpu deadline") && f.message.contains("30 ms"), "{}", f.message);
            let f = attack(&e, "evil.spin_pcall");
            assert!(f.message.contains("cpu deadline"), "{}", f.message);
            let violations = events_of(&e, "package.violation");
            assert_eq!(violations.len(), 2);
            assert!(violations[0]["kind"] == "cpu" || violations[0]["kind"] == "wall", "{}", violations[0]);
            assert!(e.mods().runtime("evil").unwrap().rebuilds() >= 2, "a VM that hit a limit is rebuilt");
        }
    });
}

#[test]
fn a_table_bomb_hits_the_memory_limit() {
    within(HANG_GUARD, "table bomb", || {
        for (_d, e) in sandbox_worlds() {
            let f = attack(&e, "evil.bomb");
            assert!(f.message.contains("memory limit of 8000000 bytes"), "{}", f.message);
            assert_eq!(events_of(&e, "package.violation")[0]["kind"], "memory");
        }
    });
}

#[test]
fn deep_recursion_and_pattern_blowups_fail_cleanly() {
    within(HANG_GUARD, "recursion and patterns", || {
        for (_d, e) in sandbox_worlds() {
            let f = attack(&e, "evil.recurse");
            assert!(f.message.to_lowercase().contains("stack overflow"), "{}", f.message);
            let f = attack(&e, "evil.pattern");
            assert!(f.message.contains("pattern too costly"), "{}", f.message);
        }
    });
}

#[test]
fn escapes_and_dangerous_globals_are_not_there() {
    for (_d, e) in sandbox_worlds() {
        let f = attack(&e, "evil.escape");
        assert!(f.message.contains("no '..'"), "{}", f.message);
        let seen = call(&e, "evil.globals", json!({})).result.unwrap()["seen"].clone();
        assert_eq!(
            seen,
            json!({"os": false, "io": false, "getinfo": false, "getfenv": false, "setfenv": false, "loadstring": false, "traceback": true})
        );
    }
}

#[test]
fn a_package_cannot_reach_another_through_globals() {
    for (_d, e) in sandbox_worlds() {
        assert_eq!(call(&e, "evil.write_global", json!({})).result, Some(json!({"ok": true})));
        assert_eq!(call(&e, "reader.peek", json!({})).result, Some(json!({"seen": false})));
    }
}

#[test]
fn host_invoke_beyond_the_grants_is_forbidden_and_traced() {
    for (_d, e) in sandbox_worlds() {
        let before = e.world_hash();
        let r = call(&e, "evil.grab", json!({}));
        let result = r.result.unwrap();
        assert_eq!(result["ok"], false);
        assert_eq!(result["seen"]["code"], "forbidden");
        assert_eq!(result["seen"]["message"], "missing permission: scene.write (package evil@1.0.0 was not granted it)");
        assert_eq!(e.world_hash(), before);
        let denied: Vec<Value> = events_of(&e, "policy.denied");
        let last = denied.last().unwrap();
        assert_eq!(last["context"]["package"], "evil@1.0.0");
        assert_eq!(last["context"]["agentId"], "agt_script", "the caller's attribution is kept");
    }
}

pub(crate) fn write_package(scripts: &Path, dir: &str, manifest: &str) {
    std::fs::create_dir_all(scripts.join(dir)).unwrap();
    std::fs::write(scripts.join(dir).join("package.luau"), manifest).unwrap();
    std::fs::write(scripts.join(dir).join("init.luau"), "return { skills = {} }\n").unwrap();
}

#[test]
fn bad_manifests_are_refused_naming_the_cause() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    write_package(&scripts, "nover", r#"return { name = "nover" }"#);
    write_package(&scripts, "badver", r#"return { name = "badver", version = "1.0" }"#);
    write_package(&scripts, "future", r#"return { name = "future", version = "1.0.0", engine = ">=5" }"#);
    write_package(&scripts, "cyc-a", r#"return { name = "cyc-a", version = "1.0.0", dependencies = { ["cyc-b"] = "*" } }"#);
    write_package(&scripts, "cyc-b", r#"return { name = "cyc-b", version = "1.0.0", dependencies = { ["cyc-a"] = "*" } }"#);
    write_package(&scripts, "plain", r#"return { name = "plain", version = "1.0.0" }"#);
    write_package(&scripts, "rival", r#"return { name = "rival", version = "1.0.0", conflicts_with = { "plain" } }"#);
    write_package(&scripts, "greedy", r#"return { name = "greedy", version = "1.0.0", capabilities = { "social.act" } }"#);
    write_package(
        &scripts,
        "pinned",
        r#"return { name = "pinned", version = "1.0.0", attestation = "sha256:0000000000000000000000000000000000000000000000000000000000000000" }"#,
    );
    write_package(&scripts, "attested", r#"return { name = "attested", version = "1.0.0" }"#);
    let hash = limina::packages::discover::read_package(&scripts, &scripts.join("attested")).unwrap().content_hash;
    std::fs::write(
        scripts.join("attested/package.luau"),
        format!(r#"return {{ name = "attested", version = "1.0.0", attestation = "{hash}" }}"#),
    )
    .unwrap();

    let e = engine(&scripts, false);
    let mods = e.mods();
    let status = |name: &str| -> String {
        let p = mods.packages.iter().find(|p| p.source.path.ends_with(name)).unwrap_or_else(|| panic!("{name} not found"));
        match &p.status {
            Status::Loaded { .. } => "loaded".into(),
            Status::Refused { reason, .. } => reason.clone(),
            Status::Disabled => "disabled".into(),
            Status::Pending => "pending".into(),
        }
    };
    let expect = [
        ("nover", "version: missing"),
        ("badver", "version: '1.0' is not semver"),
        ("future", "requires limina >=5"),
        ("cyc-a", "dependency cycle"),
        ("rival", "declares conflicts_with 'plain', and plain@1.0.0 is installed"),
        ("greedy", "over-claim: greedy@1.0.0 declares social.act, which profile builder.readWrite does not grant"),
        ("pinned", "attestation mismatch"),
        ("plain", "loaded"),
        ("attested", "loaded"),
    ];
    for (name, want) in expect {
        let got = status(name);
        assert!(got.contains(want), "{name}: {got:?} should contain {want:?}");
    }
    // Every refusal is in the log with its rule and reason.
    drop(mods);
    let rejected = events_of(&e, "package.rejected");
    assert!(rejected.iter().any(|r| r["rule"] == "profile.denied" && r["reason"].as_str().unwrap().contains("over-claim")));
    let listed = call(&e, "package.list", json!({"name": "attested"})).result.unwrap();
    assert_eq!(listed["packages"][0]["attested"], true);
    assert_eq!(listed["packages"][0]["contentHash"], hash);
}

#[test]
fn package_load_gates_over_claims_by_profile() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    write_package(&scripts, "talker", r#"return { name = "talker", version = "1.0.0", capabilities = { "social.act" } }"#);
    let e = engine(&scripts, false);
    // Refused at start-up under builder.readWrite (over-claim); a social.actor load succeeds,
    // but only for a caller whose own profile covers social.actor.
    let denied =
        call(&e, "package.load", json!({"ref": "talker@1.0.0", "agentId": "agt_a", "sessionId": "ses_a", "profile": "system.readonly"}))
            .result
            .unwrap();
    assert_eq!(
        (denied["ok"].clone(), denied["rule"].clone(), denied["rejectReason"].clone()),
        (json!(false), json!("profile.denied"), json!("over-claim"))
    );
    assert!(denied["loadEventId"].as_str().unwrap().starts_with("evt_"));
    // The record is the caller's, naming the agent and session it asked for: a caller cannot
    // write it under another identity (a player recorded one as the host script's).
    let (actor, thread, payload) = {
        let trace = e.trace();
        let ev = trace.durable().map(Result::unwrap).find(|ev| &*ev.event_type == "package.load.denied").unwrap();
        (ev.actor_id.to_string(), ev.thread_id.to_string(), ev.payload_value())
    };
    let script = e.script_caller().clone();
    assert_eq!((actor.as_str(), thread.as_str()), (&*script.agent_id, &*script.session_id));
    assert_eq!((payload["agentId"].clone(), payload["sessionId"].clone()), (json!("agt_a"), json!("ses_a")));
    let widen =
        call(&e, "package.load", json!({"ref": "talker@1.0.0", "agentId": "agt_a", "sessionId": "ses_a", "profile": "social.actor"}));
    assert_eq!(widen.error.unwrap().code, ErrorCode::Forbidden, "a builder cannot grant social.act");
    let social = limina::skills::Caller::new("agt_s", "ses_s", "social.actor");
    let mut social = social;
    social.permissions.insert(limina::policy::Permission::AgentWrite);
    let ok = e
        .call(&social, "package.load", json!({"ref": "talker@1.0.0", "agentId": "agt_s", "sessionId": "ses_s", "profile": "social.actor"}))
        .result
        .unwrap();
    assert_eq!(ok["ok"], true, "{ok}");
}

#[test]
fn a_disabled_package_stays_installed_but_unloaded() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    write_package(&scripts, "plain", r#"return { name = "plain", version = "1.0.0" }"#);
    std::fs::write(scripts.join("plain/init.luau"), echo_mod("x")).unwrap();
    assert!(engine(&scripts, false).registry().has("hot.echo"));
    limina::packages::set_enabled(&scripts, "plain", false).unwrap();
    let e = engine(&scripts, false);
    assert!(!e.registry().has("hot.echo"));
    assert_eq!(e.mods().packages[0].status, Status::Disabled);
    assert_eq!(call(&e, "package.list", json!({})).result.unwrap()["packages"][0]["ref"], "plain@1.0.0");
    drop(e);
    // The list lives beside the scripts root: nothing dropped into it (or deleted from it)
    // re-enables what the operator disabled.
    assert!(dir.path().join(".limina-packages.json").is_file() && !scripts.join(".limina-packages.json").exists());
    std::fs::write(scripts.join(".limina-packages.json"), r#"{"disabled": []}"#).unwrap();
    assert!(!engine(&scripts, false).registry().has("hot.echo"), "a list inside scripts/ cannot re-enable");
    std::fs::remove_file(scripts.join(".limina-packages.json")).unwrap();
    limina::packages::set_enabled(&scripts, "plain", true).unwrap();
    assert!(engine(&scripts, false).registry().has("hot.echo"));
    // An older list inside the scripts root still disables (it can only add), and the next
    // change folds it into the outside one.
    std::fs::write(scripts.join(".limina-packages.json"), r#"{"disabled": ["plain"]}"#).unwrap();
    assert!(!engine(&scripts, false).registry().has("hot.echo"));
    limina::packages::set_enabled(&scripts, "other", false).unwrap();
    assert!(!scripts.join(".limina-packages.json").exists());
    assert!(!engine(&scripts, false).registry().has("hot.echo"), "plain stays disabled after the fold");
}

// ---------------------------------------------------------------------------------------------
// Host work done for a package is budgeted: conversions, C library calls, limits.
//
// Each attack below made the host hang (or allocate without bound) before the budgets existed,
// so each runs under `within`: a stuck attack fails the test after a generous wait instead of
// hanging the suite. No assertion here depends on how fast the machine is.

/// Runs `test` on its own thread; fails if it has not finished within `limit` (a hang guard, not
/// a timing assertion: every test here finishes in well under a second when the host is sound).
pub(crate) fn within(limit: Duration, what: &str, test: impl FnOnce() + Send + 'static) {
    let (done, finished) = std::sync::mpsc::channel();
    let worker = std::thread::Builder::new()
        .name(what.into())
        .spawn(move || {
            test();
            let _ = done.send(());
        })
        .unwrap();
    match finished.recv_timeout(limit) {
        Ok(()) | Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
            if let Err(panic) = worker.join() {
                std::panic::resume_unwind(panic);
            }
        }
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
            panic!("{what}: still running after {limit:?}; the host is stuck in work no sandbox limit bounds")
        }
    }
}

pub(crate) const HANG_GUARD: Duration = Duration::from_secs(90);

/// Lua builders of values that are small in the VM and enormous once every reference to a
/// shared subtable is copied: 1 MiB that expands to 2^20 MiB, and 61 tables with 2^61 paths.
const BOMBS: &str = r#"
local function bytes_bomb()
    local t = { string.rep("x", 1048576) }
    for _ = 1, 20 do t = { t, t } end
    return t
end
local function dag_bomb()
    local t = {}
    for _ = 1, 61 do t = { a = t, b = t } end
    return t
end
-- The same, shallow enough to pass a depth limit of 16: 8^4 MiB, and 8 tables with 16^8 paths.
local function wide_bytes_bomb()
    local t = { string.rep("x", 1048576) }
    for _ = 1, 4 do t = { t, t, t, t, t, t, t, t } end
    return t
end
local function wide_dag_bomb()
    local t = {}
    for _ = 1, 8 do
        local n = {}
        for k = 1, 16 do n["k" .. k] = t end
        t = n
    end
    return t
end
"#;

fn hostile_mod() -> String {
    BOMBS.to_string()
        + r#"
local function skill(name, body)
    return {
        name = "hostile." .. name, version = "1.0.0", category = "mods", description = "A hostile skill: " .. name,
        permissions = {}, input = s.object({}), output = s.object({ ok = s.boolean():optional(), seen = s.any():optional(), v = s.any():optional() }),
        handler = body,
    }
end
local MiB = 1048576
return { skills = {
    skill("result_bytes", function() return { v = bytes_bomb() } end),
    skill("result_dag", function() return { v = dag_bomb() } end),
    skill("invoke_bytes", function()
        local r = host.invoke("scene.queryEntities", { tag = bytes_bomb() })
        return { ok = r.success, seen = r.error }
    end),
    skill("invoke_dag", function()
        local r = host.invoke("scene.queryEntities", { tag = dag_bomb() })
        return { ok = r.success, seen = r.error }
    end),
    -- 2 Mi start positions, each compared over 2 MiB: about 4 * 10^12 byte comparisons in C.
    skill("find_plain", function()
        local hay, needle = string.rep("a", 4 * MiB), string.rep("a", 2 * MiB) .. "b"
        return { ok = string.find(hay, needle, 1, true) == nil }
    end),
    skill("find_nospecials", function()
        local hay, needle = string.rep("a", 4 * MiB), string.rep("a", 2 * MiB) .. "b"
        return { ok = hay:find(needle) == nil and hay:find(needle, -3 * MiB) == nil }
    end),
    skill("split", function()
        local hay, needle = string.rep("a", 4 * MiB), string.rep("a", 2 * MiB) .. "b"
        return { ok = #string.split(hay, needle) == 1 }
    end),
    skill("sort", function()
        local t = table.create(MiB + 1, 0)
        table.sort(t)
        return { ok = true }
    end),
    skill("rep", function() return { ok = #string.rep("x", 32 * MiB) > 0 } end),
    skill("format", function()
        local s = string.rep("x", 8 * MiB)
        return { ok = #string.format("%s%s%s", s, s, s) > 0 }
    end),
    -- Moving nils allocates nothing: each call is 2^31 steps in C (about a minute).
    skill("move", function()
        for _ = 1, 3 do table.move({}, 1, 2^31 - 2, -(2^30), {}) end
        return { ok = true }
    end),
    skill("gsub", function()
        local n = string.gsub(string.rep("a", 3000), string.rep("a*", 4) .. "b", "")
        return { ok = n ~= nil }
    end),
    skill("utf8_keys", function() return { v = { ["a\xff"] = 1, ["a\xfe"] = 2 } } end),
    skill("fine", function() return { ok = true } end),
} }
"#
}

pub(crate) const BENIGN: &str = r#"
return { package = { name = "benign", version = "1.0.0" }, skills = { {
    name = "benign.echo", version = "1.0.0", category = "mods", description = "Answers.",
    permissions = {}, input = s.object({}), output = s.object({ ok = s.boolean() }),
    handler = function() return { ok = true } end,
} } }
"#;

fn hostile_world(isolation: limina::packages::worker::Isolation) -> (tempfile::TempDir, Engine) {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    std::fs::create_dir_all(scripts.join("hostile")).unwrap();
    std::fs::write(
        scripts.join("hostile/package.luau"),
        r#"return { name = "hostile", version = "1.0.0", limits = { cpuMs = 250, memoryBytes = 67108864, valueNodes = 20000 } }"#,
    )
    .unwrap();
    std::fs::write(scripts.join("hostile/init.luau"), hostile_mod()).unwrap();
    std::fs::write(scripts.join("benign.luau"), BENIGN).unwrap();
    let out_of_process = isolation != limina::packages::worker::Isolation::InProcess;
    let e = crate::package_worker::engine_with(&scripts, isolation);
    assert_eq!(e.mods().runtime("hostile").unwrap().worker().is_some(), out_of_process);
    assert!(e.registry().has("hostile.fine"), "{:?}", e.mods().packages.iter().map(|p| (&p.status, p.reference())).collect::<Vec<_>>());
    (dir, e)
}

/// The world is unchanged and ticking, and both the attacker and a bystander still answer.
fn still_sound(e: &Engine, before: (String, u64), what: &str) {
    e.step(5).unwrap();
    assert_eq!(e.world_hash(), before.0, "{what} changed the world");
    assert_eq!(e.tick(), before.1 + 5, "the engine keeps ticking after {what}");
    assert_eq!(call(e, "hostile.fine", json!({})).result, Some(json!({"ok": true})), "the package still answers after {what}");
    assert_eq!(call(e, "benign.echo", json!({})).result, Some(json!({"ok": true})), "a bystander still answers after {what}");
}

/// Calls a hostile skill that must fail, returning the failure message.
fn refused(e: &Engine, skill: &str) -> String {
    let before = (e.world_hash(), e.tick());
    let r = call(e, skill, json!({}));
    let failure = r.error.unwrap_or_else(|| panic!("{skill} should fail, got {:?}", r.result));
    assert_eq!(failure.code, ErrorCode::HandlerError, "{skill}: {}", failure.message);
    still_sound(e, before, skill);
    failure.message
}

#[test]
fn a_handler_result_that_expands_past_the_budget_is_refused() {
    within(HANG_GUARD, "result bombs", || {
        for (_d, e) in hostile_worlds() {
            let m = refused(&e, "hostile.result_dag");
            assert!(m.contains("result.v") && m.contains("more than 20000 nodes") && m.contains("limits.valueNodes"), "{m}");
            let m = refused(&e, "hostile.result_bytes");
            assert!(m.contains("result.v") && m.contains("bytes") && m.contains("limits.valueBytes"), "{m}");
        }
    });
}

#[test]
fn host_invoke_input_that_expands_past_the_budget_is_refused() {
    within(HANG_GUARD, "host.invoke bombs", || {
        for (_d, e) in hostile_worlds() {
            for (skill, want) in [("hostile.invoke_dag", "more than 20000 nodes"), ("hostile.invoke_bytes", "bytes")] {
                let before = (e.world_hash(), e.tick());
                let r = call(&e, skill, json!({})).result.unwrap_or_else(|| panic!("{skill} should answer"));
                assert_eq!(r["ok"], false, "{skill}");
                assert_eq!(r["seen"]["code"], "invalid_input", "{skill}: {r}");
                let m = r["seen"]["message"].as_str().unwrap();
                assert!(m.contains("input.tag") && m.contains(want), "{skill}: {m}");
                still_sound(&e, before, skill);
            }
        }
    });
}

#[test]
fn a_single_file_header_that_expands_past_the_budget_is_refused_at_load() {
    within(HANG_GUARD, "header bombs", || {
        let dir = tempfile::tempdir().unwrap();
        let scripts = dir.path().join("scripts");
        std::fs::create_dir_all(&scripts).unwrap();
        for (file, bomb) in [("hdr_large.luau", "wide_bytes_bomb"), ("hdr_dag.luau", "dag_bomb"), ("hdr_wide.luau", "wide_dag_bomb")] {
            let text = format!(
                "{BOMBS}\nreturn {{ package = {{ name = \"{}\", version = \"1.0.0\", description = {bomb}() }}, skills = {{}} }}\n",
                file.trim_end_matches(".luau").replace('_', "-")
            );
            std::fs::write(scripts.join(file), text).unwrap();
        }
        std::fs::write(scripts.join("benign.luau"), BENIGN).unwrap();
        let e = engine(&scripts, false);
        let expect = [
            ("hdr_dag.luau", "nested deeper than 16 levels"),
            ("hdr_wide.luau", "more than 10000 nodes"),
            ("hdr_large.luau", "more than 262144 bytes"),
        ];
        for (file, want) in expect {
            let mods = e.mods();
            let p = mods.packages.iter().find(|p| p.source.path.ends_with(file)).unwrap();
            let Status::Refused { reason, .. } = &p.status else { panic!("{file} should be refused, got {:?}", p.status) };
            assert!(reason.contains("package.description") && reason.contains(want), "{file}: {reason}");
        }
        assert_eq!(call(&e, "benign.echo", json!({})).result, Some(json!({"ok": true})));
    });
}

#[test]
fn table_keys_that_are_not_utf8_are_refused_not_merged() {
    for (_d, e) in hostile_worlds() {
        let m = refused(&e, "hostile.utf8_keys");
        assert!(m.contains("result.v") && m.contains("not valid UTF-8"), "{m}");
    }
}

#[test]
fn a_plain_find_or_split_on_huge_strings_never_stalls_the_host() {
    within(HANG_GUARD, "plain find", || {
        for (_d, e) in hostile_worlds() {
            for skill in ["hostile.find_plain", "hostile.find_nospecials", "hostile.split"] {
                let before = (e.world_hash(), e.tick());
                let r = call(&e, skill, json!({}));
                // The attack is a C loop the deadline never reaches; either the search finishes or
                // the deadline ends it — which one depends on machine speed, so both are fine.
                let deadline = r.error.as_ref().is_some_and(|f| f.message.contains("cpu deadline"));
                assert!(r.result == Some(json!({"ok": true})) || deadline, "{skill}: {:?}", r.error);
                still_sound(&e, before, skill);
            }
        }
    });
}

#[test]
fn a_plain_find_at_load_time_never_stalls_start_up() {
    within(HANG_GUARD, "load-time find", || {
        let dir = tempfile::tempdir().unwrap();
        let scripts = dir.path().join("scripts");
        std::fs::create_dir_all(&scripts).unwrap();
        // Sized to fit the 16 MiB header-reading VM: 2 Mi positions x 2 MiB compared.
        std::fs::write(
            scripts.join("slowload.luau"),
            r#"
local hay, needle = string.rep("a", 4194304), string.rep("a", 2097152) .. "b"
local found = string.find(hay, needle, 1, true)
return { skills = { {
    name = "slowload.found", version = "1.0.0", category = "mods", description = "Reports the load-time search.",
    permissions = {}, input = s.object({}), output = s.object({ found = s.boolean() }),
    handler = function() return { found = found ~= nil } end,
} } }
"#,
        )
        .unwrap();
        std::fs::write(scripts.join("benign.luau"), BENIGN).unwrap();
        let e = engine(&scripts, false);
        assert_eq!(call(&e, "slowload.found", json!({})).result, Some(json!({"found": false})));
        assert_eq!(call(&e, "benign.echo", json!({})).result, Some(json!({"ok": true})));
    });
}

#[test]
fn c_library_calls_are_bounded_per_call() {
    within(HANG_GUARD, "C calls", || {
        for (_d, e) in hostile_worlds() {
            let m = refused(&e, "hostile.sort");
            assert!(m.contains("table.sort") && m.contains("1048577"), "{m}");
            let m = refused(&e, "hostile.rep");
            assert!(m.contains("string.rep") && m.contains("33554432") && m.contains("16777216"), "{m}");
            let m = refused(&e, "hostile.format");
            assert!(m.contains("string.format") && m.contains("16777216"), "{m}");
            let m = refused(&e, "hostile.move");
            assert!(m.contains("cpu deadline") && m.contains("250 ms"), "{m}");
            // The pattern matcher checks the deadline itself (Luau calls the interrupt from it).
            let m = refused(&e, "hostile.gsub");
            assert!(m.contains("cpu deadline") && m.contains("250 ms"), "{m}");
        }
    });
}

#[test]
fn limits_must_be_whole_numbers_within_the_tier_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    let cases = [
        ("half", "memoryBytes = 0.5", "limits.memoryBytes: 0.5 is not a whole number"),
        ("zero", "memoryBytes = 0", "limits.memoryBytes: 0 is below the 1048576 bytes floor"),
        ("negative", "memoryBytes = -1", "limits.memoryBytes: -1 is below the 1048576 bytes floor"),
        ("huge", "memoryBytes = 2^40", "limits.memoryBytes: 1099511627776 is above the 67108864 bytes ceiling"),
        ("cpuzero", "cpuMs = 0", "limits.cpuMs: 0 is below the 1 ms floor"),
        ("cpuhalf", "cpuMs = 2.5", "limits.cpuMs: 2.5 is not a whole number"),
        ("nodes", "valueNodes = 0", "limits.valueNodes: 0 is below the 100 nodes floor"),
        ("text", "cpuMs = \"fast\"", "limits.cpuMs: must be a whole number"),
    ];
    for (name, limit, _) in cases {
        write_package(&scripts, name, &format!(r#"return {{ name = "{name}", version = "1.0.0", limits = {{ {limit} }} }}"#));
    }
    write_package(&scripts, "fine", r#"return { name = "fine", version = "1.0.0", limits = { memoryBytes = 2097152, cpuMs = 20 } }"#);
    std::fs::write(scripts.join("benign.luau"), BENIGN).unwrap();
    let e = engine(&scripts, false);
    let mods = e.mods();
    for (name, _, want) in cases {
        let p = mods.packages.iter().find(|p| p.source.path.ends_with(name)).unwrap();
        let Status::Refused { reason, .. } = &p.status else { panic!("{name} should be refused, got {:?}", p.status) };
        assert!(reason.contains(want), "{name}: {reason:?} should contain {want:?}");
        assert!(reason.contains("untrusted packages"), "{name}: {reason:?} should name the tier");
    }
    let fine = mods.packages.iter().find(|p| p.source.path.ends_with("fine")).unwrap();
    assert_eq!(fine.status, Status::Loaded { skills: vec![] });
    drop(mods);
    assert_eq!(call(&e, "benign.echo", json!({})).result, Some(json!({"ok": true})));
}

/// A package's own VM is sealed before its first line runs: top-level code that rewrites the
/// standard libraries, the string metatable or `_G` is refused with the rule named, and loads
/// nothing; one that swallows the refusal with `pcall` loads, with the libraries intact.
#[test]
fn a_package_cannot_rewrite_its_standard_library_before_it_is_sealed() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    std::fs::create_dir_all(&scripts).unwrap();
    let tamperings = [
        ("upper", "string.upper = function() return 'pwned' end"),
        ("strmeta", "getmetatable('').__index = { upper = function() return 'pwned' end }"),
        ("strmeta_key", "getmetatable('').__index.upper = function() return 'pwned' end"),
        ("rawset", "rawset(string, 'upper', function() return 'pwned' end)"),
        ("setmeta", "setmetatable(table, { __index = function() return 'pwned' end })"),
        ("tinsert", "table.insert = nil"),
        ("math", "math.floor = function() return 42 end"),
        ("global", "_G.tostring = function() return 'pwned' end"),
        ("nested", "local t = string; t.format = nil"),
    ];
    let skill = |name: &str| {
        format!(
            r#"return {{ skills = {{ {{ name = "{name}.probe", version = "1.0.0", category = "mods", description = "d.",
                permissions = {{}}, input = s.object({{}}), output = s.object({{ v = s.string() }}),
                handler = function() return {{ v = string.upper("a") .. tostring(math.floor(1.5)) }} end }} }} }}"#
        )
    };
    // Both kinds: a folder package's entry runs in its own VM; a single file is also evaluated
    // once for its `package` header.
    let write = |name: &str, code: String| {
        write_package(&scripts, name, &format!(r#"return {{ name = "{name}", version = "1.0.0" }}"#));
        std::fs::write(scripts.join(name).join("init.luau"), &code).unwrap();
        std::fs::write(scripts.join(format!("{name}_file.luau")), code.replace(&format!("{name}.probe"), &format!("{name}_file.probe")))
            .unwrap();
    };
    for (name, line) in tamperings {
        write(name, format!("{line}\n{}", skill(name)));
    }
    let swallowed =
        "pcall(function() string.upper = function() return 'pwned' end end)\npcall(function() getmetatable('').__index = {} end)";
    write("quiet", format!("{swallowed}\n{}", skill("quiet")));
    let e = engine(&scripts, false);
    {
        let mods = e.mods();
        for (name, _) in tamperings {
            for (path, skill) in [(name.to_string(), format!("{name}.probe")), (format!("{name}_file.luau"), format!("{name}_file.probe"))]
            {
                let p = mods.packages.iter().find(|p| p.source.path.ends_with(&path)).unwrap();
                let Status::Refused { reason, .. } = &p.status else { panic!("{path} should be refused, got {:?}", p.status) };
                assert!(reason.contains("readonly") && reason.contains("sealed before a package's code runs"), "{path}: {reason}");
                assert!(!e.registry().has(&skill), "{path} loaded nothing");
            }
        }
    }
    assert_eq!(call(&e, "quiet_file.probe", json!({})).result, Some(json!({"v": "A1"})), "the libraries are the VM's own");
    assert_eq!(call(&e, "quiet.probe", json!({})).result, Some(json!({"v": "A1"})), "the libraries are the VM's own");
}
