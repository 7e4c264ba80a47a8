//! What `render.capture` adds to a plain frame: a view that frames one entity, and id labels an
//! agent can match to pixels. Both are read-only: the world's camera is never moved (the framed
//! view lives only in the capture's render list) and nothing here writes the world, so a capture
//! leaves the world hash as it was.
//!
//! Labels are UI items drawn through the overlay's one shape draw and one text draw, so they add
//! at most two draw calls however many there are. Each points at its entity's centre (a dot and
//! a short leader under an id tag); the capture reports the same pixel positions it draws, from
//! the same projection (`math::view_projection`). Labels ignore occlusion: an entity hidden
//! behind another is still labelled where it would be.

use std::sync::Arc;

use super::math;
use super::scene::{Camera, UiAt, UiItem};
use super::sync::ModelCache;
use crate::world::ui::{Anchor, Background, Border, Leader, Padding, TextStyle, UiColor, UiElement, UiKind, UiSpec, UiStyle, WorldAnchor};
use crate::world::{EntityId, RenderShape, World};

/// Share of the frame's shorter side that a framed entity's bounding sphere spans.
pub(crate) const FRAME_FILL: f32 = 0.7;
/// Labels a capture draws at most (the nearest ones); the rest are counted as omitted.
pub(crate) const MAX_LABELS: usize = 32;
/// Bounding spheres are never smaller than this (metres), so a point-sized entity is framed
/// from a sensible distance.
const MIN_RADIUS: f32 = 0.05;
/// The tag's accent (border, leader and dot): a yellow that stands out on most scenes.
const TAG_ACCENT: u32 = 0xffd23f;
/// Element pixels from the entity's dot up to the tag's centre.
const TAG_LIFT: f64 = 20.0;

/// One labelled entity: its id and where its centre is in the picture.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct EntityLabel {
    pub entity: EntityId,
    /// Pixel of the entity's centre, origin at the top left.
    pub x: f32,
    pub y: f32,
    /// From the capture's camera to the entity's centre, metres.
    pub distance: f32,
    /// Its tag is drawn; false when the tag would cover a nearer entity's tag (the position is
    /// still reported).
    pub drawn: bool,
}

