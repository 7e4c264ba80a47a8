//! `world.digest`: the world in a few KiB of JSON, for an agent that observes without pixels.
//!
//! One pass over the entities counts them by shape and tag and keeps the `K` most notable in a
//! bounded heap (`K` rows is all the cap could ever hold); the agents, the UI and the trace's
//! in-memory tail are walked once each. Then the sections are filled in turn, each with its most
//! notable item first, until the next item would pass the caller's byte cap: a section that
//! stops is a prefix of its ranked list, and `cut` says how many items each left out. Memory
//! beyond the world's own is bounded by the cap (the heap, the rows), a constant (tag names
//! counted) and the number of agents (their bodies, looked up by entity).
//!
//! Deterministic: every list has a total order (ties by id), the tag tally keeps the first
//! `MAX_TRACKED_TAGS` names in id order, numbers are rounded the same way every time, and
//! nothing reads the wall clock, so a world gives the same bytes to every call. Reading a digest
//! changes nothing and is itself not a notable event, so two calls in a row answer alike.
//!
//! What a caller may see: the skill needs `scene.read`; agents need `agent.read` and the world
//! log's events `trace.read` (they carry other callers' inputs), otherwise `withheld` says which
//! permission would show them.

use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};
use std::rc::Rc;

use mlua::{Lua, Table};
use serde_json::{Map, Value, json};

use super::invalid;
use super::world::{numbers, out_of_bounds};
use crate::agents::table::Agents;
use crate::trace::{Event, EventKind, Payload, TraceLog};
use crate::world::ui::{Anchor, UiElement};
use crate::world::{EntityId, RenderShape, World, bounds};

/// The smallest cap a caller may ask for: room for the fixed sections at their largest.
pub(crate) const MIN_BYTES: usize = 1024;
/// The hard maximum.
pub(crate) const MAX_BYTES: usize = 65_536;
/// Distinct tag names counted by name; uses of names met later are counted as `tagsNotCounted`.
const MAX_TRACKED_TAGS: usize = 1024;
/// Tags an entity row shows (`moreTags` counts the rest).
const ROW_TAGS: usize = 4;
/// Characters of free text (UI text, speech, ids from callers) a row shows.
const TEXT_CHARS: usize = 120;
/// Characters of a name from a caller (actor ids, model asset ids) a row shows.
const NAME_CHARS: usize = 64;
/// No entity row is shorter than this (`{"color":"#ffffff","id":"ent_0001","pos":[0,0,0],"shape":"box","size":1}`
/// is 75 bytes), so `cap / MIN_ENTITY_ROW` rows are more than any digest can show.
const MIN_ENTITY_ROW: usize = 70;
/// Larger event payloads are not opened for their `skill`, `code` and `text` fields.
const MAX_PAYLOAD_READ: usize = 16 * 1024;

/// What to summarise and for whom.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Request {
    /// Bytes of the answer's compact JSON, within [`MIN_BYTES`, `MAX_BYTES`].
    pub max_bytes: usize,
    /// Only what lies within `radius` of `point`.
    pub around: Option<Around>,
    pub tick: u64,
    /// The caller holds `agent.read`.
    pub sees_agents: bool,
    /// The caller holds `trace.read`.
    pub sees_events: bool,
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Around {
    pub point: [f64; 3],
    pub radius: f64,
}

impl Around {
    /// Distance from the point when within the radius (a NaN position is never within).
    fn within(&self, position: [f32; 3]) -> Option<f64> {
        let d = crate::world::spatial::distance(position.map(f64::from), self.point);
        (d <= self.radius).then_some(d)
    }
}

/// An entity's place in the notable order: agent bodies, then tagged entities, then the rest;
/// within a class nearest the point (with `around`) or largest first; then by id.
#[derive(Debug, Clone, Copy)]
struct Candidate {
    class: u8,
    /// Smaller is more notable: the distance, or minus the size.
    metric: f64,
    id: EntityId,
    position: [f32; 3],
    /// Extent along each axis (size times scale).
    extent: [f64; 3],
    shape: Option<RenderShape>,
    color: u32,
    distance: Option<f64>,
}

