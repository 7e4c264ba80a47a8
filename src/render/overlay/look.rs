//! How an element looks: the catalog's style object resolved against the defaults of its kind
//! (a label is minimal chrome, a speech bubble white with a dark outline, a HUD panel dark and
//! cyan-edged), with every size clamped to what a frame can afford, whatever the input said.

use crate::world::ui::{Align, GradientDirection, Padding, UiColor, UiElement, UiKind};

/// Base font size in pixels at text scale 1.
pub(crate) const BASE_FONT_PX: f32 = 16.0;
/// Largest text scale drawn (glyphs are rasterized at this size; bigger would flood the atlas).
pub(crate) const MAX_TEXT_SCALE: u64 = 8;
/// Largest element size in element pixels (anything larger is clamped).
pub(crate) const MAX_PANEL_PX: f32 = 4096.0;

/// A resolved look, in element pixels and sRGB bytes (alpha already includes opacity, except the
/// text's: text is shaped once and faded when drawn, by `opacity`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Look {
    pub fill_top: [u8; 4],
    pub fill_bottom: [u8; 4],
    /// True when the gradient runs left to right instead of top to bottom.
    pub horizontal: bool,
    pub stroke: [u8; 4],
    pub border: f32,
    pub radius: f32,
    /// top, right, bottom, left
    pub padding: [f32; 4],
    pub text_color: [u8; 4],
    /// The lifecycle's fade, for the text.
    pub opacity: f32,
    pub title_fill: [u8; 4],
    pub font_px: f32,
    /// Line height as a multiple of the font size.
    pub line_height: f32,
    /// Letter spacing in pixels.
    pub letter_spacing: f32,
    pub align: Align,
    /// Text wraps at this width (None: never wraps).
    pub wrap_width: Option<f32>,
    pub min_width: f32,
    pub fixed_height: Option<f32>,
    pub max_lines: Option<usize>,
    /// (offset x, offset y, softness, colour)
    pub shadow: Option<(f32, f32, f32, [u8; 4])>,
}

fn hex(c: u32, a: u8) -> [u8; 4] {
    [(c >> 16) as u8, (c >> 8) as u8, c as u8, a]
}

fn with_alpha(mut c: [u8; 4], factor: f64) -> [u8; 4] {
    c[3] = (f64::from(c[3]) * factor.clamp(0.0, 1.0)).round() as u8;
    c
}

fn px(v: f64, max: f32) -> f32 {
    if v.is_finite() { (v as f32).clamp(0.0, max) } else { 0.0 }
}

/// What a kind looks like before any style: fill, outline, corner radius, padding, text and
/// title-bar colours, and the width its text wraps at.
struct KindDefaults {
    fill: [u8; 4],
    stroke: [u8; 4],
    border: f32,
    radius: f32,
    padding: f32,
    text: [u8; 4],
    title_fill: [u8; 4],
    wrap: f32,
}

fn defaults(kind: UiKind) -> KindDefaults {
    let d = |fill, stroke, border, radius, padding, text, title_fill, wrap| KindDefaults {
        fill,
        stroke,
        border,
        radius,
        padding,
        text,
        title_fill,
        wrap,
    };
    match kind {
        UiKind::Label => d(hex(0x000000, 150), hex(0, 0), 0.0, 4.0, 5.0, hex(0xffffff, 255), hex(0, 0), 240.0),
        UiKind::TextBox => d(hex(0x1e2230, 235), hex(0x5a6690, 255), 1.0, 6.0, 10.0, hex(0xf0f0f0, 255), hex(0x3a4260, 255), 280.0),
        UiKind::SpeechBubble => d(hex(0xffffff, 245), hex(0x222222, 255), 2.0, 12.0, 10.0, hex(0x111111, 255), hex(0, 0), 240.0),
        UiKind::ThoughtBubble => d(hex(0xf4f4ff, 245), hex(0x555577, 255), 2.0, 18.0, 12.0, hex(0x222244, 255), hex(0, 0), 220.0),
        UiKind::Callout => d(hex(0xfff6d5, 245), hex(0x8a7a3a, 255), 1.0, 4.0, 8.0, hex(0x2b2200, 255), hex(0, 0), 220.0),
        UiKind::HudPanel => d(hex(0x0b0f1a, 200), hex(0x3bc8ff, 255), 1.0, 6.0, 10.0, hex(0xd8f3ff, 255), hex(0x13324a, 255), 300.0),
    }
}

