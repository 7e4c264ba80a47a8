//! State sync for viewers (WebSocket subscriptions and the HTTP state stream): a snapshot on
//! subscribe, then deltas of what changed since what that subscriber was sent: entities created,
//! changed (only the pose, or only the look, or both) and destroyed, filtered by its area of
//! interest; UI elements made, changed and removed; the lighting and the camera when they
//! changed; the agents (body, provider, profile, and the line each said in the last
//! `SAYING_KEPT_TICKS`). The message shapes are in docs/mcp.md ("State stream").
//!
//! What changed comes from the world's touch journal (`world::touched`), not from a walk of the
//! world: a subscriber's state holds the journal epoch it was brought to, and a delta visits only
//! the entities touched since, so a publish costs what moved, whatever the world holds. With an
//! area of interest the state also holds the ids the subscriber has (an entity moving out is
//! destroyed for it, moving in is created). A subscriber the journal no longer covers (it fell
//! behind the journal's bounded window, the world was loaded or restored, or it changed its area)
//! gets a snapshot again. UI elements and agents are few and compared whole, as before.
//!
//! Delivery: a delta is computed against what the subscriber was sent; if it could not be
//! queued the state stays put and the next delta carries everything since. What a subscriber was
//! sent is shared (`Sent`, an `Arc`): subscribers that were sent the same state hold the same
//! one, so the server computes and encodes one delta for all of them (`Baseline::key`). The
//! state reached from one world, for one area of interest, is the same whatever the state left
//! (the journal epoch is the publish's, and the ids held are those visible now), which is what
//! lets subscribers that were sent different states share one from there on.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use serde_json::{Value, json};

use crate::agents::table::{Agents, SAYING_KEPT_TICKS, Said};
use crate::world::viewed::{camera_json, entity_json, lighting_json, put_look, put_pose};
use crate::world::{Camera, EntityId, EntityState, Lighting, Stamp, World};

/// A client's area of interest: only entities within `radius` of `center` are sent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Aoi {
    pub center: [f64; 3],
    pub radius: f64,
}

impl Aoi {
    fn contains(&self, p: [f32; 3]) -> bool {
        let d: f64 = (0..3).map(|i| (f64::from(p[i]) - self.center[i]).powi(2)).sum();
        d <= self.radius * self.radius
    }
}

/// One agent as viewers see it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AgentView {
    pub id: String,
    pub entity: Option<EntityId>,
    pub provider: &'static str,
    pub profile: &'static str,
    /// Its last line, while it is shown.
    pub saying: Option<Said>,
}

/// The agents at `tick`, in id order.
pub(crate) fn agent_views(agents: &Agents, tick: u64) -> Vec<AgentView> {
    agents
        .iter()
        .map(|r| AgentView {
            id: r.id.to_string(),
            entity: r.entity,
            provider: r.llm.provider.as_str(),
            profile: r.profile.as_str(),
            saying: agents.said(&r.id).filter(|s| tick.saturating_sub(s.tick) < SAYING_KEPT_TICKS).cloned(),
        })
        .collect()
}

/// What one publish reads: the world, its journal sealed at this publish, the agents.
pub(crate) struct Frame<'w> {
    world: &'w World,
    tick: u64,
    journal: u64,
    epoch: u64,
    agents: Arc<Vec<AgentView>>,
}

impl<'w> Frame<'w> {
    /// Seals the world's journal for this publish (turning it on: someone is watching).
    pub fn new(world: &'w World, agents: Vec<AgentView>, tick: u64) -> Self {
        let mut journal = world.touched();
        journal.set_enabled(true);
        let epoch = journal.seal();
        let id = journal.id();
        drop(journal);
        Self { world, tick, journal: id, epoch, agents: Arc::new(agents) }
    }
}

/// Stops the world's journal when nobody watches (it costs a little per touch while on); the
/// next subscriber's snapshot starts it again.
pub(crate) fn unwatched(world: &World) {
    world.touched().set_enabled(false);
}

