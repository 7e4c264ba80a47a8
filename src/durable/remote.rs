//! A second home for a command log: a store on another machine (JetStream, `nats`) that takes
//! the log's bytes and snapshots and acknowledges them on its own. The log hands it every byte
//! it writes to its file, in the same order, so the remote holds the same log: reading it back
//! gives the file's bytes. What "acknowledged" means is the remote's to say; the log only
//! counts bytes.
//!
//! The trait is this layer's; the remote's implementation lives with its client (`nats`), and
//! the operator's configuration (`--nats`) picks it, so nothing here knows which remote it is.

use std::sync::Arc;
use std::time::Duration;

/// One open remote log.
pub trait RemoteLog {
    /// Queues `bytes` (whole records, in log order) without waiting on the network. An error
    /// means nothing was queued and the remote takes no more: the log stops.
    fn append(&mut self, bytes: &[u8]) -> Result<(), String>;
    /// Bytes of this run's appends the remote has acknowledged, in order.
    fn acknowledged(&self) -> u64;
    /// Blocks until `upto` bytes are acknowledged, `timeout` passes (an error saying how far it
    /// got), or the remote fails for good.
    fn wait(&self, upto: u64, timeout: Duration) -> Result<(), String>;
    /// A failure after which nothing more will be acknowledged (another writer took the log).
    fn status(&self) -> Result<(), String>;
    /// Whether new records should be taken now: not while the remote is unreachable or its
    /// backlog is full (they would only wait, or be refused). Not a failure: it passes.
    fn writable(&self) -> Result<(), String>;
    /// Why nothing may be written now, not even a step's records (the writer's lease passed its
    /// deadline: another process may be about to own the log). The world does not step.
    fn halted(&self) -> Option<String> {
        None
    }
    /// Calls `waker` from another thread whenever more is acknowledged.
    fn on_acknowledged(&mut self, waker: Box<dyn Fn() + Send + Sync>);
    /// Hands the remote a copy of the snapshot at `path`, stored under `name` (in the
    /// background; recovery passes over a snapshot the remote does not hold).
    fn put_snapshot(&self, name: &str, path: &std::path::Path);
    /// Removes a snapshot the log no longer keeps (in the background).
    fn remove_snapshot(&self, name: &str);
    /// Where it is, for messages (never with credentials).
    fn describe(&self) -> String;
}

/// What opens a world's remote log when its engine starts its command log.
pub trait OpenRemote: Send + Sync {
    fn open(&self) -> Result<Box<dyn RemoteLog>, String>;
    /// Whether the remote already holds this log, to be continued: no header is written (a
    /// world taken over from another process, whose log the remote keeps).
    fn continues(&self) -> bool {
        false
    }
    fn describe(&self) -> String;
}

/// A remote to open, as a log's configuration holds it.
#[derive(Clone)]
pub struct RemoteTarget(pub Arc<dyn OpenRemote>);

impl RemoteTarget {
    pub fn open(&self) -> Result<Box<dyn RemoteLog>, String> {
        self.0.open()
    }

    pub fn describe(&self) -> String {
        self.0.describe()
    }

    pub fn continues(&self) -> bool {
        self.0.continues()
    }
}

impl std::fmt::Debug for RemoteTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

/// Two targets are the same when they are one object (configurations compare by identity).
impl PartialEq for RemoteTarget {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}
