//! Files stay where they belong (issue 15, item 6): discovery never follows a symlink cycle and
//! never reads a file from outside the scripts root, and `require` never leaves the script roots.

use std::os::unix::fs::symlink;

use limina::host::{Engine, EngineConfig, Output};
use limina::packages::Status;
use serde_json::json;

use crate::packages::{BENIGN, HANG_GUARD, call, echo_mod, engine, within};

fn sound(e: &Engine) {
    let before = (e.world_hash(), e.tick());
    e.step(5).unwrap();
    assert_eq!((e.world_hash(), e.tick()), (before.0, before.1 + 5), "the engine ticks and the world is unchanged");
    assert_eq!(call(e, "benign.echo", json!({})).result, Some(json!({"ok": true})), "a bystander still answers");
}

fn refusal(e: &Engine, path_end: &str) -> (String, String) {
    let mods = e.mods();
    let p = mods.packages.iter().find(|p| p.source.path.ends_with(path_end)).unwrap_or_else(|| {
        panic!("{path_end} not listed: {:?}", mods.packages.iter().map(|p| p.source.path.display().to_string()).collect::<Vec<_>>())
    });
    match &p.status {
        Status::Refused { rule, reason } => (rule.as_str().to_string(), reason.clone()),
        other => panic!("{path_end} should be refused, got {other:?}"),
    }
}

