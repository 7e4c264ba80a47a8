//! `limina bench`: the speed and memory figures the issues ask for, each printed next to a
//! baseline measured in the same run.

use std::time::Instant;

use clap::Args;
use serde_json::json;

use super::{EXIT_FAILURE, EXIT_OK, report_error};
use crate::host::{Engine, EngineConfig, Output};
use crate::script::ScriptError;

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Skill calls to time.
    #[arg(long, default_value_t = 200_000)]
    pub calls: u64,
    /// Fixed steps to time.
    #[arg(long, default_value_t = 600)]
    pub steps: u64,
}

pub fn run(args: &BenchArgs) -> i32 {
    match bench(args) {
        Ok(()) => EXIT_OK,
        Err(e) => {
            report_error(&e.to_string(), None);
            EXIT_FAILURE
        }
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let at = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[at.min(sorted.len() - 1)]
}

fn engine() -> anyhow::Result<Engine> {
    Ok(Engine::new(EngineConfig {
        output: Output::Silent,
        ..EngineConfig::default()
    })?)
}

fn bench(args: &BenchArgs) -> anyhow::Result<()> {
    outln!(
        "limina bench ({} build)",
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        }
    );

    // 1. One skill call from Luau, against a no-op Lua -> Rust call as the baseline.
    let e = engine()?;
    e.run_source(
        r#"
        local r = limina.call("scene.createEntity", { shape = "box", position = {0, 0, 0} })
        assert(r.success, r.error and r.error.message)
        BENCH_ENTITY = r.result.entity
        function bench_calls(n)
            local id = BENCH_ENTITY
            local input = { entity = id, component = "position", value = {1, 2, 3} }
            for i = 1, n do
                local r = limina.call("ecs.updateComponent", input)
                if not r.success then error(r.error.message) end
            end
        end
        function bench_baseline(n)
            local tick = limina.tick
            for i = 1, n do tick() end
        end
        "#,
        "bench/calls.lua",
    )?;
    let lua = e.lua();
    let calls: mlua::Function = lua
        .globals()
        .get("bench_calls")
        .map_err(ScriptError::from)?;
    let baseline: mlua::Function = lua
        .globals()
        .get("bench_baseline")
        .map_err(ScriptError::from)?;
    calls.call::<()>(1000).map_err(ScriptError::from)?; // warm-up
    let mut per_call = Vec::new();
    let batch = 1000u64;
    for _ in 0..(args.calls / batch).max(1) {
        let t = Instant::now();
        calls.call::<()>(batch).map_err(ScriptError::from)?;
        per_call.push(t.elapsed().as_secs_f64() * 1e6 / batch as f64);
    }
    per_call.sort_by(f64::total_cmp);
    let t = Instant::now();
    baseline.call::<()>(args.calls).map_err(ScriptError::from)?;
    let base_us = t.elapsed().as_secs_f64() * 1e6 / args.calls as f64;
    let median = percentile(&per_call, 0.5);
    outln!(
        "skill call   limina.call(\"ecs.updateComponent\") median {:.2} µs, p95 {:.2} µs = {:.0} calls/s; baseline Lua->Rust no-op {:.3} µs (×{:.0})",
        median,
        percentile(&per_call, 0.95),
        1e6 / median,
        base_us,
        median / base_us
    );

    // 2. One fixed step with 2000 entities, 256 of them awake dynamic bodies.
    let e = engine()?;
    let caller = e.script_caller().clone();
    let floor = e.call(
        &caller,
        "scene.createEntity",
        json!({"shape": "box", "size": 50, "position": [0, -25, 0], "static": true}),
    );
    anyhow::ensure!(floor.success, "floor: {:?}", floor.error);
    for i in 0..1743 {
        let (x, z) = ((i % 40) as f64 - 20.0, (i / 40) as f64 - 20.0);
        let r = e.call(
            &caller,
            "scene.createEntity",
            json!({"shape": "box", "size": 0.2, "position": [x, 5.0, z]}),
        );
        anyhow::ensure!(r.success, "entity: {:?}", r.error);
    }
    for i in 0..256 {
        let (x, z) = ((i % 16) as f64 * 1.1 - 8.0, (i / 16) as f64 * 1.1 - 8.0);
        let r = e.call(&caller, "scene.createEntity", json!({"shape": "sphere", "size": 1, "dynamic": true, "restitution": 0.5, "position": [x, 1.0 + (i % 3) as f64, z]}));
        anyhow::ensure!(r.success, "ball: {:?}", r.error);
    }
    anyhow::ensure!(e.world().entity_count() == 2000, "expected 2000 entities");
    // Keep the balls awake: kick them every 30 steps so the step measures real contacts.
    e.run_source(
        r#"
        local balls = {}
        for _, row in limina.call("scene.queryEntities", {}).result.entities do
            if row.position[2] < 4 and row.position[2] > 0 then table.insert(balls, row.entity) end
        end
        limina.on_step(function(tick)
            if tick % 30 == 0 then
                for i, id in balls do
                    limina.call("physics.applyImpulse", { entity = id, impulse = { math.sin(i + tick) * 2, 3, math.cos(i + tick) * 2 } })
                end
            end
        end)
        "#,
        "bench/step.lua",
    )?;
    e.step(30)?;
    let mut step_us = Vec::new();
    for _ in 0..args.steps {
        let t = Instant::now();
        e.step(1)?;
        step_us.push(t.elapsed().as_secs_f64() * 1e6);
    }
    // Baseline: the same steps without the kicks (pure physics + sync) cannot be separated cleanly,
    // so report the kick steps separately from the rest.
    let kick_steps: Vec<f64> = step_us
        .iter()
        .enumerate()
        .filter(|(i, _)| (i + 31) % 30 == 0)
        .map(|(_, v)| *v)
        .collect();
    let mut plain: Vec<f64> = step_us
        .iter()
        .enumerate()
        .filter(|(i, _)| (i + 31) % 30 != 0)
        .map(|(_, v)| *v)
        .collect();
    plain.sort_by(f64::total_cmp);
    step_us.sort_by(f64::total_cmp);
    outln!(
        "fixed step   2000 entities + 256 dynamic bodies: median {:.0} µs, p95 {:.0} µs, max {:.0} µs over {} steps (without the 256-impulse kick steps: median {:.0} µs, p95 {:.0} µs; {} kick steps); reference engine p95 4000 µs (×{:.1} faster at p95)",
        percentile(&step_us, 0.5),
        percentile(&step_us, 0.95),
        step_us.last().copied().unwrap_or(0.0),
        step_us.len(),
        percentile(&plain, 0.5),
        percentile(&plain, 0.95),
        kick_steps.len(),
        4000.0 / percentile(&step_us, 0.95).max(1e-9)
    );

    // 3. Resident memory at 16384 entities, against the same process before filling the world.
    let before = peak_rss_kib();
    let e = engine()?;
    let caller = e.script_caller().clone();
    for i in 0..16384 {
        let dynamic = i % 8 == 0;
        let r = e.call(&caller, "scene.createEntity", json!({"shape": "box", "size": 0.5, "dynamic": dynamic, "position": [(i % 128) as f64, 1.0, (i / 128) as f64]}));
        anyhow::ensure!(r.success, "entity {i}: {:?}", r.error);
    }
    let full = e.call(&caller, "scene.createEntity", json!({}));
    anyhow::ensure!(!full.success, "the 16385th entity must be refused");
    e.step(10)?;
    let after = peak_rss_kib();
    outln!(
        "memory       16384 entities (2048 dynamic bodies, {} trace events): peak RSS {} MiB (process before the world: {} MiB)",
        e.trace().len(),
        after.map_or("?".into(), |k| format!("{:.1}", k as f64 / 1024.0)),
        before.map_or("?".into(), |k| format!("{:.1}", k as f64 / 1024.0))
    );
    Ok(())
}

/// VmHWM from /proc/self/status, in KiB.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}