/// An entity's changed fields only (None when neither its pose nor its look changed).
fn change_json(world: &World, e: &EntityState<'_>, pose: bool, look: bool) -> Option<Value> {
    if !pose && !look {
        return None;
    }
    let mut v = serde_json::Map::new();
    v.insert("entity".into(), json!(e.id.to_string()));
    if pose {
        put_pose(&mut v, e);
    }
    if look {
        put_look(&mut v, world, e);
    }
    Some(Value::Object(v))
}

fn agent_json(a: &AgentView) -> Value {
    let mut v = json!({"agentId": a.id, "provider": a.provider, "profile": a.profile});
    if let Some(e) = a.entity {
        v["entity"] = json!(e.to_string());
    }
    if let Some(s) = &a.saying {
        v["saying"] = json!({"text": s.text, "tick": s.tick});
    }
    v
}

fn ui_json(e: &crate::world::ui::UiElement) -> Value {
    serde_json::to_value(e).unwrap_or(Value::Null)
}

/// The state a subscriber was sent. Cloning shares it.
#[derive(Debug, Clone)]
pub(crate) struct Sent(Arc<State>);

#[derive(Debug)]
struct State {
    /// The world's journal and the epoch it was sealed at when this state was sent (journal 0:
    /// nothing sent yet, so a snapshot comes first).
    journal: u64,
    epoch: u64,
    /// The tick of the last message.
    tick: u64,
    /// With an area of interest, the entities the subscriber has.
    members: Option<Arc<HashSet<EntityId>>>,
    /// UI elements by handle, at the revision sent.
    ui: Arc<HashMap<String, u64>>,
    scene: (Lighting, Camera),
    agents: Arc<Vec<AgentView>>,
}

impl Default for Sent {
    /// Nothing sent: its own state, so nobody else's delta is taken for it.
    fn default() -> Self {
        Sent(Arc::new(State {
            journal: 0,
            epoch: 0,
            tick: 0,
            members: None,
            ui: Arc::default(),
            scene: (Lighting::default(), Camera::default()),
            agents: Arc::default(),
        }))
    }
}

/// What one subscriber has been sent.
#[derive(Debug, Default)]
pub(crate) struct Baseline {
    sent: Sent,
    pub aoi: Option<Aoi>,
}

/// A computed update and the baseline it would establish once delivered.
#[derive(Debug)]
pub(crate) struct Update {
    pub message: Value,
    next: Sent,
}

/// What changed since a baseline (None when nothing did), and the state it leads to. The
/// message is a snapshot when the subscriber must resync.
#[derive(Debug)]
pub(crate) struct Diff {
    pub message: Option<Value>,
    pub next: Sent,
}

impl Baseline {
    pub fn new(aoi: Option<Aoi>) -> Self {
        Self { sent: Sent::default(), aoi }
    }

    /// Who else was sent this very state: baselines with the same key (and area of interest)
    /// get the same delta.
    pub fn key(&self) -> usize {
        Arc::as_ptr(&self.sent.0) as usize
    }

    fn visible(&self, e: &EntityState<'_>) -> bool {
        self.aoi.is_none_or(|a| a.contains(e.transform.position))
    }

    /// The full visible state (on subscribe, and whenever the subscriber must resync).
    pub fn snapshot(&self, frame: &Frame<'_>) -> Update {
        let world = frame.world;
        let mut members = self.aoi.map(|_| HashSet::new());
        let mut entities = Vec::new();
        world.for_each_entity(|e| {
            if self.visible(&e) {
                if let Some(m) = &mut members {
                    m.insert(e.id);
                }
                entities.push(entity_json(world, &e));
            }
        });
        let ui_next = world.ui.iter().map(|e| (e.handle.clone(), e.revision)).collect();
        let ui: Vec<Value> = world.ui.iter().map(ui_json).collect();
        let agents: Vec<Value> = frame.agents.iter().map(agent_json).collect();
        Update {
            message: json!({
                "kind": "snapshot", "tick": frame.tick, "entities": entities, "ui": ui,
                "scene": {"lighting": lighting_json(&world.lighting), "camera": camera_json(&world.camera)},
                "agents": agents,
            }),
            next: Sent(Arc::new(State {
                journal: frame.journal,
                epoch: frame.epoch,
                tick: frame.tick,
                members: members.map(Arc::new),
                ui: Arc::new(ui_next),
                scene: (world.lighting, world.camera),
                agents: Arc::clone(&frame.agents),
            })),
        }
    }