impl Candidate {
    fn key(&self) -> (u8, f64, EntityId) {
        (self.class, self.metric, self.id)
    }
}

impl PartialEq for Candidate {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Candidate {}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> Ordering {
        let (a, b) = (self.key(), other.key());
        a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2))
    }
}

/// A number as the digest writes it: rounded to `1 / scale`, whole values as integers, never
/// `-0`; a value JSON cannot hold (NaN, infinity) as null.
fn rounded(v: f64, scale: f64) -> Value {
    let r = (v * scale).round() / scale + 0.0;
    crate::script::convert::number(r).unwrap_or(Value::Null)
}

/// Positions and distances to the centimetre.
fn metres(v: f64) -> Value {
    rounded(v, 100.0)
}

fn point(p: [f64; 3]) -> Value {
    Value::Array(p.iter().map(|&v| metres(v)).collect())
}

fn colour(rgb: u32) -> Value {
    Value::String(format!("#{:06x}", rgb & 0xff_ffff))
}

/// `text` cut to `max` characters (an ellipsis marks the cut).
fn clipped(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((at, _)) => format!("{}…", &text[..at]),
    }
}

fn shape_name(shape: Option<RenderShape>) -> &'static str {
    match shape {
        Some(RenderShape::Box) => "box",
        Some(RenderShape::Sphere) => "sphere",
        Some(RenderShape::Capsule) => "capsule",
        Some(RenderShape::Asset(_)) => "model",
        None => "none",
    }
}

/// Index into the shape tally, in the order `SHAPES` names them.
fn shape_slot(shape: Option<RenderShape>) -> usize {
    match shape {
        Some(RenderShape::Box) => 0,
        Some(RenderShape::Sphere) => 1,
        Some(RenderShape::Capsule) => 2,
        Some(RenderShape::Asset(_)) => 3,
        None => 4,
    }
}

const SHAPES: [&str; 5] = ["box", "sphere", "capsule", "model", "none"];

/// The serialized length of a JSON value, without keeping the text.
fn json_len(v: &Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    // Writing a `Value` into a sink that never fails cannot fail.
    let _ = serde_json::to_writer(&mut count, v);
    count.0
}

/// One section of the answer: a list of rows (or, for tags, an object of name → count), its
/// rows produced lazily in notable order.
struct Section<'a> {
    key: &'static str,
    /// Rows taken per turn.
    weight: usize,
    /// Rows in scope (what `cut` subtracts the shown ones from).
    total: usize,
    next: Box<dyn Iterator<Item = Row> + 'a>,
    shown: Vec<Row>,
    open: bool,
}

enum Row {
    Item(Value),
    Entry(String, Value),
}

impl Row {
    /// Bytes it adds to its (non-empty) section, comma included.
    fn cost(&self, first: bool) -> usize {
        let comma = usize::from(!first);
        match self {
            Row::Item(v) => json_len(v) + comma,
            Row::Entry(k, v) => json_len(&Value::String(k.clone())) + 1 + json_len(v) + comma,
        }
    }
}

impl<'a> Section<'a> {
    fn new(key: &'static str, weight: usize, total: usize, next: impl Iterator<Item = Row> + 'a) -> Self {
        Self { key, weight, total, next: Box::new(next), shown: Vec::new(), open: true }
    }

    fn is_map(&self) -> bool {
        self.key == "tags"
    }

    fn empty(&self) -> Value {
        if self.is_map() { Value::Object(Map::new()) } else { Value::Array(Vec::new()) }
    }

    fn value(self) -> Value {
        if self.is_map() {
            let mut map = Map::new();
            for row in self.shown {
                if let Row::Entry(k, v) = row {
                    map.insert(k, v);
                }
            }
            Value::Object(map)
        } else {
            Value::Array(self.shown.into_iter().filter_map(|r| if let Row::Item(v) = r { Some(v) } else { None }).collect())
        }
    }
}

