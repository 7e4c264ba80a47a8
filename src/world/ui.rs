//! In-world UI elements as world state: labels, text boxes, speech and thought bubbles, callouts
//! and HUD panels, each addressed by an opaque handle (`ui_0001`).
//!
//! The `ui.*` skills are the only writers. An element is plain declarative data (kind, anchor,
//! text, style, lifecycle) plus the tick it was created and the tick its content last changed;
//! everything time-dependent (fade, typewriter reveal, which queued line shows) is a pure
//! function of those ticks and the current one ([`UiElement::present`]), so the world hash, a
//! replay and a headless capture agree on what is on screen at any tick. Only expiry (ttl)
//! removes state, at the tick boundary, through [`UiTable::expire`], which the engine traces.
//! The renderer reads this table; it never writes it.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Ticks per second of the fixed step (lifecycle times are in sim time, never wall time).
const TICKS_PER_SECOND: f64 = 60.0;
/// How long a queued line stays after it is fully shown, when the queue gives no hold.
pub const DEFAULT_HOLD_MS: f64 = 2500.0;
/// Live elements one world may hold (each costs layout and draw work every frame).
pub const MAX_ELEMENTS: usize = 4096;
/// Characters of text one element may carry in total (text, title and lines together).
pub const MAX_TEXT_CHARS: usize = 8192;
/// Lines one element may carry (body lines plus queued lines).
pub const MAX_LINES: usize = 256;
/// Characters of text all of a world's elements may carry together (what a frame may have to
/// shape and keep shaped).
pub const MAX_WORLD_TEXT_CHARS: usize = 262_144;
/// Speech bubbles may be made past `MAX_ELEMENTS` by this many (one per speaking agent).
pub const SPEECH_RESERVE: usize = 256;
/// Elements one caller may own at once (the operator excepted), so no one caller can take the
/// whole pool — agents must still be able to speak.
pub const MAX_ELEMENTS_PER_OWNER: usize = 256;

/// The element kinds of the catalog's `ui.panel`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum UiKind {
    Label,
    TextBox,
    SpeechBubble,
    ThoughtBubble,
    Callout,
    HudPanel,
}

impl UiKind {
    pub fn as_str(self) -> &'static str {
        match self {
            UiKind::Label => "label",
            UiKind::TextBox => "textBox",
            UiKind::SpeechBubble => "speechBubble",
            UiKind::ThoughtBubble => "thoughtBubble",
            UiKind::Callout => "callout",
            UiKind::HudPanel => "hudPanel",
        }
    }
}

/// Where an element is: following an entity or at a point in the world (billboarded), or pinned
/// to the screen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Anchor {
    World(WorldAnchor),
    Screen(ScreenAnchor),
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WorldAnchor {
    /// The entity followed (its public id); when it is destroyed the element stops drawing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entity: Option<String>,
    /// A fixed point, used when no entity is given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub point: Option<[f64; 3]>,
    /// Added to the entity's or point's position (metres).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<[f64; 3]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub billboard: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth_test: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub render_order: Option<f64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Corner {
    #[default]
    TopLeft,
    TopRight,
    BottomLeft,
    BottomRight,
    TopCenter,
    BottomCenter,
    Center,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScreenAnchor {
    #[serde(default)]
    pub corner: Corner,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance: Option<f64>,
    /// Offset from the corner, in pixels (x right, y down; mirrored at right/bottom corners).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin_px: Option<[f64; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub render_order: Option<f64>,
}

impl Anchor {
    pub fn render_order(&self) -> f64 {
        match self {
            Anchor::World(w) => w.render_order.unwrap_or(0.0),
            Anchor::Screen(s) => s.render_order.unwrap_or(0.0),
        }
    }
}

/// A colour as the catalog gives it: `0xRRGGBB` or `{r, g, b, a}` bytes.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum UiColor {
    Hex(u32),
    Rgba { r: u8, g: u8, b: u8, a: u8 },
}

