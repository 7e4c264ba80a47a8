//! `limina bench`: the speed and memory figures the issues ask for, each printed next to a
//! baseline measured in the same run.
//!
//! Each section runs in a fresh child process (`limina bench --only SECTION`) so its peak
//! resident memory is its own, not the high-water mark of an earlier section.

use std::process::Command;
use std::time::Instant;

use clap::{Args, ValueEnum};
use serde_json::json;

use super::{CliError, CliResult};
use crate::host::{Engine, EngineConfig, Output};
use crate::script::ScriptError;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Section {
    /// One `limina.call` from Luau vs a no-op Lua->Rust call.
    Calls,
    /// One fixed step at 2000 entities + 256 awake dynamic bodies.
    Step,
    /// Peak resident memory at 16384 and at 65536 (the default capacity) entities vs an empty engine.
    Memory,
    /// Trace emit cost, export + sha256 chain throughput.
    Trace,
    /// MCP: stdio round trip, server memory per WebSocket client, cross-client propagation.
    Mcp,
    /// host.invoke from an untrusted vs a granted local package; VM pool checkout.
    Packages,
    /// CPU cost of render-sync + encoding at 1k/10k/20k entities.
    Render,
    /// CPU per frame of 1000 world-anchored UI labels; their draw calls; the glyph atlas.
    Ui,
    /// Mixer CPU with 64 positional sounds, what audio adds to the step, TTS latency.
    Audio,
    /// The density capstone: 200 agents + 256 bodies + 2000 entities, and ten times it.
    Agents,
    /// Batched radius queries (agent perception) on the CSR grid vs brute force.
    Spatial,
    /// world.digest's bytes and time vs scene.queryEntities at 100 / 1,000 / 10,000 entities.
    Digest,
    /// The command log's cost on the step and on MCP calls; replay speed vs live stepping.
    Durable,
    /// Snapshot size, encode, durable write and restore at 2,000 and 20,000 entities.
    Snapshot,
    /// What leases and `ifRevision` add to a write, and what a refused write costs.
    Sharing,
    /// RSS over a million skill calls with the world log spilling to disk, vs held in memory.
    Soak,
    /// The state stream: bytes/s and server CPU per viewer of 2,000 falling bodies, 1/8/32 viewers.
    Stream,
    /// Instruction skills: a decision request with 0, 1 and 8 active vs all inlined; list_skills.
    Skills,
    /// The soak's baseline alone: the whole world log held in memory (run by `soak`).
    SoakHeld,
    /// Many worlds in one server: memory per idle world; worlds at the reference density one
    /// process holds at 60 ticks/s.
    Worlds,
    /// Viewers of a world at the reference density: what they cost its server, watching on it
    /// vs through a relay fed from NATS.
    Spectators,
}

#[derive(Debug, Args)]
pub(crate) struct BenchArgs {
    /// Skill calls to time.
    #[arg(long, default_value_t = 200_000)]
    pub calls: u64,
    /// Fixed steps to time.
    #[arg(long, default_value_t = 600)]
    pub steps: u64,
    /// Run one section in this process (default: every section, each in a child process).
    #[arg(long, value_enum)]
    pub only: Option<Section>,
}

pub fn run(args: &BenchArgs) -> CliResult {
    match args.only {
        Some(section) => run_section(section, args),
        None => run_all(args),
    }
    .map_err(CliError::failed)
}

