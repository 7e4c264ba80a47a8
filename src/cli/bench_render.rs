//! `limina bench --only render`: the CPU side of a frame — render-sync (world → instance list,
//! interpolated) plus command encoding and instance upload — at 1k, 10k and 20k entities, with
//! the draw-call count; full frames on the installed driver for the record.

use std::time::Instant;

use super::bench::percentile;
use crate::physics::BodyKind;
use crate::render::{RenderList, Renderer};
use crate::world::{EntitySpec, RenderShape, World};

pub fn run() -> anyhow::Result<()> {
    let mut renderer = match Renderer::headless() {
        Ok(r) => r,
        Err(e) => {
            outln!("render       skipped: {e}");
            return Ok(());
        }
    };
    let mut rows = Vec::new();
    for n in [1_000usize, 10_000, 20_000] {
        let mut world = World::with_capacity(n);
        for i in 0..n {
            let spec = EntitySpec {
                shape: if i % 2 == 0 { RenderShape::Box } else { RenderShape::Sphere },
                collider: None,
                size: 0.5,
                color: if i % 3 == 0 { 0x3070e0 } else { 0xe0e0e0 },
                position: [(i % 150) as f32 - 75.0, 0.25, (i / 150) as f32 - 75.0],
                body: if i < 256 { Some(BodyKind::Dynamic) } else { None },
                friction: 0.5,
                restitution: 0.0,
            };
            world.create_entity(&spec)?;
        }
        world.lighting.cast_shadow = true;
        let mut list = RenderList::default();
        let models = crate::render::ModelCache::default();
        let mut sync_us = Vec::new();
        let mut encode_us = Vec::new();
        let mut draws = 0;
        for frame in 0..40 {
            let t = Instant::now();
            crate::render::fill_render_list(&world, &models, 0.5, &mut list);
            let sync = t.elapsed().as_secs_f64() * 1e6;
            let t = Instant::now();
            let stats = renderer.encode_only(&list, 1280, 720);
            let encode = t.elapsed().as_secs_f64() * 1e6;
            if frame >= 5 {
                sync_us.push(sync);
                encode_us.push(encode);
            }
            draws = stats.draw_calls;
        }
        sync_us.sort_by(f64::total_cmp);
        encode_us.sort_by(f64::total_cmp);
        let t = Instant::now();
        renderer.render_rgba(&list, 640, 360)?;
        let full_ms = t.elapsed().as_secs_f64() * 1e3;
        rows.push((n, percentile(&sync_us, 0.5), percentile(&encode_us, 0.5), draws, full_ms));
    }
    let base = rows[0].1 + rows[0].2;
    for (n, sync, encode, draws, full) in &rows {
        outln!(
            "render       {n:>6} entities: render-sync {sync:.0} µs + encode/upload {encode:.0} µs = {:.2} ms CPU per frame (×{:.1} the 1k cost for ×{} the entities), {draws} draw calls; full 640x360 frame on {} {full:.0} ms",
            (sync + encode) / 1000.0,
            (sync + encode) / base,
            n / 1000,
            renderer.adapter_name()
        );
    }
    Ok(())
}