    /// What changed since the baseline; None when nothing did.
    #[cfg(test)]
    pub fn delta(&self, frame: &Frame<'_>) -> Option<Update> {
        let diff = self.diff(frame);
        diff.message.map(|message| Update { message, next: diff.next })
    }

    /// What changed since the baseline (a snapshot when the journal no longer covers it), and
    /// the state it leads to (which, for one world and one area of interest, is the same
    /// whatever the baseline). Costs the entities touched since, not the world.
    pub fn diff(&self, frame: &Frame<'_>) -> Diff {
        let world = frame.world;
        let sent = &*self.sent.0;
        if sent.journal != frame.journal || !world.touched().covers(sent.epoch) {
            let snapshot = self.snapshot(frame);
            return Diff { message: Some(snapshot.message), next: snapshot.next };
        }
        let journal = world.touched();
        let touched = journal.since(sent.epoch).into_iter().flatten();
        let since = sent.epoch;
        let (mut created, mut changed, mut destroyed) = (Vec::new(), Vec::new(), Vec::new());
        // Copied only when someone enters or leaves the area.
        let mut members: Option<HashSet<EntityId>> = None;
        for (id, stamp) in touched {
            let Stamp { created: born, pose, look, .. } = stamp;
            let had = match (&members, &sent.members) {
                (Some(m), _) => m.contains(&id),
                (None, Some(m)) => m.contains(&id),
                // The whole world: it has every entity made before its epoch (ids are never
                // reused, and one destroyed before it was last touched then, not since).
                (None, None) => born <= since,
            };
            let now = world.entity_state(id).filter(|e| self.visible(e));
            match (had, now) {
                (false, Some(e)) => {
                    created.push((id, entity_json(world, &e)));
                    if let Some(m) = &sent.members {
                        members.get_or_insert_with(|| (**m).clone()).insert(id);
                    }
                }
                (true, None) => {
                    destroyed.push(id);
                    if let Some(m) = &sent.members {
                        members.get_or_insert_with(|| (**m).clone()).remove(&id);
                    }
                }
                (true, Some(e)) => {
                    if let Some(c) = change_json(world, &e, pose > since, look > since) {
                        changed.push((id, c));
                    }
                }
                (false, None) => {}
            }
        }
        drop(journal);
        created.sort_unstable_by_key(|(id, _)| *id);
        changed.sort_unstable_by_key(|(id, _)| *id);
        destroyed.sort_unstable();
        let members = match members {
            Some(m) => Some(Arc::new(m)),
            None => sent.members.clone(),
        };
        // UI: new or re-revisioned elements in full, removed ones by handle.
        let mut ui_upserted = Vec::new();
        for e in world.ui.iter() {
            if sent.ui.get(&e.handle) != Some(&e.revision) {
                ui_upserted.push(ui_json(e));
            }
        }
        let ui_count = world.ui.iter().count();
        let mut ui_removed: Vec<&String> = Vec::new();
        let ui_next = if ui_upserted.is_empty() && ui_count == sent.ui.len() {
            Arc::clone(&sent.ui)
        } else {
            let next: HashMap<String, u64> = world.ui.iter().map(|e| (e.handle.clone(), e.revision)).collect();
            ui_removed = sent.ui.keys().filter(|h| !next.contains_key(*h)).collect();
            ui_removed.sort();
            Arc::new(next)
        };
        // Scene: each part only when it changed.
        let mut scene = serde_json::Map::new();
        if sent.scene.0 != world.lighting {
            scene.insert("lighting".into(), lighting_json(&world.lighting));
        }
        if sent.scene.1 != world.camera {
            scene.insert("camera".into(), camera_json(&world.camera));
        }
        // Agents: merged by id (both lists are in id order).
        let (mut agents_upserted, mut agents_removed) = (Vec::new(), Vec::new());
        let agents_next = if *sent.agents == *frame.agents {
            Arc::clone(&sent.agents)
        } else {
            let before: HashMap<&str, &AgentView> = sent.agents.iter().map(|a| (a.id.as_str(), a)).collect();
            let now: HashSet<&str> = frame.agents.iter().map(|a| a.id.as_str()).collect();
            for a in frame.agents.iter() {
                if before.get(a.id.as_str()) != Some(&a) {
                    agents_upserted.push(agent_json(a));
                }
            }
            agents_removed = sent.agents.iter().filter(|a| !now.contains(a.id.as_str())).map(|a| a.id.clone()).collect();
            Arc::clone(&frame.agents)
        };
        // Nothing changed, but UI still fading or being typed out shows later ticks differently
        // from the one the subscriber has: the tick alone goes out, so a viewer shows what the
        // world shows at it (a still world sends nothing, and a viewer's clock would stop).
        let nothing = created.is_empty()
            && changed.is_empty()
            && destroyed.is_empty()
            && ui_upserted.is_empty()
            && ui_removed.is_empty()
            && scene.is_empty()
            && agents_upserted.is_empty()
            && agents_removed.is_empty();
        let ticking = nothing && frame.tick > sent.tick && world.ui.iter().any(|e| e.changes_between(sent.tick, frame.tick));
        let next = Sent(Arc::new(State {
            journal: frame.journal,
            epoch: frame.epoch,
            // The publish's, sent or not (nothing showed a change then), so that the state stays
            // the same whatever the baseline and subscribers can share it.
            tick: frame.tick,
            members,
            ui: ui_next,
            scene: (world.lighting, world.camera),
            agents: agents_next,
        }));
        if nothing && !ticking {
            return Diff { message: None, next };
        }
        let created: Vec<Value> = created.into_iter().map(|(_, v)| v).collect();
        let changed: Vec<Value> = changed.into_iter().map(|(_, v)| v).collect();
        let destroyed: Vec<String> = destroyed.iter().map(EntityId::to_string).collect();
        let mut message = json!({"kind": "delta", "tick": frame.tick, "created": created, "changed": changed, "destroyed": destroyed});
        if !ui_upserted.is_empty() || !ui_removed.is_empty() {
            message["ui"] = json!({"upserted": ui_upserted, "removed": ui_removed});
        }
        if !scene.is_empty() {
            message["scene"] = Value::Object(scene);
        }
        if !agents_upserted.is_empty() || !agents_removed.is_empty() {
            message["agents"] = json!({"upserted": agents_upserted, "removed": agents_removed});
        }
        Diff { message: Some(message), next }
    }