/// An entity's bounding sphere (centre, radius) in world space: its mesh's box after size,
/// scale and rotation (a sphere's exact radius). None for unknown ids.
pub(crate) fn bounding_sphere(world: &World, models: &ModelCache, id: EntityId) -> Option<([f32; 3], f32)> {
    let t = world.transform(id)?;
    let renderable = world.renderable(id);
    let size = renderable.map_or(1.0, |r| r.size);
    let scale = t.scale.map(|s| (s * size).abs());
    let length = |v: [f32; 3]| (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    let (centre, radius) = match renderable.map(|r| r.shape) {
        Some(RenderShape::Sphere) => (t.position, 0.5 * scale[0].max(scale[1]).max(scale[2])),
        Some(RenderShape::Capsule) => (t.position, length([0.25 * scale[0], 0.5 * scale[1], 0.25 * scale[2]])),
        Some(RenderShape::Asset(handle)) => {
            let (local_centre, half) = world.model_asset(handle).and_then(|a| models.get(a)).map_or(([0.0; 3], [0.5; 3]), |a| model_box(a));
            let model = math::trs(t.position, t.rotation, t.scale.map(|s| s * size));
            let c: [f32; 3] = std::array::from_fn(|r| {
                model[0][r] * local_centre[0] + model[1][r] * local_centre[1] + model[2][r] * local_centre[2] + model[3][r]
            });
            (c, length(std::array::from_fn(|i| half[i] * scale[i])))
        }
        Some(RenderShape::Box) | None => (t.position, length(scale.map(|s| 0.5 * s))),
    };
    Some((centre, if radius.is_finite() { radius.max(MIN_RADIUS) } else { MIN_RADIUS }))
}

/// A model's box in its own space (centre, half extents), over every part's placed vertices.
fn model_box(asset: &super::asset::LoadedAsset) -> ([f32; 3], [f32; 3]) {
    let (mut lo, mut hi) = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
    for part in &asset.parts {
        let m = &part.transform;
        for v in &part.mesh.vertices {
            let p = v.position;
            for r in 0..3 {
                let c = m[0][r] * p[0] + m[1][r] * p[1] + m[2][r] * p[2] + m[3][r];
                lo[r] = lo[r].min(c);
                hi[r] = hi[r].max(c);
            }
        }
    }
    if lo[0] > hi[0] {
        return ([0.0; 3], [0.5; 3]);
    }
    (std::array::from_fn(|i| (lo[i] + hi[i]) * 0.5), std::array::from_fn(|i| (hi[i] - lo[i]) * 0.5))
}

/// A camera looking at a sphere from `view`'s direction, with `view`'s field of view, at the
/// distance where the sphere spans `FRAME_FILL` of the frame's shorter side.
pub(crate) fn frame_sphere(view: Camera, centre: [f32; 3], radius: f32, aspect: f32) -> Camera {
    let towards = math::normalize(std::array::from_fn(|i| view.target[i] - view.position[i]));
    let half_fov = (view.fov_deg.clamp(1.0, 170.0) * 0.5).to_radians();
    // The shorter side's half-angle: the vertical one, or the horizontal one in a tall frame.
    let tan_half = half_fov.tan() * aspect.clamp(1e-3, 1.0);
    let angle = (FRAME_FILL * tan_half).atan();
    let distance = (radius / angle.sin()).max(radius + 2.0 * math::NEAR);
    Camera { position: std::array::from_fn(|i| centre[i] - towards[i] * distance), target: centre, fov_deg: view.fov_deg }
}

/// The renderable entities whose centres are in a `width` x `height` frame seen from `camera`
/// (in front of it, within the far plane), nearest first, at most `limit`; and how many more
/// were visible.
pub(crate) fn visible_entities(world: &World, camera: &Camera, width: u32, height: u32, limit: usize) -> (Vec<EntityLabel>, usize) {
    let (w, h) = (width as f32, height as f32);
    let view_proj = math::view_projection(camera.position, camera.target, camera.fov_deg, w / h.max(1.0));
    let mut seen = Vec::new();
    world.for_each_entity(|e| {
        if e.renderable.is_none() {
            return;
        }
        let p = e.transform.position;
        let Some((x, y, depth)) = math::project_to_pixel(&view_proj, p, w, h) else { return };
        if depth >= math::FAR || !(0.0..w).contains(&x) || !(0.0..h).contains(&y) {
            return;
        }
        let d: [f32; 3] = std::array::from_fn(|i| p[i] - camera.position[i]);
        let distance = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
        seen.push(EntityLabel { entity: e.id, x, y, distance, drawn: false });
    });
    seen.sort_by(|a, b| a.distance.total_cmp(&b.distance).then(a.entity.cmp(&b.entity)));
    let omitted = seen.len().saturating_sub(limit);
    seen.truncate(limit);
    place_tags(&mut seen, label_scale(height));
    (seen, omitted)
}

/// A tag's box in pixels (left, top, right, bottom) for an id of `chars` characters over the
/// point (x, y), from DejaVu Sans' advances (about 0.64 em a digit, 2.15 em for `ent_`) plus
/// padding and border: an estimate made before shaping, erring wide by a few pixels.
fn tag_box(x: f32, y: f32, chars: usize, scale: f32) -> [f32; 4] {
    let font = super::overlay::BASE_FONT_PX;
    let width = ((2.15 + 0.64 * chars.saturating_sub(4) as f32) * font + 12.0) * scale;
    let height = (font * 1.25 + 4.0) * scale;
    let cy = y - TAG_LIFT as f32 * scale;
    [x - width * 0.5, cy - height * 0.5, x + width * 0.5, cy + height * 0.5]
}

/// Marks which tags are drawn: nearest first, each unless it would overlap one already placed,
/// so every drawn tag is readable (text is drawn over all panels, so overlapping tags would mix
/// their letters).
fn place_tags(labels: &mut [EntityLabel], scale: f32) {
    let mut placed: Vec<[f32; 4]> = Vec::with_capacity(labels.len());
    for label in labels.iter_mut() {
        let b = tag_box(label.x, label.y, label.entity.to_string().len(), scale);
        label.drawn = !placed.iter().any(|p| b[0] < p[2] && p[0] < b[2] && b[1] < p[3] && p[1] < b[3]);
        if label.drawn {
            placed.push(b);
        }
    }
}

/// Scale of the id tags in a frame `height` pixels tall: 16 px text, 12 px in small frames.
pub(crate) fn label_scale(height: u32) -> f32 {
    if height < 360 { 0.75 } else { 1.0 }
}

/// The UI items that draw the drawn `labels` as id tags, farthest first.
pub(crate) fn label_items(labels: &[EntityLabel], height: u32, tick: u64) -> Vec<UiItem> {
    let scale = label_scale(height);
    let accent = UiColor::Hex(TAG_ACCENT);
    let style = UiStyle {
        background: Some(Background { color: UiColor::Hex(0x101418), opacity: Some(0.85) }),
        border: Some(Border { width: 1.0, color: accent, radius: Some(3.0) }),
        padding: Some(Padding::Sides { top: 1.0, right: 4.0, bottom: 1.0, left: 4.0 }),
        text: Some(TextStyle { color: Some(UiColor::Hex(0xffffff)), ..TextStyle::default() }),
        no_wrap: Some(true),
        ..UiStyle::default()
    };
    let leader = Leader { dx: 0.0, dy: -TAG_LIFT, color: Some(accent), dot: Some(2.5), offset: None, side: None, width: Some(1.5) };
    labels
        .iter()
        .rev()
        .filter(|l| l.drawn)
        .map(|label| {
            let mut spec = UiSpec::at(Anchor::World(WorldAnchor::default()));
            spec.style = Some(style.clone());
            spec.leader = Some(leader.clone());
            let text = label.entity.to_string();
            let chars = text.len();
            spec.text = Some(text);
            let element = UiElement {
                handle: format!("capture:{}", label.entity),
                kind: UiKind::Callout,
                spec,
                owner: String::new(),
                speaker: None,
                created_tick: tick,
                content_tick: tick,
                revision: 1,
                chars,
            };
            UiItem { element: Arc::new(element), at: UiAt::Pixel { at: [label.x, label.y], scale }, opacity: 1.0, tick }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn camera() -> Camera {
        Camera { position: [0.0, 0.0, 10.0], target: [0.0; 3], fov_deg: 60.0 }
    }

    #[test]
    fn framing_keeps_the_direction_and_fits_the_sphere_to_the_shorter_side() {
        let framed = frame_sphere(camera(), [5.0, 1.0, -3.0], 2.0, 16.0 / 9.0);
        assert_eq!(framed.target, [5.0, 1.0, -3.0]);
        let d: [f32; 3] = std::array::from_fn(|i| framed.target[i] - framed.position[i]);
        assert!(d[0].abs() < 1e-5 && d[1].abs() < 1e-5 && d[2] < 0.0, "still looking along -z: {d:?}");
        let distance = -d[2];
        // The sphere's silhouette spans FRAME_FILL of the height: sin(angle) = r / distance.
        let span = (2.0f32 / distance).asin().tan() / 30f32.to_radians().tan();
        assert!((span - FRAME_FILL).abs() < 1e-3, "{span}");
    }

    #[test]
    fn a_tag_that_would_cover_a_nearer_one_is_not_drawn() {
        let label = |n, x, y| EntityLabel { entity: EntityId(n), x, y, distance: n as f32, drawn: false };
        let mut labels = [label(1, 100.0, 100.0), label(2, 130.0, 105.0), label(3, 300.0, 100.0), label(4, 100.0, 140.0)];
        place_tags(&mut labels, 1.0);
        assert_eq!(labels.map(|l| l.drawn), [true, false, true, true]);
    }

    #[test]
    fn a_bigger_sphere_is_framed_from_farther_away() {
        let near = frame_sphere(camera(), [0.0; 3], 1.0, 1.5);
        let far = frame_sphere(camera(), [0.0; 3], 3.0, 1.5);
        assert!(far.position[2] > 2.9 * near.position[2], "{near:?} {far:?}");
    }
}
