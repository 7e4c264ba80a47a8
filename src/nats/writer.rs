//! Writing a world's command log to its stream: `append` queues bytes and returns at once; a
//! task on the NATS runtime cuts them into messages and publishes them in order, at most
//! `MAX_IN_FLIGHT` unacknowledged, and counts what the server acknowledged.
//!
//! One writer per stream makes every message's stream sequence known before it is sent (the
//! last sequence at open, plus one per message). Each publish carries the id
//! `{world}.{writer}.{sequence}.{tag}` (the tag made with a secret of the writer's, so nobody
//! else can publish under the next id) and expects the stream's last sequence to be the one before
//! it, and (but the first after open) the last message id to be this writer's previous one:
//! a sequence alone would let a pipelined message land right after another writer's message
//! that took its predecessor's place. So a resend is exact: the server answers a copy it
//! already stored as a duplicate (it checks ids before expectations), and a message can never
//! land after a different one. A
//! publish whose acknowledgement timed out may still land later; the writer does not guess,
//! it resends from the first unacknowledged message until the server answers. A refused
//! expectation at the first unacknowledged message means another writer wrote the stream
//! (`Fenced`), or, if the stream is now shorter than what was acknowledged, that the server
//! lost its storage (`Lost`): either way the writer stops and acknowledges nothing more.
//!
//! Acknowledgements are taken in order only: a message after one that failed fails too (its
//! expectation breaks), and only the first one's answer says what happened.

use std::collections::VecDeque;
use std::future::{Future, IntoFuture};
use std::pin::Pin;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use async_nats::jetstream::{self, context::PublishErrorKind, message::PublishMessage, publish::PublishAck};
use bytes::{Bytes, BytesMut};

use super::stream::{check_world, config, stream_name, subject};
use super::{JetStream, NatsError};
use crate::redact::Redactor;

/// Unacknowledged publishes at most (the client deadlocks past its own limit of 5000).
pub const MAX_IN_FLIGHT: usize = 256;
/// How often a writer that lost its connection looks again before resending.
const RECONNECT_POLL: Duration = Duration::from_millis(50);
/// Least pause before a resend, so a server that refuses at once is not hammered.
const RESEND_PAUSE: Duration = Duration::from_millis(100);
/// Room left for headers under the server's payload limit.
const HEADER_ROOM: usize = 4096;

/// The bounds of one writer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogLimits {
    /// Bytes appended and not yet acknowledged at most; past it `append` refuses.
    pub backlog_bytes: u64,
    /// Payload bytes of one message at most (also kept under the server's own limit).
    pub message_bytes: usize,
}

impl Default for LogLimits {
    fn default() -> Self {
        LogLimits { backlog_bytes: 64 * 1024 * 1024, message_bytes: 256 * 1024 }
    }
}

/// A world's log writer. Dropping it stops publishing (what was not acknowledged by then is
/// not in the log, or is in it as the server stored it: a prefix, never a gap).
pub struct WorldLog {
    shared: Arc<Shared>,
    js: JetStream,
    task: tokio::task::JoinHandle<()>,
}

impl std::fmt::Debug for WorldLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = self.shared.lock();
        f.debug_struct("WorldLog")
            .field("world", &self.shared.world)
            .field("writer", &self.shared.writer)
            .field("appended", &state.appended)
            .field("acknowledged", &state.acknowledged)
            .field("last_sequence", &state.last_sequence)
            .finish()
    }
}

/// Called after acknowledgements advance.
pub type AckCallback = Box<dyn Fn() + Send + Sync>;

struct Shared {
    world: String,
    writer: u64,
    /// Never leaves this process: each message id carries a tag made with it (`message_id`).
    secret: String,
    limits: LogLimits,
    state: Mutex<State>,
    /// Signalled when acknowledgements advance, a failure is set or the task stops.
    changed: Condvar,
    /// Wakes the task: bytes were appended, or the writer was dropped.
    wake: tokio::sync::Notify,
}

impl Shared {
    /// The id of this writer's message at `sequence`: `{world}.{writer}.{sequence}.{tag}`, the
    /// tag a hash of the writer's secret and the sequence. Anyone who reads the stream sees the
    /// ids stored so far, but cannot make the next one: a message published ahead of ours under
    /// our next id would be answered to us as our own stored copy (a duplicate), and we would
    /// acknowledge calls whose records were never stored.
    fn message_id(&self, sequence: u64) -> String {
        use sha2::Digest as _;
        let digest = sha2::Sha256::new().chain_update(self.secret.as_bytes()).chain_update(sequence.to_le_bytes()).finalize();
        let tag: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
        format!("{}.{}.{sequence}.{tag}", self.world, self.writer)
    }
}