    /// Records that `update` reached the client.
    pub(crate) fn delivered(&mut self, update: Update) {
        self.sent = update.next;
    }

    /// Records that the client now has `state` (a delta leading to it reached it, or nothing
    /// changed since what it had), sharing it with every other subscriber that has it.
    pub(crate) fn caught_up(&mut self, state: &Sent) {
        self.sent = state.clone();
    }

    /// A new area of interest: what was sent no longer says what the client holds, so the next
    /// publish sends it a snapshot of the new area.
    pub(crate) fn set_aoi(&mut self, aoi: Option<Aoi>) {
        if aoi != self.aoi {
            self.sent = Sent::default();
        }
        self.aoi = aoi;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::{EntitySpec, RenderShape};

    fn spec(x: f32) -> EntitySpec {
        EntitySpec {
            shape: RenderShape::Box,
            collider: None,
            size: 1.0,
            color: 1,
            position: [x, 0.0, 0.0],
            body: None,
            friction: 0.5,
            restitution: 0.0,
        }
    }

    fn frame(w: &World, tick: u64) -> Frame<'_> {
        Frame::new(w, Vec::new(), tick)
    }

    /// A subscriber that has its snapshot.
    fn subscribed(w: &World, aoi: Option<Aoi>) -> Baseline {
        let mut b = Baseline::new(aoi);
        let snap = b.snapshot(&frame(w, 0));
        b.delivered(snap);
        b
    }