fn run_all(args: &BenchArgs) -> anyhow::Result<()> {
    outln!(
        "limina bench ({} build, {} cores)",
        if cfg!(debug_assertions) { "debug" } else { "release" },
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    let exe = std::env::current_exe()?;
    for section in [
        Section::Calls,
        Section::Step,
        Section::Memory,
        Section::Trace,
        Section::Mcp,
        Section::Packages,
        Section::Render,
        Section::Ui,
        Section::Audio,
        Section::Spatial,
        Section::Digest,
        Section::Agents,
        Section::Snapshot,
        Section::Sharing,
        Section::Stream,
        Section::Skills,
        Section::Soak,
        Section::Worlds,
        Section::Spectators,
    ] {
        let name = section.to_possible_value().map(|v| v.get_name().to_string()).unwrap_or_default();
        let status = Command::new(&exe)
            .args(["bench", "--only", &name, "--calls", &args.calls.to_string(), "--steps", &args.steps.to_string()])
            .status()?;
        anyhow::ensure!(status.success(), "bench section {name} failed");
    }
    Ok(())
}

fn run_section(section: Section, args: &BenchArgs) -> anyhow::Result<()> {
    match section {
        Section::Calls => bench_calls(args.calls),
        Section::Step => bench_step(args.steps),
        Section::Memory => bench_memory(),
        Section::Trace => bench_trace(),
        Section::Mcp => super::bench_mcp::run(),
        Section::Stream => super::bench_stream::run(),
        Section::Packages => super::bench_packages::run(),
        Section::Agents => super::bench_agents::run(),
        #[cfg(feature = "render")]
        Section::Render => super::bench_render::run(),
        #[cfg(not(feature = "render"))]
        Section::Render => Err(anyhow::anyhow!("the render bench needs a limina built with the `render` feature")),
        #[cfg(feature = "render")]
        Section::Ui => super::bench_ui::run(),
        #[cfg(not(feature = "render"))]
        Section::Ui => Err(anyhow::anyhow!("the UI bench needs a limina built with the `render` feature")),
        Section::Spatial => super::bench_spatial::run(),
        Section::Digest => super::bench_digest::run(),
        Section::Audio => super::bench_audio::run(),
        Section::Durable => super::bench_durable::run(),
        Section::Snapshot => super::bench_snapshot::run(),
        Section::Sharing => super::bench_sharing::run(),
        Section::Soak => super::bench_soak::run(),
        Section::Worlds => super::bench_worlds::run(),
        Section::Spectators => super::bench_spectate::run(),
        Section::Skills => super::bench_skills::run(),
        Section::SoakHeld => super::bench_soak::run_held(),
    }
}

pub(super) fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let at = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[at.min(sorted.len() - 1)]
}

fn engine() -> anyhow::Result<Engine> {
    Ok(Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(super::project_root()) })?)
}

fn bench_calls(calls: u64) -> anyhow::Result<()> {
    let with_policy = time_calls(calls, true, false)?;
    let without = time_calls(calls, false, false)?;
    let staged = time_calls(calls, true, true)?;
    outln!(
        "skill call   limina.call(\"ecs.updateComponent\"): median {:.2} µs, p95 {:.2} µs = {:.0} calls/s; baseline no-op Lua->Rust call {:.3} µs (the pipeline costs ×{:.0}); engine start-up {:.1} ms",
        with_policy.median,
        with_policy.p95,
        1e6 / with_policy.median,
        with_policy.baseline,
        with_policy.median / with_policy.baseline,
        with_policy.startup_ms,
    );
    outln!(
        "policy       the same call without the policy engine (static profile check): median {:.2} µs; the policy engine adds {:.2} µs per call (its decision event included)",
        without.median,
        with_policy.median - without.median
    );
    if let Some((handler, bare)) = with_policy.floor {
        outln!(
            "floor        without the pipeline, from Luau: the ecs.updateComponent handler called directly with a fresh input table and a ctx {handler:.2} µs (×{:.0} the no-op); a bare Luau function making and returning a table with a fresh input table {bare:.2} µs (×{:.0})",
            handler / with_policy.baseline,
            bare / with_policy.baseline,
        );
    }
    if let Some(stages) = staged.stages {
        let total: f64 = stages.iter().map(|(_, us)| us).sum();
        let parts: Vec<String> = stages.iter().map(|(stage, us)| format!("{} {us:.2}", stage.as_str())).collect();
        outln!(
            "stages       µs per call, the same call in a third run with a clock read at each stage boundary (the reads included, {total:.2} µs in all): {}",
            parts.join("; ")
        );
    }
    Ok(())
}

struct CallTiming {
    median: f64,
    p95: f64,
    baseline: f64,
    startup_ms: f64,
    /// With stage timing on: µs per call in each stage.
    stages: Option<Vec<(crate::skills::Stage, f64)>>,
    /// With the policy on: µs per call of the handler alone, and of a bare Luau call.
    floor: Option<(f64, f64)>,
}

