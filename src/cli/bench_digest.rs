//! `limina bench --only digest`: what `world.digest` costs and weighs against
//! `scene.queryEntities` (every entity, no filter) on the same world in the same run, both
//! through the whole skill pipeline (validation, policy decision, trace events), at 100, 1,000
//! and 10,000 entities. Bytes are the result's compact JSON, what a client is sent.
//!
//! The world: boxes, spheres and capsules of varied sizes and colours on a 200 m square, every
//! 7th tagged `target`, every 50th also `goal`; ten UI labels; the calls that built it in the
//! log.

use std::time::Instant;

use serde_json::{Value, json};

use super::bench::percentile;
use crate::host::{Engine, EngineConfig, Output};

/// Sorted wall times (µs) of `reps` calls after a few warm-up calls, and the result's bytes.
fn time_call(e: &Engine, name: &str, input: &Value, reps: usize) -> anyhow::Result<(Vec<f64>, usize)> {
    let mut bytes = 0;
    for _ in 0..reps.div_ceil(10) {
        let r = e.call(e.script_caller(), name, input.clone());
        anyhow::ensure!(r.success, "{name} failed: {:?}", r.error);
        bytes = serde_json::to_string(&r.result)?.len();
    }
    let mut us: Vec<f64> = Vec::with_capacity(reps);
    for _ in 0..reps {
        let t = Instant::now();
        let r = e.call(e.script_caller(), name, input.clone());
        us.push(t.elapsed().as_secs_f64() * 1e6);
        std::hint::black_box(r);
    }
    us.sort_by(f64::total_cmp);
    Ok((us, bytes))
}

fn world(entities: usize) -> anyhow::Result<Engine> {
    let e = Engine::new(EngineConfig { output: Output::Silent, entity_capacity: entities, ..EngineConfig::new(super::project_root()) })?;
    e.run_source(
        &format!(
            r#"
            local shapes = {{ "box", "sphere", "capsule" }}
            for i = 1, {entities} do
                local r = limina.call("scene.createEntity", {{
                    shape = shapes[i % 3 + 1],
                    size = 0.25 + (i * 37 % 100) / 40,
                    color = (i * 2654435761) % 0x1000000,
                    position = {{ (i * 7919 % 2000) / 10 - 100, (i % 5) * 0.5, (i * 104729 % 2000) / 10 - 100 }},
                }})
                assert(r.success, r.error and r.error.message)
                if i % 7 == 0 then
                    limina.call("ecs.addComponent", {{ entity = r.result.entity, component = "target" }})
                end
                if i % 50 == 0 then
                    limina.call("ecs.addComponent", {{ entity = r.result.entity, component = "goal" }})
                end
            end
            for i = 1, 10 do
                limina.call("ui.label", {{ anchor = {{ kind = "world", point = {{ i * 10 - 50, 2, 0 }} }}, text = "marker " .. i }})
            end
            "#
        ),
        "bench/digest.lua",
    )?;
    Ok(e)
}

pub fn run() -> anyhow::Result<()> {
    outln!(
        "digest       world.digest vs scene.queryEntities {{}} on the same world, through the skill pipeline ({} build); bytes of the result's JSON, p50 of the call",
        if cfg!(debug_assertions) { "debug" } else { "release" }
    );
    for (entities, reps) in [(100, 400), (1_000, 200), (10_000, 40)] {
        let e = world(entities)?;
        let (query_us, query_bytes) = time_call(&e, "scene.queryEntities", &json!({}), reps)?;
        let query = percentile(&query_us, 0.5);
        let mut parts = Vec::new();
        for (label, input) in [
            ("default 4096", json!({})),
            ("maxBytes 65536", json!({"maxBytes": 65_536})),
            ("around r=20", json!({"around": {"point": [0, 0, 0], "radius": 20}})),
        ] {
            let (us, bytes) = time_call(&e, "world.digest", &input, reps)?;
            let p50 = percentile(&us, 0.5);
            parts.push(format!(
                "{label}: {bytes} B, {p50:.0} µs (p95 {:.0}; ×{:.1} smaller, ×{:.2} the time)",
                percentile(&us, 0.95),
                query_bytes as f64 / bytes.max(1) as f64,
                p50 / query.max(1e-9)
            ));
        }
        outln!(
            "digest       {entities} entities: baseline scene.queryEntities {query_bytes} B, {query:.0} µs (p95 {:.0}); world.digest {}",
            percentile(&query_us, 0.95),
            parts.join("; ")
        );
    }
    Ok(())
}
