//! `limina bench --only agents`: the reference's density capstone and ten times it. Every agent
//! inhabits a dynamic body and decides every 30 ticks with a scripted policy (Luau, on the
//! loop) that steers it away from its nearest neighbour through `physics.applyImpulse`, so each
//! decision is a real perceive → decide → act cycle through the registry, traced. Reported: the
//! whole fixed step's p50/p95/max over 400 ticks after 60 warm-up ticks, its breakdown
//! (actions, physics, perception, decisions), and resident memory.

use std::time::Instant;

use serde_json::json;

use super::bench::{current_rss_kib, percentile};
use crate::agents::budget::SchedulerBudget;
use crate::host::{Engine, EngineConfig, Output};

/// The agents' scripted policy, shared with the `worlds` section's density world.
pub(super) const MILL_POLICY: &str = include_str!("bench_mill.lua");

const WARM_UP: u64 = 60;
const MEASURED: u64 = 400;

struct Density {
    agents: usize,
    bodies: usize,
    entities: usize,
    /// Side of the square the world is spread over, metres.
    side: f64,
}

pub(super) fn run() -> anyhow::Result<()> {
    let rss_empty = current_rss_kib();
    // "200 agents + 256 dynamic bodies + 2000 entities": read as the agents inhabiting 200 of
    // the 256 bodies, and, to be safe, with 256 bodies besides the agents' own.
    measure(&Density { agents: 200, bodies: 56, entities: 2000, side: 100.0 }, 4.0)?;
    measure(&Density { agents: 200, bodies: 256, entities: 2000, side: 100.0 }, 4.0)?;
    measure(&Density { agents: 2000, bodies: 560, entities: 20_000, side: 316.0 }, 0.0)?;
    stalled_provider()?;
    let mib = |k: Option<u64>| k.map_or("?".into(), |k| format!("{:.1}", k as f64 / 1024.0));
    outln!("agents       baseline: an empty engine's RSS was {} MiB", mib(rss_empty));
    Ok(())
}

/// Spreads `n` points over the square deterministically (a low-discrepancy lattice).
fn spot(i: usize, n: usize, side: f64, y: f64) -> [f64; 3] {
    let golden = 0.618_033_988_749_895;
    let u = (i as f64 + 0.5) / n as f64;
    let v = (i as f64 * golden).fract();
    [(u - 0.5) * side, y, (v - 0.5) * side]
}

