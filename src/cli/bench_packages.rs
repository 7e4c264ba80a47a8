//! `limina bench --only packages`: the cost of the sandbox. A skill that calls
//! `host.invoke("ecs.updateComponent", ...)` in a loop runs once from an untrusted package and
//! once from a package the operator granted the local tier (both run in their own restricted VM;
//! the untrusted one in its worker process where workers are on, docs/sandbox.md); and checking a
//! VM out of the package pool is compared with creating a sandboxed VM.

use std::time::Instant;

use serde_json::json;

use super::bench::percentile;
use crate::host::{Engine, EngineConfig, Output};

const LOOP: &str = r#"
return { skills = { {
    name = "bench.NAME", version = "1.0.0", category = "bench", description = "host.invoke in a loop",
    permissions = {}, input = s.object({ entity = s.string(), n = s.integer() }), output = s.object({ ok = s.boolean() }),
    handler = function(input)
        local args = { entity = input.entity, component = "position", value = { 1, 2, 3 } }
        for i = 1, input.n do
            local r = host.invoke("ecs.updateComponent", args)
            if not r.success then error(r.error.message) end
        end
        return { ok = true }
    end,
} } }
"#;

pub fn run() -> anyhow::Result<()> {
    let dir = std::env::temp_dir().join(format!("limina-bench-packages-{}", std::process::id()));
    let scripts = dir.join("scripts");
    std::fs::create_dir_all(scripts.join("sandboxed"))?;
    std::fs::create_dir_all(scripts.join("trusted"))?;
    let manifest = |name: &str, trust: &str| {
        format!(
            r#"return {{ name = "{name}", version = "1.0.0", trust = "{trust}", capabilities = {{ "ecs.modify" }}, limits = {{ cpuMs = 250 }} }}"#
        )
    };
    std::fs::write(scripts.join("sandboxed/package.luau"), manifest("sandboxed", "untrusted"))?;
    std::fs::write(scripts.join("sandboxed/init.luau"), LOOP.replace("NAME", "sandboxed"))?;
    std::fs::write(scripts.join("trusted/package.luau"), manifest("trusted", "local"))?;
    std::fs::write(scripts.join("trusted/init.luau"), LOOP.replace("NAME", "trusted"))?;
    let result = grant_local(&scripts).and_then(|()| measure(&dir, &scripts));
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// What `limina packages trust trusted` would record for the bench's local package.
fn grant_local(scripts: &std::path::Path) -> anyhow::Result<()> {
    let source = crate::packages::discover::read_package(scripts, &scripts.join("trusted"))?;
    let manifest = crate::packages::read_manifest(&source).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut grants = crate::packages::trust::Grants::read(scripts);
    grants.grant(&source, &manifest, None)?;
    grants.save(scripts)?;
    Ok(())
}

fn measure(dir: &std::path::Path, scripts: &std::path::Path) -> anyhow::Result<()> {
    let engine =
        Engine::new(EngineConfig { output: Output::Silent, scripts: Some(scripts.to_path_buf()), ..EngineConfig::new(dir.to_path_buf()) })?;
    let tier = engine.mods().trust_of("trusted");
    anyhow::ensure!(tier == Some(crate::packages::manifest::Trust::Local), "the granted package runs {tier:?}, not local");
    let caller = engine.script_caller().clone();
    let made = engine.call(&caller, "scene.createEntity", json!({}));
    let entity = made.result.as_ref().and_then(|r| r["entity"].as_str()).unwrap_or("ent_0001").to_string();
    let per_invoke = |skill: &str| -> anyhow::Result<f64> {
        let n = 200;
        engine.call(&caller, skill, json!({"entity": entity, "n": n}));
        let mut samples = Vec::new();
        for _ in 0..25 {
            let t = Instant::now();
            let r = engine.call(&caller, skill, json!({"entity": entity, "n": n}));
            anyhow::ensure!(r.success, "{skill}: {:?}", r.error);
            samples.push(t.elapsed().as_secs_f64() * 1e6 / f64::from(n));
        }
        samples.sort_by(f64::total_cmp);
        Ok(percentile(&samples, 0.5))
    };
    let sandboxed = per_invoke("bench.sandboxed")?;
    let trusted = per_invoke("bench.trusted")?;
    let sandboxed_runtime = engine.mods().runtime("sandboxed").ok_or_else(|| anyhow::anyhow!("the sandboxed package did not load"))?;
    let place = if sandboxed_runtime.worker().is_some() { "in its worker process" } else { "in process" };
    outln!(
        "packages     host.invoke(\"ecs.updateComponent\") round trip: {sandboxed:.2} µs from an untrusted package ({place}), {trusted:.2} µs from a granted local one (×{:.2})",
        sandboxed / trusted
    );

    // The pool lives where the VM does: the local package's, in this process.
    let runtime = engine.mods().runtime("trusted").ok_or_else(|| anyhow::anyhow!("the trusted package did not load"))?;
    let n = 100_000;
    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(runtime.checkout_cost_probe("bench.trusted"));
    }
    let checkout_ns = t.elapsed().as_secs_f64() * 1e9 / f64::from(n);
    let t = Instant::now();
    for _ in 0..50 {
        let lua = mlua::Lua::new();
        let _ = lua.set_memory_limit(16 << 20);
        let _ = lua.sandbox(true);
        std::hint::black_box(lua);
    }
    let create_us = t.elapsed().as_secs_f64() * 1e6 / 50.0;
    outln!(
        "packages     VM pool checkout {checkout_ns:.0} ns; baseline creating a sandboxed VM {create_us:.0} µs (×{:.0})",
        create_us * 1000.0 / checkout_ns
    );
    Ok(())
}
