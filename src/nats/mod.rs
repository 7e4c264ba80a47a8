//! Each world's command log on NATS JetStream (SPEC §14): one stream per world
//! (`LIMINA_LOG_{world}`, subject `limina.log.{world}`) whose messages, concatenated, are the
//! bytes the file log would hold. `WorldLog` writes one (`writer`) and reads one back
//! (`reader`); `JetStream` is the connection with the small runtime it runs on (`connection`).
//! A fleet of processes shares worlds through `lease` (who serves which world) and `fence`
//! (the mark a new owner puts in a world's log before it writes).
//! Spectators: each world's state stream and trace events on core NATS subjects, published
//! (`spectate`) and read (`spectator`).
//!
//! Callers are plain std threads: every call blocks its caller, none may be made from inside a
//! tokio runtime, and no async-nats type leaves this module. Sits with `durable` in the records
//! layer; names only base modules (`clip`, `redact`).

mod connection;
mod error;
mod fence;
mod lease;
mod reader;
mod remote;
mod snapshots;
mod spectate;
mod spectator;
mod stream;
mod url;
mod writer;

pub use connection::JetStream;
pub use error::NatsError;
pub use fence::{Fence, place as place_fence};
pub use lease::{Claim, LeaseHold, Leases, Listed};
pub use reader::LogBytes;
pub use remote::{NatsRemote, materialize};
pub use snapshots::fetch as fetch_snapshot;
pub use spectate::{Feed, FeedTotals, Kind, MAX_TRACE_BYTES, Refused, SpectatorFeed};
pub use spectator::{Spectated, Spectator};
pub use url::{DEFAULT_PORT, NatsUrl};
pub use writer::{AckCallback, LogLimits, MAX_IN_FLIGHT, WorldLog};
