//! Package code that calls back into the engine while packages load gets answers or clear
//! errors, never a `BorrowError` panic (the package system holds no borrow while package code
//! runs). Top-level code runs sandboxed whatever trust its manifest asks for: it has no `limina`,
//! and `host.invoke` is only open while one of the package's skills runs. A skill may list
//! packages and ask for another to load while its own call is in flight.

use limina::host::{Engine, EngineConfig, Output};
use limina::packages::Status;
use serde_json::json;

/// A folder package: `package.luau` (the manifest) and `init.luau` (top-level code, then skills).
fn folder_package(scripts: &std::path::Path, name: &str, trust: &str, capabilities: &str, top_level: &str, skills: &str) {
    let dir = scripts.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("package.luau"),
        format!("return {{ name = \"{name}\", version = \"1.0.0\", trust = \"{trust}\", capabilities = {{ {capabilities} }} }}\n"),
    )
    .unwrap();
    std::fs::write(dir.join("init.luau"), format!("{top_level}\nreturn {{ skills = {{ {skills} }} }}\n")).unwrap();
}

const LOADS: &str = r#"{ name = "eager.loads", version = "1.0.0", category = "mods", description = "Lists and loads packages.",
    permissions = {}, input = s.object({}), output = s.object({ listed = s.boolean(), answered = s.boolean(), rule = s.string():optional(), early = s.boolean() }),
    handler = function()
        local listed = host.invoke("package.list", {})
        local loaded = host.invoke("package.load", { ref = "talker@1.0.0", agentId = "agt_e", sessionId = "ses_e", profile = "builder.readWrite" })
        return { listed = listed.success, answered = loaded.success, rule = loaded.result and loaded.result.rule, early = early }
    end }"#;

#[test]
fn package_code_that_calls_back_while_packages_load_never_panics_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    // Asks for local trust (not granted) and tries the engine at load time.
    folder_package(
        &scripts,
        "eager",
        "local",
        "\"agent.write\"",
        "assert(limina == nil, 'top-level code reached limina')\nearly = pcall(host.invoke, 'package.list', {})",
        LOADS,
    );
    folder_package(&scripts, "talker", "untrusted", "\"social.act\"", "local ok = pcall(host.invoke, 'package.list', {})", "");
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
    let caller = engine.script_caller().clone();
    let r = engine.call(&caller, "eager.loads", json!({}));
    // host.invoke was closed at load time; in a call, package.list answers and package.load
    // decides: eager holds only its declared capabilities, so loading under builder.readWrite is
    // refused (what a caller holds counts, not the profile it names).
    assert_eq!(r.result, Some(json!({"listed": true, "answered": false, "early": false})), "{r:?}");
    // The engine still works and still answers package.list.
    let r = engine.call(&caller, "package.list", json!({}));
    assert!(r.success, "{r:?}");
    engine.step(1).unwrap();
}