struct State {
    /// Appended, not yet cut into messages (chunks as appended).
    unsent: VecDeque<Bytes>,
    appended: u64,
    acknowledged: u64,
    last_sequence: u64,
    failure: Option<NatsError>,
    stopped: bool,
    resends: u64,
    last_retry: Option<String>,
    on_acknowledged: Option<Arc<AckCallback>>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves counters that are still consistent.
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The next message: up to `max` bytes from the front of what is unsent. A single chunk
    /// that fits is handed over without copying.
    fn take_message(&self, max: usize) -> Option<Bytes> {
        let mut state = self.lock();
        let first_len = state.unsent.front()?.len();
        if first_len >= max {
            let first = state.unsent.front_mut()?;
            let message = first.split_to(max);
            if first.is_empty() {
                state.unsent.pop_front();
            }
            return Some(message);
        }
        let fits_alone = state.unsent.get(1).is_none_or(|next| first_len + next.len() > max);
        if fits_alone {
            return state.unsent.pop_front();
        }
        let mut message = BytesMut::with_capacity(max);
        while let Some(chunk) = state.unsent.front_mut() {
            let room = max - message.len();
            if chunk.len() <= room {
                message.extend_from_slice(chunk);
                state.unsent.pop_front();
            } else {
                message.extend_from_slice(&chunk.split_to(room));
                break;
            }
            if message.len() == max {
                break;
            }
        }
        Some(message.freeze())
    }

    fn stop(&self, failure: Option<NatsError>) {
        let mut state = self.lock();
        if state.failure.is_none() {
            state.failure = failure;
        }
        state.stopped = true;
        drop(state);
        self.changed.notify_all();
    }
}

impl WorldLog {
    /// Opens `world`'s log for writing (creating its stream if there is none) as writer
    /// `writer_id`, unique per writing session: messages continue after the stream's last one.
    pub fn open(js: &JetStream, world: &str, writer_id: u64) -> Result<WorldLog, NatsError> {
        Self::open_with(js, world, writer_id, LogLimits::default())
    }

    /// `open` with other bounds.
    pub fn open_with(js: &JetStream, world: &str, writer_id: u64, limits: LogLimits) -> Result<WorldLog, NatsError> {
        Self::open_at(js, world, writer_id, limits, None)
    }

    /// Opens `world`'s log to continue right after message `after`, which its caller has read
    /// (a take-over: the world was recovered from the messages through `after`, and its fence
    /// is `after`). Should anything have landed after it since, the first message is refused
    /// and the writer stops as fenced: it never writes after a log it has not read.
    pub fn open_after(js: &JetStream, world: &str, writer_id: u64, after: u64) -> Result<WorldLog, NatsError> {
        Self::open_at(js, world, writer_id, LogLimits::default(), Some(after))
    }

    fn open_at(js: &JetStream, world: &str, writer_id: u64, limits: LogLimits, after: Option<u64>) -> Result<WorldLog, NatsError> {
        check_world(world).map_err(|why| NatsError::BadWorld { world: crate::clip::shown(world), why })?;
        let subject = subject(world);
        let stream_failed = |operation, message| NatsError::Stream {
            world: world.to_string(),
            stream: stream_name(world),
            url: js.url().to_string(),
            operation,
            message,
        };
        let api = js.inner.api.clone();
        let found = js.block_on("open", async move { api.get_or_create_stream(config(world)).await })?;
        let stream = found.map_err(|e| stream_failed("get or create", js.message(&e)))?;
        let info = stream.cached_info();
        if !info.config.subjects.contains(&subject) {
            let message = format!("it holds subjects {:?}, not {subject}", info.config.subjects);
            return Err(stream_failed("check", message));
        }
        // A stream made by someone else with settings under which acknowledged messages can go
        // is no place for a log: refused, naming what is wrong, before anything is written.
        if let Some(why) = super::stream::unfit(&info.config) {
            return Err(stream_failed(
                "check",
                format!("it exists with settings that can lose acknowledged messages: {why}; remove it or fix it"),
            ));
        }
        let last_sequence = match after {
            Some(after) if after > info.state.last_sequence => {
                return Err(NatsError::ShortLog { world: world.to_string(), end: after, last: info.state.last_sequence });
            }
            Some(after) => after,
            None => info.state.last_sequence,
        };
        let message_bytes = limits.message_bytes.min(js.max_payload().saturating_sub(HEADER_ROOM)).max(1);
        let shared = Arc::new(Shared {
            world: world.to_string(),
            writer: writer_id,
            secret: crate::unguessable::hex(16),
            limits,
            state: Mutex::new(State {
                unsent: VecDeque::new(),
                appended: 0,
                acknowledged: 0,
                last_sequence,
                failure: None,
                stopped: false,
                resends: 0,
                last_retry: None,
                on_acknowledged: None,
            }),
            changed: Condvar::new(),
            wake: tokio::sync::Notify::new(),
        });
        let link = Link {
            shared: shared.clone(),
            client: js.inner.client.clone(),
            publish: js.inner.publish.clone(),
            api: js.inner.api.clone(),
            redactor: js.inner.redactor.clone(),
            subject,
        };
        let publisher = Publisher {
            link,
            message_bytes,
            first_sequence: last_sequence + 1,
            next_sequence: last_sequence + 1,
            in_flight: VecDeque::new(),
        };
        let task = js.runtime().spawn(publisher.run());
        Ok(WorldLog { shared, js: js.clone(), task })
    }