fn time_calls(calls: u64, policy: bool, stage_timing: bool) -> anyhow::Result<CallTiming> {
    let started = Instant::now();
    let config = EngineConfig { output: Output::Silent, policy, stage_timing, ..EngineConfig::new(super::project_root()) };
    let e = Engine::new(config)?;
    let startup_ms = started.elapsed().as_secs_f64() * 1e3;
    e.run_source(
        r#"
        local r = limina.call("scene.createEntity", { shape = "box", position = {0, 0, 0} })
        assert(r.success, r.error and r.error.message)
        local id = r.result.entity
        function bench_calls(n)
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
        -- What the pipeline cannot go below: the handler itself, given the private copy of its
        -- input the pipeline must make and a ctx; and a bare Luau call doing the same shape.
        local ctx = { agentId = "agt_script", sessionId = "ses_bench", profile = "builder.readWrite",
            permissions = {}, fail = function() end, tick = 0 }
        function bench_floor(n, handler)
            for i = 1, n do
                local r = handler({ entity = id, component = "position", value = {1, 2, 3} }, ctx)
                if not r.ok then error("the handler failed") end
            end
        end
        local function bare(input, ctx) return { ok = input.value[1] == 1 } end
        function bench_bare(n)
            for i = 1, n do
                local r = bare({ entity = id, component = "position", value = {1, 2, 3} }, ctx)
                if not r.ok then error("unreachable") end
            end
        end
        "#,
        "bench/calls.lua",
    )?;
    let lua = e.lua();
    let run: mlua::Function = lua.globals().get("bench_calls").map_err(ScriptError::from)?;
    let baseline: mlua::Function = lua.globals().get("bench_baseline").map_err(ScriptError::from)?;
    run.call::<()>(1000).map_err(ScriptError::from)?; // warm-up
    let batch = 1000u64;
    let mut per_call = Vec::new();
    for _ in 0..(calls / batch).max(1) {
        let t = Instant::now();
        run.call::<()>(batch).map_err(ScriptError::from)?;
        per_call.push(t.elapsed().as_secs_f64() * 1e6 / batch as f64);
    }
    per_call.sort_by(f64::total_cmp);
    // Every call so far (the warm-up too; the set-up's one call is negligible against them).
    let made = (1000 + per_call.len() as u64 * batch) as f64;
    let stages = e.call_stages().map(|totals| totals.iter().map(|(s, d)| (*s, d.as_secs_f64() * 1e6 / made)).collect());
    let t = Instant::now();
    baseline.call::<()>(calls).map_err(ScriptError::from)?;
    let base_us = t.elapsed().as_secs_f64() * 1e6 / calls as f64;
    let floor = if policy && !stage_timing { Some(time_floor(&e, calls)?) } else { None };
    Ok(CallTiming { median: percentile(&per_call, 0.5), p95: percentile(&per_call, 0.95), baseline: base_us, startup_ms, stages, floor })
}

/// µs per call of the `ecs.updateComponent` handler called straight from Luau, and of a bare
/// Luau function of the same shape (see `bench_floor` and `bench_bare`).
fn time_floor(e: &Engine, calls: u64) -> anyhow::Result<(f64, f64)> {
    let skill = e.registry().get("ecs.updateComponent").ok_or_else(|| anyhow::anyhow!("ecs.updateComponent is not registered"))?;
    let crate::skills::Handler::Vm { handler, .. } = &skill.handler else {
        anyhow::bail!("ecs.updateComponent's handler is not in the engine VM");
    };
    let lua = e.lua();
    let floor: mlua::Function = lua.globals().get("bench_floor").map_err(ScriptError::from)?;
    let bare: mlua::Function = lua.globals().get("bench_bare").map_err(ScriptError::from)?;
    floor.call::<()>((1000, handler.clone())).map_err(ScriptError::from)?;
    let t = Instant::now();
    floor.call::<()>((calls, handler.clone())).map_err(ScriptError::from)?;
    let handler_us = t.elapsed().as_secs_f64() * 1e6 / calls as f64;
    bare.call::<()>(1000).map_err(ScriptError::from)?;
    let t = Instant::now();
    bare.call::<()>(calls).map_err(ScriptError::from)?;
    let bare_us = t.elapsed().as_secs_f64() * 1e6 / calls as f64;
    Ok((handler_us, bare_us))
}

