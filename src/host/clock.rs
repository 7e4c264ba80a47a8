//! The fixed-timestep clock: turns real elapsed time into whole logic steps plus an
//! interpolation factor, exactly as the reference loop does.
//!
//! Logic only ever advances in `FIXED_DT` increments, so the world is deterministic whatever the
//! frame rate; rendering gets the leftover fraction as `alpha`. Two clamps keep the loop healthy:
//! a stall longer than `MAX_FRAME_DELTA` is forgotten rather than integrated, and a frame never
//! runs more than `MAX_STEPS_PER_FRAME` steps (no death spiral when the machine falls behind).

/// One fixed logic step: 60 steps per second.
pub const FIXED_DT: f64 = 1.0 / 60.0;
/// Most steps a single frame may run while catching up.
pub const MAX_STEPS_PER_FRAME: u32 = 5;
/// Longest real delta a frame may integrate (seconds).
pub const MAX_FRAME_DELTA: f64 = 0.25;
const DRIFT_SLACK: f64 = 1e-9;

/// What one frame should do: run `steps` fixed steps, then render with `alpha`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FramePlan {
    pub steps: u32,
    /// Leftover fraction of a step in `[0, 1)`, for render interpolation.
    pub alpha: f64,
}

/// The accumulator. Feed it real elapsed seconds once per frame.
#[derive(Debug, Clone, Default)]
pub struct FixedStepClock {
    accumulator: f64,
}

impl FixedStepClock {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `real_elapsed` seconds (clamped to `[0, MAX_FRAME_DELTA]`) and returns how many whole
    /// steps this frame runs. Steps that did not fit under `MAX_STEPS_PER_FRAME` stay in the
    /// accumulator, but it is capped so a long backlog can never exceed one frame's worth.
    pub fn advance(&mut self, real_elapsed: f64) -> FramePlan {
        let delta = if real_elapsed.is_finite() { real_elapsed.clamp(0.0, MAX_FRAME_DELTA) } else { 0.0 };
        self.accumulator += delta;
        let mut steps = 0;
        // A nanosecond of slack keeps float drift (2.5 steps of time then 0.5 more) from losing a
        // step that is due.
        while self.accumulator >= FIXED_DT - DRIFT_SLACK && steps < MAX_STEPS_PER_FRAME {
            self.accumulator = (self.accumulator - FIXED_DT).max(0.0);
            steps += 1;
        }
        // Whatever could not run this frame is carried, but never more than the clamp allows, so a
        // slow machine degrades into slow motion instead of an ever-growing backlog.
        self.accumulator = self.accumulator.min(MAX_FRAME_DELTA);
        FramePlan { steps, alpha: (self.accumulator / FIXED_DT).min(1.0 - f64::EPSILON) }
    }

    pub(crate) fn accumulator(&self) -> f64 {
        self.accumulator
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exactly_one_step_of_time_runs_one_step() {
        let mut clock = FixedStepClock::new();
        let plan = clock.advance(FIXED_DT);
        assert_eq!(plan.steps, 1);
        assert!(plan.alpha.abs() < 1e-9, "alpha {}", plan.alpha);
    }

    #[test]
    fn leftover_time_becomes_alpha() {
        let mut clock = FixedStepClock::new();
        let plan = clock.advance(FIXED_DT * 2.5);
        assert_eq!(plan.steps, 2);
        assert!((plan.alpha - 0.5).abs() < 1e-9, "alpha {}", plan.alpha);
        // The half step carries into the next frame.
        let plan = clock.advance(FIXED_DT * 0.5);
        assert_eq!(plan.steps, 1);
        assert!(plan.alpha.abs() < 1e-9);
    }

    #[test]
    fn small_frames_accumulate_until_a_step_fits() {
        let mut clock = FixedStepClock::new();
        let mut total = 0;
        for _ in 0..4 {
            total += clock.advance(FIXED_DT / 4.0 + 1e-12).steps;
        }
        assert_eq!(total, 1);
    }

    #[test]
    fn a_long_stall_is_clamped_to_a_quarter_second() {
        let mut clock = FixedStepClock::new();
        // 10 s of stall: clamped to 0.25 s = 15 steps of time, of which 5 run now.
        let plan = clock.advance(10.0);
        assert_eq!(plan.steps, MAX_STEPS_PER_FRAME);
        assert!(clock.accumulator() <= MAX_FRAME_DELTA + 1e-12);
        assert!(plan.alpha < 1.0);
    }

    #[test]
    fn at_most_five_steps_per_frame() {
        let mut clock = FixedStepClock::new();
        let plan = clock.advance(0.2); // 12 steps of time
        assert_eq!(plan.steps, 5);
    }

    #[test]
    fn sixty_steps_per_simulated_second() {
        let mut clock = FixedStepClock::new();
        let mut steps = 0;
        for _ in 0..144 {
            steps += clock.advance(1.0 / 144.0).steps;
        }
        assert!((59..=60).contains(&steps), "{steps} steps in one second");
    }

    #[test]
    fn negative_or_nan_time_runs_nothing() {
        let mut clock = FixedStepClock::new();
        assert_eq!(clock.advance(-1.0).steps, 0);
        assert_eq!(clock.advance(f64::NAN).steps, 0);
        assert_eq!(clock.accumulator(), 0.0);
    }
}
