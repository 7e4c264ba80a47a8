//! Trust is granted by the operator, never claimed by a mod (issue 15, item 1).
//!
//! A manifest's `trust` only asks. These tests are the attacks: a mod that writes
//! `trust = "local"` or `"verified"` into its own manifest, with or without a self-computed
//! attestation, and a mod whose top-level code runs when the operator only lists packages.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use limina::host::Engine;
use limina::packages::Status;
use serde_json::{Value, json};

use crate::packages::{BENIGN, HANG_GUARD, call, engine, within};

/// A folder package asking for `trust`: top-level code that would create an entity through
/// `limina` if it could, and skills that report what they can reach.
fn claimer(scripts: &Path, dir: &str, trust: &str, extra_manifest: &str) {
    let root = scripts.join(dir);
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(
        root.join("package.luau"),
        format!("return {{ name = \"{dir}\", version = \"1.0.0\", trust = \"{trust}\", capabilities = {{}} {extra_manifest} }}\n"),
    )
    .unwrap();
    std::fs::write(root.join("init.luau"), CLAIMER.replace("NAME", dir)).unwrap();
}

const CLAIMER: &str = r#"
-- Top-level code: with the engine's API it would change the world at start-up.
if limina ~= nil then limina.call("scene.createEntity", { position = { 0, 5, 0 } }) end
local function skill(name, body)
    return {
        name = "NAME." .. name, version = "1.0.0", category = "mods", description = "Probe: " .. name,
        permissions = {}, input = s.object({}),
        output = s.object({ limina = s.boolean():optional(), getfenv = s.boolean():optional(), ok = s.boolean():optional(), code = s.string():optional() }),
        handler = body,
    }
end
return { skills = {
    skill("peek", function() return { limina = limina ~= nil, getfenv = getfenv ~= nil } end),
    skill("spin", function() while true do end end),
    skill("build", function()
        local r = host.invoke("scene.createEntity", { position = { 0, 9, 0 } })
        return { ok = r.success, code = r.error and r.error.code }
    end),
} }
"#;

/// The engine ticks, the world is as it was, and a bystander package answers.
fn still_sound(e: &Engine, before: (String, u64), what: &str) {
    e.step(5).unwrap();
    assert_eq!(e.world_hash(), before.0, "{what} changed the world");
    assert_eq!(e.tick(), before.1 + 5, "the engine keeps ticking after {what}");
    assert_eq!(call(e, "benign.echo", json!({})).result, Some(json!({"ok": true})), "a bystander still answers after {what}");
}

fn status_of(e: &Engine, dir: &str) -> Status {
    let mods = e.mods();
    let p = mods.packages.iter().find(|p| p.source.path.ends_with(dir)).unwrap_or_else(|| panic!("{dir} not found"));
    p.status.clone()
}

fn listed(e: &Engine, name: &str) -> Value {
    call(e, "package.list", json!({"name": name})).result.unwrap()["packages"][0].clone()
}

#[test]
fn a_mod_claiming_local_trust_runs_sandboxed_and_never_sees_the_engine_api() {
    within(HANG_GUARD, "claimed local trust", || {
        let dir = tempfile::tempdir().unwrap();
        let scripts = dir.path().join("scripts");
        claimer(&scripts, "claims-local", "local", "");
        std::fs::write(scripts.join("benign.luau"), BENIGN).unwrap();
        let e = engine(&scripts, false);
        assert!(matches!(status_of(&e, "claims-local"), Status::Loaded { .. }), "{:?}", status_of(&e, "claims-local"));
        assert_eq!(e.world().entity_count(), 0, "top-level code of a mod reached limina.call at start-up");
        let before = (e.world_hash(), e.tick());
        assert_eq!(call(&e, "claims-local.peek", json!({})).result, Some(json!({"limina": false, "getfenv": false})));
        assert_eq!(e.mods().trust_of("claims-local").map(|t| t.as_str()), Some("untrusted"));
        let row = listed(&e, "claims-local");
        assert_eq!((row["trust"].clone(), row["trustRequested"].clone()), (json!("untrusted"), json!("local")), "{row}");
        // Untrusted limits: the 50 ms default deadline ends the loop (in the engine VM nothing would).
        let spun = call(&e, "claims-local.spin", json!({}));
        let message = spun.error.expect("an endless loop must fail").message;
        assert!(message.contains("cpu deadline of 50 ms"), "{message}");
        // host.invoke is the only door, and only within declared capabilities (none here).
        assert_eq!(call(&e, "claims-local.build", json!({})).result, Some(json!({"ok": false, "code": "forbidden"})));
        still_sound(&e, before, "a mod claiming local trust");
    });
}