    fn delta(b: &Baseline, w: &World, tick: u64) -> Option<Value> {
        b.delta(&frame(w, tick)).map(|u| u.message)
    }

    fn keys(v: &Value) -> Vec<&str> {
        let mut k: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        k.sort_unstable();
        k
    }

    #[test]
    fn deltas_report_created_changed_destroyed_once() {
        let mut w = World::default();
        let a = w.create_entity(&spec(0.0)).unwrap();
        let mut b = Baseline::new(None);
        let snap = b.snapshot(&frame(&w, 0));
        assert_eq!(snap.message["entities"].as_array().unwrap().len(), 1);
        b.delivered(snap);
        assert!(delta(&b, &w, 1).is_none());
        let c = w.create_entity(&spec(5.0)).unwrap();
        w.edit_transform(a, |t| t.position[1] = 2.0);
        let d = delta(&b, &w, 2).unwrap();
        assert_eq!(d["created"][0]["entity"], c.to_string());
        assert_eq!(d["changed"][0]["entity"], a.to_string());
        // Not delivered: the next delta still carries it (coalescing, nothing lost).
        let again = b.delta(&frame(&w, 3)).unwrap();
        assert_eq!(again.message["created"][0]["entity"], c.to_string());
        b.delivered(again);
        assert!(delta(&b, &w, 3).is_none(), "delivered: sent once");
        w.destroy_entity(a, 4);
        assert_eq!(delta(&b, &w, 4).unwrap()["destroyed"], json!([a.to_string()]));
    }

    #[test]
    fn a_moved_body_is_changed_with_only_its_pose() {
        let mut w = World::default();
        let falling = w.create_entity(&EntitySpec { body: Some(crate::physics::BodyKind::Dynamic), ..spec(0.0) }).unwrap();
        let b = subscribed(&w, None);
        w.begin_step();
        w.step_physics().unwrap();
        let d = delta(&b, &w, 1).unwrap();
        let changed = d["changed"].as_array().unwrap();
        assert_eq!(changed.len(), 1, "{d}");
        assert_eq!(changed[0]["entity"], falling.to_string());
        assert_eq!(keys(&changed[0]), ["entity", "position", "rotation", "scale"], "only the pose: {d}");
        assert!(changed[0]["position"][1].as_f64().unwrap() < 0.0, "it fell");
    }

    #[test]
    fn a_material_change_is_sent_as_the_look_alone() {
        let mut w = World::default();
        let a = w.create_entity(&spec(0.0)).unwrap();
        let b = subscribed(&w, None);
        w.edit_material(a, |m, color| {
            m.roughness = 0.25;
            m.metalness = 1.0;
            m.cast_shadow = false;
            *color = 0xff0000;
        });
        let d = delta(&b, &w, 1).unwrap();
        let c = &d["changed"][0];
        assert_eq!(c["material"], json!({"roughness": 0.25, "metalness": 1.0, "castShadow": false, "receiveShadow": true}));
        assert_eq!(c["color"], 0xff0000);
        assert!(c.get("position").is_none(), "the pose did not change: {d}");
    }

    #[test]
    fn a_model_entity_names_its_asset() {
        let mut w = World::default();
        w.spawn_model("models/fox.glb", &spec(0.0)).unwrap();
        let snap = Baseline::new(None).snapshot(&frame(&w, 0));
        let e = &snap.message["entities"][0];
        assert_eq!((e["shape"].as_str(), e["asset"].as_str()), (Some("gltf"), Some("models/fox.glb")));
    }

