//! `limina bench --only durable`: what the command log costs and what replay gives back.
//!
//! A 10,000-tick billiards session and a numbers-party session (200 agents) are stepped without
//! a log and with one (the log's cost on the fixed step), then replayed with and without
//! checkpoint verification (replay speed against live stepping, measured in the same run); MCP
//! call latency over stdio is measured with and without `--log` (each mutating call is synced
//! before it is answered).

use std::path::Path;
use std::time::Instant;

use crate::durable::LogConfig;
use crate::host::ReplayOptions;
use crate::host::{Engine, EngineConfig, Output};

pub fn run() -> anyhow::Result<()> {
    let dir = std::env::temp_dir().join(format!("limina-bench-durable-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let result = (|| {
        session(&dir, "billiards.lua", 10_000)?;
        session(&dir, "numbers_party.lua", 2_000)?;
        recovery(&dir)?;
        mcp(&dir)
    })();
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// Steps `demo` for `ticks` after its script, with the log at `log` when given; ticks/s.
fn live(demo: &str, ticks: u64, log: Option<&Path>) -> anyhow::Result<(f64, String)> {
    let project = super::project_root();
    let config = EngineConfig {
        output: Output::Silent,
        extra_roots: vec![project.join("demos")],
        log: log.map(LogConfig::new),
        ..EngineConfig::new(&project)
    };
    let engine = Engine::new(config)?;
    engine.run_file(&project.join("demos").join(demo))?;
    let started = Instant::now();
    engine.step(ticks)?;
    engine.make_durable().map_err(anyhow::Error::msg)?;
    Ok((ticks as f64 / started.elapsed().as_secs_f64(), engine.world_hash()))
}

fn session(dir: &Path, demo: &str, ticks: u64) -> anyhow::Result<()> {
    // Interleaved, best of three each: the shared machine's noise is larger than the log's cost.
    let (mut plain, mut logged, mut hash) = (0.0f64, 0.0f64, String::new());
    let mut log = dir.join(format!("{demo}.log"));
    for round in 0..3 {
        plain = plain.max(live(demo, ticks, None)?.0);
        log = dir.join(format!("{demo}.{round}.log"));
        let (rate, h) = live(demo, ticks, Some(&log))?;
        logged = logged.max(rate);
        hash = h;
    }
    let bytes = std::fs::metadata(&log)?.len();
    let mut replayed = [0.0f64; 2];
    for (i, verify) in [false, true, false, true].into_iter().map(|v| (usize::from(v), v)) {
        let options = ReplayOptions { verify, until: None, project: super::project_root() };
        let (engine, report) = crate::host::replay(&log, &options)?;
        if let Some(d) = report.divergence {
            anyhow::bail!("{demo}: the replay diverged: {d}");
        }
        if engine.world_hash() != hash {
            anyhow::bail!("{demo}: the replay ended at another hash");
        }
        replayed[i] = replayed[i].max(report.steps as f64 / report.elapsed.as_secs_f64());
    }
    outln!(
        "durable {demo:<18} live {plain:>7.0} ticks/s, with --log {logged:>7.0} ticks/s (best of 3, interleaved) ({:+.1}% per step); log {:.1} MiB for {ticks} ticks; replay {:>7.0} ticks/s ({:.1}x live), with --verify {:>7.0} ticks/s",
        (plain / logged - 1.0) * 100.0,
        bytes as f64 / (1024.0 * 1024.0),
        replayed[0],
        replayed[0] / plain,
        replayed[1]
    );
    Ok(())
}

/// A 10,000-tick billiards run with a snapshot every 1000 ticks, recovered from its newest
/// snapshot and from the log alone (its snapshots removed).
fn recovery(dir: &Path) -> anyhow::Result<()> {
    let project = super::project_root();
    let (with, genesis) = (dir.join("recover-snap"), dir.join("recover-log"));
    std::fs::create_dir_all(&with)?;
    std::fs::create_dir_all(&genesis)?;
    let config = EngineConfig {
        output: Output::Silent,
        extra_roots: vec![project.join("demos")],
        log: Some(LogConfig { snapshot_every: Some(1000), ..LogConfig::new(with.join("world.log")) }),
        ..EngineConfig::new(&project)
    };
    let engine = Engine::new(config)?;
    engine.run_file(&project.join("demos/billiards.lua"))?;
    engine.step(10_000 - engine.tick())?;
    engine.step(250)?;
    engine.make_durable().map_err(anyhow::Error::msg)?;
    let hash = engine.world_hash();
    drop(engine);
    std::fs::copy(with.join("world.log"), genesis.join("world.log"))?;
    let mut times = [0.0; 2];
    for (i, folder) in [&with, &genesis].into_iter().enumerate() {
        let started = Instant::now();
        let recovered = crate::host::recover(folder, &project)?;
        times[i] = started.elapsed().as_secs_f64() * 1e3;
        if recovered.engine.world_hash() != hash || recovered.report.divergence.is_some() {
            anyhow::bail!("recovery from {} did not reach the run's hash", folder.display());
        }
    }
    outln!(
        "durable recover billiards at tick 10250: {:.1} ms from the newest snapshot (tick 10000) + the log after it, {:.1} ms from the log alone (×{:.0})",
        times[0],
        times[1],
        times[1] / times[0]
    );
    Ok(())
}

fn mcp(dir: &Path) -> anyhow::Result<()> {
    let exe = std::env::current_exe()?;
    let without = super::bench_mcp::stdio_call_latency(&exe, &[])?;
    let log = dir.join("mcp.log");
    let with = super::bench_mcp::stdio_call_latency(&exe, &["--log".as_ref(), log.as_os_str()])?;
    outln!(
        "durable mcp stdio tools/call ecs.updateComponent p50 {:.0} µs, p95 {:.0} µs without a log; p50 {:.0} µs, p95 {:.0} µs with --log (synced before each answer)",
        without.call_p50,
        without.call_p95,
        with.call_p50,
        with.call_p95
    );
    Ok(())
}
