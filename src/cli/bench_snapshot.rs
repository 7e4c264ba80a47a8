//! `limina bench --only snapshot`: what a snapshot of a busy world costs, at 2,000 entities (256
//! dynamic bodies) and 20,000 (2,048 dynamic bodies): its size, the time to encode it, to write
//! it durably (`write_atomic`: temporary file, fsync, rename, fsync of the folder) and to read
//! and restore it into a fresh engine. Baselines from the same run: one fixed step of that world,
//! and a plain `fs::write` of the same bytes (no fsync).
//!
//! The bodies rest in a heap on a floor, so the narrow phase holds thousands of contact
//! manifolds: the physics' share of the file is what a real scene carries.

use std::time::Instant;

use serde_json::json;

use super::bench::percentile;
use crate::host::{Engine, EngineConfig, Output};
use crate::snapshot::{read_snapshot_file, write_atomic};

fn engine() -> anyhow::Result<Engine> {
    Ok(Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(super::project_root()) })?)
}

/// A floor, `entities - bodies - 1` bodiless boxes on a grid, and `bodies` spheres dropped in a
/// heap, stepped 40 ticks: the heap is still settling, its bodies awake and in contact.
fn busy_world(entities: usize, bodies: usize) -> anyhow::Result<Engine> {
    let e = engine()?;
    let caller = e.script_caller().clone();
    let create = |input: serde_json::Value| -> anyhow::Result<()> {
        let r = e.call(&caller, "scene.createEntity", input);
        anyhow::ensure!(r.success, "scene.createEntity: {:?}", r.error);
        Ok(())
    };
    create(json!({"shape": "box", "size": 50, "position": [0, -25, 0], "static": true}))?;
    let side = ((entities - bodies) as f64).sqrt().ceil() as usize;
    for i in 0..entities - bodies - 1 {
        let (x, z) = ((i % side) as f64 * 0.5 - 60.0, (i / side) as f64 * 0.5 - 60.0);
        create(json!({"shape": "box", "size": 0.2, "position": [x, 0.1, z], "color": 0x88aa44}))?;
    }
    let row = (bodies as f64).cbrt().ceil() as usize;
    for i in 0..bodies {
        // Dropped from 1.5 m: at tick 40 the heap has just landed and is still jostling.
        let (x, y, z) = ((i % row) as f64 * 0.9 - 10.0, (i / (row * row)) as f64 * 0.9 + 1.5, (i / row % row) as f64 * 0.9 - 10.0);
        create(json!({"shape": "sphere", "size": 0.8, "dynamic": true, "restitution": 0.1, "position": [x, y, z]}))?;
    }
    anyhow::ensure!(e.world().entity_count() == entities, "expected {entities} entities, made {}", e.world().entity_count());
    e.step(40)?;
    Ok(e)
}

/// Median and p90 wall time (ms) of `reps` runs of `run` after one warm-up.
fn time_ms(reps: usize, mut run: impl FnMut() -> anyhow::Result<()>) -> anyhow::Result<(f64, f64)> {
    run()?;
    let mut ms = Vec::with_capacity(reps);
    for _ in 0..reps {
        let t = Instant::now();
        run()?;
        ms.push(t.elapsed().as_secs_f64() * 1e3);
    }
    ms.sort_by(f64::total_cmp);
    Ok((percentile(&ms, 0.5), percentile(&ms, 0.9)))
}

pub fn run() -> anyhow::Result<()> {
    let dir = tempfile_dir()?;
    outln!("snapshot     median (p90) wall time; baselines: one step of the same world, fs::write of the same bytes");
    for (entities, bodies, reps) in [(2_000, 256, 20), (20_000, 2_048, 6)] {
        let e = busy_world(entities, bodies)?;
        let (step, _) = time_ms(reps, || Ok(e.step(1)?))?;
        let mut bytes = Vec::new();
        let (encode, encode_p90) = time_ms(reps, || {
            bytes = e.snapshot()?;
            Ok(())
        })?;
        let path = dir.join(format!("bench-{entities}.snap"));
        let plain_path = dir.join(format!("bench-{entities}.plain"));
        let (write, write_p90) = time_ms(reps, || Ok(write_atomic(&path, &bytes)?))?;
        let (plain, _) = time_ms(reps, || Ok(std::fs::write(&plain_path, &bytes)?))?;
        let target = engine()?;
        let (restore, restore_p90) = time_ms(reps, || Ok(target.restore(&read_snapshot_file(&path, u64::MAX)?)?))?;
        anyhow::ensure!(target.world_hash() == e.world_hash(), "the restored world hashes differently");
        let awake = e.world().awake_body_count();
        outln!(
            "  {entities:>6} entities, {bodies:>5} dynamic bodies ({awake} awake): {:.2} MB ({:.0} bytes/entity)",
            bytes.len() as f64 / 1e6,
            bytes.len() as f64 / entities as f64
        );
        outln!("    snapshot (encode)       {encode:8.2} ms ({encode_p90:.2})   = {:.1} steps of {step:.2} ms", encode / step);
        outln!(
            "    write (atomic + fsync)  {write:8.2} ms ({write_p90:.2})   vs fs::write {plain:.2} ms (x{:.1})",
            write / plain.max(1e-6)
        );
        outln!("    read + restore          {restore:8.2} ms ({restore_p90:.2})   = {:.1} steps", restore / step);
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// A private folder for the files (the snapshots folder of the project stays untouched).
fn tempfile_dir() -> anyhow::Result<std::path::PathBuf> {
    let dir = std::env::temp_dir().join(format!("limina-bench-snapshot-{}", crate::unguessable::hex(8)));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}