    #[test]
    fn lighting_and_camera_are_sent_in_the_snapshot_and_when_they_change() {
        let mut w = World::default();
        let b = subscribed(&w, None);
        let snap = Baseline::new(None).snapshot(&frame(&w, 0)).message;
        assert_eq!(snap["scene"]["camera"]["fov"], 50.0);
        assert_eq!(snap["scene"]["lighting"]["ambientColor"], 0x404060);
        assert!(delta(&b, &w, 1).is_none(), "an unchanged scene is not resent");
        w.camera.fov_deg = 70.0;
        let d = delta(&b, &w, 2).unwrap();
        assert_eq!(d["scene"]["camera"]["fov"], 70.0);
        assert!(d["scene"].get("lighting").is_none(), "only the part that changed: {d}");
        w.lighting.cast_shadow = true;
        let d = delta(&b, &w, 3).unwrap();
        assert_eq!(d["scene"]["lighting"]["castShadow"], true);
    }

    fn agent(saying: Option<(&str, u64)>) -> AgentView {
        AgentView {
            id: "agt_0001".into(),
            entity: Some(EntityId(7)),
            provider: "scripted",
            profile: "social.actor",
            saying: saying.map(|(text, tick)| Said { text: text.into(), tick }),
        }
    }

    #[test]
    fn agents_are_sent_whole_when_they_change_and_removed_by_id() {
        let w = World::default();
        let mut b = Baseline::new(None);
        let snap = b.snapshot(&Frame::new(&w, vec![agent(None)], 0));
        assert_eq!(
            snap.message["agents"][0],
            json!({"agentId": "agt_0001", "entity": "ent_0007", "provider": "scripted", "profile": "social.actor"})
        );
        b.delivered(snap);
        assert!(b.delta(&Frame::new(&w, vec![agent(None)], 1)).is_none());
        let said = b.delta(&Frame::new(&w, vec![agent(Some(("hello", 2)))], 2)).unwrap();
        assert_eq!(said.message["agents"]["upserted"][0]["saying"], json!({"text": "hello", "tick": 2}));
        b.delivered(said);
        let quiet = b.delta(&Frame::new(&w, vec![agent(None)], 302)).unwrap();
        assert!(quiet.message["agents"]["upserted"][0].get("saying").is_none(), "{}", quiet.message);
        b.delivered(quiet);
        let gone = b.delta(&Frame::new(&w, Vec::new(), 303)).unwrap();
        assert_eq!(gone.message["agents"]["removed"], json!(["agt_0001"]));
    }

    #[test]
    fn an_agents_line_is_shown_for_300_ticks_after_it_said_it() {
        let engine = crate::host::Engine::new(crate::host::EngineConfig {
            output: crate::host::Output::Silent,
            ..crate::host::EngineConfig::new(env!("CARGO_MANIFEST_DIR"))
        })
        .unwrap();
        engine
            .run_source(
                r#"local said = false
limina.scripted_policy("greeter", function(request)
    if said then return {} end
    said = true
    return { { tool = "social.say", input = { text = "hello" } } }
end)"#,
                "greeter.lua",
            )
            .unwrap();
        let r = engine.call(
            &engine.script_caller().clone(),
            "agent.spawn",
            json!({"id": "agt_greeter", "profile": "social.actor", "body": {"shape": "box", "position": [0, 0.5, 0]}, "decisionIntervalTicks": 1, "llm": {"model": "greeter"}}),
        );
        assert!(r.success, "{r:?}");
        let mut said_at = None;
        for _ in 0..20 {
            engine.step(1).unwrap();
            if let Some(s) = engine.agents().said("agt_greeter") {
                said_at = Some(s.tick);
                break;
            }
        }
        let said_at = said_at.expect("the agent said its line");
        let views = agent_views(&engine.agents(), said_at + SAYING_KEPT_TICKS - 1);
        assert_eq!(views[0].saying.as_ref().map(|s| s.text.as_str()), Some("hello"));
        assert_eq!(views[0].provider, "scripted");
        assert!(agent_views(&engine.agents(), said_at + SAYING_KEPT_TICKS)[0].saying.is_none(), "gone after 300 ticks");
    }

