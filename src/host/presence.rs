//! The step's presence systems: agents walking toward what they approach (`social.approach`),
//! before physics, and UI elements whose ttl ran out, removed at the end of the step. Both walk
//! their tables in id order and read only world state, so they are as deterministic as the rest
//! of the step; each outcome is traced.

use serde_json::json;

use super::engine::Shared;
use crate::agents::social::{APPROACH_TIMEOUT_TICKS, ApproachTarget, WalkStep, walk_step};
use crate::trace::{EventDraft, EventKind};

/// How a walk ended this step.
enum Outcome {
    Arrived(f64),
    Failed(String),
}

impl Shared {
    /// Moves every approaching agent one step toward its target; arrivals and give-ups end the
    /// approach and are traced.
    pub(super) fn walk_agents(&self, tick: u64) {
        let mut ended = Vec::new();
        {
            let mut agents = self.agents.borrow_mut();
            let mut world = self.world.borrow_mut();
            let policy = self.policy_enabled.then(|| self.policy.borrow());
            for record in agents.iter_mut() {
                let Some(approach) = &record.approach else { continue };
                let own = record.entity.and_then(|e| world.transform(e).map(|t| (e, t.position)));
                // A walk is the agent acting: a revoked (or spent) tree stops walking at once.
                let stopped = policy.as_ref().and_then(|p| p.stopped(&record.id, &record.session_id, &record.acting_for, tick));
                let target = match &approach.target {
                    ApproachTarget::Entity { entity, .. } => world.transform(*entity).map(|t| t.position),
                    ApproachTarget::Point { point } => Some(point.map(|v| v as f32)),
                };
                let outcome = match (own, target) {
                    (own, _) if let Some(why) = &stopped => {
                        if let Some((entity, _)) = own {
                            world.walk(entity, [0.0, 0.0], super::FIXED_DT as f32);
                        }
                        Some(Outcome::Failed(format!("the agent may act no more: {why}")))
                    }
                    (None, _) => Some(Outcome::Failed("the walker's body no longer exists".into())),
                    (_, None) => Some(Outcome::Failed("the target no longer exists".into())),
                    (Some((entity, from)), Some(to)) => match walk_step(from, to, approach.talk_distance, super::FIXED_DT) {
                        WalkStep::Arrived(distance) => {
                            world.walk(entity, [0.0, 0.0], super::FIXED_DT as f32);
                            Some(Outcome::Arrived(distance))
                        }
                        WalkStep::Walk(_) if tick.saturating_sub(approach.started_tick) >= APPROACH_TIMEOUT_TICKS => {
                            world.walk(entity, [0.0, 0.0], super::FIXED_DT as f32);
                            Some(Outcome::Failed(format!("did not arrive within {APPROACH_TIMEOUT_TICKS} ticks")))
                        }
                        WalkStep::Walk(velocity) => {
                            world.walk(entity, velocity, super::FIXED_DT as f32);
                            None
                        }
                    },
                };
                if let Some(outcome) = outcome {
                    let approach = record.approach.take().expect("checked above");
                    ended.push((record.id.to_string(), record.session_id.to_string(), approach, outcome));
                }
            }
        }
        let mut trace = self.trace.borrow_mut();
        for (agent, session, approach, outcome) in ended {
            let (kind, payload) = match outcome {
                Outcome::Arrived(distance) => (
                    EventKind::SocialApproached,
                    json!({"agentId": agent, "target": approach.target.label(), "distance": distance, "tick": tick}),
                ),
                Outcome::Failed(reason) => (
                    EventKind::SocialApproachFailed,
                    json!({"agentId": agent, "target": approach.target.label(), "reason": reason, "tick": tick}),
                ),
            };
            let draft = EventDraft::new(kind.as_str(), &agent).thread(&session).caused_by(approach.cause.into_iter().collect());
            trace.emit(draft, tick, &payload);
        }
    }

    /// Hands the step's sounds to the mixer (when sound goes anywhere), then removes the sounds
    /// that have finished by the next tick.
    pub(super) fn sound_step(&self, tick: u64) {
        let mut world = self.world.borrow_mut();
        // Voices move with their speakers (world state: the hash sees where they are).
        if world.sounds.iter().any(|s| s.follows.is_some()) {
            let positions: std::collections::HashMap<crate::world::EntityId, [f32; 3]> =
                world.sounds.iter().filter_map(|s| s.follows).filter_map(|id| world.transform(id).map(|t| (id, t.position))).collect();
            world.sounds.follow(|id| positions.get(&id).copied());
        }
        if let Some(audio) = self.audio.borrow().as_ref() {
            let c = world.camera;
            // The sounds are copied for the audio thread only when they changed.
            let mut shared = self.audio_sounds.borrow_mut();
            if shared.0 != world.sounds.revision || shared.1.is_none() {
                *shared = (world.sounds.revision, Some(std::sync::Arc::new(world.sounds.snapshot())));
            }
            audio.send(crate::audio::MixFrame {
                tick,
                listener: crate::audio::Listener::camera(c.position, c.target),
                bus_volumes: world.sounds.bus_volumes,
                sounds: std::sync::Arc::clone(shared.1.as_ref().expect("set above")),
            });
        }
        world.sounds.tick = tick + 1;
        world.sounds.finish(tick + 1);
    }

    /// Removes the UI elements whose ttl has run out by the end of `tick`, tracing each.
    pub(super) fn expire_ui(&self, tick: u64) {
        let expired = {
            let mut world = self.world.borrow_mut();
            // Elements following an entity that is gone leave with it.
            let gone: std::collections::HashSet<String> = world
                .ui
                .iter()
                .filter_map(|e| match &e.spec.anchor {
                    crate::world::ui::Anchor::World(w) => w.entity.clone(),
                    crate::world::ui::Anchor::Screen(_) => None,
                })
                .filter(|id| world.resolve(id).is_none())
                .collect();
            world.ui.tick = tick + 1;
            world.ui.expire(tick + 1, |id| !gone.contains(id))
        };
        let mut trace = self.trace.borrow_mut();
        for e in expired {
            let reason = if e.expires_at().is_some_and(|at| at <= tick + 1) { "ttl" } else { "anchor entity destroyed" };
            let payload = json!({"handle": e.handle, "kind": e.kind.as_str(), "owner": e.owner, "reason": reason, "tick": tick});
            trace.emit(EventDraft::new(EventKind::UiExpired.as_str(), "engine"), tick, &payload);
        }
    }
}