/// Resolves an element's look at `opacity` (its lifecycle's fade).
pub(crate) fn resolve(e: &UiElement, opacity: f32) -> Look {
    let KindDefaults { fill, stroke, border, radius, padding, text, title_fill, wrap } = defaults(e.kind);
    let unstyled = crate::world::ui::UiStyle::default();
    let style = e.spec.style.as_ref().unwrap_or(&unstyled);
    let o = f64::from(opacity);
    let rgba = |c: UiColor| c.rgba();
    let (mut top, mut bottom, mut horizontal) = (fill, fill, false);
    if let Some(bg) = &style.background {
        let c = with_alpha(rgba(bg.color), bg.opacity.unwrap_or(1.0));
        (top, bottom) = (c, c);
    }
    if let Some(g) = &style.gradient {
        let a = g.opacity.unwrap_or(1.0);
        (top, bottom) = (with_alpha(rgba(g.from), a), with_alpha(rgba(g.to), a));
        horizontal = g.direction == Some(GradientDirection::Horizontal);
    }
    let (stroke, border, radius) = match &style.border {
        Some(b) => (rgba(b.color), px(b.width, 64.0), b.radius.map_or(radius, |r| px(r, 512.0))),
        None => (stroke, border, radius),
    };
    let plain = crate::world::ui::TextStyle::default();
    let t = style.text.as_ref().unwrap_or(&plain);
    let scale = t.scale.unwrap_or(1).clamp(1, MAX_TEXT_SCALE) as f32;
    let font_px = BASE_FONT_PX * scale;
    let padding = style.padding.as_ref().map_or([padding; 4], |p: &Padding| p.sides().map(|v| px(v, 512.0)));
    let no_wrap = style.no_wrap.unwrap_or(false);
    // Width: the element's fixed width, else its max width, else the style's, else the kind's.
    let fixed = e.spec.width.or(style.width);
    let max = e.spec.max_width.or(style.max_width);
    let outer = fixed.or(max).map_or(wrap + padding[1] + padding[3], |w| px(w, MAX_PANEL_PX));
    let wrap_width = (!no_wrap).then(|| (outer - padding[1] - padding[3]).max(font_px));
    let min_width = fixed.or(style.min_width).map_or(0.0, |w| px(w, MAX_PANEL_PX));
    let max_lines = e.spec.max_lines.or(style.max_lines).map(|n| n.min(1024) as usize);
    let shadow = style.shadow.as_ref().map(|s| {
        let c = s.color.map_or(hex(0, 255), rgba);
        (
            px(s.offset_x.unwrap_or(2.0).abs(), 64.0) * s.offset_x.unwrap_or(2.0).signum() as f32,
            px(s.offset_y.unwrap_or(2.0).abs(), 64.0) * s.offset_y.unwrap_or(2.0).signum() as f32,
            px(s.blur.unwrap_or(4.0), 64.0),
            with_alpha(c, s.opacity.unwrap_or(0.35) * o),
        )
    });
    Look {
        fill_top: with_alpha(top, o),
        fill_bottom: with_alpha(bottom, o),
        horizontal,
        stroke: with_alpha(stroke, o),
        border,
        radius,
        padding,
        text_color: t.color.map_or(text, rgba),
        opacity: opacity.clamp(0.0, 1.0),
        title_fill: with_alpha(title_fill, o),
        font_px,
        line_height: t.line_height.map_or(1.25, |l| (l as f32).clamp(0.5, 4.0)),
        letter_spacing: t.letter_spacing.map_or(0.0, |l| px(l, 64.0)),
        align: t.align.unwrap_or(if e.kind == UiKind::Label { Align::Center } else { Align::Left }),
        wrap_width,
        min_width,
        fixed_height: style.height.map(|h| px(h, MAX_PANEL_PX)),
        max_lines,
        shadow,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn element(kind: UiKind, spec: serde_json::Value) -> UiElement {
        let mut t = crate::world::ui::UiTable::default();
        let h = t.create(kind, serde_json::from_value(spec).unwrap(), &crate::world::ui::Writer { agent: "agt", operator: false }).unwrap();
        t.get(&h).unwrap().clone()
    }

    #[test]
    fn hostile_sizes_are_clamped_and_opacity_scales_alpha() {
        let e = element(
            UiKind::Label,
            json!({"anchor": {"kind": "screen"}, "width": 1e12, "style": {"text": {"scale": 9007199254740991u64}, "padding": 1e9, "border": {"width": 1e9, "color": 0}}}),
        );
        let look = resolve(&e, 0.5);
        assert_eq!(look.font_px, BASE_FONT_PX * MAX_TEXT_SCALE as f32);
        assert_eq!(look.min_width, MAX_PANEL_PX);
        assert_eq!(look.padding, [512.0; 4]);
        assert_eq!(look.border, 64.0);
        assert_eq!(look.fill_top[3], 75, "150 * 0.5");
    }

    #[test]
    fn style_overrides_the_kind_defaults() {
        let e = element(
            UiKind::SpeechBubble,
            json!({"anchor": {"kind": "screen"}, "style": {"background": {"color": 0x336699}, "text": {"color": {"r": 1, "g": 2, "b": 3, "a": 4}, "align": "right"}}}),
        );
        let look = resolve(&e, 1.0);
        assert_eq!(look.fill_top, [0x33, 0x66, 0x99, 255]);
        assert_eq!(look.text_color, [1, 2, 3, 4]);
        assert_eq!(look.align, Align::Right);
    }
}
