//! Lays UI elements out on the screen, on the CPU: each element's text is shaped (cached), its
//! panel sized around it, placed at its screen corner or over its projected world anchor
//! (scaled by distance, always facing the camera), and turned into plain shape vertices (rounded
//! rectangles, tails, thought puffs, leader lines) plus text placements. The GPU side draws all
//! shapes in one call and all text in one more, however many elements there are.

use bytemuck::{Pod, Zeroable};

use super::look::{self, Look};
use super::text::TextShaper;
use crate::render::math::Mat4;
use crate::render::scene::{UiAt, UiItem};
use crate::world::ui::{Anchor, Corner, Side, UiKind};

/// One vertex of a shape: a pixel inside a rounded box (signed-distance shaded), or of a plain
/// triangle when the box is "everywhere".
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub(crate) struct ShapeVertex {
    pub px: [f32; 2],
    pub center: [f32; 2],
    pub half: [f32; 2],
    /// corner radius, border width, edge softness, unused
    pub params: [f32; 4],
    pub fill: [u8; 4],
    pub stroke: [u8; 4],
}

/// Where one shaped text block is drawn (screen pixels) and how it is clipped.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TextPlacement {
    /// The element's index in the frame's items, and which of its texts (0 body, 1 title).
    pub item: usize,
    pub slot: u8,
    pub left: f32,
    pub top: f32,
    pub scale: f32,
    /// left, top, right, bottom
    pub clip: [i32; 4],
    /// The element's fade.
    pub opacity: f32,
    /// Characters (a char range of the shaped text) laid out but not drawn yet: the typewriter's.
    pub hidden: std::ops::Range<u32>,
}

/// Everything one frame's UI needs drawn.
#[derive(Debug, Default)]
pub(crate) struct Frame {
    pub vertices: Vec<ShapeVertex>,
    pub texts: Vec<TextPlacement>,
}

/// Metres per element pixel of a world-anchored element when the call gives no `pixelScale`.
const DEFAULT_PIXEL_SCALE: f64 = 0.01;
/// A world element is never drawn smaller or larger than this factor of its pixel size.
const MIN_SCALE: f32 = 0.6;
const MAX_SCALE: f32 = 3.0;
/// Margin from the screen corner when the anchor gives none, pixels.
const DEFAULT_MARGIN: f32 = 16.0;
const FAR: f32 = 1e6;

/// The camera for placing world anchors.
#[derive(Debug, Clone, Copy)]
pub(crate) struct View {
    pub view_proj: Mat4,
    pub width: f32,
    pub height: f32,
    /// Pixels per unit of view-space height at distance 1 (the projection's focal length).
    pub focal_px: f32,
}

impl View {
    /// Screen pixel and view depth of a world point; None behind the camera.
    fn project(&self, p: [f32; 3]) -> Option<(f32, f32, f32)> {
        crate::render::math::project_to_pixel(&self.view_proj, p, self.width, self.height)
    }
}

fn push_box(
    out: &mut Vec<ShapeVertex>,
    rect: [f32; 4],
    look_fill: ([u8; 4], [u8; 4], bool),
    stroke: [u8; 4],
    radius: f32,
    border: f32,
    soft: f32,
) {
    let [x0, y0, x1, y1] = rect;
    if x1 <= x0 || y1 <= y0 {
        return;
    }
    let center = [(x0 + x1) * 0.5, (y0 + y1) * 0.5];
    let half = [(x1 - x0) * 0.5, (y1 - y0) * 0.5];
    let radius = radius.min(half[0]).min(half[1]);
    // Grow the quad by the softness so the blurred edge is not cut off.
    let g = soft.max(1.0);
    let (top, bottom, horizontal) = look_fill;
    let corner = |x: f32, y: f32| {
        let t = if horizontal { (x - x0) / (x1 - x0) } else { (y - y0) / (y1 - y0) };
        let fill = if t <= 0.5 { top } else { bottom };
        ShapeVertex { px: [x, y], center, half, params: [radius, border, soft, 0.0], fill, stroke }
    };
    let (a, b, c, d) = (corner(x0 - g, y0 - g), corner(x1 + g, y0 - g), corner(x1 + g, y1 + g), corner(x0 - g, y1 + g));
    out.extend_from_slice(&[a, b, c, a, c, d]);
}

