//! The host: the `Engine` (one world, one Luau VM, one skill registry, one trace), the fixed-step
//! clock, and the `limina` table scripts use to drive it.
//!
//! The engine owns the order of a step (SPEC §3) and is the only thing that advances the tick.
//! Script callbacks, skill handlers and native ops all run on this thread; shared state sits in
//! `RefCell`s that are never borrowed across a call into Lua.

mod agents;
pub(crate) use agents::AgentMemory;
pub use agents::AgentMemoryError;
pub use agents::StepTimings;
mod clock;
mod engine;
mod interrupt;
mod limina_api;
pub(crate) mod playtest;
mod presence;
mod realtime;
mod scene_file;
mod scripted_request;
#[cfg(feature = "render")]
pub mod window;

pub use crate::agents::claims::{Holder, SessionClaim, SessionClaims};
pub use clock::{FIXED_DT, FixedStepClock, FramePlan, MAX_FRAME_DELTA, MAX_STEPS_PER_FRAME};
pub(crate) use engine::{CapturedOutput, Shared, TestLimits, TestTally};
pub use engine::{Engine, EngineConfig, EngineError, Output, RunSummary, TestOutcome, TestStatus};
pub use realtime::{CALL_BUDGET, RealTimeDriver};
pub use scene_file::FileRun;
