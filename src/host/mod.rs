//! The host: the `Engine` (one world, one Luau VM, one skill registry, one trace), the fixed-step
//! clock, and the `limina` table scripts use to drive it.
//!
//! The engine's state is a few owned parts (`parts`: the simulated world, the rules, the
//! journal, the outputs, the scripts' state); the order of a step is written once (`step`) as
//! calls that take the parts each stage needs. Snapshots capture from and restore into the
//! parts (`snapshots`); replay and recovery drive an engine from a command log (`replay`,
//! `recover`). The engine is the only thing that advances the tick. Script callbacks, skill
//! handlers and native ops all run on this thread; state sits in `RefCell`s that are never
//! borrowed across a call into Lua.

mod clock;
mod engine;
mod limina_api;
mod parts;
pub(crate) mod playtest;
mod realtime;
mod recover;
mod replay;
mod resume;
mod scene_file;
mod snapshots;
mod step;
mod time;
#[cfg(feature = "render")]
pub mod window;

pub use crate::agents::claims::{Holder, SessionClaim, SessionClaims};
pub use clock::{FIXED_DT, FixedStepClock, FramePlan, MAX_FRAME_DELTA, MAX_STEPS_PER_FRAME};
pub(crate) use engine::{CapturedOutput, TestLimits, TestTally};
pub use engine::{ClaimRefused, Engine, EngineConfig, EngineError, Output, RunSummary, TestOutcome, TestStatus};
pub use realtime::{CALL_BUDGET, RealTimeDriver};
pub use recover::{LeftOut, LeftOutKind, RecoverError, Recovered, find_log, recover, replay_from};
pub use replay::{HeaderError, ReplayError, ReplayOptions, ReplayReport, replay};
pub use resume::{FileKind, Resume, ResumeError};
pub use scene_file::FileRun;
pub use step::StepTimings;
pub use time::MAX_STEP_TICKS;