fn push_triangle(out: &mut Vec<ShapeVertex>, points: [[f32; 2]; 3], color: [u8; 4]) {
    for p in points {
        out.push(ShapeVertex { px: p, center: p, half: [FAR, FAR], params: [0.0; 4], fill: color, stroke: color });
    }
}

fn push_line(out: &mut Vec<ShapeVertex>, from: [f32; 2], to: [f32; 2], width: f32, color: [u8; 4]) {
    let (dx, dy) = (to[0] - from[0], to[1] - from[1]);
    let len = (dx * dx + dy * dy).sqrt();
    if len < 0.5 {
        return;
    }
    let (nx, ny) = (-dy / len * width * 0.5, dx / len * width * 0.5);
    let (a, b, c, d) = ([from[0] + nx, from[1] + ny], [to[0] + nx, to[1] + ny], [to[0] - nx, to[1] - ny], [from[0] - nx, from[1] - ny]);
    push_triangle(out, [a, b, c], color);
    push_triangle(out, [a, c, d], color);
}

fn push_circle(out: &mut Vec<ShapeVertex>, c: [f32; 2], r: f32, fill: [u8; 4], stroke: [u8; 4], border: f32) {
    push_box(out, [c[0] - r, c[1] - r, c[0] + r, c[1] + r], (fill, fill, false), stroke, r, border, 1.0);
}

/// The panel's top-left corner for a screen anchor.
fn screen_origin(corner: Corner, margin: [f32; 2], size: [f32; 2], view: &View) -> [f32; 2] {
    let (w, h) = (view.width, view.height);
    let x_left = margin[0];
    let x_right = w - margin[0] - size[0];
    let x_center = (w - size[0]) * 0.5 + margin[0];
    let y_top = margin[1];
    let y_bottom = h - margin[1] - size[1];
    match corner {
        Corner::TopLeft => [x_left, y_top],
        Corner::TopRight => [x_right, y_top],
        Corner::BottomLeft => [x_left, y_bottom],
        Corner::BottomRight => [x_right, y_bottom],
        Corner::TopCenter => [x_center, y_top],
        Corner::BottomCenter => [x_center, y_bottom],
        Corner::Center => [x_center, (h - size[1]) * 0.5 + margin[1]],
    }
}

/// Screen pixels per element pixel of a world-anchored element seen at `depth`.
fn world_scale(e: &crate::world::ui::UiElement, view: &View, depth: f32) -> f32 {
    let pixel_scale = e.spec.pixel_scale.unwrap_or(DEFAULT_PIXEL_SCALE) as f32;
    (pixel_scale * view.focal_px / depth).clamp(MIN_SCALE, MAX_SCALE)
}

