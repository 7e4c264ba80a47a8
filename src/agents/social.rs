//! Embodied social behaviour: where an agent is walking to (`social.approach`) and how a line it
//! says (`social.say`) is shown. The walking itself is a pure function of two positions
//! ([`walk_step`]), run each step by `host::social` for every approaching agent in id order, so
//! it is deterministic like the rest of the step.

use serde::Serialize;

use crate::world::EntityId;

/// Walking speed on the ground, m/s (a brisk human walk).
pub const WALK_SPEED: f32 = 2.0;
/// How close an approach gets when the call gives no `talkDistance`, metres.
pub const DEFAULT_TALK_DISTANCE: f64 = 1.5;
/// Largest talk distance `social.approach` takes (its schema's bound).
pub(crate) const MAX_TALK_DISTANCE: f64 = 50.0;
/// Within this much of the talking distance counts as arrived: the last steps slow down so as
/// not to overshoot, and friction eats a little of each, so the exact distance is approached
/// only asymptotically.
pub const ARRIVAL_TOLERANCE: f64 = 0.05;
/// An approach that has not arrived after this many ticks (60 s) gives up and says so.
pub const APPROACH_TIMEOUT_TICKS: u64 = 3600;
/// How fast a said line is revealed in its bubble, characters per second.
pub const SPEECH_CPS: f64 = 30.0;
/// How long a said line stays after it is fully shown, ms.
pub const SPEECH_HOLD_MS: f64 = 2500.0;
/// Lines one speaker may have waiting in its bubble.
pub const MAX_QUEUED_LINES: usize = 16;
/// Where a speech bubble sits above the speaker's position, metres.
pub const BUBBLE_OFFSET: [f64; 3] = [0.0, 1.4, 0.0];

/// What an approach walks to.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum ApproachTarget {
    /// An entity (named directly, or the body of the agent named); `label` is what the call gave.
    Entity {
        entity: EntityId,
        label: String,
    },
    Point {
        point: [f64; 3],
    },
}

impl ApproachTarget {
    /// The target as the call gave it (for events and outputs).
    pub fn label(&self) -> serde_json::Value {
        match self {
            ApproachTarget::Entity { label, .. } => serde_json::Value::from(label.as_str()),
            ApproachTarget::Point { point } => serde_json::json!(point),
        }
    }
}

/// An agent's walk in progress.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Approach {
    pub target: ApproachTarget,
    pub talk_distance: f64,
    pub started_tick: u64,
    /// The `skill.executed`-side event of the call, so arrival links back to it.
    #[serde(skip)]
    pub cause: Option<String>,
}

/// One step of a walk.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum WalkStep {
    /// Within talking distance (horizontal metres, within `ARRIVAL_TOLERANCE`).
    Arrived(f64),
    /// Keep walking with this ground velocity (x, z, m/s).
    Walk([f32; 2]),
}

/// Walks on the ground plane (height is gravity's business): toward the target at
/// [`WALK_SPEED`], slowing so as not to overshoot the talking distance within one step.
pub fn walk_step(from: [f32; 3], to: [f32; 3], talk_distance: f64, dt: f64) -> WalkStep {
    let dx = f64::from(to[0]) - f64::from(from[0]);
    let dz = f64::from(to[2]) - f64::from(from[2]);
    let distance = (dx * dx + dz * dz).sqrt();
    // Positions are bounded, so this only guards against a bug upstream: never walk on a NaN.
    if !distance.is_finite() {
        return WalkStep::Arrived(f64::INFINITY);
    }
    if distance <= talk_distance + ARRIVAL_TOLERANCE {
        return WalkStep::Arrived(distance);
    }
    let speed = f64::from(WALK_SPEED).min((distance - talk_distance) / dt);
    WalkStep::Walk([(dx / distance * speed) as f32, (dz / distance * speed) as f32])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_toward_the_target_and_stops_at_talking_distance() {
        let dt = 1.0 / 60.0;
        let mut at = [0.0f32, 0.0, 0.0];
        let target = [10.0f32, 5.0, 0.0];
        let mut ticks = 0;
        loop {
            match walk_step(at, target, 1.5, dt) {
                WalkStep::Arrived(d) => {
                    assert!(d <= 1.5 + ARRIVAL_TOLERANCE && d > 1.49, "stopped at {d}");
                    break;
                }
                WalkStep::Walk(v) => {
                    assert!((v[0].hypot(v[1]) - WALK_SPEED).abs() < 1e-3 || ticks > 250);
                    at[0] += v[0] * dt as f32;
                    at[2] += v[1] * dt as f32;
                }
            }
            ticks += 1;
            assert!(ticks < 1000);
        }
        // 8.5 m (less the 5 cm tolerance) at 2 m/s is about 4.2 s: 253-255 ticks.
        assert!((252..=258).contains(&ticks), "{ticks}");
    }
}