fn measure(d: &Density, reference_p95_ms: f64) -> anyhow::Result<()> {
    let scheduler = SchedulerBudget { max_agents: d.agents, max_decision_starts_per_tick: d.agents, ..SchedulerBudget::default() };
    let e = Engine::new(EngineConfig { output: Output::Silent, scheduler, ..EngineConfig::new(super::project_root()) })?;
    let caller = e.script_caller().clone();
    let build = Instant::now();
    let floor = e.call(&caller, "scene.createEntity", json!({"shape": "box", "size": 1, "position": [0, -0.5, 0], "static": true}));
    anyhow::ensure!(floor.success, "floor: {:?}", floor.error);
    let floor = floor.result.and_then(|r| r["entity"].as_str().map(str::to_string)).unwrap_or_default();
    e.call(&caller, "ecs.updateComponent", json!({"entity": floor, "component": "scale", "value": [d.side + 20.0, 1, d.side + 20.0]}));
    let scenery = d.entities - 1 - d.bodies - d.agents;
    for i in 0..scenery {
        let r = e.call(&caller, "scene.createEntity", json!({"shape": "box", "size": 0.5, "position": spot(i, scenery, d.side, 0.25)}));
        anyhow::ensure!(r.success, "scenery {i}: {:?}", r.error);
    }
    for i in 0..d.bodies {
        let mut p = spot(i, d.bodies, d.side * 0.9, 0.5);
        p[0] += 0.37;
        let r = e.call(
            &caller,
            "scene.createEntity",
            json!({"shape": "sphere", "size": 1, "dynamic": true, "restitution": 0.3, "position": p}),
        );
        anyhow::ensure!(r.success, "body {i}: {:?}", r.error);
    }
    e.run_source(MILL_POLICY, "bench/agents.lua")?;
    // Agents join over one decision interval (30 ticks), as agents that arrived at different
    // times would: about a thirtieth of them decide on any tick.
    let per_tick = d.agents.div_ceil(30);
    for i in 0..d.agents {
        let mut p = spot(i, d.agents, d.side * 0.8, 0.5);
        p[2] += 0.61;
        let r = e.call(&caller, "agent.spawn", json!({"body": {"shape": "capsule", "position": p}, "llm": {"model": "mill"}}));
        anyhow::ensure!(r.success, "agent {i}: {:?}", r.error);
        if (i + 1) % per_tick == 0 {
            e.step(1)?;
        }
    }
    anyhow::ensure!(e.world().entity_count() == d.entities, "expected {} entities, have {}", d.entities, e.world().entity_count());
    let built_ms = build.elapsed().as_secs_f64() * 1e3;
    e.step(WARM_UP)?;
    let mut step = Vec::with_capacity(MEASURED as usize);
    let (mut action, mut physics, mut perception, mut decision) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (events_before, last_before) = (e.trace().len(), e.trace().last_seq());
    for _ in 0..MEASURED {
        let t = Instant::now();
        e.step(1)?;
        step.push(t.elapsed().as_secs_f64() * 1e3);
        let timings = e.step_timings();
        action.push(timings.action.as_secs_f64() * 1e3);
        physics.push(timings.physics.as_secs_f64() * 1e3);
        perception.push(timings.perception.as_secs_f64() * 1e3);
        decision.push(timings.decision.as_secs_f64() * 1e3);
    }
    let events = e.trace().len() - events_before;
    let mut actions = 0;
    for ev in e.trace().since(last_before) {
        actions += usize::from(&*ev?.event_type == "skill.executed");
    }
    for v in [&mut step, &mut action, &mut physics, &mut perception, &mut decision] {
        v.sort_by(f64::total_cmp);
    }
    let p = |v: &[f64]| {
        format!("p50 {:.3} / p95 {:.3} / max {:.3} ms", percentile(v, 0.5), percentile(v, 0.95), v.last().copied().unwrap_or(0.0))
    };
    let mib = |k: Option<u64>| k.map_or("?".into(), |k| format!("{:.1}", k as f64 / 1024.0));
    let reference = if reference_p95_ms > 0.0 { format!("; reference sim step p95 {reference_p95_ms} ms") } else { String::new() };
    outln!(
        "agents       {} agents in {} dynamic bodies ({} of them the agents'), {} entities in all (built in {built_ms:.0} ms), {MEASURED} ticks after {WARM_UP}: step {}{reference}",
        d.agents,
        d.agents + d.bodies,
        d.agents,
        d.entities,
        p(&step),
    );
    outln!(
        "               actions {}; physics {}; perception {}; decisions {}; {actions} actions and {events} events traced; RSS {} MiB",
        p(&action),
        p(&physics),
        p(&perception),
        p(&decision),
        mib(current_rss_kib())
    );
    Ok(())
}

/// The loop under a provider that stalls: 20 Ollama agents whose server holds every request for
/// 3 s, while the loop runs in real time (60 Hz, sleeping to each step's deadline) for 3 s.
/// Prints the steps it managed: 180 means nothing waited on the model.
fn stalled_provider() -> anyhow::Result<()> {
    use std::io::Read;
    use std::time::Duration;
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    let base_url = format!("http://{}", listener.local_addr()?);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || {
                let mut stream = stream;
                let mut buf = [0u8; 4096];
                let _ = stream.read(&mut buf);
                std::thread::sleep(Duration::from_secs(3));
            });
        }
    });
    let providers = crate::agents::provider::ProvidersConfig {
        ollama: crate::agents::provider::OllamaConfig { base_url, default_model: Some("stalled".into()), ..Default::default() },
        ..Default::default()
    };
    let e = Engine::new(EngineConfig { output: Output::Silent, providers: Some(providers), ..EngineConfig::new(super::project_root()) })?;
    let caller = e.script_caller().clone();
    for _ in 0..20 {
        let r = e.call(
            &caller,
            "agent.spawn",
            json!({"body": {}, "decisionIntervalTicks": 1, "llm": {"provider": "ollama"}, "budget": {"decisionTimeoutMs": 5000}}),
        );
        anyhow::ensure!(r.success, "agent: {:?}", r.error);
    }
    let dt = Duration::from_secs_f64(crate::host::FIXED_DT);
    let started = Instant::now();
    let mut next = started;
    let mut worst = Duration::ZERO;
    while started.elapsed() < Duration::from_secs(3) {
        let t = Instant::now();
        e.step(1)?;
        worst = worst.max(t.elapsed());
        next += dt;
        if let Some(wait) = next.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
    }
    let mut in_flight = 0;
    for ev in e.trace().durable() {
        let ev = ev?;
        in_flight += usize::from(&*ev.event_type == "agent.scheduler.capped" && ev.payload.json().get().contains("maxInFlightDecisions"));
    }
    outln!(
        "agents       a provider stalled 3 s under 20 Ollama agents: the real-time loop ran {} steps in 3 s (60 Hz: 180), slowest step {:.2} ms; {} ticks had decisions waiting for an in-flight slot",
        e.tick(),
        worst.as_secs_f64() * 1e3,
        in_flight
    );
    Ok(())
}