fn bench_trace() -> anyhow::Result<()> {
    use crate::trace::{EventDraft, TraceLog};
    const N: usize = 200_000;
    let payload = json!({"skill": "ecs.updateComponent", "version": "1.0.0", "input": {"entity": "ent_0001", "component": "position", "value": [1, 2, 3]}, "tick": 42});
    // Baseline: cloning the payload, the least any emit must do.
    let t = Instant::now();
    let mut clones = Vec::with_capacity(N);
    for _ in 0..N {
        clones.push(payload.clone());
    }
    let clone_ns = t.elapsed().as_secs_f64() * 1e9 / N as f64;
    drop(clones);
    let mut log = TraceLog::new("thr_bench");
    let t = Instant::now();
    for i in 0..N {
        log.emit(EventDraft::new(crate::trace::EventKind::SkillExecuted.as_str(), "agt_bench").thread("ses_bench"), i as u64, &payload);
    }
    let emit_ns = t.elapsed().as_secs_f64() * 1e9 / N as f64;
    outln!(
        "trace emit   {emit_ns:.0} ns per event ({N} events, payload serialized once + id + FNV discriminator + timestamp, no hashing); baseline payload clone {clone_ns:.0} ns"
    );

    // The policy engine's own cost: one evaluation, and recording it.
    use crate::policy::{DecisionContext, Permission, PolicyEngine, profile_permissions};
    let mut policy = PolicyEngine::new();
    let required = [Permission::EcsModify];
    let ctx = DecisionContext {
        acting_for: &[],
        agent_id: "agt_bench",
        session_id: "ses_bench",
        profile: "builder.readWrite",
        skill: "ecs.updateComponent",
        required: &required,
        granted: profile_permissions("builder.readWrite"),
        tick: 1,
        package: None,
    };
    let t = Instant::now();
    for _ in 0..N {
        std::hint::black_box(policy.evaluate(std::hint::black_box(&ctx)));
    }
    let evaluate_ns = t.elapsed().as_secs_f64() * 1e9 / N as f64;
    let decision = policy.evaluate(&ctx);
    let mut decisions = TraceLog::new("thr_bench");
    let t = Instant::now();
    for i in 0..N {
        decisions.emit(
            EventDraft::new(crate::trace::EventKind::PolicyDecision.as_str(), "agt_bench").thread("ses_bench"),
            i as u64,
            &decision.payload(&ctx),
        );
    }
    let record_ns = t.elapsed().as_secs_f64() * 1e9 / N as f64;
    outln!("policy       one decision: evaluate {evaluate_ns:.0} ns, record it as a policy.decision event {record_ns:.0} ns");

    let mut out = Vec::with_capacity(N * 400);
    let t = Instant::now();
    let stats = log.export(&mut out)?;
    let secs = t.elapsed().as_secs_f64();
    // Baseline: sha256 alone over the same bytes.
    use sha2::{Digest, Sha256};
    let t = Instant::now();
    let mut hasher = Sha256::new();
    hasher.update(&out);
    let _ = hasher.finalize();
    let sha_secs = t.elapsed().as_secs_f64();
    let mib = stats.bytes as f64 / (1024.0 * 1024.0);
    outln!(
        "trace export {:.0} events/s, {:.0} MiB/s ({} events, {:.1} MiB, canonical JSON + sha256 chain); baseline sha256 alone over the same bytes {:.0} MiB/s",
        stats.events as f64 / secs,
        mib / secs,
        stats.events,
        mib,
        mib / sha_secs
    );
    let t = Instant::now();
    let verified = crate::trace::verify_jsonl(&out).map_err(|f| anyhow::anyhow!("{f}"))?;
    let vsecs = t.elapsed().as_secs_f64();
    outln!("trace verify {:.0} events/s, {:.0} MiB/s ({verified} events)", verified as f64 / vsecs, mib / vsecs);
    Ok(())
}

