//! Text shaping for UI elements with cosmic-text: the bundled DejaVu Sans (so a capture is the
//! same on every machine), plus a system CJK font for the characters DejaVu lacks when one is
//! installed (`fallback`), wrapped to the element's
//! width, cached per element so an unchanged element costs no shaping on the next frame. What
//! only changes how shaped text is drawn (its opacity, the typewriter's revealed characters,
//! where and how big it is) is not part of the shaping: `glyphs` applies it per frame.

use cosmic_text::{Attrs, Buffer, Color, Family, FontSystem, Metrics, Shaping, Wrap};

use super::look::Look;
use crate::world::ui::{Align, TextRun};

/// The bundled font (Bitstream Vera licence; `assets/fonts/DejaVuSans-LICENSE.txt`).
pub(super) const FONT: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");
const FAMILY: &str = "DejaVu Sans";

/// What a shaped buffer was made from; a change reshapes.
#[derive(Debug, Clone, PartialEq)]
struct Key {
    text: String,
    runs: Option<Vec<TextRun>>,
    font_px: f32,
    line_height: f32,
    letter_spacing: f32,
    wrap_width: Option<f32>,
    max_lines: Option<usize>,
    align: Align,
    color: [u8; 4],
}

impl Key {
    fn matches(&self, text: &str, runs: Option<&[TextRun]>, look: &Look) -> bool {
        self.text == text
            && self.runs.as_deref() == runs
            && self.font_px == look.font_px
            && self.line_height == look.line_height
            && self.letter_spacing == look.letter_spacing
            && self.wrap_width == look.wrap_width
            && self.max_lines == look.max_lines
            && self.align == look.align
            && self.color == look.text_color
    }
}

/// A shaped block of text and its measured size (element pixels).
pub(crate) struct Shaped {
    key: Key,
    pub buffer: Buffer,
    pub width: f32,
    pub height: f32,
    /// Distinct for every shaping, so what was built from an earlier one can tell it is stale.
    pub generation: u64,
    /// Frames since it was last used (evicted when an element goes away).
    idle: u32,
}

/// Shaped text per element handle: its body (slot 0) and its title bar (slot 1).
pub(crate) type ShapedTexts = rustc_hash::FxHashMap<String, [Option<Shaped>; 2]>;

/// Bytes of text shaped per frame at most (past the first shaping of the frame, which always
/// goes ahead). Shaping costs about a microsecond a character here, so a
/// burst of new or changed text (thousands of labels renamed at once, long typewriter lines
/// revealing) is spread over frames instead of stalling one.
pub(crate) const SHAPE_BUDGET_CHARS: usize = 16_384;

pub(crate) struct TextShaper {
    fonts: FontSystem,
    cache: ShapedTexts,
    /// Characters this frame may still shape.
    budget: usize,
    /// The last shaping's generation.
    generation: u64,
    /// The CJK font once text needed one and it was loaded into `fonts`; `cjk_tried` says the
    /// lookup happened (it happens at most once).
    cjk: Option<&'static super::fallback::CjkFont>,
    cjk_tried: bool,
}

impl std::fmt::Debug for TextShaper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextShaper").field("cached", &self.cache.len()).finish()
    }
}

fn color(c: [u8; 4]) -> Color {
    Color::rgba(c[0], c[1], c[2], c[3])
}

impl TextShaper {
    pub fn new() -> Self {
        let mut db = cosmic_text::fontdb::Database::new();
        db.load_font_data(FONT.to_vec());
        db.set_sans_serif_family(FAMILY);
        Self {
            fonts: FontSystem::new_with_locale_and_db("en-US".into(), db),
            cache: ShapedTexts::default(),
            budget: SHAPE_BUDGET_CHARS,
            generation: 0,
            cjk: None,
            cjk_tried: false,
        }
    }