    #[test]
    fn ui_elements_are_sent_once_then_as_changes_and_removals() {
        use crate::world::ui::{UiChange, UiKind};
        let mut w = World::default();
        let mut b = Baseline::new(None);
        let spec = serde_json::from_value(json!({"anchor": {"kind": "screen"}, "text": "hi"})).unwrap();
        let h = w.ui.create(UiKind::Label, spec, &crate::world::ui::Writer { agent: "agt", operator: false }).unwrap();
        let snap = b.snapshot(&frame(&w, 0));
        assert_eq!(snap.message["ui"][0]["handle"], h.as_str());
        b.delivered(snap);
        assert!(delta(&b, &w, 1).is_none(), "unchanged UI sends nothing");
        w.ui.update(
            UiChange { handle: h.clone(), text: Some("bye".into()), ..Default::default() },
            &crate::world::ui::Writer { agent: "agt", operator: false },
        )
        .unwrap();
        let d = b.delta(&frame(&w, 2)).unwrap();
        assert_eq!(d.message["ui"]["upserted"][0]["text"], "bye");
        b.delivered(d);
        w.ui.remove(&h, &crate::world::ui::Writer { agent: "agt", operator: false }).unwrap();
        assert_eq!(delta(&b, &w, 3).unwrap()["ui"]["removed"], json!([h]));
    }

    #[test]
    fn the_tick_alone_goes_out_while_ui_animates_in_a_still_world() {
        let mut w = World::default();
        let spec = serde_json::from_value(json!({"anchor": {"kind": "screen"}, "text": "hello", "lifecycle": {"typewriter": {"cps": 30}}}))
            .unwrap();
        w.ui.create(crate::world::ui::UiKind::Label, spec, &crate::world::ui::Writer { agent: "agt", operator: false }).unwrap();
        let mut b = subscribed(&w, None);
        // 5 characters at 30 cps: typed out by tick 10; each tick until then goes out alone.
        for tick in 1..=10 {
            let d = b.delta(&frame(&w, tick)).unwrap_or_else(|| panic!("tick {tick} was not sent"));
            assert_eq!((d.message["kind"].as_str(), d.message["tick"].as_u64()), (Some("delta"), Some(tick)));
            assert_eq!(d.message["changed"], json!([]));
            b.delivered(d);
        }
        assert!(b.delta(&frame(&w, 11)).is_none(), "typed out: nothing more to show");
        assert!(b.delta(&frame(&w, 10)).is_none(), "the same tick is not sent twice");
    }

    #[test]
    fn baselines_that_reach_the_same_state_share_it() {
        let mut w = World::default();
        let a = w.create_entity(&spec(0.0)).unwrap();
        let (mut early, mut late) = (Baseline::new(None), Baseline::new(None));
        early.delivered(early.snapshot(&frame(&w, 0)));
        w.create_entity(&spec(5.0)).unwrap();
        late.delivered(late.snapshot(&frame(&w, 1)));
        assert_ne!(early.key(), late.key());
        w.edit_transform(a, |t| t.position[1] = 2.0);
        // Different deltas (the early one also learns of the second entity), one state reached.
        let f = frame(&w, 2);
        let (from_early, from_late) = (early.diff(&f), late.diff(&f));
        assert_eq!(from_early.message.as_ref().unwrap()["created"].as_array().unwrap().len(), 1);
        assert_eq!(from_late.message.as_ref().unwrap()["created"].as_array().unwrap().len(), 0);
        early.caught_up(&from_early.next);
        late.caught_up(&from_early.next);
        assert_eq!(early.key(), late.key(), "one shared state from here on");
        assert!(late.delta(&frame(&w, 3)).is_none());
    }

