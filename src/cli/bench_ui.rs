//! `limina bench --only ui`: the CPU cost per frame of world-anchored UI labels — resolving
//! anchors and lifecycles (render-sync), laying out and shaping text (cached per element),
//! building the panel shapes and uploading them and the glyph quads — measured as the difference
//! between the same frame with and without the labels, in one run; the draw calls they take at
//! 10 and at 1000 labels; and what the glyph atlas holds.

use std::time::Instant;

use super::bench::percentile;
use crate::render::{RenderList, Renderer};

use crate::world::ui::{Anchor, UiKind, UiSpec, WorldAnchor, Writer};
use crate::world::{EntitySpec, RenderShape, World};

const FRAMES: usize = 60;
const OPERATOR: Writer<'static> = Writer { agent: "agt_bench", operator: true };
const WARMUP: usize = 5;

fn world(labels: usize, entities: usize) -> anyhow::Result<World> {
    let mut world = World::with_capacity(entities);
    world.camera.position = [0.0, 22.0, 30.0];
    world.camera.target = [0.0, 0.0, 0.0];
    world.camera.fov_deg = 60.0;
    for i in 0..entities {
        let spec = EntitySpec {
            shape: RenderShape::Box,
            collider: None,
            size: 0.4,
            color: 0x3070e0,
            position: [(i % 40) as f32 * 1.2 - 24.0, 0.2, (i / 40) as f32 * 1.2 - 15.0],
            body: None,
            friction: 0.5,
            restitution: 0.0,
        };
        let id = world.create_entity(&spec)?;
        if i < labels {
            let anchor =
                Anchor::World(WorldAnchor { entity: Some(id.to_string()), offset: Some([0.0, 0.5, 0.0]), ..WorldAnchor::default() });
            let spec = UiSpec { text: Some(format!("agent {i:04}")), ..UiSpec::at(anchor) };
            world.ui.create(UiKind::Label, spec, &OPERATOR)?;
        }
    }
    Ok(world)
}

/// p50 CPU µs per frame (render-sync + encode/upload) and the draw calls, with the camera
/// orbiting (so every label moves on screen every frame); `retext` changes every label's text
/// each frame (the worst case: everything reshaped).
fn frame_cost(renderer: &mut Renderer, world: &mut World, retext: bool, list: &mut RenderList) -> (f64, u32) {
    let models = crate::render::ModelCache::default();
    let mut us = Vec::new();
    let mut draws = 0;
    for frame in 0..FRAMES {
        let angle = frame as f32 * 0.01;
        world.camera.position = [angle.sin() * 30.0, 22.0, angle.cos() * 30.0];
        if retext {
            let handles: Vec<String> = world.ui.iter().map(|e| e.handle.clone()).collect();
            for (i, handle) in handles.into_iter().enumerate() {
                let change = crate::world::ui::UiChange { handle, text: Some(format!("agent {i:04} · {frame}")), ..Default::default() };
                let _ = world.ui.update(change, &OPERATOR);
            }
        }
        let t = Instant::now();
        crate::render::fill_render_list(world, &models, 1.0, list);
        let stats = renderer.encode_only(list, 1280, 720);
        let elapsed = t.elapsed().as_secs_f64() * 1e6;
        renderer.flush();
        if frame >= WARMUP {
            us.push(elapsed);
        }
        draws = stats.draw_calls;
    }
    us.sort_by(f64::total_cmp);
    (percentile(&us, 0.5), draws)
}

pub fn run() -> anyhow::Result<()> {
    let mut renderer = match Renderer::headless() {
        Ok(r) => r,
        Err(e) => {
            outln!("ui           skipped: {e}");
            return Ok(());
        }
    };
    let mut list = RenderList::default();
    let (bare, bare_draws) = frame_cost(&mut renderer, &mut world(0, 1000)?, false, &mut list);
    let (ten, ten_draws) = frame_cost(&mut renderer, &mut world(10, 1000)?, false, &mut list);
    let (labels, label_draws) = frame_cost(&mut renderer, &mut world(1000, 1000)?, false, &mut list);
    let (glyphs, glyph_bytes) = renderer.ui_glyph_stats(&list.ui);
    let (retext, _) = frame_cost(&mut renderer, &mut world(1000, 1000)?, true, &mut list);
    outln!(
        "ui           1000 world-anchored labels (camera orbiting): {:.2} ms CPU per frame for the UI (frame {:.2} ms with them, {:.2} ms without; target <= 1 ms)",
        (labels - bare) / 1000.0,
        labels / 1000.0,
        bare / 1000.0
    );
    outln!(
        "ui           draw calls: {bare_draws} without UI, {ten_draws} with 10 labels, {label_draws} with 1000 (UI adds {} whatever the count)",
        label_draws - bare_draws
    );
    outln!(
        "ui           every label's text changing every frame (all reshaped): {:.2} ms CPU per frame for the UI",
        (retext - bare) / 1000.0
    );
    outln!(
        "ui           glyph atlas: the 1000-label frame draws {glyphs} distinct glyphs, {:.1} KiB of glyph bitmaps (glyphon packs them into a texture that starts at 256x256 and doubles as needed); 10 labels cost {:.2} ms",
        glyph_bytes as f64 / 1024.0,
        (ten - bare) / 1000.0
    );
    Ok(())
}
