//! `RealTimeDriver`: the one wall-clock driver of the fixed step, shared by every real-time host
//! (the stdio and WebSocket MCP servers, the window). It owns the `FixedStepClock` and the time
//! of the last frame, and tells its host how long it may wait for input before the next step is
//! due, so hosts differ only in what they wait on.
//!
//! It also owns the **call budget**: how much of each step's interval work from outside the loop
//! (MCP calls, and the deltas they cause) may take. A host asks `may_call` before each call and
//! reports what the call took with `called`. Calls stop when the budget is spent or a step is due,
//! whichever comes first, and wait for the next interval; the first call after a step always runs,
//! so a budget of zero still serves one call per step and a call longer than the budget still
//! makes progress. The world therefore keeps 60 steps/s under any call load, late by at most one
//! call; what load costs is call latency, never the clock.

use std::time::{Duration, Instant};

use super::clock::{FIXED_DT, FixedStepClock, FramePlan};

/// Shortest wait between frames when the accumulator is already nearly full (no busy loop).
const MIN_WAIT: f64 = 0.001;

/// Default call time per step: half of the 16.7 ms interval, leaving the rest to the step itself,
/// the deltas of the tick and the threads that carry messages.
pub const CALL_BUDGET: Duration = Duration::from_micros(8_000);

#[derive(Debug, Clone)]
pub struct RealTimeDriver {
    clock: FixedStepClock,
    last_frame: Instant,
    next_due: Instant,
    call_budget: Duration,
    /// Call time spent since the last step.
    call_time: Duration,
    /// Calls served since the last step.
    calls: u32,
}

impl RealTimeDriver {
    pub fn new(now: Instant) -> Self {
        Self {
            clock: FixedStepClock::new(),
            last_frame: now,
            next_due: now + Duration::from_secs_f64(FIXED_DT),
            call_budget: CALL_BUDGET,
            call_time: Duration::ZERO,
            calls: 0,
        }
    }

    /// The same driver with another call budget per step.
    pub(crate) fn with_call_budget(mut self, budget: Duration) -> Self {
        self.call_budget = budget;
        self
    }

    /// Whether one more call may run at `now`: always the first since the last step; after that,
    /// while the step's budget lasts and no step is due.
    pub(crate) fn may_call(&self, now: Instant) -> bool {
        self.calls == 0 || (self.call_time < self.call_budget && now < self.next_due)
    }

    /// Records one call that took `elapsed`.
    pub(crate) fn called(&mut self, elapsed: Duration) {
        self.calls = self.calls.saturating_add(1);
        self.charge(elapsed);
    }

    /// Charges work done on behalf of calls (their deltas) to this step's budget.
    pub(crate) fn charge(&mut self, elapsed: Duration) {
        self.call_time = self.call_time.saturating_add(elapsed);
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
        if plan.steps > 0 {
            self.call_time = Duration::ZERO;
            self.calls = 0;
        }
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

    /// A host loop on a fake clock: serves calls of `cost` each from an endless queue for
    /// `seconds`, the way the servers do (a due step first, then calls while `may_call`, else wait
    /// for the step). Returns the step times and the calls run in each step interval.
    fn simulate(budget: Duration, cost: Duration, seconds: f64) -> (Vec<Instant>, Vec<u32>) {
        let t0 = Instant::now();
        let mut now = t0;
        let mut d = RealTimeDriver::new(t0).with_call_budget(budget);
        let (mut steps, mut calls) = (Vec::new(), vec![0u32]);
        while now < t0 + Duration::from_secs_f64(seconds) {
            if let Some(plan) = d.due(now) {
                for _ in 0..plan.steps {
                    steps.push(now);
                    calls.push(0);
                }
                now += Duration::from_micros(500); // the step itself
            } else if d.may_call(now) {
                now += cost;
                d.called(cost);
                *calls.last_mut().expect("one interval at least") += 1;
            } else {
                now += d.wait(now);
            }
        }
        (steps, calls)
    }

    #[test]
    fn an_endless_queue_of_calls_never_costs_a_step() {
        let (steps, calls) = simulate(CALL_BUDGET, Duration::from_millis(2), 2.0);
        assert!((119..=121).contains(&steps.len()), "{} steps in 2 s of calls", steps.len());
        let worst = steps.windows(2).map(|w| w[1] - w[0]).max().expect("steps");
        // Late by at most one call past the step's due time.
        assert!(worst <= Duration::from_secs_f64(FIXED_DT) + Duration::from_millis(2), "a gap of {worst:?} between steps");
        // Calls past the budget waited for later steps: 8 ms of 2 ms calls is 4 per step.
        assert!(calls.iter().all(|&n| n <= 4), "calls per step: {calls:?}");
        assert!(calls.iter().skip(1).take(100).all(|&n| n == 4), "the budget is used, every step: {calls:?}");
    }

    #[test]
    fn a_zero_budget_still_serves_one_call_per_step() {
        let (steps, calls) = simulate(Duration::ZERO, Duration::from_millis(2), 1.0);
        assert!((59..=61).contains(&steps.len()));
        assert!(calls.iter().skip(1).take(50).all(|&n| n == 1), "calls per step: {calls:?}");
    }

    #[test]
    fn a_call_longer_than_a_step_runs_once_per_step_and_the_clock_catches_up() {
        // 40 ms calls: each delays the next step, but only one runs per step, so the world runs
        // at most one call behind and catches up (up to 5 steps per frame) instead of starving.
        let (steps, calls) = simulate(CALL_BUDGET, Duration::from_millis(40), 2.0);
        assert!(steps.len() >= 110, "{} steps in 2 s", steps.len());
        assert!(calls.iter().all(|&n| n <= 1), "calls per step: {calls:?}");
    }

    #[test]
    fn calls_stop_when_a_step_is_due_even_inside_the_budget() {
        let t0 = Instant::now();
        let mut d = RealTimeDriver::new(t0).with_call_budget(Duration::from_secs(1));
        d.called(Duration::from_millis(1));
        assert!(d.may_call(t0 + Duration::from_millis(10)));
        assert!(!d.may_call(t0 + Duration::from_millis(17)), "a step is due: it goes first");
        assert!(d.due(t0 + Duration::from_millis(17)).is_some());
        assert!(d.may_call(t0 + Duration::from_millis(17)), "a new step, a new budget");
    }
}