    #[test]
    fn the_area_of_interest_filters_entities() {
        let mut w = World::default();
        w.create_entity(&spec(0.0)).unwrap();
        let far = w.create_entity(&spec(100.0)).unwrap();
        let b = subscribed(&w, Some(Aoi { center: [0.0; 3], radius: 10.0 }));
        w.edit_transform(far, |t| t.position[1] = 1.0);
        assert!(delta(&b, &w, 1).is_none(), "a change outside the area is not sent");
    }

    #[test]
    fn entering_the_area_creates_and_leaving_it_destroys() {
        let mut w = World::default();
        let walker = w.create_entity(&spec(100.0)).unwrap();
        let mut b = Baseline::new(Some(Aoi { center: [0.0; 3], radius: 10.0 }));
        let snap = b.snapshot(&frame(&w, 0));
        assert_eq!(snap.message["entities"], json!([]));
        b.delivered(snap);
        w.edit_transform(walker, |t| t.position[0] = 5.0);
        let d = b.delta(&frame(&w, 1)).unwrap();
        assert_eq!(d.message["created"][0]["entity"], walker.to_string(), "moved in: created, in full");
        assert_eq!(d.message["created"][0]["shape"], "box");
        b.delivered(d);
        w.edit_transform(walker, |t| t.position[1] = 1.0);
        let d = b.delta(&frame(&w, 2)).unwrap();
        assert_eq!(d.message["changed"][0]["entity"], walker.to_string());
        b.delivered(d);
        w.edit_transform(walker, |t| t.position[0] = 50.0);
        let d = b.delta(&frame(&w, 3)).unwrap();
        assert_eq!(d.message["destroyed"], json!([walker.to_string()]), "moved out: destroyed for it");
        b.delivered(d);
        w.edit_transform(walker, |t| t.position[0] = 60.0);
        assert!(delta(&b, &w, 4).is_none(), "outside, its moves are not sent");
    }

    #[test]
    fn a_subscriber_behind_the_journal_window_gets_a_snapshot() {
        let mut w = World::default();
        let a = w.create_entity(&spec(0.0)).unwrap();
        let stalled = subscribed(&w, None);
        let mut keeping_up = subscribed(&w, None);
        // Others' publishes seal the journal until the stalled subscriber's epoch falls out.
        let mut tick = 1;
        while w.touched().covers(stalled.sent.0.epoch) {
            w.edit_transform(a, |t| t.position[1] += 1.0);
            let d = keeping_up.delta(&frame(&w, tick)).unwrap();
            keeping_up.delivered(d);
            tick += 1;
        }
        let d = delta(&stalled, &w, tick).unwrap();
        assert_eq!(d["kind"], "snapshot", "it resyncs");
        assert_eq!(d["entities"][0]["position"][1].as_f64().unwrap(), f64::from(w.transform(a).unwrap().position[1]));
        assert_eq!(delta(&keeping_up, &w, tick).map(|d| d["kind"].clone()), None, "the others carry on with deltas");
    }

    #[test]
    fn a_replaced_world_resyncs_its_subscribers() {
        let w = World::default();
        let b = subscribed(&w, None);
        let restored = w.duplicate();
        assert_eq!(delta(&b, &restored, 1).unwrap()["kind"], "snapshot");
    }

    #[test]
    fn the_stream_leaves_the_world_hash_alone() {
        let mut watched = World::default();
        let mut alone = World::default();
        for w in [&mut watched, &mut alone] {
            w.create_entity(&EntitySpec { body: Some(crate::physics::BodyKind::Dynamic), ..spec(0.0) }).unwrap();
        }
        let b = subscribed(&watched, None);
        for tick in 1..5 {
            for w in [&mut watched, &mut alone] {
                w.begin_step();
                w.step_physics().unwrap();
            }
            let _ = delta(&b, &watched, tick);
        }
        assert_eq!(watched.hash(), alone.hash());
    }
}
