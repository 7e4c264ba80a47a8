//! Spectators through NATS, the publishing side: a world's state stream and trace events go out
//! on core NATS subjects (`limina.world.{world}.delta`, `limina.world.{world}.trace`; not
//! JetStream, nothing is stored), so viewers, recorders and analytics read them without adding
//! load to the engine thread however many they are.
//!
//! The engine thread hands finished messages to `SpectatorFeed::offer`, which never waits: a
//! bounded queue (`QUEUE_MESSAGES`, `QUEUE_BYTES`) to one task on the connection's runtime. A
//! full queue refuses the message and counts it; the caller decides what a refusal means (the
//! state stream keeps its baseline, so its next delta carries everything; the trace says so in
//! a gap line). Each subject's messages are numbered (`Limina-Seq`), so a consumer sees what it
//! missed, including what this side dropped: one too large to ever send, and what goes while
//! the client has no connection or the server stops taking bytes (`FLUSH_WAIT`): dropped and
//! counted rather than buffered. A message above the server's `max_payload` goes out in parts (`Limina-Part`).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;

use super::{JetStream, NatsError};

/// Messages the queue to the publishing task holds.
pub const QUEUE_MESSAGES: usize = 64;
/// Bytes the queue holds at most; one message larger than this is never sent (counted).
pub const QUEUE_BYTES: usize = 32 << 20;
/// A trace message holds at most this many bytes of events (the rest is a gap line).
pub const MAX_TRACE_BYTES: usize = 512 << 10;
/// Room left in each part for the headers, within the server's `max_payload`.
const HEADER_ROOM: usize = 1024;
/// Bytes published between two checks that the connection is taking them.
const FLUSH_EVERY: usize = 2 << 20;
/// How long a check may wait; past it the server counts as not taking bytes, and messages are
/// dropped until a check passes (the client would otherwise buffer them without limit).
const FLUSH_WAIT: Duration = Duration::from_secs(1);

/// Header names. A message's body is what a WebSocket subscriber is sent (the state feed) or
/// JSON lines (the trace feed); the headers say what it is without parsing it.
pub const KIND: &str = "Limina-Kind";
pub const TICK: &str = "Limina-Tick";
pub const SEQ: &str = "Limina-Seq";
pub const PART: &str = "Limina-Part";

/// The two subjects of a world.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Feed {
    /// `limina.world.{world}.delta`: state snapshots (keyframes) and deltas.
    State,
    /// `limina.world.{world}.trace`: the world's trace events as JSON lines.
    Trace,
}

impl Feed {
    pub fn subject(self, world: &str) -> String {
        match self {
            Feed::State => format!("limina.world.{world}.delta"),
            Feed::Trace => format!("limina.world.{world}.trace"),
        }
    }
}

/// What one message is (`Limina-Kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A full state: a consumer may start (or resync) here.
    Keyframe,
    /// What changed since the previous state message.
    Delta,
    /// Trace events (and gap lines).
    Events,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Keyframe => "keyframe",
            Kind::Delta => "delta",
            Kind::Events => "events",
        }
    }

    pub fn parse(text: &str) -> Option<Kind> {
        [Kind::Keyframe, Kind::Delta, Kind::Events].into_iter().find(|k| k.as_str() == text)
    }

    fn feed(self) -> Feed {
        match self {
            Kind::Keyframe | Kind::Delta => Feed::State,
            Kind::Events => Feed::Trace,
        }
    }
}

/// Counts of what happened to the messages offered, for tests and diagnostics.
#[derive(Debug, Default)]
pub struct FeedCounts {
    pub offered: AtomicU64,
    /// Refused by a full queue (the engine thread went on).
    pub skipped: AtomicU64,
    /// Larger than the queue can ever hold.
    pub oversized: AtomicU64,
    pub published: AtomicU64,
    /// Sent in more than one part.
    pub split: AtomicU64,
    /// Dropped by the task: no connection, or the server took no bytes.
    pub dropped: AtomicU64,
}

/// A snapshot of `FeedCounts`.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct FeedTotals {
    pub offered: u64,
    pub skipped: u64,
    pub oversized: u64,
    pub published: u64,
    pub split: u64,
    pub dropped: u64,
}

impl FeedCounts {
    pub fn totals(&self) -> FeedTotals {
        let n = |a: &AtomicU64| a.load(Ordering::Relaxed);
        FeedTotals {
            offered: n(&self.offered),
            skipped: n(&self.skipped),
            oversized: n(&self.oversized),
            published: n(&self.published),
            split: n(&self.split),
            dropped: n(&self.dropped),
        }
    }
}

/// Why `offer` did not take a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// The queue is full now; a later message may go.
    Full,
    /// The message is larger than `QUEUE_BYTES`: it never will.
    Oversized,
}

struct Outgoing {
    kind: Kind,
    tick: u64,
    seq: u64,
    body: Bytes,
}