    /// Shapes `text` (or the style's coloured `runs`) for element `handle`'s slot `slot` (0 body,
    /// 1 title), reusing the cached shaping when nothing it depends on changed. A hit allocates
    /// nothing: this runs for every element every frame. Past the frame's shaping budget a stale
    /// shaping is returned when there is one, else None.
    pub fn shape(&mut self, handle: &str, slot: u8, text: &str, runs: Option<&[TextRun]>, look: &Look) -> Option<&Shaped> {
        let slot = usize::from(slot.min(1));
        let cached = self.cache.get(handle).and_then(|s| s[slot].as_ref());
        let fresh = cached.is_some_and(|s| s.key.matches(text, runs, look));
        let cost = text.len() + runs.map_or(0, |r| r.iter().map(|r| r.text.len()).sum());
        // The first shaping of a frame always goes ahead, so any one element can be drawn.
        if !fresh && cost > self.budget && self.budget < SHAPE_BUDGET_CHARS {
            let stale = self.cache.get_mut(handle).and_then(|s| s[slot].as_mut())?;
            stale.idle = 0;
            return Some(stale);
        }
        if !fresh {
            self.budget = self.budget.saturating_sub(cost);
            let key = Key {
                text: text.to_string(),
                runs: runs.map(<[TextRun]>::to_vec),
                font_px: look.font_px,
                line_height: look.line_height,
                letter_spacing: look.letter_spacing,
                wrap_width: look.wrap_width,
                max_lines: look.max_lines,
                align: look.align,
                color: look.text_color,
            };
            self.generation += 1;
            let texts = std::iter::once(text).chain(runs.into_iter().flatten().map(|r| r.text.as_str()));
            if !self.cjk_tried && texts.flat_map(str::chars).any(super::fallback::needs_fallback) {
                self.cjk_tried = true;
                self.cjk = super::fallback::cjk_font().filter(|f| match self.fonts.db_mut().load_font_file(&f.path) {
                    Ok(()) => true,
                    Err(e) => {
                        tracing::warn!("the CJK font {} does not load: {e}", f.path.display());
                        false
                    }
                });
            }
            let shaped = shape_new(&mut self.fonts, key, self.generation, self.cjk);
            if !self.cache.contains_key(handle) {
                self.cache.insert(handle.to_string(), [None, None]);
            }
            self.cache.get_mut(handle).expect("inserted above")[slot] = Some(shaped);
        }
        let shaped = self.cache.get_mut(handle).and_then(|s| s[slot].as_mut()).expect("shaped above");
        shaped.idle = 0;
        Some(shaped)
    }

    /// Drops shaping for elements not drawn for a while (removed or expired ones).
    pub fn end_frame(&mut self) {
        self.budget = SHAPE_BUDGET_CHARS;
        self.cache.retain(|_, slots| {
            for slot in slots.iter_mut() {
                if let Some(s) = slot {
                    s.idle += 1;
                    if s.idle >= 120 {
                        *slot = None;
                    }
                }
            }
            slots.iter().any(Option::is_some)
        });
    }

    /// The font system (to rasterize with) and the shaped text (to draw), borrowed together.
    pub fn split(&mut self) -> (&mut FontSystem, &ShapedTexts) {
        (&mut self.fonts, &self.cache)
    }
}