/// The digest of `world` for `request`.
pub(crate) fn digest(world: &World, agents: &Agents, trace: &TraceLog, request: &Request) -> Value {
    let cap = request.max_bytes.clamp(MIN_BYTES, MAX_BYTES);
    let around = request.around;

    // Agent bodies, by entity (one per body: the first agent in id order); only for a caller
    // who may read agents, so neither a row's `agent` nor the order gives them away.
    let mut bodies: Vec<(EntityId, &str)> =
        if request.sees_agents { agents.iter().filter_map(|a| a.entity.map(|e| (e, &*a.id))).collect() } else { Vec::new() };
    bodies.sort();
    bodies.dedup_by_key(|(e, _)| *e);
    let body_of = |id: EntityId| bodies.binary_search_by_key(&id, |(e, _)| *e).ok().map(|at| bodies[at].1);

    // The one pass over the entities.
    let keep = cap / MIN_ENTITY_ROW + 1;
    let mut heap: BinaryHeap<Candidate> = BinaryHeap::with_capacity(keep + 1);
    let mut shapes = [0usize; SHAPES.len()];
    let mut tags: HashMap<String, usize> = HashMap::new();
    let (mut in_scope, mut tagged, mut tags_not_counted) = (0usize, 0usize, 0usize);
    world.for_each_entity(|e| {
        let distance = match &around {
            Some(a) => match a.within(e.transform.position) {
                Some(d) => Some(d),
                None => return,
            },
            None => None,
        };
        in_scope += 1;
        let shape = e.renderable.map(|r| r.shape);
        shapes[shape_slot(shape)] += 1;
        let names = e.tags.map_or(&[][..], |t| &t.0[..]);
        if !names.is_empty() {
            tagged += 1;
        }
        for name in names {
            if let Some(n) = tags.get_mut(name.as_str()) {
                *n += 1;
            } else if tags.len() < MAX_TRACKED_TAGS {
                tags.insert(name.clone(), 1);
            } else {
                tags_not_counted += 1;
            }
        }
        let size = e.renderable.map_or(0.0, |r| f64::from(r.size));
        let extent = e.transform.scale.map(|s| f64::from(s) * size);
        let class = if body_of(e.id).is_some() {
            0
        } else if !names.is_empty() {
            1
        } else {
            2
        };
        let largest = extent.iter().copied().fold(0.0, f64::max);
        let candidate = Candidate {
            class,
            metric: distance.unwrap_or(-largest),
            id: e.id,
            position: e.transform.position,
            extent,
            shape,
            color: e.renderable.map_or(0, |r| r.color),
            distance,
        };
        if heap.len() < keep {
            heap.push(candidate);
        } else if heap.peek().is_some_and(|worst| candidate < *worst) {
            heap.pop();
            heap.push(candidate);
        }
    });
    let notable = heap.into_sorted_vec();

    let entity_rows = notable.into_iter().map(|c| {
        let mut row = Map::new();
        row.insert("id".into(), Value::String(c.id.to_string()));
        row.insert("shape".into(), Value::from(shape_name(c.shape)));
        if let Some(RenderShape::Asset(handle)) = c.shape
            && let Some(asset) = world.model_asset(handle)
        {
            row.insert("model".into(), Value::String(clipped(asset, NAME_CHARS)));
        }
        let size = if c.extent[0] == c.extent[1] && c.extent[1] == c.extent[2] {
            rounded(c.extent[0], 1000.0)
        } else {
            Value::Array(c.extent.iter().map(|&v| rounded(v, 1000.0)).collect())
        };
        row.insert("size".into(), size);
        row.insert("color".into(), colour(c.color));
        row.insert("pos".into(), point(c.position.map(f64::from)));
        if let Some(d) = c.distance {
            row.insert("dist".into(), metres(d));
        }
        if let Some(t) = world.tags(c.id)
            && !t.0.is_empty()
        {
            row.insert("tags".into(), Value::Array(t.0.iter().take(ROW_TAGS).map(|n| Value::String(n.clone())).collect()));
            if t.0.len() > ROW_TAGS {
                row.insert("moreTags".into(), Value::from(t.0.len() - ROW_TAGS));
            }
        }
        if let Some(agent) = body_of(c.id) {
            row.insert("agent".into(), Value::String(agent.to_string()));
        }
        Row::Item(Value::Object(row))
    });

    // Tag names by use, most used first, then by name.
    let mut tag_counts: Vec<(String, usize)> = tags.into_iter().collect();
    tag_counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let distinct_tags = tag_counts.len();
    let tag_rows = tag_counts.into_iter().map(|(name, n)| Row::Entry(name, Value::from(n)));

    // UI on screen: screen-anchored elements, and world-anchored ones whose entity still lives
    // (and, with `around`, whose anchor lies within it), in handle order.
    let anchor_at = |el: &UiElement| -> Option<Option<[f32; 3]>> {
        match &el.spec.anchor {
            Anchor::Screen(_) => Some(None),
            Anchor::World(w) => match (&w.entity, w.point) {
                (Some(id), _) => world.resolve(id).and_then(|id| world.transform(id)).map(|t| Some(t.position)),
                (None, Some(p)) => Some(Some(p.map(|v| v as f32))),
                (None, None) => None,
            },
        }
    };
    let ui_in_scope = |el: &UiElement| match anchor_at(el) {
        None => false,
        Some(None) => true,
        Some(Some(p)) => around.is_none_or(|a| a.within(p).is_some()),
    };
    let ui_total = world.ui.iter().filter(|el| ui_in_scope(el)).count();
    let tick = request.tick;
    let ui_rows = world.ui.iter().filter(move |el| ui_in_scope(el)).map(move |el| {
        let shown = el.present(tick);
        let mut row = Map::new();
        row.insert("id".into(), Value::String(el.handle.clone()));
        row.insert("kind".into(), Value::from(el.kind.as_str()));
        if let Some(title) = shown.title.filter(|t| !t.is_empty()) {
            row.insert("title".into(), Value::String(clipped(title, TEXT_CHARS)));
        }
        row.insert("text".into(), Value::String(clipped(&shown.body(), TEXT_CHARS)));
        let on = match &el.spec.anchor {
            Anchor::Screen(s) => Value::String(format!(
                "screen:{}",
                serde_json::to_value(s.corner).ok().and_then(|c| c.as_str().map(String::from)).unwrap_or_default()
            )),
            Anchor::World(w) => match (&w.entity, w.point) {
                (Some(id), _) => Value::String(clipped(id, NAME_CHARS)),
                (None, Some(p)) => point(p),
                (None, None) => Value::Null,
            },
        };
        row.insert("on".into(), on);
        Row::Item(Value::Object(row))
    });

    let mut sections = vec![Section::new("entities", 2, in_scope, entity_rows)];
    let mut withheld = Map::new();
    let mut agent_count = None;
    if request.sees_agents {
        let position = |a: &crate::agents::record::AgentRecord| a.entity.and_then(|e| world.transform(e)).map(|t| t.position);
        let agent_in_scope = move |a: &crate::agents::record::AgentRecord| match around {
            None => true,
            Some(ar) => position(a).is_some_and(|p| ar.within(p).is_some()),
        };
        let total = agents.iter().filter(|a| agent_in_scope(a)).count();
        agent_count = Some(total);
        let rows = agents.iter().filter(move |a| agent_in_scope(a)).map(move |a| {
            let mut row = Map::new();
            row.insert("id".into(), Value::String(clipped(&a.id, NAME_CHARS)));
            row.insert("kind".into(), serde_json::to_value(a.kind).unwrap_or(Value::Null));
            if let Some(e) = a.entity {
                row.insert("entity".into(), Value::String(e.to_string()));
            }
            if let Some(p) = position(a) {
                row.insert("pos".into(), point(p.map(f64::from)));
            }
            row.insert("profile".into(), Value::from(a.profile.as_str()));
            row.insert("provider".into(), Value::from(a.llm.provider.as_str()));
            if let Some(t) = a.last_decision_tick {
                row.insert("decidedTick".into(), Value::from(t));
            }
            row.insert("thinking".into(), Value::Bool(a.in_flight.is_some()));
            row.insert("queued".into(), Value::from(a.queue.len()));
            if let Some(last) = a.previous_results.back() {
                let mut done = Map::new();
                if let Some(tool) = last.get("tool").and_then(Value::as_str) {
                    done.insert("tool".into(), Value::String(clipped(tool, NAME_CHARS)));
                }
                done.insert("ok".into(), Value::Bool(last.get("success").and_then(Value::as_bool).unwrap_or(false)));
                if let Some(code) = last.pointer("/error/code").and_then(Value::as_str) {
                    done.insert("code".into(), Value::String(clipped(code, NAME_CHARS)));
                }
                row.insert("last".into(), Value::Object(done));
            }
            Row::Item(Value::Object(row))
        });
        sections.push(Section::new("agents", 1, total, rows));
    } else {
        withheld.insert("agents".into(), Value::from("needs agent.read"));
    }
    sections.push(Section::new("ui", 1, ui_total, ui_rows));
    if request.sees_events {
        let total = trace.tail().filter(|e| notable_event(e).is_some()).count();
        let rows = trace.tail().rev().filter_map(|e| notable_event(e).map(|skill| Row::Item(event_row(e, skill))));
        sections.push(Section::new("events", 1, total, rows));
    } else {
        withheld.insert("events".into(), Value::from("needs trace.read"));
    }
    sections.push(Section::new("tags", 2, distinct_tags, tag_rows));

    // The fixed part, with every section empty and `cut` as long as it can get (each section
    // leaving out everything: an omitted count never has more digits than its total).
    let mut counts = Map::new();
    counts.insert("entities".into(), Value::from(in_scope));
    let mut by_shape = Map::new();
    for (name, n) in SHAPES.iter().zip(shapes) {
        if n > 0 {
            by_shape.insert((*name).into(), Value::from(n));
        }
    }
    counts.insert("shapes".into(), Value::Object(by_shape));
    counts.insert("tagged".into(), Value::from(tagged));
    counts.insert("tags".into(), Value::from(distinct_tags));
    if tags_not_counted > 0 {
        counts.insert("tagsNotCounted".into(), Value::from(tags_not_counted));
    }
    counts.insert("ui".into(), Value::from(ui_total));
    if let Some(n) = agent_count {
        counts.insert("agents".into(), Value::from(n));
    }
    let l = &world.lighting;
    let c = &world.camera;
    let mut out = Map::new();
    out.insert("tick".into(), Value::from(request.tick));
    out.insert("world".into(), json!({"entities": world.entity_count(), "bodies": world.body_count(), "awake": world.awake_body_count()}));
    if let Some(a) = around {
        out.insert("around".into(), json!({"point": point(a.point), "radius": metres(a.radius)}));
    }
    out.insert("counts".into(), Value::Object(counts));
    out.insert(
        "lighting".into(),
        json!({
            "ambientColor": colour(l.ambient_color),
            "ambientIntensity": rounded(f64::from(l.ambient_intensity), 1000.0),
            "directionalColor": colour(l.directional_color),
            "directionalIntensity": rounded(f64::from(l.directional_intensity), 1000.0),
            "direction": point(l.direction.map(f64::from)),
            "castShadow": l.cast_shadow,
        }),
    );
    out.insert(
        "camera".into(),
        json!({"position": point(c.position.map(f64::from)), "target": point(c.target.map(f64::from)), "fov": rounded(f64::from(c.fov_deg), 100.0)}),
    );
    out.insert("withheld".into(), Value::Object(withheld));
    for s in &sections {
        out.insert(s.key.into(), s.empty());
    }
    let reserve: Map<String, Value> = sections.iter().filter(|s| s.total > 0).map(|s| (s.key.to_string(), Value::from(s.total))).collect();
    out.insert("cut".into(), Value::Object(reserve));
    let mut used = json_len(&Value::Object(out.clone()));

    // Turns: each open section takes up to `weight` rows, most notable first, until a row would
    // pass the cap (the section stops there, so what it shows is a prefix of its ranking).
    let mut progressed = true;
    while progressed {
        progressed = false;
        for s in sections.iter_mut() {
            for _ in 0..s.weight {
                if !s.open {
                    break;
                }
                let Some(row) = s.next.next() else {
                    s.open = false;
                    break;
                };
                let cost = row.cost(s.shown.is_empty());
                if used + cost > cap {
                    s.open = false;
                    break;
                }
                used += cost;
                s.shown.push(row);
                progressed = true;
            }
        }
    }

    let mut cut = Map::new();
    for s in sections {
        let omitted = s.total.saturating_sub(s.shown.len());
        if omitted > 0 {
            cut.insert(s.key.into(), Value::from(omitted));
        }
        let key = s.key;
        out.insert(key.into(), s.value());
    }
    out.insert("cut".into(), Value::Object(cut));
    let answer = Value::Object(out);
    if json_len(&answer) > cap {
        // The accounting above is exact by construction (tests hold it to the cap); a miss is a
        // bug to report, not a reason to fail the caller's read.
        tracing::warn!("world.digest wrote {} bytes for a cap of {cap}", json_len(&answer));
    }
    answer
}

