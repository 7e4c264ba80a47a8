//! The durable world's records: the command log of every applied skill call (written by `log`,
//! read by `reader`), and what a replay feeds the step (`feed`). Replaying a log into an engine
//! and recovering a killed run's world are engine operations: `host::replay`, `host::recover`.
//!
//! Every world mutation already passes through the skill registry, so the calls that reached a
//! core handler are a complete account of what changed the world. `limina run --log FILE` and
//! `limina mcp … --log FILE` append them per tick, with the agent systems' own state changes,
//! step markers and world-hash checkpoints.

pub(crate) mod feed;
mod log;
mod reader;
mod record;
mod remote;

pub use feed::Divergence;
pub(crate) use feed::ReplayFeed;
pub(crate) use log::CommandLog;
pub use log::{FlushPolicy, LogConfig, LogFailure, LogProgress, LogStep};
pub use reader::{BadLine, LogError, LogReader};
pub use record::{BaseSnapshot, CallOutcome, CallerRecord, FORMAT, Header, Phase, Record};
pub use remote::{OpenRemote, RemoteLog, RemoteTarget};