    /// Queues `bytes` for the log; never waits on the network. Refused, with nothing
    /// appended, past the backlog bound or after the writer failed.
    pub fn append(&self, bytes: &[u8]) -> Result<(), NatsError> {
        if bytes.is_empty() {
            return Ok(());
        }
        let mut state = self.shared.lock();
        if let Some(failure) = &state.failure {
            return Err(failure.clone());
        }
        if state.stopped {
            return Err(NatsError::Closed { world: self.shared.world.clone() });
        }
        let waiting = state.appended - state.acknowledged;
        if waiting.saturating_add(bytes.len() as u64) > self.shared.limits.backlog_bytes {
            return Err(NatsError::Backlog {
                world: self.shared.world.clone(),
                bytes: bytes.len() as u64,
                waiting,
                limit: self.shared.limits.backlog_bytes,
            });
        }
        state.unsent.push_back(Bytes::copy_from_slice(bytes));
        state.appended += bytes.len() as u64;
        drop(state);
        self.shared.wake.notify_one();
        Ok(())
    }

    /// Bytes appended since open.
    pub fn appended(&self) -> u64 {
        self.shared.lock().appended
    }

    /// Bytes of those the server acknowledged (stored): always a prefix of what was appended.
    pub fn acknowledged(&self) -> u64 {
        self.shared.lock().acknowledged
    }

    /// The stream sequence of the last acknowledged message (the stream's last at open before
    /// any).
    pub fn last_sequence(&self) -> u64 {
        self.shared.lock().last_sequence
    }

    /// Why the writer stopped for good, if it did.
    pub fn failure(&self) -> Option<NatsError> {
        self.shared.lock().failure.clone()
    }

    /// Messages sent again because an acknowledgement did not come (diagnostics).
    pub fn resends(&self) -> u64 {
        self.shared.lock().resends
    }

    pub fn world(&self) -> &str {
        &self.shared.world
    }

    pub fn writer_id(&self) -> u64 {
        self.shared.writer
    }

    /// Calls `callback` from the NATS runtime after acknowledgements advance (once per batch
    /// of acknowledgements) and when the writer fails. It must not block: send a message.
    pub fn on_acknowledged(&self, callback: AckCallback) {
        self.shared.lock().on_acknowledged = Some(Arc::new(callback));
    }

    /// Blocks until `acknowledged() >= upto`, the writer fails, or `timeout` passes.
    pub fn wait_acknowledged(&self, upto: u64, timeout: Duration) -> Result<(), NatsError> {
        let deadline = Instant::now() + timeout;
        let mut state = self.shared.lock();
        loop {
            if state.acknowledged >= upto {
                return Ok(());
            }
            if let Some(failure) = &state.failure {
                return Err(failure.clone());
            }
            if state.stopped {
                return Err(NatsError::Closed { world: self.shared.world.clone() });
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(NatsError::Timeout {
                    world: self.shared.world.clone(),
                    waited: timeout,
                    waiting: upto - state.acknowledged,
                    connected: self.js.is_connected(),
                    last_retry: state.last_retry.clone(),
                });
            }
            state = self.shared.changed.wait_timeout(state, deadline - now).map(|(s, _)| s).unwrap_or_else(|p| p.into_inner().0);
        }
    }
}

impl Drop for WorldLog {
    fn drop(&mut self) {
        self.task.abort();
        self.shared.stop(None);
    }
}

