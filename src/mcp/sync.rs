//! State sync for WebSocket clients: a snapshot on subscribe, then deltas (entities created,
//! changed, destroyed; UI elements made, changed, removed) since what that client last received,
//! entities filtered by its area of interest (UI elements are few and may be pinned to the
//! screen, so every client gets all of them).
//!
//! Each subscriber keeps the baseline of what it was last sent. A delta is computed against that
//! baseline, so a delta that could not be queued (the client is slow) is not lost: the baseline
//! stays put and the next delta carries everything since the last one delivered.
//!
//! What a subscriber was sent is shared (`Sent`, behind `Arc`s): subscribers that were sent the
//! same state hold the same one, so the server computes and encodes one delta for all of them
//! (`Baseline::key` tells who they are) instead of one per subscriber.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Value, json};

use crate::world::{EntityId, Renderable, Tags, Transform, World};

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

type Pose = [f32; 10];

fn pose(t: &Transform) -> Pose {
    let mut p = [0.0; 10];
    p[..3].copy_from_slice(&t.position);
    p[3..7].copy_from_slice(&t.rotation);
    p[7..].copy_from_slice(&t.scale);
    p
}

fn entity_json(id: EntityId, t: &Transform, render: Option<&Renderable>, tags: Option<&Tags>) -> Value {
    let mut v = json!({"entity": id.to_string(), "position": t.position, "rotation": t.rotation, "scale": t.scale});
    if let Some(r) = render {
        v["shape"] = json!(match r.shape {
            crate::world::RenderShape::Box => "box",
            crate::world::RenderShape::Sphere => "sphere",
            crate::world::RenderShape::Capsule => "capsule",
            crate::world::RenderShape::Asset(_) => "gltf",
        });
        v["size"] = json!(r.size);
        v["color"] = json!(r.color);
    }
    if let Some(t) = tags {
        v["tags"] = json!(t.0);
    }
    v
}

/// The state a subscriber was sent: entity poses, and UI elements by handle at the revision
/// sent. Cloning shares it.
#[derive(Debug, Default, Clone)]
pub(crate) struct Sent {
    poses: Arc<HashMap<EntityId, Pose>>,
    ui: Arc<HashMap<String, u64>>,
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

/// What changed since a baseline (None when nothing did), and the state it leads to.
#[derive(Debug)]
pub(crate) struct Diff {
    pub message: Option<Value>,
    pub next: Sent,
}

fn ui_json(e: &crate::world::ui::UiElement) -> Value {
    serde_json::to_value(e).unwrap_or(Value::Null)
}

impl Baseline {
    pub fn new(aoi: Option<Aoi>) -> Self {
        Self { sent: Sent::default(), aoi }
    }

    /// Who else was sent this very state: baselines with the same key (and area of interest)
    /// get the same delta.
    pub fn key(&self) -> (usize, usize) {
        (Arc::as_ptr(&self.sent.poses) as usize, Arc::as_ptr(&self.sent.ui) as usize)
    }

    fn visible(&self, t: &Transform) -> bool {
        self.aoi.is_none_or(|a| a.contains(t.position))
    }

    /// The full visible state (sent once, on subscribe).
    pub fn snapshot(&self, world: &World, tick: u64) -> Update {
        let mut next = HashMap::new();
        let mut entities = Vec::new();
        world.for_each_entity(|e| {
            if self.visible(e.transform) {
                next.insert(e.id, pose(e.transform));
                entities.push(entity_json(e.id, e.transform, e.renderable, e.tags));
            }
        });
        let ui_next = world.ui.iter().map(|e| (e.handle.clone(), e.revision)).collect();
        let ui: Vec<Value> = world.ui.iter().map(ui_json).collect();
        Update {
            message: json!({"kind": "snapshot", "tick": tick, "entities": entities, "ui": ui}),
            next: Sent { poses: Arc::new(next), ui: Arc::new(ui_next) },
        }
    }

    /// What changed since the baseline; None when nothing did.
    #[cfg(test)]
    pub fn delta(&self, world: &World, tick: u64) -> Option<Update> {
        let diff = self.diff(world, tick);
        diff.message.map(|message| Update { message, next: diff.next })
    }

