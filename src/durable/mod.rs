//! The durable world: a command log of every applied skill call, replay, and recovery.
//!
//! Every world mutation already passes through the skill registry, so the calls that reached a
//! core handler are a complete account of what changed the world. `limina run --log FILE` and
//! `limina mcp … --log FILE` append them per tick (`log`), with the agent systems' own state
//! changes, step markers and world-hash checkpoints; `limina replay` re-applies them to a fresh
//! engine without scripts or providers (`replay`) and names the first checkpoint that differs;
//! `limina recover DIR` rebuilds the world from the newest good snapshot and the log after it.

mod log;
mod reader;
mod record;
mod recover;
mod replay;

pub(crate) use log::{CommandLog, EndedCall, Nesting};
pub use log::{FlushPolicy, LogConfig};
pub use reader::{BadLine, LogError, LogReader};
pub use record::{CallerRecord, FORMAT, Header, Phase, Record};
pub use recover::{LeftOut, RecoverError, Recovered, find_log, recover, replay_from};
pub(crate) use replay::ReplayFeed;
pub use replay::{Divergence, ReplayError, ReplayOptions, ReplayReport, replay};