type AckFuture = Pin<Box<dyn Future<Output = Result<PublishAck, jetstream::context::PublishError>> + Send>>;

/// A message sent and not yet acknowledged.
struct InFlight {
    sequence: u64,
    payload: Bytes,
    /// The answer to its latest send; `None` when the send itself failed (resend).
    ack: Option<AckFuture>,
    /// Whether it expects its predecessor's id too. The first unacknowledged message may go
    /// without: its predecessor is acknowledged, so the sequence alone says nothing came
    /// between (and a server that forgot the last id, e.g. after a restart, is not stuck).
    expects_id: bool,
}

/// What the first unacknowledged message's answer means.
enum Outcome {
    Acknowledged,
    Retry(String),
    /// Its predecessor's id was not the server's last: resend it expecting the sequence only.
    WithoutId(String),
    Stop(NatsError),
}

fn front_without_id(in_flight: &mut VecDeque<InFlight>) {
    if let Some(front) = in_flight.front_mut() {
        front.expects_id = false;
    }
}

/// The publishing task's own state (the task owns no runtime handle: it must never be the
/// last owner of the runtime it runs on).
struct Publisher {
    link: Link,
    message_bytes: usize,
    /// The first message's sequence: its predecessor (if any) is not this writer's.
    first_sequence: u64,
    next_sequence: u64,
    in_flight: VecDeque<InFlight>,
}

/// What publishing and judging answers need (shared across awaits, so no futures in it).
struct Link {
    shared: Arc<Shared>,
    client: async_nats::Client,
    publish: jetstream::Context,
    api: jetstream::Context,
    redactor: Redactor,
    subject: String,
}

impl Publisher {
    async fn run(mut self) {
        loop {
            if self.link.shared.lock().stopped {
                return;
            }
            while self.in_flight.len() < MAX_IN_FLIGHT {
                let Some(payload) = self.link.shared.take_message(self.message_bytes) else { break };
                let sequence = self.next_sequence;
                self.next_sequence += 1;
                let expects_id = sequence > self.first_sequence;
                let ack = self.link.send(sequence, payload.clone(), expects_id).await;
                self.in_flight.push_back(InFlight { sequence, payload, ack, expects_id });
            }
            let room = self.in_flight.len() < MAX_IN_FLIGHT;
            let Some(front) = self.in_flight.front_mut() else {
                self.link.shared.wake.notified().await;
                continue;
            };
            let sequence = front.sequence;
            let Some(ack) = front.ack.as_mut() else {
                self.resend_all("a send failed".to_string()).await;
                continue;
            };
            let answer = tokio::select! {
                answer = ack => answer,
                () = self.link.shared.wake.notified(), if room => continue,
            };
            match self.link.judge(sequence, answer).await {
                Outcome::Acknowledged => {
                    self.acknowledge_front();
                    self.acknowledge_ready().await;
                    self.announce();
                }
                Outcome::Retry(why) => self.resend_all(why).await,
                Outcome::WithoutId(why) => {
                    front_without_id(&mut self.in_flight);
                    self.resend_all(why).await;
                }
                Outcome::Stop(failure) => {
                    self.link.shared.stop(Some(failure));
                    self.announce();
                    return;
                }
            }
        }
    }

    fn acknowledge_front(&mut self) {
        if let Some(done) = self.in_flight.pop_front() {
            let mut state = self.link.shared.lock();
            state.acknowledged += done.payload.len() as u64;
            state.last_sequence = done.sequence;
        }
    }

    /// Takes the acknowledgements that have already arrived, so the owner is told once per
    /// batch, not once per message.
    async fn acknowledge_ready(&mut self) {
        loop {
            let Some(front) = self.in_flight.front_mut() else { return };
            let sequence = front.sequence;
            let Some(ack) = front.ack.as_mut() else { return };
            let answer = tokio::select! {
                biased;
                answer = ack => answer,
                () = std::future::ready(()) => return,
            };
            match self.link.judge(sequence, answer).await {
                Outcome::Acknowledged => self.acknowledge_front(),
                Outcome::Retry(why) => return self.resend_all(why).await,
                Outcome::WithoutId(why) => {
                    front_without_id(&mut self.in_flight);
                    return self.resend_all(why).await;
                }
                Outcome::Stop(failure) => {
                    self.link.shared.stop(Some(failure));
                    return;
                }
            }
        }
    }

    fn announce(&self) {
        self.link.shared.changed.notify_all();
        let callback = self.link.shared.lock().on_acknowledged.clone();
        if let Some(callback) = callback {
            callback();
        }
    }