#[test]
fn symlink_cycles_never_hang_discovery() {
    within(HANG_GUARD, "symlink cycles", || {
        let dir = tempfile::tempdir().unwrap();
        let scripts = dir.path().join("scripts");
        // Two links to `.` make 2^40 paths before the kernel's link limit stops a naive walk:
        // inside a package folder and in a plain folder of mods.
        std::fs::create_dir_all(scripts.join("loopy")).unwrap();
        std::fs::write(scripts.join("loopy/package.luau"), r#"return { name = "loopy", version = "1.0.0" }"#).unwrap();
        std::fs::write(scripts.join("loopy/init.luau"), echo_mod("loopy")).unwrap();
        symlink(".", scripts.join("loopy/a")).unwrap();
        symlink(".", scripts.join("loopy/b")).unwrap();
        std::fs::create_dir_all(scripts.join("misc")).unwrap();
        symlink(".", scripts.join("misc/a")).unwrap();
        symlink("..", scripts.join("misc/b")).unwrap();
        std::fs::write(scripts.join("benign.luau"), BENIGN).unwrap();
        let e = engine(&scripts, false);
        // The package loads from its real files; the links are not followed.
        assert_eq!(call(&e, "hot.echo", json!({})).result, Some(json!({"v": "loopy"})));
        let files: Vec<String> = {
            let mods = e.mods();
            let loopy = mods.packages.iter().find(|p| p.name() == "loopy").unwrap();
            loopy.source.files.iter().map(|f| f.0.clone()).collect()
        };
        assert_eq!(files, ["init.luau", "package.luau"]);
        sound(&e);
    });
}

#[test]
fn a_symlink_out_of_the_scripts_root_is_refused() {
    within(HANG_GUARD, "symlink escapes", || {
        let dir = tempfile::tempdir().unwrap();
        let scripts = dir.path().join("scripts");
        let outside = dir.path().join("outside");
        std::fs::create_dir_all(outside.join("pkg")).unwrap();
        std::fs::write(outside.join("secret.luau"), "return 'leaked'").unwrap();
        std::fs::write(outside.join("pkg/package.luau"), r#"return { name = "faraway", version = "1.0.0" }"#).unwrap();
        std::fs::write(outside.join("pkg/init.luau"), echo_mod("faraway")).unwrap();
        std::fs::write(outside.join("mod.luau"), echo_mod("outside-mod")).unwrap();
        // A package whose `lib.luau` is a link to a file outside the root, and requires it.
        std::fs::create_dir_all(scripts.join("sneaky")).unwrap();
        std::fs::write(scripts.join("sneaky/package.luau"), r#"return { name = "sneaky", version = "1.0.0" }"#).unwrap();
        std::fs::write(
            scripts.join("sneaky/init.luau"),
            r#"local secret = require("./lib")
return { skills = { {
    name = "sneaky.read", version = "1.0.0", category = "mods", description = "Returns what it required.",
    permissions = {}, input = s.object({}), output = s.object({ v = s.string() }),
    handler = function() return { v = secret } end,
} } }
"#,
        )
        .unwrap();
        symlink(outside.join("secret.luau"), scripts.join("sneaky/lib.luau")).unwrap();
        // A single-file mod and a whole package folder that are links to the outside.
        symlink(outside.join("mod.luau"), scripts.join("linked.luau")).unwrap();
        symlink(outside.join("pkg"), scripts.join("linkedpkg")).unwrap();
        // A link that stays inside the root is fine: a package may share a file with another.
        std::fs::create_dir_all(scripts.join("shared")).unwrap();
        std::fs::write(scripts.join("shared/package.luau"), r#"return { name = "shared", version = "1.0.0" }"#).unwrap();
        std::fs::write(
            scripts.join("shared/init.luau"),
            r#"local common = require("./common")
return { skills = { {
    name = "shared.ok", version = "1.0.0", category = "mods", description = "Uses a shared file.", permissions = {},
    input = s.object({}), output = s.object({ ok = s.boolean() }), handler = function() return { ok = common.answer } end,
} } }
"#,
        )
        .unwrap();
        std::fs::create_dir_all(scripts.join(".lib")).unwrap();
        std::fs::write(scripts.join(".lib/common.luau"), "return { answer = true }\n").unwrap();
        symlink("../.lib/common.luau", scripts.join("shared/common.luau")).unwrap();
        std::fs::write(scripts.join("benign.luau"), BENIGN).unwrap();
        let e = engine(&scripts, false);
        assert!(!e.registry().has("sneaky.read"), "sneaky loaded: {:?}", call(&e, "sneaky.read", json!({})).result);
        let (rule, reason) = refusal(&e, "sneaky");
        assert_eq!(rule, "path.escape", "{reason}");
        assert!(reason.contains("sneaky/lib.luau") && reason.contains("outside the scripts root"), "{reason}");
        for link in ["linked.luau", "linkedpkg"] {
            let (rule, reason) = refusal(&e, link);
            assert_eq!(rule, "path.escape", "{link}: {reason}");
            assert!(reason.contains(link) && reason.contains("outside the scripts root"), "{reason}");
        }
        assert!(!e.registry().has("hot.echo"), "code from outside the root was registered");
        assert_eq!(call(&e, "shared.ok", json!({})).result, Some(json!({"ok": true})), "a link inside the root works");
        sound(&e);
    });
}

#[test]
fn a_fifo_named_like_a_script_never_blocks_discovery() {
    within(HANG_GUARD, "fifo", || {
        let dir = tempfile::tempdir().unwrap();
        let scripts = dir.path().join("scripts");
        std::fs::create_dir_all(&scripts).unwrap();
        let made = std::process::Command::new("mkfifo").arg(scripts.join("pipe.luau")).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("skipped: mkfifo is not available");
            return;
        }
        std::fs::write(scripts.join("benign.luau"), BENIGN).unwrap();
        let e = engine(&scripts, false);
        let (rule, reason) = refusal(&e, "pipe.luau");
        assert_eq!(rule, "package.unreadable", "{reason}");
        assert!(reason.contains("not a regular file"), "{reason}");
        sound(&e);
    });
}

#[test]
fn require_never_follows_a_symlink_out_of_the_script_roots() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path();
    std::fs::create_dir_all(project.join("demos")).unwrap();
    std::fs::create_dir_all(project.join("private")).unwrap();
    std::fs::write(project.join("private/secret.luau"), "return 'leaked'").unwrap();
    symlink(project.join("private/secret.luau"), project.join("demos/secret.luau")).unwrap();
    symlink(project.join("private"), project.join("demos/private")).unwrap();
    let e = Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(project) }).unwrap();
    for name in ["demos/secret", "demos/private/secret"] {
        let err = e.run_source(&format!("return require('{name}')"), "probe.lua").unwrap_err().to_string();
        assert!(err.contains("outside the script roots"), "{name}: {err}");
    }
}