/// Shapes `key`'s text; characters no font covers are shaped as U+FFFD (`fallback::drawable`).
fn shape_new(fonts: &mut FontSystem, key: Key, generation: u64, cjk: Option<&super::fallback::CjkFont>) -> Shaped {
    use super::fallback::drawable;
    let line_px = key.font_px * key.line_height;
    let mut buffer = Buffer::new(fonts, Metrics::new(key.font_px, line_px));
    buffer.set_wrap(if key.wrap_width.is_some() { Wrap::WordOrGlyph } else { Wrap::None });
    let height = key.max_lines.map(|n| n as f32 * line_px);
    buffer.set_size(key.wrap_width, height);
    let spacing = if key.font_px > 0.0 { key.letter_spacing / key.font_px } else { 0.0 };
    let attrs = Attrs::new().family(Family::Name(FAMILY)).color(color(key.color)).letter_spacing(spacing);
    let align = Some(match key.align {
        Align::Left => cosmic_text::Align::Left,
        Align::Center => cosmic_text::Align::Center,
        Align::Right => cosmic_text::Align::Right,
    });
    match &key.runs {
        Some(runs) => {
            let spans = runs.iter().map(|r| {
                let mut a = attrs.clone();
                if let Some(c) = r.color {
                    let mut rgba = c.rgba();
                    rgba[3] = key.color[3];
                    a = a.color(color(rgba));
                }
                if let Some(scale) = r.scale {
                    let px = key.font_px * scale.clamp(1, super::look::MAX_TEXT_SCALE) as f32;
                    a = a.metrics(Metrics::new(px, px * key.line_height));
                }
                (drawable(&r.text, cjk).map_or(std::borrow::Cow::Borrowed(r.text.as_str()), std::borrow::Cow::Owned), a)
            });
            let spans: Vec<_> = spans.collect();
            buffer.set_rich_text(spans.iter().map(|(t, a)| (t.as_ref(), a.clone())), &attrs, Shaping::Advanced, align);
        }
        None => {
            let text = drawable(&key.text, cjk);
            buffer.set_text(text.as_deref().unwrap_or(&key.text), &attrs, Shaping::Advanced, align);
        }
    }
    buffer.shape_until_scroll(fonts, false);
    let (mut width, mut bottom) = (0.0f32, 0.0f32);
    for run in buffer.layout_runs() {
        width = width.max(run.line_w);
        bottom = bottom.max(run.line_top + run.line_height);
    }
    // Centred and right-aligned lines are placed within the layout width: lay them out again
    // within the width actually used, so they sit inside the panel sized to it.
    if key.align != Align::Left && width > 0.0 {
        buffer.set_size(Some(width + 0.5), height);
        buffer.shape_until_scroll(fonts, false);
    }
    Shaped { key, buffer, width, height: bottom, generation, idle: 0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::ui::{UiKind, UiTable};

    fn look(max_width: f64) -> Look {
        let mut t = UiTable::default();
        let spec = serde_json::from_value(serde_json::json!({"anchor": {"kind": "screen"}, "maxWidth": max_width})).unwrap();
        let h = t.create(UiKind::TextBox, spec, &crate::world::ui::Writer { agent: "a", operator: false }).unwrap();
        super::super::look::resolve(t.get(&h).unwrap(), 1.0)
    }

    #[test]
    fn wraps_to_the_width_and_measures_non_ascii() {
        let mut shaper = TextShaper::new();
        let narrow = look(120.0);
        let text = "Grüße aus Köln — ¿qué tal? Ωμέγα Привет";
        let s = shaper.shape("ui_0001", 0, text, None, &narrow).unwrap();
        let (w, h) = (s.width, s.height);
        assert!(w <= narrow.wrap_width.unwrap() + 0.5, "{w}");
        assert!(h >= 3.0 * narrow.font_px, "wrapped onto several lines: {h}");
        let glyphs: Vec<u16> = s.buffer.layout_runs().flat_map(|r| r.glyphs.iter().map(|g| g.glyph_id)).collect();
        assert!(glyphs.len() >= text.chars().filter(|c| !c.is_whitespace()).count(), "every character shaped");
        assert!(glyphs.iter().all(|g| *g != 0), "no missing glyphs (.notdef) for Latin, Greek or Cyrillic");
        let wide = look(2000.0);
        let s = shaper.shape("ui_0001", 0, text, None, &wide).unwrap();
        assert!(s.height < 2.0 * wide.font_px * wide.line_height, "one line when wide: {}", s.height);
    }

    #[test]
    fn japanese_shapes_with_the_system_cjk_font() {
        // fonts-noto-cjk is a dependency (.ci/deps installs it); DejaVu alone gives .notdef (0).
        let mut shaper = TextShaper::new();
        let s = shaper.shape("ui_0001", 0, "日本語です", None, &look(2000.0)).unwrap();
        let glyphs: Vec<u16> = s.buffer.layout_runs().flat_map(|r| r.glyphs.iter().map(|g| g.glyph_id)).collect();
        assert_eq!(glyphs.len(), 5, "{glyphs:?}");
        assert!(glyphs.iter().all(|g| *g != 0), "every ideograph and kana has a glyph: {glyphs:?}");
    }

    #[test]
    fn a_fade_does_not_reshape() {
        let mut shaper = TextShaper::new();
        let mut t = UiTable::default();
        let spec = serde_json::from_value(serde_json::json!({"anchor": {"kind": "screen"}, "text": "hi"})).unwrap();
        let h = t.create(UiKind::Label, spec, &crate::world::ui::Writer { agent: "a", operator: false }).unwrap();
        let e = t.get(&h).unwrap();
        let generation = |shaper: &mut TextShaper, opacity| {
            let look = super::super::look::resolve(e, opacity);
            shaper.shape("ui_0001", 0, "hi", None, &look).unwrap().generation
        };
        let first = generation(&mut shaper, 0.1);
        assert_eq!(generation(&mut shaper, 0.7), first, "the fade is applied when drawn");
        let other = super::super::look::Look { font_px: 20.0, ..super::super::look::resolve(e, 0.7) };
        assert_ne!(shaper.shape("ui_0001", 0, "hi", None, &other).unwrap().generation, first, "a new size reshapes");
    }

    #[test]
    fn shaping_past_the_frame_budget_waits_for_the_next_frame() {
        let mut shaper = TextShaper::new();
        let l = look(200.0);
        let long = "word ".repeat(SHAPE_BUDGET_CHARS / 5 - 1);
        assert!(shaper.shape("ui_0001", 0, &long, None, &l).is_some());
        assert!(shaper.shape("ui_0002", 0, "another label", None, &l).is_none(), "over budget, nothing to fall back on");
        assert!(shaper.shape("ui_0001", 0, &format!("{long}!"), None, &l).is_some(), "over budget: the stale shaping");
        shaper.end_frame();
        assert!(shaper.shape("ui_0002", 0, "another label", None, &l).is_some());
    }
}