#[test]
fn a_mod_claiming_verified_trust_gets_untrusted_limits_even_when_self_attested() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    claimer(&scripts, "claims-verified", "verified", "");
    claimer(&scripts, "claims-big", "verified", ", limits = { cpuMs = 900 }");
    // A self-computed attestation pins the code's hash: integrity, not trust.
    claimer(&scripts, "self-attested", "verified", "");
    let hash = limina::packages::discover::read_package(&scripts, &scripts.join("self-attested")).unwrap().content_hash;
    claimer(&scripts, "self-attested", "verified", &format!(", attestation = \"{hash}\""));
    std::fs::write(scripts.join("benign.luau"), BENIGN).unwrap();
    let e = engine(&scripts, false);
    let before = (e.world_hash(), e.tick());
    for name in ["claims-verified", "self-attested"] {
        let runtime = e.mods().runtime(name).unwrap_or_else(|| panic!("{name} should load (as untrusted)"));
        assert_eq!(runtime.trust.as_str(), "untrusted", "{name}");
        assert_eq!((runtime.limits.memory_bytes, runtime.limits.cpu_ms), (16 << 20, 50.0), "{name} got relaxed limits it only asked for");
    }
    let row = listed(&e, "self-attested");
    assert_eq!(row["attested"], true, "{row}");
    assert_eq!(row["trust"], "untrusted", "{row}");
    let note = row["attestation"].as_str().unwrap_or_default();
    assert!(note.contains("integrity") && note.contains("not trust"), "package.list must say what an attestation proves: {row}");
    // Limits beyond the untrusted ceiling need the tier granted: refused, naming package, path and rule.
    let Status::Refused { rule, reason } = status_of(&e, "claims-big") else { panic!("claims-big should be refused") };
    assert_eq!(rule.as_str(), "trust.denied", "{reason}");
    for want in ["claims-big@1.0.0", "claims-big", "asks for trust verified", "limina packages trust claims-big", "250 ms ceiling"] {
        assert!(reason.contains(want), "{reason:?} should contain {want:?}");
    }
    assert!(!e.registry().has("claims-big.peek"));
    still_sound(&e, before, "mods claiming verified trust");
}

/// Runs the real binary with a hang guard: a listing that runs package code may never return.
fn limina_within(args: &[&str], cwd: &Path, limit: Duration) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_limina"))
        .args(args)
        .current_dir(cwd)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run limina");
    let deadline = Instant::now() + limit;
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!("limina {args:?} still running after {limit:?}: it ran package code\nstderr: {}", String::from_utf8_lossy(&out.stderr));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn listing_and_inspecting_packages_never_runs_their_code() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    // A folder package's code is not needed to read its manifest: it must not run at all.
    std::fs::create_dir_all(scripts.join("sleeper")).unwrap();
    std::fs::write(scripts.join("sleeper/package.luau"), r#"return { name = "sleeper", version = "1.0.0", trust = "local" }"#).unwrap();
    std::fs::write(scripts.join("sleeper/init.luau"), "print('TOP-LEVEL CODE RAN')\nwhile true do end\nreturn {}\n").unwrap();
    // A single-file mod's header is its return value: evaluating it is reading the manifest,
    // so it runs, sandboxed and under a deadline.
    std::fs::write(
        scripts.join("stall.luau"),
        "local n = 0 while true do n += 1 end\nreturn { package = { name = \"stall\", version = \"1.0.0\" } }\n",
    )
    .unwrap();
    std::fs::write(scripts.join("benign.luau"), BENIGN).unwrap();
    let scripts_arg = scripts.to_str().unwrap();
    let o = limina_within(&["packages", "list", "--scripts", scripts_arg], dir.path(), HANG_GUARD);
    let (out, err) = (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned());
    assert_eq!(o.status.code(), Some(0), "stdout: {out}\nstderr: {err}");
    assert!(!err.contains("TOP-LEVEL CODE RAN") && !out.contains("TOP-LEVEL CODE RAN"), "listing ran package code: {err}");
    let line = |name: &str| out.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("{name} not listed: {out}")).to_string();
    assert!(line("sleeper@1.0.0").contains("untrusted"), "sleeper asks for local but is not granted it: {out}");
    assert!(line("stall").contains("cpu deadline"), "the header read is bounded: {out}");
    assert!(line("benign@1.0.0").contains("benign"), "{out}");
    let o = limina_within(&["packages", "inspect", "sleeper", "--scripts", scripts_arg], dir.path(), HANG_GUARD);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(!err.contains("TOP-LEVEL CODE RAN"), "inspect ran package code: {err}");
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["trust"], json!({"requested": "local", "granted": null, "effective": "untrusted", "why": v["trust"]["why"]}), "{v}");
}