    /// What changed since the baseline, and the state it leads to (which, for one world and
    /// one area of interest, is the same whatever the baseline).
    pub fn diff(&self, world: &World, tick: u64) -> Diff {
        let mut next = HashMap::with_capacity(self.sent.poses.len());
        let (mut created, mut changed) = (Vec::new(), Vec::new());
        world.for_each_entity(|e| {
            if !self.visible(e.transform) {
                return;
            }
            let now = pose(e.transform);
            match self.sent.poses.get(&e.id) {
                None => created.push(entity_json(e.id, e.transform, e.renderable, e.tags)),
                Some(before) if *before != now => changed.push(entity_json(e.id, e.transform, None, None)),
                Some(_) => {}
            }
            next.insert(e.id, now);
        });
        let mut destroyed: Vec<String> = self.sent.poses.keys().filter(|id| !next.contains_key(id)).map(|id| id.to_string()).collect();
        destroyed.sort();
        // UI: new or re-revisioned elements in full, removed ones by handle.
        let mut ui_next = HashMap::with_capacity(self.sent.ui.len());
        let mut ui_upserted = Vec::new();
        for e in world.ui.iter() {
            if self.sent.ui.get(&e.handle) != Some(&e.revision) {
                ui_upserted.push(ui_json(e));
            }
            ui_next.insert(e.handle.clone(), e.revision);
        }
        let mut ui_removed: Vec<&String> = self.sent.ui.keys().filter(|h| !ui_next.contains_key(*h)).collect();
        ui_removed.sort();
        let message = if created.is_empty() && changed.is_empty() && destroyed.is_empty() && ui_upserted.is_empty() && ui_removed.is_empty()
        {
            None
        } else {
            let mut message = json!({"kind": "delta", "tick": tick, "created": created, "changed": changed, "destroyed": destroyed});
            if !ui_upserted.is_empty() || !ui_removed.is_empty() {
                message["ui"] = json!({"upserted": ui_upserted, "removed": ui_removed});
            }
            Some(message)
        };
        Diff { message, next: Sent { poses: Arc::new(next), ui: Arc::new(ui_next) } }
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

    /// Forgets what was sent (after the area of interest changes, the next delta re-describes it).
    pub(crate) fn set_aoi(&mut self, aoi: Option<Aoi>) {
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

    #[test]
    fn deltas_report_created_changed_destroyed_once() {
        let mut w = World::default();
        let a = w.create_entity(&spec(0.0)).unwrap();
        let mut b = Baseline::new(None);
        let snap = b.snapshot(&w, 0);
        assert_eq!(snap.message["entities"].as_array().unwrap().len(), 1);
        b.delivered(snap);
        assert!(b.delta(&w, 1).is_none());
        let c = w.create_entity(&spec(5.0)).unwrap();
        w.edit_transform(a, |t| t.position[1] = 2.0);
        let d = b.delta(&w, 2).unwrap();
        assert_eq!(d.message["created"][0]["entity"], c.to_string());
        assert_eq!(d.message["changed"][0]["entity"], a.to_string());
        // Not delivered: the next delta still carries it (coalescing, nothing lost).
        let again = b.delta(&w, 3).unwrap();
        assert_eq!(again.message["created"][0]["entity"], c.to_string());
        b.delivered(again);
        w.destroy_entity(a, 4);
        assert_eq!(b.delta(&w, 4).unwrap().message["destroyed"], json!([a.to_string()]));
    }

    #[test]
    fn ui_elements_are_sent_once_then_as_changes_and_removals() {
        use crate::world::ui::{UiChange, UiKind};
        let mut w = World::default();
        let mut b = Baseline::new(None);
        let spec = serde_json::from_value(json!({"anchor": {"kind": "screen"}, "text": "hi"})).unwrap();
        let h = w.ui.create(UiKind::Label, spec, &crate::world::ui::Writer { agent: "agt", operator: false }).unwrap();
        let snap = b.snapshot(&w, 0);
        assert_eq!(snap.message["ui"][0]["handle"], h.as_str());
        b.delivered(snap);
        assert!(b.delta(&w, 1).is_none(), "unchanged UI sends nothing");
        w.ui.update(
            UiChange { handle: h.clone(), text: Some("bye".into()), ..Default::default() },
            &crate::world::ui::Writer { agent: "agt", operator: false },
        )
        .unwrap();
        let d = b.delta(&w, 2).unwrap();
        assert_eq!(d.message["ui"]["upserted"][0]["text"], "bye");
        b.delivered(d);
        w.ui.remove(&h, &crate::world::ui::Writer { agent: "agt", operator: false }).unwrap();
        assert_eq!(b.delta(&w, 3).unwrap().message["ui"]["removed"], json!([h]));
    }

    #[test]
    fn baselines_that_reach_the_same_state_share_it() {
        let mut w = World::default();
        let a = w.create_entity(&spec(0.0)).unwrap();
        let (mut early, mut late) = (Baseline::new(None), Baseline::new(None));
        early.delivered(early.snapshot(&w, 0));
        w.create_entity(&spec(5.0)).unwrap();
        late.delivered(late.snapshot(&w, 1));
        assert_ne!(early.key(), late.key());
        w.edit_transform(a, |t| t.position[1] = 2.0);
        // Different deltas (the early one also learns of the second entity), one state reached.
        let (from_early, from_late) = (early.diff(&w, 2), late.diff(&w, 2));
        assert_eq!(from_early.message.as_ref().unwrap()["created"].as_array().unwrap().len(), 1);
        assert_eq!(from_late.message.as_ref().unwrap()["created"].as_array().unwrap().len(), 0);
        early.caught_up(&from_early.next);
        late.caught_up(&from_early.next);
        assert_eq!(early.key(), late.key(), "one shared state from here on");
        assert!(late.delta(&w, 3).is_none());
    }

    #[test]
    fn the_area_of_interest_filters_entities() {
        let mut w = World::default();
        w.create_entity(&spec(0.0)).unwrap();
        let far = w.create_entity(&spec(100.0)).unwrap();
        let mut b = Baseline::new(Some(Aoi { center: [0.0; 3], radius: 10.0 }));
        let snap = b.snapshot(&w, 0);
        assert_eq!(snap.message["entities"].as_array().unwrap().len(), 1);
        b.delivered(snap);
        w.edit_transform(far, |t| t.position[1] = 1.0);
        assert!(b.delta(&w, 1).is_none(), "a change outside the area is not sent");
    }
}