/// Whether an event is worth a digest's line (`Some`, with the skill it names when that is
/// known without opening its payload): not the bookkeeping every call or decision writes
/// (`policy.decision`, perception, a decision that went through) and not a call of a skill that
/// changes nothing.
fn notable_event(e: &Event) -> Option<Option<&str>> {
    let kind = &*e.event_type;
    if EventKind::PolicyDecision.is(kind) || EventKind::AgentPerceptionUpdated.is(kind) || EventKind::AgentDecisionCompleted.is(kind) {
        return None;
    }
    let call = match &e.payload {
        Payload::Deferred(p) => p.skill_call(),
        Payload::Json(_) => None,
    };
    if EventKind::SkillExecuted.is(kind) && call.is_some_and(|(_, writes)| !writes) {
        return None;
    }
    Some(call.map(|(skill, _)| skill))
}

/// The fields of an event payload a digest line shows, when present and strings.
#[derive(serde::Deserialize)]
struct PayloadFields<'a> {
    #[serde(borrow, default)]
    skill: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow, default)]
    code: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow, default)]
    text: Option<std::borrow::Cow<'a, str>>,
}

fn event_row(e: &Event, skill: Option<&str>) -> Value {
    let mut row = Map::new();
    row.insert("seq".into(), Value::from(e.seq));
    row.insert("tick".into(), Value::from(e.tick));
    row.insert("type".into(), Value::String(clipped(&e.event_type, TEXT_CHARS)));
    row.insert("actor".into(), Value::String(clipped(&e.actor_id, NAME_CHARS)));
    if let Some(skill) = skill {
        row.insert("skill".into(), Value::String(clipped(skill, NAME_CHARS)));
    }
    if let Payload::Json(raw) = &e.payload
        && raw.get().len() <= MAX_PAYLOAD_READ
        && let Ok(fields) = serde_json::from_str::<PayloadFields<'_>>(raw.get())
    {
        if let (None, Some(s)) = (skill, fields.skill) {
            row.insert("skill".into(), Value::String(clipped(&s, NAME_CHARS)));
        }
        if let Some(code) = fields.code {
            row.insert("code".into(), Value::String(clipped(&code, NAME_CHARS)));
        }
        if let Some(text) = fields.text {
            row.insert("text".into(), Value::String(clipped(&text, TEXT_CHARS)));
        }
    }
    Value::Object(row)
}