// ---------------------------------------------------------------------------------------------
// The operator's side: `limina packages trust NAME` grants a tier for the files as they are.

fn limina_ok(args: &[&str], cwd: &Path) -> String {
    let o = limina_within(args, cwd, HANG_GUARD);
    let (out, err) = (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned());
    assert_eq!(o.status.code(), Some(0), "limina {args:?}\nstdout: {out}\nstderr: {err}");
    out
}

pub(crate) fn grant(scripts: &Path, name: &str) -> String {
    limina_ok(&["packages", "trust", name, "--scripts", scripts.to_str().unwrap()], scripts.parent().unwrap())
}

#[test]
fn granted_local_code_still_reaches_the_world_only_through_host_invoke() {
    within(HANG_GUARD, "granted local trust", || {
        let dir = tempfile::tempdir().unwrap();
        let scripts = dir.path().join("scripts");
        // 300 ms is above the untrusted ceiling: without the grant the package is refused.
        claimer(&scripts, "trusted-mod", "local", ", limits = { cpuMs = 300 }");
        std::fs::write(scripts.join("benign.luau"), BENIGN).unwrap();
        assert!(matches!(status_of(&engine(&scripts, false), "trusted-mod"), Status::Refused { .. }));

        let said = grant(&scripts, "trusted-mod");
        assert!(said.contains("trusted-mod@1.0.0 (trusted-mod): granted local"), "{said}");
        assert!(dir.path().join(".limina-trust.json").is_file(), "the grant lives beside the scripts root");
        assert!(!scripts.join(".limina-trust.json").exists(), "never inside it");

        let e = engine(&scripts, false);
        assert_eq!(e.mods().trust_of("trusted-mod").map(|t| t.as_str()), Some("local"));
        assert_eq!(e.mods().runtime("trusted-mod").unwrap().limits.cpu_ms, 300.0);
        let row = listed(&e, "trusted-mod");
        assert_eq!((row["trust"].clone(), row["trustGranted"].clone()), (json!("local"), json!("local")), "{row}");
        let before = (e.world_hash(), e.tick());
        assert_eq!(e.world().entity_count(), 0);
        // Local code: still its own VM, no engine API, host.invoke within its (empty) capabilities.
        assert_eq!(call(&e, "trusted-mod.peek", json!({})).result, Some(json!({"limina": false, "getfenv": false})));
        assert_eq!(call(&e, "trusted-mod.build", json!({})).result, Some(json!({"ok": false, "code": "forbidden"})));
        // And still bounded: a granted tier widens the limits, it never removes them.
        let message = call(&e, "trusted-mod.spin", json!({})).error.expect("an endless loop must fail").message;
        assert!(message.contains("cpu deadline of 300 ms"), "{message}");
        still_sound(&e, before, "a granted local mod");
    });
}

#[test]
fn an_edit_drops_a_granted_package_to_untrusted_until_granted_again() {
    within(HANG_GUARD, "edited grant", || {
        let dir = tempfile::tempdir().unwrap();
        let scripts = dir.path().join("scripts");
        claimer(&scripts, "edited", "local", "");
        std::fs::write(scripts.join("benign.luau"), BENIGN).unwrap();
        grant(&scripts, "edited");
        let tier = |e: &Engine| e.mods().trust_of("edited").map(|t| t.as_str());
        let e = engine(&scripts, true);
        assert_eq!(tier(&e), Some("local"));
        // An edit to its code, picked up by hot reload: it keeps running, untrusted.
        let init = scripts.join("edited/init.luau");
        std::fs::write(&init, std::fs::read_to_string(&init).unwrap() + "\n-- edited\n").unwrap();
        crate::packages::step_until(&e, "the reload", |e| tier(e) == Some("untrusted"));
        let why = listed(&e, "edited")["trustWhy"].as_str().unwrap().to_string();
        assert!(why.contains("its code changed since the grant") && why.contains("limina packages trust edited"), "{why}");
        assert_eq!(call(&e, "edited.peek", json!({})).result, Some(json!({"limina": false, "getfenv": false})));
        drop(e);
        // Granted again, then only the manifest edited: untrusted again.
        grant(&scripts, "edited");
        assert_eq!(tier(&engine(&scripts, false)), Some("local"));
        let manifest = scripts.join("edited/package.luau");
        std::fs::write(&manifest, std::fs::read_to_string(&manifest).unwrap().replace("version", "description = \"edited\", version"))
            .unwrap();
        let e = engine(&scripts, false);
        assert_eq!(tier(&e), Some("untrusted"));
        assert!(listed(&e, "edited")["trustWhy"].as_str().unwrap().contains("its manifest changed"));
        // Withdrawn: untrusted whatever the files.
        grant(&scripts, "edited");
        assert_eq!(tier(&engine(&scripts, false)), Some("local"));
        limina_ok(&["packages", "untrust", "edited", "--scripts", scripts.to_str().unwrap()], dir.path());
        assert_eq!(tier(&engine(&scripts, false)), Some("untrusted"));
    });
}

