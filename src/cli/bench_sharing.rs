//! `limina bench --only sharing`: what leases and `ifRevision` add to a write. The same
//! `three.setTransform` call, from the same session on the same engine, in four forms measured
//! in interleaved batches (so drift hits them alike): plain (the baseline), with `ifRevision`,
//! on an entity the caller leases with `ifRevision`, and the same with 4,000 other leases live
//! in the world; then the price of a refusal (another session's write to a leased entity, which
//! stops before the handler). The position written never changes, so the revision stays put
//! and every conditional call passes.

use std::time::Instant;

use serde_json::{Value, json};

use super::bench::percentile;
use crate::host::{Engine, EngineConfig, Output};
use crate::skills::Caller;

const BATCH: usize = 500;
const ROUNDS: usize = 40;

fn ok(e: &Engine, caller: &Caller, skill: &str, input: Value) -> anyhow::Result<Value> {
    let r = e.call(caller, skill, input.clone());
    anyhow::ensure!(r.success, "{skill} {input}: {:?}", r.error);
    Ok(r.result.unwrap_or(Value::Null))
}

/// µs per call of one batch of `input` (cloned per call, as a front end parses a fresh one).
fn batch(e: &Engine, caller: &Caller, input: &Value, succeed: bool) -> anyhow::Result<f64> {
    let t = Instant::now();
    for _ in 0..BATCH {
        let r = e.call(caller, "three.setTransform", input.clone());
        anyhow::ensure!(r.success == succeed, "three.setTransform {input}: {:?}", r.error);
    }
    Ok(t.elapsed().as_secs_f64() * 1e6 / BATCH as f64)
}

pub(super) fn run() -> anyhow::Result<()> {
    let e = Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(super::project_root()) })?;
    let (a, b) = (Caller::new("agt_a", "ses_a", "builder.readWrite"), Caller::new("agt_b", "ses_b", "builder.readWrite"));
    let create = |caller: &Caller| -> anyhow::Result<String> {
        let r = ok(&e, caller, "scene.createEntity", json!({"position": [0, 1, 0]}))?;
        Ok(r["entity"].as_str().unwrap_or_default().to_string())
    };
    let (plain, leased, crowded) = (create(&a)?, create(&a)?, create(&a)?);
    // 4,000 more entities, leased in chunks by 16 other sessions (250 each, under the cap).
    let mut others = Vec::new();
    for _ in 0..4000 {
        others.push(create(&a)?);
    }
    let write = |entity: &str, revision: Option<u64>| {
        let mut input = json!({"entity": entity, "position": [1, 2, 3]});
        if let Some(r) = revision {
            input["ifRevision"] = r.into();
        }
        input
    };
    // Move each to its resting value once, so every timed call writes the same value again.
    for entity in [&plain, &leased, &crowded] {
        ok(&e, &a, "three.setTransform", write(entity, None))?;
    }
    ok(&e, &a, "scene.lease", json!({"entities": [leased, crowded], "ticks": 3600}))?;
    let leases_before = e.world().leases().len();
    let forms: [(&str, Value, &Caller, bool); 5] = [
        ("plain", write(&plain, None), &a, true),
        ("ifRevision", write(&plain, Some(2)), &a, true),
        ("leased by the caller + ifRevision", write(&leased, Some(2)), &a, true),
        ("the same, 4,000 leases live", write(&crowded, Some(2)), &a, true),
        ("refused: another session, leased", write(&leased, None), &b, false),
    ];
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); forms.len()];
    for round in 0..ROUNDS {
        if round == ROUNDS / 2 {
            // The second half runs with 4,000 other leases in the world.
            for (i, chunk) in others.chunks(250).enumerate() {
                let holder = Caller::new(&format!("agt_h{i}"), &format!("ses_h{i}"), "builder.readWrite");
                for part in chunk.chunks(50) {
                    ok(&e, &holder, "scene.lease", json!({"entities": part, "ticks": 3600}))?;
                }
            }
        }
        for (i, (name, input, caller, succeed)) in forms.iter().enumerate() {
            // The crowded form is timed only once the crowd is there; the others throughout.
            if *name == "the same, 4,000 leases live" && round < ROUNDS / 2 {
                continue;
            }
            times[i].push(batch(&e, caller, input, *succeed)?);
        }
    }
    anyhow::ensure!(e.world().leases().len() == leases_before + 4000, "the crowd of leases is live");
    for t in &mut times {
        t.sort_by(f64::total_cmp);
    }
    let base = percentile(&times[0], 0.5);
    let figures: Vec<String> = forms
        .iter()
        .zip(&times)
        .map(|((name, ..), t)| {
            let median = percentile(t, 0.5);
            format!("{name} {median:.2} µs (×{:.3}, {:+.2} µs)", median / base, median - base)
        })
        .collect();
    outln!(
        "sharing      three.setTransform from Rust (policy on), median µs per call of {ROUNDS} interleaved batches of {BATCH}: {}",
        figures.join("; ")
    );
    Ok(())
}
