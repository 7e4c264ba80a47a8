//! `limina bench --only soak`: a million skill calls from Luau against one engine, resident
//! memory read every quarter. With the world log spilling to disk beyond its window, memory
//! stays flat; the baseline is the same workload with the whole log held in memory (the
//! behaviour before spilling), run in a process of its own (`--only soak-held`) so neither
//! run's memory is the other's.

use std::process::Command;
use std::time::Instant;

use crate::host::{Engine, EngineConfig, Output};
use crate::script::ScriptError;
use crate::trace::TraceWindow;

/// Skill calls in a soak.
const CALLS: u64 = 1_000_000;
/// Calls per fixed step: the world ticks between batches, as a busy server's would.
const PER_STEP: u64 = 1_000;
/// RSS is read at 0 and after each quarter.
const QUARTERS: u64 = 4;

/// The soak with the default window, then the baseline in a child process.
pub(super) fn run() -> anyhow::Result<()> {
    soak("spilling", TraceWindow::DEFAULT)?;
    let status = Command::new(std::env::current_exe()?).args(["bench", "--only", "soak-held"]).status()?;
    anyhow::ensure!(status.success(), "the held-in-memory soak failed");
    Ok(())
}

/// The baseline: the whole log in memory.
pub(super) fn run_held() -> anyhow::Result<()> {
    soak("held (baseline)", TraceWindow::UNBOUNDED)
}

fn soak(label: &str, window: TraceWindow) -> anyhow::Result<()> {
    let config = EngineConfig { output: Output::Silent, trace_window: window, ..EngineConfig::new(super::project_root()) };
    let e = Engine::new(config)?;
    e.run_source(
        r#"
        local r = limina.call("scene.createEntity", { shape = "box", position = {0, 0, 0} })
        assert(r.success, r.error and r.error.message)
        local id = r.result.entity
        function soak_calls(n, tick)
            for i = 1, n do
                local r = limina.call("ecs.updateComponent", { entity = id, component = "position", value = {i, tick, 0} })
                if not r.success then error(r.error.message) end
            end
        end
        "#,
        "bench/soak.lua",
    )?;
    let calls: mlua::Function = e.lua().globals().get("soak_calls").map_err(ScriptError::from)?;
    let window_text = if window == TraceWindow::UNBOUNDED {
        "the whole log in memory".to_string()
    } else {
        format!("a window of {} events / {} MiB", window.events, window.bytes >> 20)
    };
    outln!("soak         {label}: {CALLS} × limina.call(\"ecs.updateComponent\") from Luau, {PER_STEP} per fixed step, {window_text}");
    let start_rss = super::bench::current_rss_kib();
    print_point(&e, 0, start_rss, None);
    let started = Instant::now();
    let mut made = 0;
    for _ in 0..QUARTERS {
        let t = Instant::now();
        for _ in 0..CALLS / QUARTERS / PER_STEP {
            calls.call::<()>((PER_STEP, made / PER_STEP)).map_err(ScriptError::from)?;
            made += PER_STEP;
            e.step(1)?;
        }
        let rate = (CALLS / QUARTERS) as f64 / t.elapsed().as_secs_f64();
        print_point(&e, made, super::bench::current_rss_kib(), Some(rate));
    }
    let end_rss = super::bench::current_rss_kib();
    let growth = match (start_rss, end_rss) {
        (Some(a), Some(b)) => format!("{:.0} bytes", (b.saturating_sub(a) * 1024) as f64 / made as f64),
        _ => "?".into(),
    };
    outln!(
        "               {:.0} calls/s overall; RSS growth per call {growth}; the trace holds {} bytes in memory (the window, its links and the spill index)",
        made as f64 / started.elapsed().as_secs_f64(),
        e.trace().retained_bytes()
    );
    Ok(())
}

fn print_point(e: &Engine, calls: u64, rss_kib: Option<u64>, rate: Option<f64>) {
    let trace = e.trace();
    let rss = rss_kib.map_or("?".into(), |k| format!("{:.1}", k as f64 / 1024.0));
    let rate = rate.map_or(String::new(), |r| format!(", {r:.0} calls/s over the last quarter"));
    outln!(
        "               {calls:>7} calls: RSS {rss} MiB; {} events traced, {} in memory, {:.1} MiB spilled to disk{rate}",
        trace.len(),
        trace.resident_len(),
        trace.spilled_bytes() as f64 / (1024.0 * 1024.0)
    );
}