/// Lays out one element into `frame`.
pub(crate) fn lay_out(index: usize, item: &UiItem, view: &View, shaper: &mut TextShaper, frame: &mut Frame) {
    let e = &*item.element;
    let look: Look = look::resolve(e, item.opacity);
    // Cull what cannot be on screen before any text is shaped: behind the camera, or (when its
    // width is bounded by wrapping) too far to the side to reach in.
    if let UiAt::World(p) = item.at {
        let Some((x, _, depth)) = view.project(p) else { return };
        if let Some(wrap) = look.wrap_width {
            let s = world_scale(e, view, depth);
            let widest = (wrap + look.padding[1] + look.padding[3]).max(look.min_width) * s;
            let leader = e.spec.leader.as_ref().map_or(64.0, |l| l.dx.abs().min(4096.0) as f32 + 64.0) * s;
            if x + widest + leader < 0.0 || x - widest - leader > view.width {
                return;
            }
        }
    }
    let shown = e.present(item.tick);
    let runs = e.spec.style.as_ref().and_then(|s| s.runs.as_deref());
    // A text box has a header bar for its title; every other kind shows the title as a first line.
    let header = e.kind == UiKind::TextBox && e.spec.title.is_some();
    let (body_text, hidden) = match (&e.spec.title, header) {
        (Some(title), false) if !shown.full.is_empty() => {
            // The title line shifts the typewriter's hidden range along.
            let shift = title.chars().count() + 1;
            (std::borrow::Cow::Owned(format!("{title}\n{}", shown.full)), shown.hidden.start + shift..shown.hidden.end + shift)
        }
        (Some(title), false) => (std::borrow::Cow::Borrowed(title.as_str()), 0..0),
        _ => (shown.full.clone(), shown.hidden.clone()),
    };
    // Shaping has a per-frame budget: an element whose text could not be shaped yet is drawn
    // from its last shaping, or not at all until it has one.
    let Some(body) = shaper.shape(&e.handle, 0, &body_text, runs, &look) else { return };
    // Coloured runs replace the text, so the typewriter (which counts the text) does not apply.
    let to_u32 = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    let hidden = if runs.is_some() { 0..0 } else { to_u32(hidden.start)..to_u32(hidden.end) };
    let (body_w, body_h) = (body.width, body.height);
    let (title_w, title_h) = if header {
        let Some(t) = shaper.shape(&e.handle, 1, e.spec.title.as_deref().unwrap_or_default(), None, &look) else { return };
        (t.width, t.height)
    } else {
        (0.0, 0.0)
    };
    let [pt, pr, pb, pl] = look.padding;
    let bar = if header { title_h + pt } else { 0.0 };
    let w = (body_w.max(title_w) + pl + pr).max(look.min_width).min(look::MAX_PANEL_PX);
    let h = look.fixed_height.unwrap_or(body_h + pt + pb + bar).min(look::MAX_PANEL_PX);

    // Where and how big: screen elements at their corner, world ones over their anchor.
    let tail = e.spec.tail.clone().unwrap_or_default();
    let tail_len = tail.length.map_or(if e.kind == UiKind::ThoughtBubble { 30.0 } else { 14.0 }, |l| (l as f32).min(1024.0));
    let side = tail.side.unwrap_or(Side::Bottom);
    // A world element's anchor pixel and scale: projected here, or already projected (capture labels).
    let anchored = match item.at {
        UiAt::World(p) => view.project(p).map(|(x, y, depth)| (x, y, world_scale(e, view, depth))),
        UiAt::Pixel { at, scale } => Some((at[0], at[1], scale.clamp(MIN_SCALE, MAX_SCALE))),
        UiAt::Screen => None,
    };
    let (origin, scale, target) = match (&e.spec.anchor, anchored) {
        (Anchor::Screen(s), _) => {
            let margin = s.margin_px.map_or([DEFAULT_MARGIN; 2], |m| m.map(|v| if v.is_finite() { v as f32 } else { 0.0 }));
            (screen_origin(s.corner, margin, [w, h], view), 1.0, None)
        }
        (Anchor::World(_), Some((x, y, s))) => {
            let gap = match e.kind {
                UiKind::SpeechBubble | UiKind::ThoughtBubble => tail_len,
                UiKind::Callout => 0.0,
                _ => 4.0,
            } * s;
            let (sw, sh) = (w * s, h * s);
            let origin = match e.kind {
                UiKind::Callout => {
                    let leader = e.spec.leader.as_ref();
                    let (dx, dy) = leader.map_or((40.0, -40.0), |l| (l.dx as f32, l.dy as f32));
                    [x + dx.clamp(-4096.0, 4096.0) * s - sw * 0.5, y + dy.clamp(-4096.0, 4096.0) * s - sh * 0.5]
                }
                _ => match side {
                    Side::Bottom => [x - sw * 0.5, y - gap - sh],
                    Side::Top => [x - sw * 0.5, y + gap],
                    Side::Left => [x + gap, y - sh * 0.5],
                    Side::Right => [x - gap - sw, y - sh * 0.5],
                },
            };
            (origin, s, Some([x, y]))
        }
        (Anchor::World(_), None) => return,
    };
    let origin = [origin[0].round(), origin[1].round()];
    let rect = [origin[0], origin[1], origin[0] + w * scale, origin[1] + h * scale];
    // Off screen (with room for a tail or leader reaching in): nothing to draw.
    let reach = (tail_len + 64.0) * scale;
    if rect[2] < -reach || rect[0] > view.width + reach || rect[3] < -reach || rect[1] > view.height + reach {
        return;
    }
    let out = &mut frame.vertices;

    // Leader (under the box), shadow, then the panel and its decorations.
    if e.kind == UiKind::Callout
        && let Some(t) = target
    {
        let leader = e.spec.leader.as_ref();
        let color = leader.and_then(|l| l.color).map_or(look.stroke, |c| {
            let mut rgba = c.rgba();
            rgba[3] = (f32::from(rgba[3]) * item.opacity) as u8;
            rgba
        });
        let width = leader.and_then(|l| l.width).map_or(1.5, |v| (v as f32).min(32.0)) * scale;
        let center = [(rect[0] + rect[2]) * 0.5, (rect[1] + rect[3]) * 0.5];
        push_line(out, t, center, width.max(1.0), color);
        let dot = leader.and_then(|l| l.dot).map_or(3.0, |v| (v as f32).min(64.0)) * scale;
        if dot > 0.0 {
            push_circle(out, t, dot, color, color, 0.0);
        }
    }
    if let Some((ox, oy, soft, color)) = look.shadow {
        let r = [rect[0] + ox * scale, rect[1] + oy * scale, rect[2] + ox * scale, rect[3] + oy * scale];
        push_box(out, r, (color, color, false), color, look.radius * scale, 0.0, soft.max(1.0) * scale);
    }
    let stroke = if look.border > 0.0 { look.stroke } else { look.fill_top };
    match e.kind {
        UiKind::SpeechBubble => {
            // The tail: from the bubble's edge on its side to the speaker (or straight out).
            let base = tail.base.map_or(16.0, |b| (b as f32).min(512.0)) * scale;
            let (edge_mid, dir) = match side {
                Side::Bottom => ([(rect[0] + rect[2]) * 0.5, rect[3]], [0.0, 1.0]),
                Side::Top => ([(rect[0] + rect[2]) * 0.5, rect[1]], [0.0, -1.0]),
                Side::Left => ([rect[0], (rect[1] + rect[3]) * 0.5], [-1.0, 0.0]),
                Side::Right => ([rect[2], (rect[1] + rect[3]) * 0.5], [1.0, 0.0]),
            };
            let toward = tail.toward.as_ref().map(|t| [edge_mid[0] + t.x as f32 * scale, edge_mid[1] + t.y as f32 * scale]);
            let tip = target.or(toward).unwrap_or([edge_mid[0] + dir[0] * tail_len * scale, edge_mid[1] + dir[1] * tail_len * scale]);
            let across = [dir[1].abs(), dir[0].abs()];
            let inset = look.border * scale + 1.0;
            let a = [edge_mid[0] - across[0] * base * 0.5 - dir[0] * inset, edge_mid[1] - across[1] * base * 0.5 - dir[1] * inset];
            let b = [edge_mid[0] + across[0] * base * 0.5 - dir[0] * inset, edge_mid[1] + across[1] * base * 0.5 - dir[1] * inset];
            let grow = look.border * scale;
            push_triangle(
                out,
                [
                    [a[0] - across[0] * grow, a[1] - across[1] * grow],
                    [b[0] + across[0] * grow, b[1] + across[1] * grow],
                    [tip[0], tip[1] + dir[1] * grow],
                ],
                stroke,
            );
            push_box(out, rect, (look.fill_top, look.fill_bottom, look.horizontal), stroke, look.radius * scale, look.border * scale, 1.0);
            push_triangle(out, [a, b, tip], look.fill_bottom);
        }
        UiKind::ThoughtBubble => {
            // Puffs shrinking from the bubble toward the thinker.
            let count = tail.count.unwrap_or(3).clamp(1, 8) as usize;
            let from = [(rect[0] + rect[2]) * 0.5, rect[3]];
            let to = target.unwrap_or([from[0] - tail_len * scale * 0.5, from[1] + tail_len * scale]);
            for i in 0..count {
                let t = (i as f32 + 0.7) / (count as f32 + 0.2);
                let c = [from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t];
                let r = (7.0 - 4.5 * t) * scale;
                push_circle(out, c, r.max(1.5), look.fill_bottom, stroke, look.border * scale * 0.75);
            }
            push_box(out, rect, (look.fill_top, look.fill_bottom, look.horizontal), stroke, look.radius * scale, look.border * scale, 1.0);
        }
        _ => {
            push_box(out, rect, (look.fill_top, look.fill_bottom, look.horizontal), stroke, look.radius * scale, look.border * scale, 1.0);
        }
    }
    if header {
        let inset = look.border * scale;
        let bar_rect = [rect[0] + inset, rect[1] + inset, rect[2] - inset, rect[1] + bar * scale];
        push_box(
            out,
            bar_rect,
            (look.title_fill, look.title_fill, false),
            look.title_fill,
            (look.radius - inset).max(0.0) * scale,
            0.0,
            1.0,
        );
        frame.texts.push(TextPlacement {
            item: index,
            slot: 1,
            left: (rect[0] + pl * scale).round(),
            top: (rect[1] + pt * 0.5 * scale).round(),
            scale,
            clip: clip(rect),
            opacity: look.opacity,
            hidden: 0..0,
        });
    }
    frame.texts.push(TextPlacement {
        item: index,
        slot: 0,
        left: (rect[0] + pl * scale).round(),
        top: (rect[1] + (bar + pt) * scale).round(),
        scale,
        clip: clip(rect),
        opacity: look.opacity,
        hidden,
    });
}