    /// Sends every unacknowledged message again, in order, with its id and expectation, once
    /// the client is connected: the server stores each once whatever happened to the
    /// earlier sends.
    async fn resend_all(&mut self, why: String) {
        {
            let mut state = self.link.shared.lock();
            state.resends += self.in_flight.len() as u64;
            state.last_retry = Some(why);
        }
        tokio::time::sleep(RESEND_PAUSE).await;
        while self.link.client.connection_state() != async_nats::connection::State::Connected {
            tokio::time::sleep(RECONNECT_POLL).await;
        }
        for index in 0..self.in_flight.len() {
            let message = &self.in_flight[index];
            let (sequence, payload, expects_id) = (message.sequence, message.payload.clone(), message.expects_id);
            // The superseded answer is dropped before the new send, so its permit is free.
            self.in_flight[index].ack = None;
            self.in_flight[index].ack = self.link.send(sequence, payload, expects_id).await;
        }
    }
}

impl Link {
    async fn send(&self, sequence: u64, payload: Bytes, expects_id: bool) -> Option<AckFuture> {
        let shared = &self.shared;
        let mut message = PublishMessage::build()
            .payload(payload)
            .message_id(shared.message_id(sequence))
            .expected_last_subject_sequence(sequence - 1)
            .header("Limina-Writer", shared.writer.to_string());
        if expects_id {
            message = message.expected_last_message_id(shared.message_id(sequence - 1));
        }
        match self.publish.send_publish(self.subject.clone(), message).await {
            Ok(future) => Some(Box::pin(future.into_future())),
            Err(_) => None,
        }
    }

    /// What the answer to the first unacknowledged message means.
    async fn judge(&self, sequence: u64, answer: Result<PublishAck, jetstream::context::PublishError>) -> Outcome {
        let world = &self.shared.world;
        match answer {
            Ok(ack) if ack.sequence == sequence => Outcome::Acknowledged,
            Ok(ack) => Outcome::Stop(NatsError::Refused {
                world: world.clone(),
                sequence,
                message: format!("the server stored it at sequence {} (duplicate: {}), not {sequence}", ack.sequence, ack.duplicate),
            }),
            Err(error) => match error.kind() {
                PublishErrorKind::WrongLastSequence => self.resolve_wrong_sequence(sequence, &error.to_string()).await,
                PublishErrorKind::WrongLastMessageId => Outcome::WithoutId(self.redactor.text(&error.to_string())),
                PublishErrorKind::MaxPayloadExceeded => {
                    Outcome::Stop(NatsError::Refused { world: world.clone(), sequence, message: self.redactor.text(&error.to_string()) })
                }
                _ => Outcome::Retry(self.redactor.text(&error.to_string())),
            },
        }
    }

    /// The first unacknowledged message met a different last sequence. Everything before it
    /// is acknowledged, so the stream holds exactly those plus whatever came after them: our
    /// own copy of this message if its duplicate window passed (an outage longer than two
    /// minutes), else another writer's message.
    async fn resolve_wrong_sequence(&self, sequence: u64, error: &str) -> Outcome {
        let ours = self.shared.message_id(sequence);
        let stream = match self.api.get_stream(stream_name(&self.shared.world)).await {
            Ok(stream) => stream,
            Err(e) => return Outcome::Retry(format!("{error}; then looking it up: {}", self.redactor.text(&e.to_string()))),
        };
        let found = stream.get_raw_message(sequence).await;
        let id = found.as_ref().ok().and_then(|m| m.headers.get("Nats-Msg-Id")).map(|v| v.as_str().to_string());
        if id.as_deref() == Some(ours.as_str()) {
            return Outcome::Acknowledged;
        }
        if let Err(e) = &found
            && !matches!(e.kind(), jetstream::stream::LastRawMessageErrorKind::NoMessageFound)
        {
            return Outcome::Retry(format!("{error}; then looking it up: {}", self.redactor.text(&e.to_string())));
        }
        let found = stream.get_info().await.ok().map(|info| info.state.last_sequence);
        if let Some(found) = found
            && found < sequence - 1
        {
            // Behind what it acknowledged: not another writer, a server that lost its storage.
            return Outcome::Stop(NatsError::Lost {
                world: self.shared.world.clone(),
                writer: self.shared.writer,
                sequence,
                expected: sequence - 1,
                found,
            });
        }
        Outcome::Stop(NatsError::Fenced {
            world: self.shared.world.clone(),
            writer: self.shared.writer,
            sequence,
            expected: sequence - 1,
            found,
        })
    }
}