impl UiColor {
    /// sRGB bytes with alpha.
    pub fn rgba(self) -> [u8; 4] {
        match self {
            UiColor::Hex(c) => [(c >> 16) as u8, (c >> 8) as u8, c as u8, 255],
            UiColor::Rgba { r, g, b, a } => [r, g, b, a],
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Top,
    Bottom,
    Left,
    Right,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Align {
    Left,
    Center,
    Right,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GradientDirection {
    Vertical,
    Horizontal,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Background {
    pub color: UiColor,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opacity: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Border {
    pub width: f64,
    pub color: UiColor,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Gradient {
    pub from: UiColor,
    pub to: UiColor,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<GradientDirection>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opacity: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Padding {
    All(f64),
    Sides { top: f64, right: f64, bottom: f64, left: f64 },
}

impl Padding {
    /// (top, right, bottom, left)
    pub fn sides(&self) -> [f64; 4] {
        match *self {
            Padding::All(p) => [p; 4],
            Padding::Sides { top, right, bottom, left } => [top, right, bottom, left],
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TextRun {
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<UiColor>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Shadow {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blur: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<UiColor>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset_x: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset_y: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opacity: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TextStyle {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub align: Option<Align>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<UiColor>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub letter_spacing: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line_height: Option<f64>,
    /// Integer text scale (1 = the base 16 px size).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<u64>,
}

/// The catalog's style object; every field optional, defaults come from the element's kind.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UiStyle {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub background: Option<Background>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub border: Option<Border>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gradient: Option<Gradient>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_lines: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_width: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_width: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_wrap: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub padding: Option<Padding>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runs: Option<Vec<TextRun>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shadow: Option<Shadow>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<TextStyle>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Toward {
    pub x: f64,
    pub y: f64,
}

/// A bubble's tail (speech) or trail of puffs (thought), in pixels.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Tail {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toward: Option<Toward>,
}

/// A callout's leader: the box sits (dx, dy) pixels from the anchor, joined by a line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Leader {
    pub dx: f64,
    pub dy: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<UiColor>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dot: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Fade {
    pub duration_ms: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Feed {
    pub max_lines: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum QueueMode {
    #[default]
    Queue,
    Replace,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LineQueue {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_hold_ms: Option<f64>,
    #[serde(default)]
    pub lines: Vec<String>,
    #[serde(default)]
    pub mode: QueueMode,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Typewriter {
    /// Characters revealed per second.
    pub cps: f64,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Lifecycle {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fade: Option<Fade>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feed: Option<Feed>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue: Option<LineQueue>,
    /// Milliseconds of sim time until the element removes itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub typewriter: Option<Typewriter>,
}

/// What `ui.panel` (and the per-kind skills) describe: everything but the kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UiSpec {
    pub anchor: Anchor,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub style: Option<UiStyle>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_width: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_lines: Option<u64>,
    /// Metres per pixel of a world-anchored element (default 0.01: a 200 px panel is 2 m wide).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pixel_scale: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tail: Option<Tail>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leader: Option<Leader>,
    #[serde(default)]
    pub lifecycle: Lifecycle,
}

impl UiSpec {
    /// A spec with nothing but its anchor.
    pub fn at(anchor: Anchor) -> Self {
        UiSpec {
            anchor,
            style: None,
            text: None,
            title: None,
            lines: None,
            max_width: None,
            width: None,
            max_lines: None,
            pixel_scale: None,
            tail: None,
            leader: None,
            lifecycle: Lifecycle::default(),
        }
    }
}

/// What `ui.update` may change.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UiChange {
    pub handle: String,
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub style: Option<UiStyle>,
    #[serde(default)]
    pub lines: Option<Vec<String>>,
}

/// One live element.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UiElement {
    pub handle: String,
    pub kind: UiKind,
    #[serde(flatten)]
    pub spec: UiSpec,
    /// Who made it (the caller's agent id).
    pub owner: String,
    /// Set on the speech bubble `social.say` keeps for a speaker (one per speaker).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speaker: Option<String>,
    pub created_tick: u64,
    /// When the text or lines last changed (the typewriter and the queue restart there).
    pub content_tick: u64,
    /// Bumped on every change, so renderers and sync can tell what is new.
    pub revision: u64,
    /// Characters of text it carries (counted toward the world's limit).
    #[serde(skip)]
    pub chars: usize,
}

/// Why a `ui.*` change was refused (nothing changed).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum UiError {
    #[error("no UI element {handle}: {why}")]
    NotFound { handle: String, why: &'static str },
    #[error("{field}: {problem}")]
    Invalid { field: &'static str, problem: String },
    #[error("the world already holds {max} UI elements; remove some first")]
    Full { max: usize },
    #[error("{owner} already owns {max} UI elements; remove some of them first")]
    OwnerFull { owner: String, max: usize },
    #[error("the world's UI already carries {total} characters of text; this would add {adding}, past the limit of {max}")]
    TextBudget { total: usize, adding: usize, max: usize },
    #[error("{handle} belongs to {owner}; only its owner or the operator may change it")]
    NotYours { handle: String, owner: String },
    #[error("{handle} is {speaker}'s speech bubble; only social.say writes it")]
    SpeechBubble { handle: String, speaker: String },
}

/// What an element shows at a tick: the product of its lifecycle.
#[derive(Debug, Clone, PartialEq)]
pub struct Presented<'a> {
    pub opacity: f32,
    pub title: Option<&'a str>,
    /// The body with its line fully written out (cut by the feed; borrowed when it is just the
    /// element's text, so a static label costs no allocation per frame), and the characters of
    /// it (a range of char indices) the typewriter has not revealed yet: a renderer lays out
    /// `full`, so the panel keeps its size while the line appears, and draws `hidden` invisible.
    pub full: std::borrow::Cow<'a, str>,
    pub hidden: std::ops::Range<usize>,
}

impl Presented<'_> {
    /// The text a reader sees now: `full` without its hidden characters.
    pub fn body(&self) -> String {
        self.full.chars().take(self.hidden.start).chain(self.full.chars().skip(self.hidden.end)).collect()
    }
}

fn ms_between(from: u64, to: u64) -> f64 {
    to.saturating_sub(from) as f64 * 1000.0 / TICKS_PER_SECOND
}

impl UiElement {
    fn hold_ms(&self) -> f64 {
        self.spec.lifecycle.queue.as_ref().and_then(|q| q.default_hold_ms).unwrap_or(DEFAULT_HOLD_MS)
    }

    fn reveal_ms(&self, text: &str) -> f64 {
        match &self.spec.lifecycle.typewriter {
            Some(t) => text.chars().count() as f64 * 1000.0 / t.cps,
            None => 0.0,
        }
    }

    /// The queued line showing `age_ms` after the content changed, and how long it has shown.
    fn queued_line(&self, age_ms: f64) -> Option<(&str, f64)> {
        let lines = &self.spec.lifecycle.queue.as_ref()?.lines;
        let mut start = 0.0;
        for (i, line) in lines.iter().enumerate() {
            let span = self.reveal_ms(line) + self.hold_ms();
            if age_ms < start + span || i + 1 == lines.len() {
                return Some((line, age_ms - start));
            }
            start += span;
        }
        None
    }

    /// The element's opacity at `tick` (its fade in, and out before its ttl).
    pub fn opacity(&self, tick: u64) -> f32 {
        let lc = &self.spec.lifecycle;
        let Some(f) = &lc.fade else { return 1.0 };
        let age = ms_between(self.created_tick, tick);
        let (from, to) = (f.from.unwrap_or(0.0), f.to.unwrap_or(1.0));
        let mut opacity = if age >= f.duration_ms { to } else { from + (to - from) * age / f.duration_ms };
        // With a ttl, the element fades back out over the same duration before it expires.
        if let Some(ttl) = lc.ttl {
            let left = ttl - age;
            if left < f.duration_ms {
                opacity *= (left / f.duration_ms).clamp(0.0, 1.0);
            }
        }
        opacity.clamp(0.0, 1.0) as f32
    }

    /// What the element shows at `tick` (fade, typewriter, queue, feed applied).
    pub fn present(&self, tick: u64) -> Presented<'_> {
        let lc = &self.spec.lifecycle;
        let content_age = ms_between(self.content_tick, tick);
        // Characters of `text` revealed after `shown_ms`.
        let revealed = |text: &str, shown_ms: f64| -> (usize, usize) {
            let total = text.chars().count();
            match &lc.typewriter {
                Some(t) => (((t.cps * shown_ms / 1000.0).floor().max(0.0) as usize).min(total), total),
                None => (total, total),
            }
        };
        let first = match self.queued_line(content_age) {
            Some((line, shown)) => Some((line, shown)),
            None => self.spec.text.as_deref().filter(|t| !t.is_empty()).map(|t| (t, content_age)),
        };
        let hidden = first.map_or(0..0, |(text, shown)| {
            let (n, total) = revealed(text, shown);
            n..total
        });
        let keep = |lines: &[String]| lc.feed.as_ref().map_or(0, |f| lines.len().saturating_sub(f.max_lines as usize));
        let full = match (first, self.spec.lines.as_deref()) {
            (Some((text, _)), None | Some([])) => std::borrow::Cow::Borrowed(text),
            (first, lines) => {
                let mut parts: Vec<&str> = first.map(|(t, _)| t).into_iter().collect();
                if let Some(lines) = lines {
                    parts.extend(lines.iter().skip(keep(lines)).map(String::as_str));
                }
                std::borrow::Cow::Owned(parts.join("\n"))
            }
        };
        Presented { opacity: self.opacity(tick), title: self.spec.title.as_deref(), full, hidden }
    }

    /// How long the queued lines take to show from the content tick, ms (reveal plus hold each).
    fn queue_span_ms(&self) -> f64 {
        let lines = self.spec.lifecycle.queue.as_ref().map_or(&[][..], |q| &q.lines[..]);
        lines.iter().map(|l| self.reveal_ms(l) + self.hold_ms()).sum()
    }

    /// Appends lines to the queue: lines already shown in full (and held) are dropped, and when
    /// the whole queue has been shown the new lines start a fresh queue now (they would
    /// otherwise appear at once, already "revealed"); a ttl is extended to cover the queue.
    fn queue_lines(&mut self, lines: Vec<String>, tick: u64) {
        let age = ms_between(self.content_tick, tick);
        let finished = age >= self.queue_span_ms();
        let shown = if finished { usize::MAX } else { self.shown_lines(age) };
        let hold = self.hold_ms();
        let spans: Vec<f64> =
            self.spec.lifecycle.queue.as_ref().map_or(Vec::new(), |q| q.lines.iter().map(|l| self.reveal_ms(l) + hold).collect());
        let Some(queue) = self.spec.lifecycle.queue.as_mut() else { return };
        if finished {
            queue.lines.clear();
            self.content_tick = tick;
        } else if shown > 0 {
            // Drop whole ticks' worth of fully shown lines so the showing line keeps its place.
            let dropped_ms: f64 = spans[..shown].iter().sum();
            let ticks = (dropped_ms * TICKS_PER_SECOND / 1000.0).floor();
            if (ticks * 1000.0 / TICKS_PER_SECOND - dropped_ms).abs() < 1e-9 {
                queue.lines.drain(..shown);
                self.content_tick += ticks as u64;
            }
        }
        queue.lines.extend(lines);
        if self.spec.lifecycle.ttl.is_some() {
            self.spec.lifecycle.ttl = Some(ms_between(self.created_tick, self.content_tick) + self.queue_span_ms());
        }
    }

    /// Queued lines shown in full (revealed and held) `age_ms` after the content changed.
    fn shown_lines(&self, age_ms: f64) -> usize {
        let Some(queue) = &self.spec.lifecycle.queue else { return 0 };
        let mut end = 0.0;
        for (i, line) in queue.lines.iter().enumerate() {
            end += self.reveal_ms(line) + self.hold_ms();
            if age_ms < end {
                return i;
            }
        }
        queue.lines.len()
    }

    /// The tick the last queued line starts showing at.
    pub fn last_line_start_tick(&self) -> u64 {
        let Some(queue) = &self.spec.lifecycle.queue else { return self.content_tick };
        let before: f64 = queue.lines.iter().take(queue.lines.len().saturating_sub(1)).map(|l| self.reveal_ms(l) + self.hold_ms()).sum();
        self.content_tick + (before * TICKS_PER_SECOND / 1000.0).round() as u64
    }

    /// Queued lines not yet shown in full at `tick` (the one showing included).
    pub fn waiting_lines(&self, tick: u64) -> usize {
        let total = self.spec.lifecycle.queue.as_ref().map_or(0, |q| q.lines.len());
        total - self.shown_lines(ms_between(self.content_tick, tick)).min(total)
    }

    /// Whether what it shows may change by itself between ticks `from` and `to` (some tick after
    /// `from`, up to `to`, falls in its fade in, its typewriter or queue, or its fade out), so a
    /// viewer that has `from` needs `to` even when nothing else changed. Its removal at the ttl
    /// is a change of its own.
    pub fn changes_between(&self, from: u64, to: u64) -> bool {
        let lc = &self.spec.lifecycle;
        // Float to integer casts saturate, so a hostile duration cannot wrap.
        let ticks = |ms: f64| (ms * TICKS_PER_SECOND / 1000.0).ceil() as u64;
        // What shows at the ticks after `start` up to `end` may differ from the tick before.
        let overlaps = |start: u64, end: u64| start < to && from < end;
        if let Some(f) = &lc.fade {
            let d = ticks(f.duration_ms);
            if overlaps(self.created_tick, self.created_tick.saturating_add(d)) {
                return true;
            }
            if let Some(end) = self.expires_at()
                && overlaps(end.saturating_sub(d), end)
            {
                return true;
            }
        }
        let writing = match (&lc.queue, &lc.typewriter) {
            (Some(_), _) => self.queue_span_ms(),
            (None, Some(_)) => self.reveal_ms(self.spec.text.as_deref().unwrap_or_default()),
            (None, None) => 0.0,
        };
        overlaps(self.content_tick, self.content_tick.saturating_add(ticks(writing)))
    }

    /// The tick at which the ttl removes the element, if it has one.
    pub fn expires_at(&self) -> Option<u64> {
        let ttl = self.spec.lifecycle.ttl?;
        // The schema bounds ttl; saturating keeps a hostile one (or a future caller) from wrapping.
        Some(self.created_tick.saturating_add((ttl * TICKS_PER_SECOND / 1000.0).ceil() as u64))
    }
}

/// Checks what a schema cannot say: a world anchor names an entity or a point, and the text
/// stays within the engine's limits.
fn check_spec(spec: &UiSpec) -> Result<usize, UiError> {
    if let Anchor::World(w) = &spec.anchor
        && w.entity.is_none()
        && w.point.is_none()
    {
        return Err(UiError::Invalid { field: "anchor", problem: "a world anchor needs an entity or a point".into() });
    }
    check_text(spec.text.as_deref(), spec.title.as_deref(), spec.lines.as_deref(), spec)
}

fn check_text(text: Option<&str>, title: Option<&str>, lines: Option<&[String]>, spec: &UiSpec) -> Result<usize, UiError> {
    let queued = spec.lifecycle.queue.as_ref().map_or(&[][..], |q| &q.lines[..]);
    let line_count = lines.map_or(0, <[String]>::len) + queued.len();
    if line_count > MAX_LINES {
        return Err(UiError::Invalid {
            field: "lines",
            problem: format!("{line_count} lines (body and queue) exceed the limit of {MAX_LINES}"),
        });
    }
    let runs = spec.style.as_ref().and_then(|s| s.runs.as_ref()).map_or(0, |r| r.iter().map(|r| r.text.chars().count()).sum());
    let chars = text.map_or(0, |t| t.chars().count())
        + title.map_or(0, |t| t.chars().count())
        + lines.into_iter().flatten().chain(queued).map(|l| l.chars().count()).sum::<usize>()
        + runs;
    if chars > MAX_TEXT_CHARS {
        return Err(UiError::Invalid { field: "text", problem: format!("{chars} characters exceed the limit of {MAX_TEXT_CHARS}") });
    }
    Ok(chars)
}

/// Who is changing the UI: the caller's agent id, and whether it is the operator (who may change
/// any element and is not held to the per-owner quota).
#[derive(Debug, Clone, Copy)]
pub struct Writer<'a> {
    pub agent: &'a str,
    pub operator: bool,
}

/// Every live element of a world, by handle, and the clock the lifecycles read.
#[derive(Debug, Clone, Default)]
pub struct UiTable {
    elements: BTreeMap<u64, Arc<UiElement>>,
    next: u64,
    /// Characters carried by all elements together.
    total_chars: usize,
    /// The tick the world is at (set by the engine each step; lifecycles are read against it).
    pub tick: u64,
}

/// `ui_0001`; handles are never reused within a world.
fn handle_text(n: u64) -> String {
    format!("ui_{n:04}")
}

/// The number in a canonical `ui_0001` handle (at least four digits, no extra leading zeros).
fn parse_handle(text: &str) -> Option<u64> {
    let digits = text.strip_prefix("ui_")?;
    if digits.len() < 4 || digits.len() > 19 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u64 = digits.parse().ok()?;
    (format!("{n:04}") == digits).then_some(n)
}

impl UiTable {
    pub fn len(&self) -> usize {
        self.elements.len()
    }

    pub fn is_empty(&self) -> bool {
        self.elements.is_empty()
    }

    pub fn get(&self, handle: &str) -> Option<&UiElement> {
        self.elements.get(&parse_handle(handle)?).map(|e| &**e)
    }

    /// Live elements in handle (creation) order.
    pub fn iter(&self) -> impl Iterator<Item = &UiElement> {
        self.elements.values().map(|e| &**e)
    }

    /// Live elements, shared (a renderer holds them for a frame without copying them).
    pub fn iter_shared(&self) -> impl Iterator<Item = &Arc<UiElement>> {
        self.elements.values()
    }

    /// Adds an element; the world anchor's entity was checked by the caller. `owner` may own at
    /// most `MAX_ELEMENTS_PER_OWNER` unless it is the operator.
    pub fn create(&mut self, kind: UiKind, spec: UiSpec, owner: &Writer<'_>) -> Result<String, UiError> {
        let chars = check_spec(&spec)?;
        if self.elements.len() >= MAX_ELEMENTS {
            return Err(UiError::Full { max: MAX_ELEMENTS });
        }
        if !owner.operator && self.elements.values().filter(|e| e.owner == owner.agent).count() >= MAX_ELEMENTS_PER_OWNER {
            return Err(UiError::OwnerFull { owner: owner.agent.to_string(), max: MAX_ELEMENTS_PER_OWNER });
        }
        self.insert(kind, spec, owner.agent, None, chars)
    }

    /// Adds a checked element within the world's text budget; returns its handle.
    fn insert(&mut self, kind: UiKind, spec: UiSpec, owner: &str, speaker: Option<&str>, chars: usize) -> Result<String, UiError> {
        self.check_budget(0, chars)?;
        self.next += 1;
        let handle = handle_text(self.next);
        let element = UiElement {
            handle: handle.clone(),
            kind,
            spec,
            owner: owner.to_string(),
            speaker: speaker.map(str::to_string),
            created_tick: self.tick,
            content_tick: self.tick,
            revision: 1,
            chars,
        };
        self.total_chars += chars;
        self.elements.insert(self.next, Arc::new(element));
        Ok(handle)
    }

    /// Refuses a change that would take the world's text from `before` to `after` characters
    /// for one element past `MAX_WORLD_TEXT_CHARS`.
    fn check_budget(&self, before: usize, after: usize) -> Result<(), UiError> {
        let total = self.total_chars - before;
        if after > before && total + after > MAX_WORLD_TEXT_CHARS {
            return Err(UiError::TextBudget { total: self.total_chars, adding: after - before, max: MAX_WORLD_TEXT_CHARS });
        }
        Ok(())
    }

    /// The element `handle` names, if `writer` may change it: its owner or the operator, and
    /// never a speech bubble (only `social.say` writes those).
    fn writable(&self, handle: &str, writer: &Writer<'_>) -> Result<u64, UiError> {
        let key = parse_handle(handle).filter(|k| self.elements.contains_key(k)).ok_or_else(|| self.missing(handle.to_string()))?;
        let e = &self.elements[&key];
        if let Some(speaker) = &e.speaker {
            return Err(UiError::SpeechBubble { handle: handle.to_string(), speaker: speaker.clone() });
        }
        if !writer.operator && e.owner != writer.agent {
            return Err(UiError::NotYours { handle: handle.to_string(), owner: e.owner.clone() });
        }
        Ok(key)
    }

    /// Applies `ui.update`; returns whether anything changed. A feed appends the given lines (and
    /// keeps its newest `maxLines`); a queue in `queue` mode appends them to the queue (as
    /// `social.say` does: a queue already shown in full starts over, and a ttl is extended to
    /// cover it), in `replace` mode starts over with them; otherwise lines replace the body lines.
    pub fn update(&mut self, change: UiChange, writer: &Writer<'_>) -> Result<bool, UiError> {
        let key = self.writable(&change.handle, writer)?;
        let tick = self.tick;
        let before = Arc::clone(&self.elements[&key]);
        let mut next = UiElement::clone(&before);
        let mut content = false;
        if let Some(text) = change.text {
            content |= next.spec.text.as_deref() != Some(text.as_str());
            next.spec.text = Some(text);
        }
        if let Some(title) = change.title {
            next.spec.title = Some(title);
        }
        if let Some(style) = change.style {
            next.spec.style = Some(style);
        }
        if let Some(lines) = change.lines {
            let spec = &mut next.spec;
            let lc = &mut spec.lifecycle;
            if let Some(feed) = &lc.feed {
                let body = spec.lines.get_or_insert_with(Vec::new);
                body.extend(lines);
                let extra = body.len().saturating_sub(feed.max_lines as usize);
                body.drain(..extra);
            } else if let Some(queue) = &mut lc.queue {
                match queue.mode {
                    QueueMode::Queue => next.queue_lines(lines, tick),
                    QueueMode::Replace => {
                        queue.lines = lines;
                        content = true;
                    }
                }
            } else {
                content |= spec.lines.as_ref() != Some(&lines);
                spec.lines = Some(lines);
            }
        }
        let chars = check_text(next.spec.text.as_deref(), next.spec.title.as_deref(), next.spec.lines.as_deref(), &next.spec)?;
        if next.spec == before.spec {
            return Ok(false);
        }
        self.check_budget(before.chars, chars)?;
        if content {
            next.content_tick = tick;
        }
        next.revision += 1;
        next.chars = chars;
        self.total_chars = self.total_chars - before.chars + chars;
        self.elements.insert(key, Arc::new(next));
        Ok(true)
    }

    /// Removes an element `writer` may change; a handle that resolves to nothing is `NotFound`.
    pub fn remove(&mut self, handle: &str, writer: &Writer<'_>) -> Result<UiElement, UiError> {
        let key = self.writable(handle, writer)?;
        Ok(self.take(key))
    }

    fn take(&mut self, key: u64) -> UiElement {
        let e = Arc::unwrap_or_clone(self.elements.remove(&key).expect("a live key"));
        self.total_chars -= e.chars;
        e
    }

    /// Makes `speaker`'s speech bubble (see `social.say`): not held to the per-owner quota, and
    /// with room kept beyond `MAX_ELEMENTS` so a full world cannot silence its agents.
    pub fn create_bubble(&mut self, spec: UiSpec, speaker: &str) -> Result<String, UiError> {
        if self.elements.len() >= MAX_ELEMENTS + SPEECH_RESERVE {
            return Err(UiError::Full { max: MAX_ELEMENTS + SPEECH_RESERVE });
        }
        let chars = check_spec(&spec)?;
        self.insert(UiKind::SpeechBubble, spec, speaker, Some(speaker), chars)
    }

    /// Queues a line on `speaker`'s speech bubble (see `UiElement::queue_lines`); refused when
    /// `max_waiting` lines are already waiting to be shown.
    pub fn append_line(&mut self, handle: &str, line: String, max_waiting: usize) -> Result<(), UiError> {
        let tick = self.tick;
        let key = parse_handle(handle).filter(|k| self.elements.contains_key(k)).ok_or_else(|| self.missing(handle.to_string()))?;
        let before = Arc::clone(&self.elements[&key]);
        if before.spec.lifecycle.queue.is_none() {
            return Err(UiError::Invalid { field: "lines", problem: format!("{handle} has no line queue") });
        }
        let waiting = before.waiting_lines(tick);
        if waiting >= max_waiting {
            return Err(UiError::Invalid {
                field: "text",
                problem: format!("{handle} already has {waiting} lines waiting to be shown (at most {max_waiting})"),
            });
        }
        let mut next = UiElement::clone(&before);
        next.queue_lines(vec![line], tick);
        let chars = check_text(next.spec.text.as_deref(), next.spec.title.as_deref(), next.spec.lines.as_deref(), &next.spec)?;
        self.check_budget(before.chars, chars)?;
        next.chars = chars;
        next.revision += 1;
        self.total_chars = self.total_chars - before.chars + chars;
        self.elements.insert(key, Arc::new(next));
        Ok(())
    }

    /// Why a handle resolves to nothing (handles are sequential, so a past one is known).
    fn missing(&self, handle: String) -> UiError {
        let why = match parse_handle(&handle) {
            None => "not a UI handle (ui_0001, ...)",
            Some(n) if n >= 1 && n <= self.next => "it expired or was removed",
            Some(_) => "it never existed",
        };
        UiError::NotFound { handle, why }
    }

    /// Removes every element whose ttl has run out by `tick`, and every element following an
    /// entity that no longer exists (`alive` says which do); returns them in handle order.
    pub fn expire(&mut self, tick: u64, alive: impl Fn(&str) -> bool) -> Vec<UiElement> {
        let orphan = |e: &UiElement| matches!(&e.spec.anchor, Anchor::World(WorldAnchor { entity: Some(id), .. }) if !alive(id));
        let due: Vec<u64> =
            self.elements.iter().filter(|(_, e)| e.expires_at().is_some_and(|at| at <= tick) || orphan(e)).map(|(k, _)| *k).collect();
        due.into_iter().map(|k| self.take(k)).collect()
    }

    /// The UI's share of the world hash; None when there are no elements (so a world without
    /// UI hashes as it did before UI existed).
    pub fn hash(&self) -> Option<String> {
        if self.elements.is_empty() {
            return None;
        }
        let elements: Vec<&UiElement> = self.iter().collect();
        let text = serde_json::to_string(&elements).unwrap_or_default();
        Some(crate::digest::sha256_text(&Sha256::digest(text.as_bytes())))
    }
}

/// A UI table as snapshot data. Specs travel as their JSON: their serde form leaves optional
/// fields out, which only a self-describing format reads back (f64s round-trip exactly:
/// serde_json's `float_roundtrip`).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct UiTableState {
    elements: Vec<UiElementState>,
    next: u64,
    tick: u64,
}

#[derive(Debug, Serialize, Deserialize)]
struct UiElementState {
    key: u64,
    kind: UiKind,
    spec: String,
    owner: String,
    speaker: Option<String>,
    created_tick: u64,
    content_tick: u64,
    revision: u64,
}

impl UiTable {
    pub(crate) fn state(&self) -> Result<UiTableState, serde_json::Error> {
        let elements = self
            .elements
            .iter()
            .map(|(key, e)| {
                Ok(UiElementState {
                    key: *key,
                    kind: e.kind,
                    spec: serde_json::to_string(&e.spec)?,
                    owner: e.owner.clone(),
                    speaker: e.speaker.clone(),
                    created_tick: e.created_tick,
                    content_tick: e.content_tick,
                    revision: e.revision,
                })
            })
            .collect::<Result<_, serde_json::Error>>()?;
        Ok(UiTableState { elements, next: self.next, tick: self.tick })
    }

    /// The table `state` describes, each element checked as `ui.*` checks what it stores.
    pub(crate) fn from_state(state: UiTableState) -> Result<UiTable, super::state::WorldStateError> {
        use super::state::WorldStateError as E;
        let mut table = UiTable { elements: BTreeMap::new(), next: state.next, total_chars: 0, tick: state.tick };
        if state.elements.len() > MAX_ELEMENTS + SPEECH_RESERVE {
            return Err(E::TooMany { what: "UI elements", count: state.elements.len(), max: MAX_ELEMENTS + SPEECH_RESERVE });
        }
        for e in state.elements {
            if e.key == 0 || e.key > state.next || table.elements.contains_key(&e.key) {
                return Err(E::BadHandle { what: "UI element", key: e.key, next: state.next });
            }
            let handle = handle_text(e.key);
            let spec: UiSpec = serde_json::from_str(&e.spec).map_err(|error| E::Json { what: handle.clone(), error: error.to_string() })?;
            let chars = check_spec(&spec).map_err(|error| E::Ui { handle: handle.clone(), error })?;
            table.total_chars += chars;
            let element = UiElement {
                handle,
                kind: e.kind,
                spec,
                owner: e.owner,
                speaker: e.speaker,
                created_tick: e.created_tick,
                content_tick: e.content_tick,
                revision: e.revision,
                chars,
            };
            table.elements.insert(e.key, Arc::new(element));
        }
        if table.total_chars > MAX_WORLD_TEXT_CHARS {
            return Err(E::TooMany { what: "characters of UI text", count: table.total_chars, max: MAX_WORLD_TEXT_CHARS });
        }
        Ok(table)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const ME: Writer<'static> = Writer { agent: "agt_test", operator: false };

    fn spec(v: serde_json::Value) -> UiSpec {
        serde_json::from_value(v).unwrap()
    }

    fn label(table: &mut UiTable, extra: serde_json::Value) -> String {
        let mut v = json!({"anchor": {"kind": "screen", "corner": "top-left"}, "text": "hello"});
        v.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        table.create(UiKind::Label, spec(v), &ME).unwrap()
    }

    #[test]
    fn handles_are_opaque_and_never_reused() {
        let mut t = UiTable::default();
        let a = label(&mut t, json!({}));
        assert_eq!(a, "ui_0001");
        assert!(t.remove(&a, &ME).is_ok());
        let again = t.remove(&a, &ME).unwrap_err().to_string();
        assert!(again.contains("expired or was removed"), "{again}");
        assert!(t.remove("ui_0099", &ME).unwrap_err().to_string().contains("never"));
        assert!(t.remove("box1", &ME).unwrap_err().to_string().contains("not a UI handle"));
        assert_eq!(label(&mut t, json!({})), "ui_0002");
        assert!(t.get("ui_1").is_none() && t.get("box1").is_none() && t.get("ui_0001").is_none());
    }

    #[test]
    fn ttl_expires_at_the_tick_it_runs_out() {
        let mut t = UiTable::default();
        let h = label(&mut t, json!({"lifecycle": {"ttl": 500}}));
        assert_eq!(t.get(&h).unwrap().expires_at(), Some(30));
        assert!(t.expire(29, |_| true).is_empty());
        assert_eq!(t.expire(30, |_| true)[0].handle, h);
        assert!(t.get(&h).is_none());
    }

    #[test]
    fn typewriter_reveals_at_its_rate_and_restarts_on_new_text() {
        let mut t = UiTable::default();
        let h = label(&mut t, json!({"text": "héllo wörld", "lifecycle": {"typewriter": {"cps": 30}}}));
        t.tick = 6; // 100 ms -> 3 characters
        assert_eq!(t.get(&h).unwrap().present(t.tick).body(), "hél");
        t.tick = 600;
        assert_eq!(t.get(&h).unwrap().present(t.tick).body(), "héllo wörld");
        assert!(t.update(UiChange { handle: h.clone(), text: Some("new".into()), ..Default::default() }, &ME).unwrap());
        assert_eq!(t.get(&h).unwrap().present(t.tick).body(), "");
        assert!(
            !t.update(UiChange { handle: h.clone(), text: Some("new".into()), ..Default::default() }, &ME).unwrap(),
            "same text: unchanged"
        );
    }

    #[test]
    fn queued_lines_show_one_after_another_then_the_last_stays() {
        let mut t = UiTable::default();
        let h = label(&mut t, json!({"lifecycle": {"queue": {"lines": ["one", "two"], "defaultHoldMs": 1000}}}));
        let at = |t: &UiTable, tick| t.get(&h).unwrap().present(tick).body();
        assert_eq!(at(&t, 0), "one");
        assert_eq!(at(&t, 59), "one");
        assert_eq!(at(&t, 60), "two");
        assert_eq!(at(&t, 6000), "two");
    }

    #[test]
    fn a_feed_keeps_its_newest_lines() {
        let mut t = UiTable::default();
        let h = label(&mut t, json!({"lines": ["a"], "lifecycle": {"feed": {"maxLines": 2}}}));
        t.update(UiChange { handle: h.clone(), lines: Some(vec!["b".into(), "c".into()]), ..Default::default() }, &ME).unwrap();
        assert_eq!(t.get(&h).unwrap().spec.lines.as_deref().unwrap(), ["b", "c"]);
        assert_eq!(t.get(&h).unwrap().present(0).body(), "hello\nb\nc");
    }

    #[test]
    fn fade_ramps_in_and_out_before_the_ttl() {
        let mut t = UiTable::default();
        let h = label(&mut t, json!({"lifecycle": {"fade": {"durationMs": 1000}, "ttl": 4000}}));
        let e = t.get(&h).unwrap();
        assert_eq!(e.present(0).opacity, 0.0);
        assert!((e.present(30).opacity - 0.5).abs() < 1e-6);
        assert_eq!(e.present(120).opacity, 1.0);
        assert!((e.present(210).opacity - 0.5).abs() < 1e-6);
    }

    #[test]
    fn an_element_changes_by_itself_only_during_its_fade_and_typewriter() {
        let mut t = UiTable::default();
        // 5 characters at 30 cps: typed out at tick 10; a 500 ms fade: in by tick 30, out from
        // tick 90 to the ttl's 120.
        let h = label(&mut t, json!({"lifecycle": {"typewriter": {"cps": 30}, "fade": {"durationMs": 500}, "ttl": 2000}}));
        let e = t.get(&h).unwrap();
        assert!(e.changes_between(0, 1) && e.changes_between(29, 30));
        assert!(!e.changes_between(30, 31) && !e.changes_between(30, 90), "fully in, fully typed");
        assert!(e.changes_between(45, 105) && e.changes_between(90, 91), "fading out");
        let still = label(&mut t, json!({}));
        assert!(!t.get(&still).unwrap().changes_between(0, 1000), "a plain label never changes by itself");
        let queue = label(&mut t, json!({"lifecycle": {"queue": {"lines": ["one", "two"], "defaultHoldMs": 1000}}}));
        let q = t.get(&queue).unwrap();
        assert!(q.changes_between(119, 120) && !q.changes_between(120, 500), "the last line stays once shown");
    }

    #[test]
    fn refusals_change_nothing() {
        let mut t = UiTable::default();
        let bad = spec(json!({"anchor": {"kind": "world"}}));
        assert!(matches!(t.create(UiKind::Label, bad, &ME), Err(UiError::Invalid { field: "anchor", .. })));
        let huge = spec(json!({"anchor": {"kind": "screen"}, "text": "x".repeat(MAX_TEXT_CHARS + 1)}));
        assert!(matches!(t.create(UiKind::Label, huge, &ME), Err(UiError::Invalid { field: "text", .. })));
        assert!(t.is_empty() && t.hash().is_none());
        let h = label(&mut t, json!({}));
        let before = t.hash();
        let err = t.update(UiChange { handle: h.clone(), text: Some("y".repeat(MAX_TEXT_CHARS + 1)), ..Default::default() }, &ME);
        assert!(err.is_err());
        assert_eq!(t.hash(), before);
        assert!(matches!(t.update(UiChange { handle: "ui_9999".into(), ..Default::default() }, &ME), Err(UiError::NotFound { .. })));
    }

    #[test]
    fn only_the_owner_or_the_operator_may_change_an_element_and_speech_bubbles_not_at_all() {
        let mut t = UiTable::default();
        let h = label(&mut t, json!({}));
        let mallory = Writer { agent: "agt_mallory", operator: false };
        let change = || UiChange { handle: h.clone(), text: Some("mine now".into()), ..Default::default() };
        assert!(matches!(t.update(change(), &mallory), Err(UiError::NotYours { .. })));
        assert!(matches!(t.remove(&h, &mallory), Err(UiError::NotYours { .. })));
        assert!(t.update(change(), &Writer { agent: "agt_script", operator: true }).unwrap());
        let bubble = t.create_bubble(spec(json!({"anchor": {"kind": "screen"}})), "agt_test").unwrap();
        assert!(matches!(t.remove(&bubble, &ME), Err(UiError::SpeechBubble { .. })));
    }

    #[test]
    fn owners_have_a_quota_and_the_world_a_text_budget() {
        let mut t = UiTable::default();
        for _ in 0..MAX_ELEMENTS_PER_OWNER {
            label(&mut t, json!({}));
        }
        let more = spec(json!({"anchor": {"kind": "screen"}}));
        assert!(matches!(t.create(UiKind::Label, more.clone(), &ME), Err(UiError::OwnerFull { .. })));
        assert!(t.create(UiKind::Label, more, &Writer { agent: "agt_other", operator: false }).is_ok());
        let mut t = UiTable::default();
        let big = |t: &mut UiTable, who: &str| {
            let s = spec(json!({"anchor": {"kind": "screen"}, "text": "x".repeat(MAX_TEXT_CHARS)}));
            t.create(UiKind::Label, s, &Writer { agent: who, operator: true })
        };
        for i in 0..MAX_WORLD_TEXT_CHARS / MAX_TEXT_CHARS {
            big(&mut t, &format!("agt_{i}")).unwrap();
        }
        assert!(matches!(big(&mut t, "agt_late"), Err(UiError::TextBudget { .. })));
        let h = t.iter().next().unwrap().handle.clone();
        t.remove(&h, &Writer { agent: "x", operator: true }).unwrap();
        assert!(big(&mut t, "agt_late").is_ok(), "removing frees the budget");
    }

    #[test]
    fn an_element_following_a_destroyed_entity_leaves() {
        let mut t = UiTable::default();
        let h = t.create(UiKind::Label, spec(json!({"anchor": {"kind": "world", "entity": "ent_0001"}})), &ME).unwrap();
        assert!(t.expire(1, |_| true).is_empty());
        assert_eq!(t.expire(2, |id| id != "ent_0001")[0].handle, h);
    }

    #[test]
    fn huge_ttls_saturate_instead_of_wrapping() {
        let mut t = UiTable { tick: 5, ..Default::default() };
        let h = label(&mut t, json!({"lifecycle": {"ttl": 1e300}}));
        assert_eq!(t.get(&h).unwrap().expires_at(), Some(u64::MAX));
        assert!(t.expire(6, |_| true).is_empty());
    }

    #[test]
    fn appended_queue_lines_wait_their_turn_and_extend_the_ttl() {
        let mut t = UiTable::default();
        let h = label(
            &mut t,
            json!({"lifecycle": {"queue": {"lines": ["one"], "defaultHoldMs": 1000}, "ttl": 1000, "typewriter": {"cps": 30}}}),
        );
        t.tick = 200; // "one" (100 ms + 1000 ms hold) is long done
        t.update(UiChange { handle: h.clone(), lines: Some(vec!["second".into()]), ..Default::default() }, &ME).unwrap();
        let e = t.get(&h).unwrap();
        assert_eq!(e.present(200).body(), "", "a fresh line starts unrevealed");
        assert_eq!(e.present(212).body(), "second");
        assert!(e.expires_at().unwrap() >= 200 + 12 + 60, "the ttl covers the new line: {:?}", e.expires_at());
    }
}