#[test]
fn a_trust_file_shipped_under_the_scripts_root_grants_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    claimer(&scripts, "shipper", "local", "");
    std::fs::write(scripts.join("benign.luau"), BENIGN).unwrap();
    // The author computes the right hashes and ships grants in every place they might be read.
    let source = limina::packages::discover::read_package(&scripts, &scripts.join("shipper")).unwrap();
    let grant = json!({"name": "shipper", "tier": "local", "contentHash": source.content_hash, "manifestHash": source.manifest_hash()});
    let file = json!({"format": "limina-trust/1", "grants": {"shipper": grant, "scripts/shipper": grant}});
    std::fs::write(scripts.join(".limina-trust.json"), file.to_string()).unwrap();
    std::fs::write(scripts.join("shipper/.limina-trust.json"), file.to_string()).unwrap();
    let e = engine(&scripts, false);
    assert_eq!(e.mods().trust_of("shipper").map(|t| t.as_str()), Some("untrusted"));
    // The same grant in the operator's file is honoured: the location is what makes it a grant.
    std::fs::write(dir.path().join(".limina-trust.json"), file.to_string()).unwrap();
    assert_eq!(engine(&scripts, false).mods().trust_of("shipper").map(|t| t.as_str()), Some("local"));
}

#[test]
fn the_trust_command_names_what_it_refuses() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    claimer(&scripts, "asks-verified", "verified", "");
    claimer(&scripts, "asks-nothing", "untrusted", "");
    let s = scripts.to_str().unwrap();
    let run = |args: &[&str]| limina_within(args, dir.path(), HANG_GUARD);
    let err = |o: &Output| String::from_utf8_lossy(&o.stderr).into_owned();
    let o = run(&["packages", "trust", "asks-verified", "--tier", "local", "--scripts", s]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("asks for verified trust; a grant can confirm what a manifest asks or less, not local"), "{}", err(&o));
    let o = run(&["packages", "trust", "asks-nothing", "--scripts", s]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("asks for no trust"), "{}", err(&o));
    let o = run(&["packages", "trust", "nobody", "--scripts", s]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("no package named 'nobody'"), "{}", err(&o));
    // A broken trust file is never overwritten (it may hold the operator's other grants).
    std::fs::write(dir.path().join(".limina-trust.json"), "{ oops").unwrap();
    let o = run(&["packages", "trust", "asks-verified", "--scripts", s]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("not a limina trust file") && err(&o).contains("every package runs untrusted"), "{}", err(&o));
    assert_eq!(std::fs::read_to_string(dir.path().join(".limina-trust.json")).unwrap(), "{ oops");
}

// ---------------------------------------------------------------------------------------------
// Instruction skills (issue 29): the same grants, the tier widening only a skill's size bounds.