/// Builds the `digest` ops table: `digest.build(maxBytes, around, tick, seesAgents, seesEvents)`,
/// `digest.view(limit, cursor, tick, seesAgents)` (`world.view`, see `view`) and
/// `digest.model(asset, sessionId, tick)` (`world.viewModel`, see `view_model`).
pub(crate) fn create(
    lua: &Lua,
    world: Rc<RefCell<World>>,
    agents: Rc<RefCell<Agents>>,
    trace: Rc<RefCell<TraceLog>>,
    project: std::path::PathBuf,
) -> mlua::Result<Table> {
    let ops = lua.create_table()?;
    let (view_world, view_agents) = (Rc::clone(&world), Rc::clone(&agents));
    ops.set(
        "build",
        lua.create_function(move |lua, (max_bytes, around, tick, sees_agents, sees_events): (f64, Option<Table>, u64, bool, bool)| {
            if !(MIN_BYTES as f64..=MAX_BYTES as f64).contains(&max_bytes) || max_bytes.fract() != 0.0 {
                return Err(invalid(format!("maxBytes: {max_bytes} is not a whole number in [{MIN_BYTES}, {MAX_BYTES}]")));
            }
            let around = match around {
                Some(t) => {
                    let p = numbers::<3>(&t.get("point")?, "around.point")?;
                    bounds::position("around.point", p).map_err(out_of_bounds)?;
                    let radius: f64 = t.get("radius")?;
                    bounds::distance("around.radius", radius).map_err(out_of_bounds)?;
                    Some(Around { point: p, radius })
                }
                None => None,
            };
            let request = Request { max_bytes: max_bytes as usize, around, tick, sees_agents, sees_events };
            let answer = digest(&world.borrow(), &agents.borrow(), &trace.borrow(), &request);
            crate::script::convert::blob(lua, answer)
        })?,
    )?;
    super::view::install(lua, &ops, view_world, view_agents)?;
    super::view_model::install(lua, &ops, project)?;
    ops.set_readonly(true);
    Ok(ops)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_rounded_whole_values_are_integers_and_never_negative_zero() {
        assert_eq!(metres(1.234_567), json!(1.23));
        assert_eq!(metres(-0.001), json!(0));
        assert_eq!(metres(2.0), json!(2));
        assert_eq!(metres(f64::NAN), Value::Null);
        assert_eq!(serde_json::to_string(&metres(-0.001)).unwrap(), "0");
    }

    #[test]
    fn text_is_clipped_on_a_character_boundary() {
        assert_eq!(clipped("héllo", 2), "hé…");
        assert_eq!(clipped("hi", 2), "hi");
    }

    /// A full world (65,536 entities, the default capacity), each with a unique 64-character
    /// tag: the answer stays within the cap, the tag tally stops at `MAX_TRACKED_TAGS` names and
    /// says how many uses it did not count.
    #[test]
    fn a_full_world_of_unique_tags_stays_within_the_cap_and_bounds_the_tally() {
        let mut world = World::default();
        let spec = crate::world::EntitySpec {
            shape: RenderShape::Box,
            collider: None,
            size: 1.0,
            color: 0x336699,
            position: [0.0; 3],
            body: None,
            friction: 0.5,
            restitution: 0.0,
        };
        for i in 0..crate::world::DEFAULT_ENTITY_CAPACITY {
            let position = [(i % 256) as f32 * 1.5 - 192.0, 0.0, (i / 256) as f32 * 1.5 - 192.0];
            let id = world.create_entity(&crate::world::EntitySpec { position, ..spec }).unwrap();
            world.add_tag(id, "crowd").unwrap().unwrap();
            world.add_tag(id, &format!("{i:0>64}")).unwrap().unwrap();
        }
        let (agents, trace) = (Agents::new(Default::default()), TraceLog::new("thr_test"));
        for (max_bytes, around) in [
            (MAX_BYTES, None),
            (MIN_BYTES, None),
            (4096, Some(Around { point: [0.0; 3], radius: 1e7 })),
            (4096, Some(Around { point: [1e6, 1e6, 1e6], radius: 1.0 })),
        ] {
            let request = Request { max_bytes, around, tick: u64::MAX, sees_agents: true, sees_events: true };
            let d = digest(&world, &agents, &trace, &request);
            assert!(json_len(&d) <= max_bytes, "{} bytes for {max_bytes}", json_len(&d));
            let in_scope = if around.is_some_and(|a| a.radius == 1.0) { 0 } else { 65_536 };
            assert_eq!(d["counts"]["entities"], in_scope);
            if in_scope > 0 {
                assert_eq!(d["counts"]["tags"], MAX_TRACKED_TAGS);
                assert_eq!(d["counts"]["tagsNotCounted"], 65_536 - (MAX_TRACKED_TAGS - 1));
                assert_eq!(d["cut"]["entities"].as_u64().unwrap() + d["entities"].as_array().unwrap().len() as u64, 65_536);
            }
        }
    }

    #[test]
    fn the_smallest_entity_row_is_not_below_the_bound_the_heap_is_sized_by() {
        let row = json!({"color": "#000000", "id": "ent_0001", "pos": [0, 0, 0], "shape": "box", "size": 0});
        assert!(json_len(&row) >= MIN_ENTITY_ROW, "{}", json_len(&row));
    }
}
