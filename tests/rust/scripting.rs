//! The Luau host: require stays inside the script roots; errors name file and line.

use limina::host::{Engine, EngineConfig, EngineError, Output};

fn engine_in(root: &std::path::Path) -> Engine {
    Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(root.to_path_buf()) }).unwrap()
}

fn script_error(result: Result<mlua::Value, EngineError>) -> String {
    match result {
        Err(EngineError::Script(e)) => e.message,
        Err(other) => panic!("expected a script error, got {other}"),
        Ok(v) => panic!("expected an error, got {v:?}"),
    }
}

#[test]
fn require_cannot_escape_the_script_roots() {
    let project = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(project.path().join("scripts")).unwrap();
    std::fs::write(project.path().join("secret.lua"), "return 'leaked'").unwrap();
    std::fs::write(project.path().join("scripts/ok.lua"), "return 'fine'").unwrap();
    let engine = engine_in(project.path());

    let ok = engine.run_source("return require('scripts/ok')", "scripts/main.lua").unwrap();
    assert_eq!(ok.as_string().unwrap().to_str().unwrap(), "fine");

    let message = script_error(engine.run_source("return require('../secret')", "scripts/main.lua"));
    assert!(message.contains("'..' is not allowed"), "{message}");
    assert!(message.starts_with("scripts/main.lua:1:"), "{message}");

    // A file at the project root exists but is outside every script root.
    let message = script_error(engine.run_source("return require('secret')", "scripts/main.lua"));
    assert!(message.contains("outside the script roots"), "{message}");
    assert!(!message.contains("leaked"));
}

#[cfg(unix)]
#[test]
fn require_refuses_a_symlink_pointing_out_of_the_roots() {
    let project = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(project.path().join("scripts")).unwrap();
    std::fs::write(outside.path().join("evil.lua"), "return 'leaked'").unwrap();
    std::os::unix::fs::symlink(outside.path().join("evil.lua"), project.path().join("scripts/evil.lua")).unwrap();
    let engine = engine_in(project.path());
    let message = script_error(engine.run_source("return require('scripts/evil')", "scripts/main.lua"));
    assert!(message.contains("outside the script roots"), "{message}");
}

#[test]
fn require_cycles_are_named() {
    let project = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(project.path().join("scripts")).unwrap();
    std::fs::write(project.path().join("scripts/a.lua"), "return require('scripts/b')").unwrap();
    std::fs::write(project.path().join("scripts/b.lua"), "return require('scripts/a')").unwrap();
    let engine = engine_in(project.path());
    let message = script_error(engine.run_source("return require('scripts/a')", "scripts/main.lua"));
    assert!(message.contains("require cycle: scripts/a.lua -> scripts/b.lua -> scripts/a.lua"), "{message}");
}

#[test]
fn runtime_errors_carry_file_line_and_a_traceback() {
    let engine = engine_in(&crate::root());
    let result = engine.run_source("local function f()\n  error('boom')\nend\nf()\n", "demos/x.lua");
    match result {
        Err(EngineError::Script(e)) => {
            assert_eq!(e.message, "demos/x.lua:2: boom");
            assert!(e.traceback.unwrap_or_default().contains("demos/x.lua:4"));
        }
        other => panic!("{other:?}"),
    }
}