#[test]
fn an_instruction_skill_gets_the_untrusted_bounds_until_the_operator_grants_more() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    std::fs::create_dir_all(scripts.join("big")).unwrap();
    let body = format!("# Big\n{}", "word ".repeat(4000));
    let big = format!("---\nname: big\ndescription: A long guide.\nversion: 1.0.0\n---\n{body}");
    std::fs::write(scripts.join("big/SKILL.md"), &big).unwrap();
    std::fs::write(scripts.join("small.skill.md"), "---\nname: small\ndescription: Short.\n---\nBe brief.\n").unwrap();
    let reason_for = |e: &Engine| {
        let refused = crate::packages::events_of(e, "package.rejected");
        let r = refused.iter().find(|r| r["ref"] == "big").unwrap_or_else(|| panic!("big was not refused: {refused:?}"));
        assert_eq!(r["rule"], "trust.denied", "{r}");
        r["reason"].as_str().unwrap().to_string()
    };

    // Untrusted: 20,006 bytes is within the format's 64 KiB but not an untrusted skill's 16 KiB.
    let e = engine(&scripts, false);
    assert!(!e.registry().instructions().has("big") && e.registry().instructions().has("small"));
    let reason = reason_for(&e);
    let want = format!(
        "big/SKILL.md:6: the body is {} bytes, above the maximum of 16384 in the untrusted tier; limina packages trust big grants the verified bounds",
        body.len()
    );
    assert!(reason.ends_with(&want), "{reason:?} should end with {want:?}");
    let small = listed(&e, "small");
    assert_eq!(
        (small["kind"].clone(), small["trust"].clone(), small["path"].clone()),
        (json!("instruction"), json!("untrusted"), json!("small.skill.md"))
    );
    assert_eq!(listed(&e, "big"), Value::Null, "a refused skill is not listed as loaded");
    drop(e);

    // The operator's listing shows both, and says why one would be refused.
    let scripts_arg = scripts.to_str().unwrap();
    let out = limina_ok(&["packages", "list", "--scripts", scripts_arg], dir.path());
    let line = |name: &str| out.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("{name} not listed: {out}")).to_string();
    assert!(line("small@0.0.0").contains("instruction") && line("small@0.0.0").ends_with("would load"), "{out}");
    assert!(line("big@1.0.0").contains("untrusted") && line("big@1.0.0").contains("above the maximum of 16384"), "{out}");

    // Granted (verified by default: a skill asks for nothing, it runs no code): it loads.
    let out = grant(&scripts, "big");
    assert!(out.contains("big@1.0.0 (big): instruction skill granted verified for content sha256:"), "{out}");
    let e = engine(&scripts, false);
    assert!(e.registry().instructions().has("big"));
    let row = listed(&e, "big");
    assert_eq!(row["trust"], "verified", "{row}");
    assert!(row["trustWhy"].as_str().unwrap().starts_with("granted verified by the operator for scripts/big at sha256:"), "{row}");
    let inspected: Value = serde_json::from_str(&limina_ok(&["packages", "inspect", "big", "--scripts", scripts_arg], dir.path())).unwrap();
    assert_eq!(inspected["bounds"], json!({"bodyBytes": 65536, "resources": 64, "resourceBytes": 1048576}), "{inspected}");
    drop(e);

    // Any edit drops it back until granted again; untrust withdraws the grant.
    std::fs::write(scripts.join("big/SKILL.md"), format!("{big}more\n")).unwrap();
    let e = engine(&scripts, false);
    assert!(!e.registry().instructions().has("big"));
    assert!(reason_for(&e).contains("in the untrusted tier"));
    drop(e);
    let out = limina_ok(&["packages", "untrust", "big", "--scripts", scripts_arg], dir.path());
    assert!(out.contains("big@1.0.0 (big): verified trust withdrawn"), "{out}");
    // A grant to a typed package of the same name cannot cover the skill (keys are paths).
    let out = limina_ok(&["packages", "untrust", "big", "--scripts", scripts_arg], dir.path());
    assert!(out.contains("had no trust grant"), "{out}");
}

#[test]
fn a_package_and_a_skill_of_one_name_are_told_apart_by_path() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    std::fs::create_dir_all(scripts.join("benign")).unwrap();
    std::fs::write(scripts.join("benign.luau"), BENIGN).unwrap();
    std::fs::write(scripts.join("benign/SKILL.md"), "---\nname: benign\ndescription: Same name.\n---\nb\n").unwrap();
    let scripts_arg = scripts.to_str().unwrap();
    let o = limina_within(&["packages", "inspect", "benign", "--scripts", scripts_arg], dir.path(), HANG_GUARD);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("2 packages or skills are named 'benign' (benign.luau, benign/): name one by its path"), "{err}");
    let package: Value =
        serde_json::from_str(&limina_ok(&["packages", "inspect", "benign.luau", "--scripts", scripts_arg], dir.path())).unwrap();
    assert_eq!(package["kind"], "single-file", "{package}");
    let skill: Value = serde_json::from_str(&limina_ok(&["packages", "inspect", "benign/", "--scripts", scripts_arg], dir.path())).unwrap();
    assert_eq!(skill["kind"], "instruction", "{skill}");
    assert!(grant(&scripts, "benign/").contains("instruction skill granted verified"));
}