fn bench_step(steps: u64) -> anyhow::Result<()> {
    let e = engine()?;
    let caller = e.script_caller().clone();
    let floor = e.call(&caller, "scene.createEntity", json!({"shape": "box", "size": 50, "position": [0, -25, 0], "static": true}));
    anyhow::ensure!(floor.success, "floor: {:?}", floor.error);
    for i in 0..1743 {
        let (x, z) = ((i % 40) as f64 - 20.0, (i / 40) as f64 - 20.0);
        let r = e.call(&caller, "scene.createEntity", json!({"shape": "box", "size": 0.2, "position": [x, 5.0, z]}));
        anyhow::ensure!(r.success, "entity: {:?}", r.error);
    }
    for i in 0..256 {
        let (x, z) = ((i % 16) as f64 * 1.1 - 8.0, (i / 16) as f64 * 1.1 - 8.0);
        let r = e.call(
            &caller,
            "scene.createEntity",
            json!({"shape": "sphere", "size": 1, "dynamic": true, "restitution": 0.5, "position": [x, 1.0 + (i % 3) as f64, z]}),
        );
        anyhow::ensure!(r.success, "ball: {:?}", r.error);
    }
    anyhow::ensure!(e.world().entity_count() == 2000, "expected 2000 entities");
    // Keep every ball awake and colliding: a small random kick each step for a few balls, a
    // bigger one for all of them every second.
    e.run_source(
        r#"
        local balls = {}
        for _, row in limina.call("scene.queryEntities", { tag = nil }).result.entities do
            if row.position[2] < 4 and row.position[2] > 0 then table.insert(balls, row.entity) end
        end
        limina.on_step(function(tick)
            for k = 1, 8 do
                local id = balls[(tick * 8 + k) % #balls + 1]
                limina.call("physics.applyImpulse", { entity = id, impulse = { math.sin(tick + k), 1.5, math.cos(tick + k) } })
            end
        end)
        "#,
        "bench/step.lua",
    )?;
    e.step(60)?;
    let mut step_us = Vec::with_capacity(steps as usize);
    let mut awake = 0usize;
    for _ in 0..steps {
        let t = Instant::now();
        e.step(1)?;
        step_us.push(t.elapsed().as_secs_f64() * 1e6);
        awake += e.world().awake_body_count();
    }
    // Baseline: the same world with every body asleep-free but no Lua callback (physics + sync
    // only), to show what the script layer adds.
    let e2 = engine()?;
    let caller2 = e2.script_caller().clone();
    for i in 0..256 {
        let (x, z) = ((i % 16) as f64 * 1.1 - 8.0, (i / 16) as f64 * 1.1 - 8.0);
        e2.call(
            &caller2,
            "scene.createEntity",
            json!({"shape": "sphere", "size": 1, "dynamic": true, "position": [x, 20.0 + (i % 7) as f64, z]}),
        );
    }
    e2.call(&caller2, "scene.createEntity", json!({"shape": "box", "size": 50, "position": [0, -25, 0], "static": true}));
    let mut fall_us = Vec::new();
    for _ in 0..120 {
        let t = Instant::now();
        e2.step(1)?;
        fall_us.push(t.elapsed().as_secs_f64() * 1e6);
    }
    step_us.sort_by(f64::total_cmp);
    fall_us.sort_by(f64::total_cmp);
    let p95 = percentile(&step_us, 0.95);
    outln!(
        "fixed step   2000 entities + 256 dynamic bodies ({:.0} awake on average) + 8 skill calls/step from Luau: median {:.0} µs, p95 {p95:.0} µs over {steps} steps; baseline 256 falling balls, no script: median {:.0} µs, p95 {:.0} µs; reference engine sim step p95 4000 µs (limina ×{:.0} faster)",
        awake as f64 / steps as f64,
        percentile(&step_us, 0.5),
        percentile(&fall_us, 0.5),
        percentile(&fall_us, 0.95),
        4000.0 / p95.max(1e-9)
    );
    Ok(())
}

fn bench_memory() -> anyhow::Result<()> {
    let e = engine()?;
    let empty = current_rss_kib();
    let caller = e.script_caller().clone();
    let capacity = e.world().capacity();
    let mib = |k: Option<u64>| k.map_or("?".into(), |k| format!("{:.1}", k as f64 / 1024.0));
    // The first stage is the workload this section measured when 16384 was the ceiling, so its
    // figure compares across versions; the peak is read before the world grows further.
    let mut made = 0;
    for stage in [16384.min(capacity), capacity] {
        for i in made..stage {
            let dynamic = i % 8 == 0;
            let r = e.call(
                &caller,
                "scene.createEntity",
                json!({"shape": "box", "size": 0.5, "dynamic": dynamic, "position": [(i % 128) as f64, 1.0, (i / 128) as f64]}),
            );
            anyhow::ensure!(r.success, "entity {i}: {:?}", r.error);
        }
        made = stage;
        e.step(60)?;
        outln!(
            "memory       {stage} entities ({} dynamic bodies), 60 steps, {} trace events: peak RSS {} MiB; baseline empty engine {} MiB",
            stage.div_ceil(8),
            e.trace().len(),
            mib(peak_rss_kib()),
            mib(empty)
        );
    }
    let full = e.call(&caller, "scene.createEntity", json!({}));
    anyhow::ensure!(!full.success, "entity {} must be refused (the capacity is {capacity})", capacity + 1);
    Ok(())
}

fn status_field(name: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status.lines().find_map(|l| l.strip_prefix(name)).and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// VmHWM: peak resident set, KiB.
fn peak_rss_kib() -> Option<u64> {
    status_field("VmHWM:")
}

/// VmRSS: current resident set, KiB.
pub(super) fn current_rss_kib() -> Option<u64> {
    status_field("VmRSS:")
}