/// The bounded queue's two ends, apart from NATS, so its refusals can be tested alone.
struct Queue {
    tx: tokio::sync::mpsc::Sender<Outgoing>,
    bytes: Arc<AtomicUsize>,
    limit: usize,
    counts: Arc<FeedCounts>,
    /// The last sequence number given, by `Feed`: one per message taken or never sendable, none
    /// for one refused by a full queue (its content comes with the next).
    seq: [AtomicU64; 2],
}

impl Queue {
    fn new(messages: usize, limit: usize) -> (Queue, tokio::sync::mpsc::Receiver<Outgoing>) {
        let (tx, rx) = tokio::sync::mpsc::channel(messages.max(1));
        (Queue { tx, bytes: Arc::default(), limit, counts: Arc::default(), seq: Default::default() }, rx)
    }

    fn has_room(&self) -> bool {
        self.tx.capacity() > 0 && self.bytes.load(Ordering::Relaxed) < self.limit
    }

    fn offer(&self, kind: Kind, tick: u64, body: Vec<u8>) -> Result<(), Refused> {
        self.counts.offered.fetch_add(1, Ordering::Relaxed);
        let len = body.len();
        let seq = &self.seq[kind.feed() as usize];
        if len > self.limit {
            self.counts.oversized.fetch_add(1, Ordering::Relaxed);
            // Numbered, so consumers see that a message is missing.
            seq.fetch_add(1, Ordering::Relaxed);
            return Err(Refused::Oversized);
        }
        // Counted before it is queued, so the task's decrement never comes first.
        let before = self.bytes.fetch_add(len, Ordering::Relaxed);
        if before + len > self.limit {
            self.bytes.fetch_sub(len, Ordering::Relaxed);
            self.counts.skipped.fetch_add(1, Ordering::Relaxed);
            return Err(Refused::Full);
        }
        let number = seq.load(Ordering::Relaxed) + 1;
        match self.tx.try_send(Outgoing { kind, tick, seq: number, body: Bytes::from(body) }) {
            Ok(()) => {
                seq.store(number, Ordering::Relaxed);
                Ok(())
            }
            Err(_) => {
                self.bytes.fetch_sub(len, Ordering::Relaxed);
                self.counts.skipped.fetch_add(1, Ordering::Relaxed);
                Err(Refused::Full)
            }
        }
    }
}

/// One world's feed: the engine thread's end of the queue to the publishing task.
pub struct SpectatorFeed {
    queue: Queue,
    world: String,
    /// Keeps the connection (and its runtime) alive as long as the feed.
    _js: JetStream,
}

impl std::fmt::Debug for SpectatorFeed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SpectatorFeed").field("world", &self.world).field("counts", &self.queue.counts.totals()).finish()
    }
}

impl SpectatorFeed {
    /// Starts publishing `world`'s feed on `js`'s connection. The task ends when the feed is
    /// dropped (after sending what is queued, if it can).
    pub fn start(js: &JetStream, world: &str) -> Result<SpectatorFeed, NatsError> {
        super::stream::check_world(world).map_err(|why| NatsError::BadWorld { world: crate::clip::shown(world).to_string(), why })?;
        let (queue, rx) = Queue::new(QUEUE_MESSAGES, QUEUE_BYTES);
        let task = Task {
            client: js.inner.client.clone(),
            subjects: [Feed::State.subject(world), Feed::Trace.subject(world)],
            bytes: Arc::clone(&queue.bytes),
            counts: Arc::clone(&queue.counts),
            unflushed: 0,
            stalled_since: None,
        };
        js.runtime().spawn(task.run(rx));
        Ok(SpectatorFeed { queue, world: world.to_string(), _js: js.clone() })
    }

    /// Whether the queue takes another message now (a caller that would have to build one
    /// first asks this, so a full queue costs it nothing).
    pub fn has_room(&self) -> bool {
        self.queue.has_room()
    }

    /// Queues one message without waiting.
    pub fn offer(&self, kind: Kind, tick: u64, body: Vec<u8>) -> Result<(), Refused> {
        self.queue.offer(kind, tick, body)
    }

    pub fn counts(&self) -> FeedTotals {
        self.queue.counts.totals()
    }
}

/// The publishing task: takes queued messages in order and publishes them.
struct Task {
    client: async_nats::Client,
    /// By `Feed` (State, Trace).
    subjects: [String; 2],
    bytes: Arc<AtomicUsize>,
    counts: Arc<FeedCounts>,
    /// Bytes published since the connection last showed it takes them.
    unflushed: usize,
    /// Since when the server has not taken bytes (messages are dropped meanwhile).
    stalled_since: Option<Instant>,
}

