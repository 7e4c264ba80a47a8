//! Where a skill call's time goes: an optional clock the pipeline reads at each stage boundary,
//! for `limina bench --only calls`.
//!
//! Off (None) for every real call, so the pipeline pays one branch per stage; the bench turns it
//! on for a run of its own, after the run it reports as the call's cost. Each `lap` charges the
//! time since the previous one to a stage, so a call that fails early charges its remaining time
//! to whichever stage laps next; the bench's calls succeed and do not nest.

use std::cell::Cell;
use std::time::{Duration, Instant};

/// The stages of a call from a script, in pipeline order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stage {
    /// The caller's Lua input to JSON, and its private copy.
    Input,
    /// Resolve the skill, apply defaults, validate the input.
    Validate,
    /// The policy decision and its event.
    Policy,
    /// The handler's `ctx` (and its input as Lua, when no copy came with the call). Without
    /// hooks, the `ctx` table is made in the same call into the VM as the handler, so it is
    /// charged to `Handler`.
    Context,
    /// Hooks and handler.
    Handler,
    /// The handler's result to JSON (and a copy), defaults, output validation.
    Result,
    /// The `skill.executed` (or `skill.failed`) event and the response's metadata.
    Outcome,
    /// The response table the script gets (its values in Rust, the table in Luau).
    Response,
}

impl Stage {
    pub(crate) const ALL: [Stage; 8] =
        [Stage::Input, Stage::Validate, Stage::Policy, Stage::Context, Stage::Handler, Stage::Result, Stage::Outcome, Stage::Response];

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Stage::Input => "input to JSON + copy",
            Stage::Validate => "resolve + validate",
            Stage::Policy => "policy decision + event",
            Stage::Context => "ctx",
            Stage::Handler => "handler",
            Stage::Result => "result to JSON + copy + validate",
            Stage::Outcome => "skill.executed event",
            Stage::Response => "response table",
        }
    }
}

/// Time per stage, summed over the calls made while it was on.
#[derive(Debug)]
pub(crate) struct StageClock {
    last: Cell<Instant>,
    totals: [Cell<Duration>; 8],
    /// The last call's Rust part ended with its response values: `limina.call` builds the table
    /// from them in Luau, after Rust returns, so that time is charged when the next call starts.
    building: Cell<bool>,
}

impl Default for StageClock {
    fn default() -> Self {
        Self { last: Cell::new(Instant::now()), totals: Default::default(), building: Cell::new(false) }
    }
}

impl StageClock {
    /// A call begins: nothing before this is charged, except the previous call's response table
    /// (see `building`; the bench's calls follow one another, so the gap is that table, plus
    /// the bench loop's own few instructions).
    pub(crate) fn start(&self) {
        if self.building.replace(false) {
            self.lap(Stage::Response);
        } else {
            self.last.set(Instant::now());
        }
    }

    /// The response values are ready; the table is built after Rust returns.
    pub(crate) fn response_values_done(&self) {
        self.lap(Stage::Response);
        self.building.set(true);
    }

    /// `stage` ends now.
    pub(crate) fn lap(&self, stage: Stage) {
        let now = Instant::now();
        let slot = &self.totals[stage as usize];
        slot.set(slot.get() + now.duration_since(self.last.get()));
        self.last.set(now);
    }

    /// Each stage's total so far, in pipeline order.
    pub(crate) fn totals(&self) -> [(Stage, Duration); 8] {
        Stage::ALL.map(|s| (s, self.totals[s as usize].get()))
    }
}

/// Laps `stage` when a clock is on.
pub(crate) fn lap(clock: Option<&StageClock>, stage: Stage) {
    if let Some(clock) = clock {
        clock.lap(stage);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_lap_is_charged_to_its_own_stage_and_nothing_is_counted_twice() {
        let clock = StageClock::default();
        let outside = Instant::now();
        clock.start();
        clock.lap(Stage::Input);
        clock.lap(Stage::Handler);
        clock.lap(Stage::Handler);
        let elapsed = outside.elapsed();
        let totals = clock.totals();
        assert_eq!(totals.map(|(s, _)| s), Stage::ALL);
        for (stage, total) in totals {
            if ![Stage::Input, Stage::Handler].contains(&stage) {
                assert_eq!(total, Duration::ZERO, "{stage:?} was never lapped");
            }
        }
        // The laps split the time since `start`: together they cannot exceed it.
        assert!(totals.iter().map(|(_, d)| *d).sum::<Duration>() <= elapsed);
    }
}
