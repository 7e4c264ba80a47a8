//! `limina bench --only ui`: the CPU cost per frame of world-anchored UI labels — resolving
//! anchors and lifecycles (render-sync), laying out and shaping text (cached per element),
//! building and uploading the panel shapes and the text blocks' records (glyphs only when a
//! block's text or scale changed) — measured as the difference between the same frame with and
//! without the labels, in one run; the draw calls they take at 10 and at 1000 labels; the bytes
//! of text uploaded per frame; and what the glyph atlas holds.

use std::time::Instant;

use super::bench::percentile;
use crate::render::{RenderList, Renderer};

use crate::world::ui::{Anchor, UiKind, UiSpec, WorldAnchor, Writer};
use crate::world::{EntitySpec, RenderShape, World};

const FRAMES: usize = 60;
const OPERATOR: Writer<'static> = Writer { agent: "agt_bench", operator: true };
const WARMUP: usize = 5;

/// How the frames change.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Motion {
    /// The camera circles the labels: every label moves on screen every frame.
    Orbit,
    /// As `Orbit`, and every label's text changes every frame (everything reshaped).
    OrbitRetext,
    /// The camera moves in and out: every label moves and changes size every frame.
    Dolly,
}

fn world(labels: usize, entities: usize, pixel_scale: Option<f64>) -> anyhow::Result<World> {
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
            let spec = UiSpec { text: Some(format!("agent {i:04}")), pixel_scale, ..UiSpec::at(anchor) };
            world.ui.create(UiKind::Label, spec, &OPERATOR)?;
        }
    }
    Ok(world)
}

/// What a run of frames cost: p50 CPU µs per frame (render-sync + encode/upload), the last
/// frame's draw calls, and the mean bytes of text uploaded and text blocks laid out per frame.
struct Cost {
    us: f64,
    draws: u32,
    upload_bytes: f64,
    laid_out: f64,
}

fn frame_cost(renderer: &mut Renderer, world: &mut World, motion: Motion, list: &mut RenderList) -> Cost {
    let models = crate::render::ModelCache::default();
    let mut us = Vec::new();
    let (mut draws, mut upload, mut laid_out) = (0, 0usize, 0usize);
    for frame in 0..FRAMES {
        let angle = frame as f32 * 0.01;
        // Dolly: 30 m out to 12 and back, so labels' sizes change every frame.
        let radius = if motion == Motion::Dolly { 21.0 + 9.0 * (frame as f32 * 0.1).cos() } else { 30.0 };
        world.camera.position = [angle.sin() * radius, 22.0 * radius / 30.0, angle.cos() * radius];
        if motion == Motion::OrbitRetext {
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
            let text = renderer.ui_text_stats();
            upload += text.upload_bytes;
            laid_out += text.blocks_laid_out;
        }
        draws = stats.draw_calls;
    }
    us.sort_by(f64::total_cmp);
    let n = (FRAMES - WARMUP) as f64;
    Cost { us: percentile(&us, 0.5), draws, upload_bytes: upload as f64 / n, laid_out: laid_out as f64 / n }
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
    let bare = frame_cost(&mut renderer, &mut world(0, 1000, None)?, Motion::Orbit, &mut list);
    let ten = frame_cost(&mut renderer, &mut world(10, 1000, None)?, Motion::Orbit, &mut list);
    let labels = frame_cost(&mut renderer, &mut world(1000, 1000, None)?, Motion::Orbit, &mut list);
    let text = renderer.ui_text_stats();
    let retext = frame_cost(&mut renderer, &mut world(1000, 1000, None)?, Motion::OrbitRetext, &mut list);
    // Big enough (4 cm per pixel) that distance changes their size, within the clamp.
    let dolly = frame_cost(&mut renderer, &mut world(1000, 1000, Some(0.04))?, Motion::Dolly, &mut list);
    let ms = |c: &Cost| (c.us - bare.us) / 1000.0;
    outln!(
        "ui           1000 world-anchored labels (camera orbiting): {:.2} ms CPU per frame for the UI (frame {:.2} ms with them, {:.2} ms without; target <= 1 ms); 10 labels: {:.2} ms",
        ms(&labels),
        labels.us / 1000.0,
        bare.us / 1000.0,
        ms(&ten)
    );
    outln!(
        "ui           text uploads per frame while 1000 labels move: {:.1} KiB ({:.1} blocks laid out); {} glyph instances stay on the GPU ({:.0} KiB)",
        labels.upload_bytes / 1024.0,
        labels.laid_out,
        text.live_instances,
        text.instance_bytes as f64 / 1024.0
    );
    outln!(
        "ui           draw calls: {} without UI, {} with 10 labels, {} with 1000 (UI adds {} whatever the count)",
        bare.draws,
        ten.draws,
        labels.draws,
        labels.draws - bare.draws
    );
    outln!(
        "ui           every label's text changing every frame (all reshaped): {:.2} ms CPU per frame for the UI ({:.0} KiB of text uploaded per frame)",
        ms(&retext),
        retext.upload_bytes / 1024.0
    );
    outln!(
        "ui           camera dolly (every label's size changing every frame): {:.2} ms CPU per frame for the UI ({:.0} blocks laid out again per frame)",
        ms(&dolly),
        dolly.laid_out
    );
    outln!(
        "ui           glyph atlas: {} glyphs held for the 1000-label frame, {:.1} KiB of bitmaps, in a {}x{} single-channel texture ({} KiB; it starts at 256x256 and doubles as needed)",
        text.atlas.glyphs,
        text.atlas.glyph_bytes as f64 / 1024.0,
        text.atlas.side,
        text.atlas.side,
        text.atlas.texture_bytes / 1024
    );
    Ok(())
}