fn clip(rect: [f32; 4]) -> [i32; 4] {
    [rect[0].floor() as i32, rect[1].floor() as i32, rect[2].ceil() as i32, rect[3].ceil() as i32]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::math;
    use crate::world::ui::UiTable;
    use serde_json::json;

    fn view() -> View {
        let proj = math::perspective(60f32.to_radians(), 1280.0 / 720.0, 0.1, 1000.0);
        let vp = math::mul(&proj, &math::look_at([0.0, 0.0, 10.0], [0.0; 3], [0.0, 1.0, 0.0]));
        View { view_proj: vp, width: 1280.0, height: 720.0, focal_px: 720.0 * 0.5 * proj[1][1] }
    }

    fn item(kind: UiKind, spec: serde_json::Value, at: UiAt) -> UiItem {
        let mut t = UiTable::default();
        let h = t.create(kind, serde_json::from_value(spec).unwrap(), &crate::world::ui::Writer { agent: "a", operator: false }).unwrap();
        let element = std::sync::Arc::new(t.get(&h).unwrap().clone());
        UiItem { element, at, opacity: 1.0, tick: 0 }
    }

    #[test]
    fn a_world_label_sits_above_its_projected_anchor_and_shrinks_with_distance() {
        let mut shaper = TextShaper::new();
        let near =
            item(UiKind::Label, json!({"anchor": {"kind": "world", "point": [0, 0, 0]}, "text": "hello"}), UiAt::World([0.0, 0.0, 0.0]));
        let mut f = Frame::default();
        lay_out(0, &near, &view(), &mut shaper, &mut f);
        let t = &f.texts[0];
        assert!((t.left - 640.0).abs() < 60.0 && t.top < 360.0, "{t:?}");
        let far = UiItem { at: UiAt::World([0.0, 0.0, -30.0]), ..near.clone() };
        let mut g = Frame::default();
        lay_out(0, &far, &view(), &mut shaper, &mut g);
        assert!(g.texts[0].scale < t.scale);
        // Behind the camera: nothing.
        let behind = UiItem { at: UiAt::World([0.0, 0.0, 20.0]), ..near };
        let mut h = Frame::default();
        lay_out(0, &behind, &view(), &mut shaper, &mut h);
        assert!(h.texts.is_empty() && h.vertices.is_empty());
    }

    #[test]
    fn screen_corners_pin_the_panel() {
        let mut shaper = TextShaper::new();
        let hud = item(
            UiKind::HudPanel,
            json!({"anchor": {"kind": "screen", "corner": "bottom-right", "marginPx": [10, 20]}, "text": "HUD"}),
            UiAt::Screen,
        );
        let mut f = Frame::default();
        lay_out(0, &hud, &view(), &mut shaper, &mut f);
        let max_x = f.vertices.iter().map(|v| v.center[0] + v.half[0]).fold(0.0, f32::max);
        let max_y = f.vertices.iter().map(|v| v.center[1] + v.half[1]).fold(0.0, f32::max);
        assert!((max_x - 1270.0).abs() < 1.0 && (max_y - 700.0).abs() < 1.0, "{max_x} {max_y}");
    }

    #[test]
    fn bubbles_have_tails_and_callouts_leaders() {
        let mut shaper = TextShaper::new();
        let at = UiAt::World([0.0, 0.0, 0.0]);
        let world = json!({"kind": "world", "point": [0, 0, 0]});
        let mut count = |kind, extra: serde_json::Value| {
            let mut spec = json!({"anchor": world, "text": "x"});
            spec.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
            let mut f = Frame::default();
            lay_out(0, &item(kind, spec, at), &view(), &mut shaper, &mut f);
            f.vertices.len()
        };
        assert_eq!(count(UiKind::Label, json!({})), 6, "one box");
        assert_eq!(count(UiKind::SpeechBubble, json!({})), 12, "box and two tail triangles");
        assert_eq!(count(UiKind::ThoughtBubble, json!({"tail": {"count": 4}})), 30, "box and four puffs");
        assert_eq!(count(UiKind::Callout, json!({"leader": {"dx": 50, "dy": -50}})), 18, "box, leader and dot");
    }
}
