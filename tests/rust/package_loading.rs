//! Package code that runs at load time may call back into the engine: it gets answers or clear
//! errors, never a `BorrowError` panic (the package system holds no borrow while package code
//! runs).

use limina::host::{Engine, EngineConfig, Output};
use limina::packages::Status;
use serde_json::json;

/// A folder package: `package.luau` (the manifest) and `init.luau` (top-level code, then skills).
fn folder_package(scripts: &std::path::Path, name: &str, trust: &str, top_level: &str) {
    let dir = scripts.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("package.luau"),
        format!("return {{ name = \"{name}\", version = \"1.0.0\", trust = \"{trust}\", capabilities = {{}} }}\n"),
    )
    .unwrap();
    let skill = format!(
        r#"{{ name = "{name}.n", version = "1.0.0", category = "mods", description = "d.", permissions = {{}},
            input = s.object({{}}), output = s.object({{ n = s.integer() }}), handler = function() return {{ n = 1 }} end }}"#
    );
    std::fs::write(dir.join("init.luau"), format!("{top_level}\nreturn {{ skills = {{ {skill} }} }}\n")).unwrap();
}

#[test]
fn package_code_that_calls_back_at_load_time_never_panics_the_engine() {
    // A local mod runs in the engine VM with `limina`: it lists packages and steps the world
    // while the package system is loading it. A sandboxed mod asks through host.invoke.
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    folder_package(
        &scripts,
        "eager",
        "local",
        "local listed = limina.call('package.list', {})\nassert(listed.success, 'package.list failed')\nlimina.step(2)",
    );
    folder_package(&scripts, "curious", "untrusted", "local r = host.invoke('package.list', {})");
    let engine = Engine::new(EngineConfig { output: Output::Silent, scripts: Some(scripts), ..EngineConfig::new(dir.path()) })
        .expect("the engine starts");
    let mods = engine.mods();
    for p in &mods.packages {
        // Each one either loaded or was refused with a reason; nothing panicked.
        if let Status::Refused { reason, .. } = &p.status {
            assert!(!reason.contains("BorrowError") && !reason.contains("already borrowed"), "{}: {reason}", p.name());
        }
    }
    let eager = mods.packages.iter().find(|p| p.name() == "eager").map(|p| p.status.clone());
    assert!(matches!(eager, Some(Status::Loaded { .. })), "{eager:?}");
    drop(mods);
    // The engine still works and still answers package.list.
    let caller = engine.script_caller().clone();
    let r = engine.call(&caller, "package.list", json!({}));
    assert!(r.success, "{r:?}");
    engine.step(1).unwrap();
}
