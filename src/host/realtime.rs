//! `RealTimeDriver`: the one wall-clock driver of the fixed step, shared by every real-time host
//! (the stdio and WebSocket MCP servers, the window). It owns the `FixedStepClock` and the time
//! of the last frame, and tells its host how long it may wait for input before the next step is
//! due, so hosts differ only in what they wait on.

use std::time::{Duration, Instant};

use super::clock::{FIXED_DT, FixedStepClock, FramePlan};

/// Shortest wait between frames when the accumulator is already nearly full (no busy loop).
const MIN_WAIT: f64 = 0.001;

#[derive(Debug, Clone)]
pub struct RealTimeDriver {
    clock: FixedStepClock,
    last_frame: Instant,
    next_due: Instant,
}

impl RealTimeDriver {
    pub fn new(now: Instant) -> Self {
        Self { clock: FixedStepClock::new(), last_frame: now, next_due: now + Duration::from_secs_f64(FIXED_DT) }
    }

    /// How long a host may block waiting for input before a step is due.
    pub fn wait(&self, now: Instant) -> Duration {
        self.next_due.saturating_duration_since(now)
    }

    /// A frame's plan when a step is due at `now` (None before then): whole steps to run and the
    /// interpolation factor.
    pub fn due(&mut self, now: Instant) -> Option<FramePlan> {
        (now >= self.next_due).then(|| self.frame(now))
    }

    /// A frame now, due or not (a window draws on every redraw).
    pub fn frame(&mut self, now: Instant) -> FramePlan {
        let plan = self.clock.advance(now.saturating_duration_since(self.last_frame).as_secs_f64());
        self.last_frame = now;
        self.next_due = now + Duration::from_secs_f64((FIXED_DT - self.clock.accumulator()).max(MIN_WAIT));
        plan
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_due_before_one_step_of_real_time() {
        let t0 = Instant::now();
        let mut d = RealTimeDriver::new(t0);
        assert!(d.due(t0 + Duration::from_millis(5)).is_none());
        assert!(d.wait(t0) > Duration::from_millis(10));
        let plan = d.due(t0 + Duration::from_millis(17)).expect("a step is due after 17 ms");
        assert_eq!(plan.steps, 1);
    }

    #[test]
    fn a_long_stall_runs_at_most_one_frames_worth_of_steps() {
        let t0 = Instant::now();
        let mut d = RealTimeDriver::new(t0);
        let plan = d.due(t0 + Duration::from_secs(3)).expect("due");
        assert!(plan.steps <= super::super::clock::MAX_STEPS_PER_FRAME);
        assert!(d.wait(t0 + Duration::from_secs(3)) <= Duration::from_secs_f64(FIXED_DT));
    }
}
