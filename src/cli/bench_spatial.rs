//! `limina bench --only spatial`: the batched radius query agent perception runs once per tick
//! (grid build + every query, on the global rayon pool), against the brute-force oracle on the
//! same workload in the same run; then the same batch gathered from a live `World`, and one
//! `World::query` (the `scene.queryEntities` path) by grid and by plain scan.
//!
//! Layout (a "density scene"): entities uniform on x, z in a square, y in [0, 2), at 0.05
//! entities/m² (2000 on 200 m × 200 m; 20,000 on 632 m × 632 m), so a radius-15 neighbourhood
//! holds ~35 of them; the askers are the first entities, each excluding itself. A dense variant
//! puts 20,000 on 200 m × 200 m (~350 per neighbourhood).

use std::time::Instant;

use super::bench::percentile;
use crate::world::spatial::brute_force;
use crate::world::{EntityId, EntitySpec, NearHit, NearQuery, RenderShape, SpatialIndex, World};

const RADIUS: f64 = 15.0;

/// splitmix64: the same layout every run.
fn next(state: &mut u64) -> f64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
}

/// f32 positions (as entities store them) in a `side`-wide square.
fn layout(entities: usize, side: f64) -> Vec<[f32; 3]> {
    let mut state = entities as u64;
    (0..entities)
        .map(|_| [((next(&mut state) - 0.5) * side) as f32, (next(&mut state) * 2.0) as f32, ((next(&mut state) - 0.5) * side) as f32])
        .collect()
}

fn workload(entities: usize, agents: usize, side: f64) -> (Vec<(EntityId, [f64; 3])>, Vec<NearQuery>) {
    let points: Vec<_> = layout(entities, side).into_iter().enumerate().map(|(i, p)| (EntityId(i as u64 + 1), p.map(f64::from))).collect();
    let queries =
        points.iter().take(agents).map(|&(id, center)| NearQuery { center, radius: RADIUS, exclude: Some(id), nearest: None }).collect();
    (points, queries)
}

/// Sorted per-repetition wall times (µs) of `run` after a warm-up, and its mean CPU time (µs,
/// every thread of the process): on a shared machine the wall time includes waiting for a core,
/// the CPU time does not.
fn time_us(reps: usize, mut run: impl FnMut()) -> (Vec<f64>, f64) {
    for _ in 0..reps.div_ceil(10) {
        run();
    }
    let cpu = cpu_time::ProcessTime::try_now().ok();
    let mut us: Vec<f64> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            run();
            t.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    let cpu_us = cpu.map_or(f64::NAN, |c| c.elapsed().as_secs_f64() * 1e6 / reps as f64);
    us.sort_by(f64::total_cmp);
    (us, cpu_us)
}

fn ms(us: f64) -> String {
    if us < 1000.0 { format!("{:.3} ms", us / 1000.0) } else { format!("{:.1} ms", us / 1000.0) }
}

pub fn run() -> anyhow::Result<()> {
    outln!("spatial      rayon pool: {} threads; radius {RADIUS}, 0.05 entities/m² unless dense", rayon::current_num_threads());
    let mut index = SpatialIndex::new();
    let mut out: Vec<Vec<NearHit>> = Vec::new();
    for (entities, agents, side, reps, oracle_reps, label) in [
        (2_000, 200, 200.0, 1000, 20, "200 m square"),
        (20_000, 2_000, 200.0 * 10f64.sqrt(), 100, 3, "632 m square"),
        (20_000, 2_000, 200.0, 40, 2, "200 m square, dense"),
    ] {
        let (points, queries) = workload(entities, agents, side);
        index.query_batch_into(&points, &queries, &mut out)?;
        let oracle = brute_force(&points, &queries)?;
        anyhow::ensure!(out == oracle, "the grid disagrees with the oracle at {entities} entities");
        let hits = out.iter().map(Vec::len).sum::<usize>() as f64 / agents as f64;
        let (grid, grid_cpu) = time_us(reps, || {
            let _ = index.query_batch_into(&points, &queries, &mut out);
        });
        let (brute, _) = time_us(oracle_reps, || {
            let _ = std::hint::black_box(brute_force(&points, &queries));
        });
        let (p50, p95, base) = (percentile(&grid, 0.5), percentile(&grid, 0.95), percentile(&brute, 0.5));
        outln!(
            "spatial      {agents} queries × {entities} entities ({label}, {hits:.1} hits/query, {} cells of {:.1} m): grid build + batch p50 {}, p95 {} over {reps} runs (CPU {} per batch, all threads); baseline brute force, one thread, p50 {} (grid ×{:.0} faster)",
            index.cell_count(),
            index.cell_size(),
            ms(p50),
            ms(p95),
            ms(grid_cpu),
            ms(base),
            base / p50.max(1e-9)
        );
    }
    world_paths()
}

/// The same batch through `World` (gathering positions from the ECS included), and one
/// `scene.queryEntities`-style query by grid and by scan.
fn world_paths() -> anyhow::Result<()> {
    let entities = 2_000;
    let mut world = World::with_capacity(entities);
    for position in layout(entities, 200.0) {
        let spec = EntitySpec {
            shape: RenderShape::Box,
            collider: None,
            size: 0.5,
            color: 0xffffff,
            position,
            body: None,
            friction: 0.5,
            restitution: 0.0,
        };
        world.create_entity(&spec)?;
    }
    let mut queries = Vec::new();
    world.for_each_entity(|e| {
        if queries.len() < 200 {
            queries.push(NearQuery { center: e.transform.position.map(f64::from), radius: RADIUS, exclude: Some(e.id), nearest: None });
        }
    });
    let mut out = Vec::new();
    let (batch, _) = time_us(500, || {
        let _ = world.query_near_into(&queries, None, &mut out);
    });
    let center = queries[0].center;
    let (grid, _) = time_us(500, || {
        std::hint::black_box(world.query(Some(center), Some(RADIUS), None));
    });
    let (scan, _) = time_us(500, || {
        std::hint::black_box(world.query_scan(Some(center), Some(RADIUS), None));
    });
    outln!(
        "spatial      World::query_near_batch, 200 queries × 2000 entities, positions gathered from the ECS: p50 {}, p95 {}; one World::query (scene.queryEntities) near+radius: grid p50 {}, baseline plain scan p50 {}",
        ms(percentile(&batch, 0.5)),
        ms(percentile(&batch, 0.95)),
        ms(percentile(&grid, 0.5)),
        ms(percentile(&scan, 0.5)),
    );
    Ok(())
}