impl Task {
    async fn run(mut self, mut rx: tokio::sync::mpsc::Receiver<Outgoing>) {
        while let Some(message) = rx.recv().await {
            self.bytes.fetch_sub(message.body.len(), Ordering::Relaxed);
            let feed = message.kind.feed() as usize;
            if !self.ready().await {
                self.counts.dropped.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            if self.publish(feed, &message).await {
                self.counts.published.fetch_add(1, Ordering::Relaxed);
            } else {
                self.counts.dropped.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// Whether a message may be published now: connected, and the server took what was sent.
    async fn ready(&mut self) -> bool {
        if self.client.connection_state() != async_nats::connection::State::Connected {
            self.unflushed = 0;
            return false;
        }
        if let Some(since) = self.stalled_since {
            // Tried again at most once a `FLUSH_WAIT`, briefly, while messages are dropped.
            if since.elapsed() < FLUSH_WAIT {
                return false;
            }
            match tokio::time::timeout(FLUSH_WAIT / 10, self.client.flush()).await {
                Ok(Ok(())) => {
                    self.stalled_since = None;
                    self.unflushed = 0;
                }
                _ => {
                    self.stalled_since = Some(Instant::now());
                    return false;
                }
            }
        }
        if self.unflushed >= FLUSH_EVERY {
            match tokio::time::timeout(FLUSH_WAIT, self.client.flush()).await {
                Ok(Ok(())) => self.unflushed = 0,
                _ => {
                    self.stalled_since = Some(Instant::now());
                    return false;
                }
            }
        }
        true
    }

    /// Publishes one message (in parts if it is above the server's limit).
    async fn publish(&mut self, feed: usize, message: &Outgoing) -> bool {
        let limit = self.client.server_info().max_payload.max(2 * HEADER_ROOM) - HEADER_ROOM;
        let parts = message.body.len().div_ceil(limit).max(1);
        if parts > 1 {
            self.counts.split.fetch_add(1, Ordering::Relaxed);
        }
        for part in 0..parts {
            let mut headers = async_nats::HeaderMap::new();
            headers.insert(KIND, message.kind.as_str());
            headers.insert(TICK, message.tick.to_string());
            headers.insert(SEQ, message.seq.to_string());
            if parts > 1 {
                headers.insert(PART, format!("{}/{parts}", part + 1));
            }
            let body = message.body.slice(part * limit..((part + 1) * limit).min(message.body.len()));
            self.unflushed += body.len();
            let sent = self.client.publish_with_headers(self.subjects[feed].clone(), headers, body);
            match tokio::time::timeout(FLUSH_WAIT, sent).await {
                Ok(Ok(())) => {}
                // A part lost makes the whole message useless; the consumer sees the seq again
                // without all its parts and waits for the next keyframe.
                _ => return false,
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_queue_refuses_and_counts_without_waiting() {
        let (queue, mut rx) = Queue::new(2, 1000);
        assert!(queue.has_room());
        assert_eq!(queue.offer(Kind::Delta, 1, vec![b'x'; 10]), Ok(()));
        assert_eq!(queue.offer(Kind::Delta, 2, vec![b'x'; 10]), Ok(()));
        assert!(!queue.has_room(), "two messages fill a queue of two");
        assert_eq!(queue.offer(Kind::Delta, 3, vec![b'x'; 10]), Err(Refused::Full));
        let totals = queue.counts.totals();
        assert_eq!((totals.offered, totals.skipped), (3, 1));
        // Taken off the queue: room again, and the bytes are given back.
        let first = rx.try_recv().unwrap();
        queue.bytes.fetch_sub(first.body.len(), Ordering::Relaxed);
        assert_eq!((first.tick, first.seq), (1, 1));
        assert!(queue.has_room());
        assert_eq!(queue.offer(Kind::Keyframe, 4, vec![b'x'; 10]), Ok(()));
        // The refused message took no number: the next one carries what it held.
        assert_eq!((rx.try_recv().unwrap().seq, rx.try_recv().unwrap().seq), (2, 3));
    }

    #[test]
    fn the_byte_bound_refuses_before_the_count_does() {
        let (queue, _rx) = Queue::new(64, 100);
        assert_eq!(queue.offer(Kind::Delta, 1, vec![b'x'; 60]), Ok(()));
        assert_eq!(queue.offer(Kind::Delta, 2, vec![b'x'; 60]), Err(Refused::Full), "120 bytes would pass 100");
        assert_eq!(queue.offer(Kind::Delta, 3, vec![b'x'; 40]), Ok(()));
        assert!(!queue.has_room());
        assert_eq!(queue.offer(Kind::Delta, 4, vec![b'x'; 101]), Err(Refused::Oversized), "never fits");
        let totals = queue.counts.totals();
        assert_eq!((totals.skipped, totals.oversized), (1, 1));
        assert_eq!(queue.bytes.load(Ordering::Relaxed), 100);
    }

    #[test]
    fn subjects_name_the_world_and_kinds_read_back() {
        assert_eq!(Feed::State.subject("main"), "limina.world.main.delta");
        assert_eq!(Feed::Trace.subject("room_1"), "limina.world.room_1.trace");
        for kind in [Kind::Keyframe, Kind::Delta, Kind::Events] {
            assert_eq!(Kind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(Kind::parse("KEYFRAME"), None);
    }
}
