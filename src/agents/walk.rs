//! The walk system: agents walking toward what they approach (`social.approach`), before
//! physics. It walks the agent table in id order and reads only world state, so it is as
//! deterministic as the rest of the step; each arrival and give-up is traced.

use std::cell::RefCell;

use serde_json::json;

use super::social::{APPROACH_TIMEOUT_TICKS, ApproachTarget, WalkStep, walk_step};
use super::table::Agents;
use crate::policy::PolicyEngine;
use crate::trace::{EventDraft, EventKind, TraceLog};
use crate::world::World;

/// How a walk ended this step.
enum Outcome {
    Arrived(f64),
    Failed(String),
}

/// Moves every approaching agent one step of `dt` seconds toward its target; arrivals and
/// give-ups end the approach and are traced. With `policy`, an agent whose tree may act no more
/// (revoked, or a budget spent) stops walking at once.
pub fn walk(
    agents: &RefCell<Agents>,
    world: &RefCell<World>,
    policy: Option<&RefCell<PolicyEngine>>,
    trace: &RefCell<TraceLog>,
    tick: u64,
    dt: f64,
) {
    let mut ended = Vec::new();
    {
        let mut agents = agents.borrow_mut();
        let mut world = world.borrow_mut();
        let policy = policy.map(|p| p.borrow());
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
                        world.walk(entity, [0.0, 0.0], dt as f32);
                    }
                    Some(Outcome::Failed(format!("the agent may act no more: {why}")))
                }
                (None, _) => Some(Outcome::Failed("the walker's body no longer exists".into())),
                (_, None) => Some(Outcome::Failed("the target no longer exists".into())),
                (Some((entity, from)), Some(to)) => match walk_step(from, to, approach.talk_distance, dt) {
                    WalkStep::Arrived(distance) => {
                        world.walk(entity, [0.0, 0.0], dt as f32);
                        Some(Outcome::Arrived(distance))
                    }
                    WalkStep::Walk(_) if tick.saturating_sub(approach.started_tick) >= APPROACH_TIMEOUT_TICKS => {
                        world.walk(entity, [0.0, 0.0], dt as f32);
                        Some(Outcome::Failed(format!("did not arrive within {APPROACH_TIMEOUT_TICKS} ticks")))
                    }
                    WalkStep::Walk(velocity) => {
                        world.walk(entity, velocity, dt as f32);
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
    let mut trace = trace.borrow_mut();
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
