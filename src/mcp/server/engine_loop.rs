//! The engine thread of the WebSocket server: the one owner of the world. It runs the fixed step
//! in real time and serves clients' work between steps, within the step's call budget.
//!
//! Arriving work goes into one bounded queue per client (`CallQueues`), served round-robin. Each
//! turn of the loop: a due step runs first; otherwise the next call runs if the driver's budget
//! allows (`RealTimeDriver::may_call`); otherwise the deltas the calls caused are published and the
//! thread waits for the next step or the next message. So the clock never waits for a backlog:
//! calls past the budget wait for a later step, and what load costs is their latency.
//!
//! Subscribers: after each run of calls and after each tick, every subscriber gets the delta since
//! what it last received, queued without waiting. A subscriber whose queue is full is skipped
//! before anything is built or serialised for it (its baseline stays put, so the next delta it
//! takes carries everything since), and one whose queue stays full for `STALL_TICKS` ticks has
//! stopped reading: it is cut off. Subscribers that were sent the same state (every one that
//! keeps up, once it has had a delta) share one delta, computed and encoded once; the deltas
//! that differ get `PUBLISH_BUDGET` of a publish (at least one), the rest wait for the next, in
//! turn. Each stream holds its connection's admission permit for its whole life, so a
//! connection (a stateless credential) cannot open streams past its limit.
//!
//! However long steps and their deltas take, a client's call is served between two steps: a new
//! client's `initialize` is never starved by a busy world.
//!
//! Heavy calls (`render.capture`, `test.run`, `scene.save`, `scene.load`) do their cheap part
//! here, at the call's tick, and hand the rest to the heavy-work thread (`skills::deferred`): the
//! call is answered by a later turn of the loop, once the worker is done, while steps and other
//! clients' calls go on. A scene load is applied in that later turn, whole; the client's own later
//! calls wait for its loads and saves (`next_call`), so they apply in the order it sent them. A client
//! that leaves meanwhile has its call cancelled (not run if it has not started) and its result
//! dropped. A WebSocket connection that owes its
//! client `MAX_OWED_BYTES` it has not read has its calls held back (not run) until it reads, so
//! a client that pipelines calls and never reads cannot make the server build answers it keeps.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::{OnceLock, mpsc};
use std::time::{Duration, Instant};

use serde_json::value::RawValue;
use serde_json::{Value, json};

use super::admission::{Busy, CallPermit};
use super::call_queue::CallQueues;
use crate::host::{Engine, FramePlan, RealTimeDriver};
use crate::mcp::ToolsMode;
use crate::mcp::dispatcher::{self, McpSession, RpcError};
use crate::mcp::protocol::{self, Incoming};
use crate::mcp::sync::{self, Aoi, Baseline, Frame, Sent};
use crate::policy::{DecisionContext, Grant, PermissionSet};
use crate::skills::Caller;

/// Ticks a subscriber's queue may stay full before it is cut off (3 s of world time).
pub(crate) const STALL_TICKS: u64 = 180;

/// Work items the engine queue holds per client. Admission keeps a connection well under this
/// (its calls in flight are bounded first); this bound only guards the engine's own memory.
const QUEUE_LIMIT: usize = 2 * super::admission::MAX_CALLS_PER_CONNECTION;

/// Time one publish may spend computing deltas beyond the first (subscribers that were sent
/// different states, or watch different areas); the rest wait for the next publish, in turn.
const PUBLISH_BUDGET: Duration = Duration::from_millis(4);

/// What the tokio side hands the engine thread.
pub(super) enum EngineMsg {
    Work {
        conn: u64,
        granted: Grant,
        work: Work,
    },
    Closed {
        conn: u64,
    },
    /// The world's tick and hash, computed between steps (`GET /admin/worlds/{name}`).
    Status {
        reply: tokio::sync::oneshot::Sender<WorldReport>,
    },
    /// The log's remote acknowledged more: held answers may go (it only wakes the loop).
    Acknowledged,
    /// Stop serving: answer what is held with an error, make the log durable, report, return.
    Retire {
        reply: Option<tokio::sync::oneshot::Sender<WorldReport>>,
    },
}

/// Longest an answer is held for the log's remote to acknowledge what its call recorded; past
/// it the client is told the call was applied but is not yet durable.
pub(crate) const HOLD_LIMIT: Duration = Duration::from_secs(5);

/// An answer waiting for the log's remote to acknowledge everything recorded before it.
struct Held {
    /// Bytes of the log that must be acknowledged first.
    needs: u64,
    since: Instant,
    reply: tokio::sync::oneshot::Sender<Answered>,
    answered: Answered,
}

/// A world's state as its engine thread reports it.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WorldReport {
    pub tick: u64,
    pub world_hash: String,
    pub entities: usize,
    pub paused: bool,
    /// Whether everything recorded is durable (no command log: true); why not otherwise.
    pub durable: Result<(), String>,
}

/// A fault injected into a world's loop, for tests of isolation (`LIMINA_FAULTS=1` only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fault {
    /// Panic in the step that reaches this tick.
    PanicAtTick(u64),
}

/// One client request, served in its client's turn.
pub(super) enum Work {
    Call {
        method: String,
        params: Value,
        reply: tokio::sync::oneshot::Sender<Answered>,
        /// The connection its answer goes out on, when that connection counts what it owes.
        gate: Option<std::sync::Arc<super::transport::Cutoff>>,
    },
    /// Asks the read door whether the client may open a state stream (`read_door`); `reply`
    /// carries the grant a `Subscribe` needs, or the refusal to answer the client with.
    Authorize { reply: tokio::sync::oneshot::Sender<Result<StreamGrant, RpcError>> },
    /// State sync on a stream the read door allowed: a snapshot, then deltas (WebSocket
    /// subscriptions, HTTP `state/subscribe`).
    Subscribe { sink: Box<dyn DeltaSink>, permit: CallPermit, grant: StreamGrant },
    /// A `subscriptions/listen` stream (stateless revision over HTTP): the acknowledgement and
    /// the session's notifications go to `sink`; `reply` says whether it was accepted.
    Listen {
        id: Value,
        params: Value,
        sink: Box<dyn DeltaSink>,
        permit: CallPermit,
        reply: tokio::sync::oneshot::Sender<Result<(), RpcError>>,
    },
    /// A handshake-era HTTP GET stream: the session's unasked notifications go to `sink`.
    Notifications { sink: Box<dyn DeltaSink> },
}

impl Work {
    /// Whether it may run now: not while its connection owes its client more than it may queue.
    /// (A client that never reads is cut off within `STALL_TIME`, and its calls then go.)
    fn ready(&self) -> bool {
        match self {
            Work::Call { gate: Some(gate), .. } => gate.owed().has_room() || gate.is_cut(),
            _ => true,
        }
    }
}

/// A call's answer, and the notifications it caused that no open stream of the client took
/// (an HTTP transport sends them ahead of the answer when the client accepts a stream).
#[derive(Debug)]
pub(super) struct Answered {
    pub result: Result<Value, RpcError>,
    pub notes: Vec<Value>,
}

/// Notification streams one HTTP session may hold open.
const MAX_NOTIFICATION_STREAMS: usize = 4;

/// Why a message did not reach a subscriber's queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Undelivered {
    Full,
    Closed,
}

/// One notification for subscribers (its method and params), encoded once however many
/// streams it goes to; each kind of stream frames it once (`sse_event`).
pub(super) struct Encoded {
    pub method: String,
    pub params: Box<RawValue>,
    sse: OnceLock<bytes::Bytes>,
}

impl Encoded {
    pub fn new(method: &str, params: &Value) -> Self {
        // Serialising a `Value` cannot fail (its keys are strings).
        Self { method: method.to_string(), params: serde_json::value::to_raw_value(params).unwrap_or_default(), sse: OnceLock::new() }
    }

    /// The bytes it takes in a send queue, at least (framing comes on top).
    pub fn len(&self) -> usize {
        self.params.get().len() + self.method.len()
    }

    /// As one server-sent event, framed once and shared.
    pub fn sse_event(&self) -> bytes::Bytes {
        self.sse.get_or_init(|| super::sse::notification(&self.method, &self.params)).clone()
    }
}

/// Where a subscriber's state messages go: a jsonrpsee subscription in the server, a fake in tests.
pub(super) trait DeltaSink: Send {
    /// Whether the client's queue can take one more message right now.
    fn has_room(&self) -> bool;
    fn is_closed(&self) -> bool;
    /// Queues one message, without waiting.
    fn send(&mut self, message: &Encoded) -> Result<(), Undelivered>;
    /// Closes the client's connection.
    fn cut_off(&self, why: &str);
    /// Ends this stream alone (not its connection), telling the client why: the stream's last
    /// message. The engine drops the sink right after.
    fn end(&mut self, why: &RpcError);
    /// Told the tick of each publish that has room for a message, before one is built: true
    /// asks for the full state (a keyframe) instead of a delta. Only the NATS feed asks
    /// (`spectators`), so late joiners there can start.
    fn wants_keyframe(&mut self, _tick: u64) -> bool {
        false
    }
    /// Whether a queue that stays full means the client stopped reading (it is cut off after
    /// `STALL_TICKS`). A sink that drops what its far side cannot take (the NATS feed) is
    /// skipped while full and never cut off.
    fn stalls(&self) -> bool {
        true
    }
}

/// Counts of the publishing work, for tests and diagnostics.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) struct PublishStats {
    /// Deltas computed (each one then serialised).
    pub built: u64,
    pub sent: u64,
    /// Subscribers passed over because their queue was full (nothing built).
    pub skipped: u64,
    pub cut_off: u64,
    /// Subscribers whose delta waited for the next publish (`PUBLISH_BUDGET` was spent).
    pub deferred: u64,
}

struct Subscriber {
    sink: Box<dyn DeltaSink>,
    /// Whom the read door allowed the stream to: a revocation of them ends it.
    reader: Caller,
    baseline: Baseline,
    /// The tick at which its queue was first seen full, while it stays full.
    full_since: Option<u64>,
    /// Its place in its connection's admission limit, given back when the stream ends (None:
    /// the server's own NATS feed, which no connection opened).
    _permit: Option<CallPermit>,
}

/// An open `subscriptions/listen` stream.
struct Listener {
    id: Value,
    sink: Box<dyn DeltaSink>,
    _permit: CallPermit,
}

struct Conn {
    session: McpSession,
    aoi: Option<Aoi>,
    sub: Option<Subscriber>,
    /// Open `subscriptions/listen` streams.
    listeners: Vec<Listener>,
    /// Handshake-era notification streams (HTTP GET).
    streams: Vec<Box<dyn DeltaSink>>,
}

impl Conn {
    /// Hands each notification to the stream it belongs to: a listen stream's (stamped with its
    /// id), else the open notification streams and the WebSocket state channel. Returns those
    /// nothing took.
    fn deliver(&mut self, notes: Vec<Value>) -> Vec<Value> {
        let mut left = Vec::new();
        for note in notes {
            let method = note.get("method").and_then(Value::as_str).unwrap_or_default();
            let params = note.get("params").cloned().unwrap_or_else(|| json!({}));
            let encoded = Encoded::new(method, &params);
            if let Some(stream) = params.get("_meta").and_then(|m| m.get(dispatcher::SUBSCRIPTION_ID_KEY)) {
                for listener in self.listeners.iter_mut().filter(|l| l.id == *stream) {
                    let _ = listener.sink.send(&encoded);
                }
                continue;
            }
            let mut taken = false;
            for sink in &mut self.streams {
                taken |= sink.send(&encoded).is_ok();
            }
            if let Some(sub) = &mut self.sub {
                taken |= sub.sink.send(&Encoded::new(method, &json!({}))).is_ok();
            }
            if !taken {
                left.push(note);
            }
        }
        left
    }

    /// Drops streams whose client left (and the session's record of its listen streams), and
    /// streams the session no longer has (ended by `shutdown` or a cancellation).
    fn prune(&mut self) {
        let session = &mut self.session;
        self.listeners.retain(|l| {
            let open = !l.sink.is_closed() && session.is_listening(&l.id);
            if !open {
                // Several streams may share an id (stateless clients of one credential): the
                // session forgets one of them per stream that ends.
                session.stop_one_listener(&l.id);
            }
            open
        });
        self.streams.retain(|sink| !sink.is_closed());
    }
}

/// A client's call whose heavy half is on the worker: where its answer goes when it is done.
struct Waiting {
    conn: u64,
    reply: tokio::sync::oneshot::Sender<Answered>,
    call: dispatcher::DeferredCall,
    /// Notifications the call caused that no stream took (sent with the answer).
    notes: Vec<Value>,
}

pub(super) struct EngineLoop<'e> {
    engine: &'e Engine,
    conns: HashMap<u64, Conn>,
    /// Deferred calls by ticket (at most `skills::deferred::MAX_IN_FLIGHT`: the worker's bound).
    waiting: HashMap<crate::skills::deferred::Ticket, Waiting>,
    queue: CallQueues<(Grant, Work)>,
    driver: RealTimeDriver,
    publish_deltas: bool,
    /// Calls ran since the last publish.
    dirty: bool,
    pub stats: PublishStats,
    /// Where each new connection's tool list starts.
    tools: ToolsMode,
    /// Publishes so far: whose delta is computed first turns with it.
    publishes: u64,
    /// `PUBLISH_BUDGET`, or another in tests.
    publish_budget: Duration,
    /// Where the world's tick and rate are published for other threads (`/health`).
    status: Option<&'e super::worlds::WorldStatus>,
    fault: Option<Fault>,
    /// Answers waiting for the log's remote, in the order they were made.
    held: std::collections::VecDeque<Held>,
    last_step_warning: Option<Instant>,
    /// The world's trace feed on NATS (its state feed is a subscriber like any other).
    spectators: Option<super::spectators::Spectators>,
}

impl<'e> EngineLoop<'e> {
    pub fn new(engine: &'e Engine, publish_deltas: bool, call_budget: Duration) -> Self {
        Self {
            engine,
            conns: HashMap::new(),
            waiting: HashMap::new(),
            queue: CallQueues::new(QUEUE_LIMIT),
            driver: RealTimeDriver::new(Instant::now()).with_call_budget(call_budget),
            publish_deltas,
            dirty: false,
            stats: PublishStats::default(),
            tools: ToolsMode::default(),
            publishes: 0,
            publish_budget: PUBLISH_BUDGET,
            status: None,
            fault: None,
            held: std::collections::VecDeque::new(),
            last_step_warning: None,
            spectators: None,
        }
    }

    /// Publishes the world's tick after each step to `status`, and injects `fault`.
    pub fn with_status(mut self, status: &'e super::worlds::WorldStatus, fault: Option<Fault>) -> Self {
        self.status = Some(status);
        self.fault = fault;
        self
    }

    /// Publishes the world's state stream and trace events on NATS (`--nats`): the state feed is
    /// one more subscriber, reading as an internal read-only caller the read door must allow.
    pub fn with_spectators(mut self, spectators: Option<super::spectators::Spectators>) -> Self {
        let Some(spectators) = spectators else { return self };
        let reader = super::spectators::reader();
        match read_door(self.engine, &reader) {
            Ok(()) => {
                let engine = self.engine;
                let mut sink: Box<dyn DeltaSink> = Box::new(spectators.state_sink());
                let tick = engine.tick();
                let mut baseline = Baseline::new(None);
                if self.publish_deltas && sink.wants_keyframe(tick) {
                    let world = engine.world();
                    let snapshot = baseline.snapshot(&Frame::new(&world, sync::agent_views(&engine.agents(), tick), tick));
                    drop(world);
                    if sink.send(&Encoded::new("state/snapshot", &snapshot.message)).is_ok() {
                        baseline.delivered(snapshot);
                    }
                }
                let session = McpSession::new(super::spectators::CONN, crate::policy::Profile::SystemReadonly, engine);
                let sub = Subscriber { sink, reader, baseline, full_since: None, _permit: None };
                self.conns.insert(
                    super::spectators::CONN,
                    Conn { session, aoi: None, sub: Some(sub), listeners: Vec::new(), streams: Vec::new() },
                );
            }
            Err(refused) => tracing::warn!("the NATS state feed is off: {}", refused.message),
        }
        self.spectators = Some(spectators);
        self
    }

    /// Starts every connection's tool list in `mode` (`--tools`).
    pub fn with_tools(mut self, mode: ToolsMode) -> Self {
        self.tools = mode;
        self
    }

    /// Serves until every sender of `rx` is gone, or the world is retired.
    pub fn run(&mut self, rx: &mpsc::Receiver<EngineMsg>) {
        loop {
            // Take in whatever has arrived, so a newly waiting client gets the next turn.
            loop {
                match rx.try_recv() {
                    Ok(EngineMsg::Retire { reply }) => return self.retire(rx, reply),
                    Ok(msg) => self.intake(msg),
                    Err(mpsc::TryRecvError::Empty) => break,
                    Err(mpsc::TryRecvError::Disconnected) => return,
                }
            }
            if !self.held.is_empty() {
                self.release_held(Instant::now());
            }
            // Heavy calls the worker is done with are answered first: their work is done. (Calls
            // whose client left are collected too, so their places are given back.)
            if !self.waiting.is_empty() || self.engine.heavy_work().in_flight() > 0 {
                let start = Instant::now();
                self.finish_heavy();
                self.driver.charge(start.elapsed());
            }
            let now = Instant::now();
            // Calls are looked at before a due step: the driver lets one call run after each
            // step however late the next one is, so when steps and their deltas take the whole
            // frame calls still get a turn per step (a busy world with a few viewers delayed a
            // new client's initialize by 12 s while steps ran back to back).
            if self.driver.may_call(now)
                && let Some((conn, (granted, work))) = self.next_call()
            {
                self.serve(conn, granted, work);
                self.driver.called(now.elapsed());
                continue;
            }
            if let Some(plan) = self.driver.due(now) {
                self.step(plan);
                if let Some(status) = self.status {
                    status.stepped(self.engine.tick(), self.engine.paused(), Instant::now());
                    status.logged(self.engine.log_progress());
                }
                continue;
            }
            // Nothing more may run before the next step: show clients what the calls changed.
            if self.dirty {
                let start = Instant::now();
                self.publish();
                self.driver.charge(start.elapsed());
            }
            // Held answers are looked at again when the remote acknowledges (a message wakes the
            // loop) or, at the latest, soon enough to tell their clients they waited too long.
            let mut wait = self.driver.wait(Instant::now());
            if !self.held.is_empty() {
                wait = wait.min(Duration::from_millis(50));
            }
            match rx.recv_timeout(wait) {
                Ok(EngineMsg::Retire { reply }) => return self.retire(rx, reply),
                Ok(msg) => self.intake(msg),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => return,
            }
        }
    }

    fn intake(&mut self, msg: EngineMsg) {
        match msg {
            EngineMsg::Work { conn, granted, work } => {
                if let Err(full) = self.queue.push(conn, (granted, work)) {
                    let (_, work) = full.item;
                    let busy = Busy::Calls { limit: full.limit }.to_rpc_error();
                    match work {
                        Work::Call { reply, .. } => {
                            let _ = reply.send(Answered { result: Err(busy), notes: Vec::new() });
                        }
                        Work::Listen { reply, .. } => {
                            let _ = reply.send(Err(busy));
                        }
                        Work::Authorize { reply } => {
                            let _ = reply.send(Err(busy));
                        }
                        // Dropped: the stream ends at once, which its client sees.
                        Work::Subscribe { .. } | Work::Notifications { .. } => {}
                    }
                }
            }
            EngineMsg::Status { reply } => {
                let _ = reply.send(self.report(false));
            }
            EngineMsg::Acknowledged => {}
            // Handled by `run` (it ends the loop).
            EngineMsg::Retire { reply } => {
                if let Some(reply) = reply {
                    let _ = reply.send(self.report(true));
                }
            }
            EngineMsg::Closed { conn } => {
                self.conns.remove(&conn);
                // Its heavy calls are cancelled: not run if not started, their results dropped.
                self.waiting.retain(|ticket, w| {
                    let keep = w.conn != conn;
                    if !keep {
                        self.engine.heavy_work().cancel(*ticket);
                    }
                    keep
                });
                // Its waiting calls can no longer be answered; they have not run and will not.
                self.queue.remove(conn);
            }
        }
    }

    /// The world's state; `wait`: make the log durable first, waiting for its remote (a
    /// retirement), else only sync the file and say how far the remote has come (a status must
    /// not stop the clock while the remote is away).
    fn report(&self, wait: bool) -> WorldReport {
        let engine = self.engine;
        let durable = if wait {
            engine.make_durable().map_err(|e| e.to_string())
        } else {
            engine.make_locally_durable().map_err(|e| e.to_string()).and_then(|()| match engine.log_progress() {
                Some(p) if p.acknowledged < p.written => Err(format!("{} bytes wait for the log's remote", p.written - p.acknowledged)),
                _ => Ok(()),
            })
        };
        WorldReport {
            tick: engine.tick(),
            world_hash: engine.world_hash(),
            entities: engine.world().entity_count(),
            paused: engine.paused(),
            durable,
        }
    }

    /// The world is retired: every call it holds (queued, deferred, or still arriving) is
    /// answered that it was not run, every stream is ended with the reason, and what was recorded
    /// is made durable before the final report goes out.
    fn retire(&mut self, rx: &mpsc::Receiver<EngineMsg>, reply: Option<tokio::sync::oneshot::Sender<WorldReport>>) {
        let retired =
            || RpcError { code: protocol::INTERNAL_ERROR, message: "the world was retired; this call was not run".into(), data: None };
        let refuse = |work: Work| match work {
            Work::Call { reply, .. } => {
                let _ = reply.send(Answered { result: Err(retired()), notes: Vec::new() });
            }
            Work::Listen { reply, .. } => {
                let _ = reply.send(Err(retired()));
            }
            Work::Authorize { reply } => {
                let _ = reply.send(Err(retired()));
            }
            Work::Subscribe { .. } | Work::Notifications { .. } => {}
        };
        while let Some((_, (_, work))) = self.queue.pop() {
            refuse(work);
        }
        for (ticket, waiting) in self.waiting.drain() {
            self.engine.heavy_work().cancel(ticket);
            let _ = waiting.reply.send(Answered { result: Err(retired()), notes: Vec::new() });
        }
        for conn in self.conns.values_mut() {
            let why = retired();
            if let Some(sub) = &mut conn.sub {
                sub.sink.end(&why);
            }
            for listener in &mut conn.listeners {
                listener.sink.end(&why);
            }
            for stream in &mut conn.streams {
                stream.end(&why);
            }
        }
        while let Ok(msg) = rx.try_recv() {
            match msg {
                EngineMsg::Work { work, .. } => refuse(work),
                EngineMsg::Status { reply } => drop(reply),
                EngineMsg::Retire { reply: Some(reply) } => drop(reply),
                EngineMsg::Retire { reply: None } | EngineMsg::Closed { .. } | EngineMsg::Acknowledged => {}
            }
        }
        let report = self.report(true);
        // The log was made durable (or failed): what was held goes now, each as it stands.
        self.release_held(Instant::now() + HOLD_LIMIT);
        if let Err(why) = &report.durable {
            tracing::error!("a retired world's log could not be made durable: {why}");
        }
        if let Some(reply) = reply {
            let _ = reply.send(report);
        }
    }

    fn step(&mut self, plan: FramePlan) {
        if let (Some(Fault::PanicAtTick(at)), Some(_)) = (self.fault, self.status)
            && self.engine.tick() + u64::from(plan.steps) >= at
        {
            panic!("fault injected at tick {at} (LIMINA_FAULTS)");
        }
        // Paused (`world.pause`, `--paused`), the interval passes and the call budget renews,
        // but no tick runs: calls apply at the same tick, and `world.step` runs ticks itself.
        if self.engine.paused() {
            return;
        }
        // A fleet world whose lease passed its deadline records nothing, steps included: another
        // process may be taking it over (its fence would refuse them anyway).
        if self.engine.log_halted().is_some() {
            return;
        }
        if let Err(e) = self.engine.step(u64::from(plan.steps)) {
            // Said once per second at most: a callback that fails at every step would otherwise
            // write 60 lines a second (`/health` calls the world stalled meanwhile).
            let now = Instant::now();
            if self.last_step_warning.is_none_or(|at| now.duration_since(at) >= Duration::from_secs(1)) {
                self.last_step_warning = Some(now);
                tracing::warn!("a step callback failed: {} (said at most once a second)", e.message);
            }
        }
        if plan.steps > 0 {
            // The tick's own deltas belong to the tick, not to the calls' budget (charging them
            // would let a heavy world starve calls; the step is protected by `may_call` anyway).
            self.publish();
        }
    }

    fn serve(&mut self, conn: u64, granted: impl Into<Grant>, work: Work) {
        let granted = granted.into();
        let engine = self.engine;
        match work {
            Work::Call { method, params, reply, gate: _ } => {
                // The client left while the call waited (jsonrpsee drops a closed connection's
                // calls): nobody can hear the answer, so the call is not run.
                if reply.is_closed() {
                    return;
                }
                if let Some(refused) = self.refusal(&method) {
                    let _ = reply.send(Answered { result: Err(refused), notes: Vec::new() });
                    return;
                }
                let c = conn_entry(&mut self.conns, engine, conn, granted, self.tools);
                let answered = if method == "aoi/declare" {
                    Answered { result: declare_aoi(c, &params), notes: Vec::new() }
                } else {
                    call(engine, c, method, params)
                };
                match c.session.deferred.take() {
                    Some(deferred) => {
                        self.waiting.insert(deferred.ticket, Waiting { conn, reply, call: deferred, notes: answered.notes });
                    }
                    None => self.deliver(reply, answered),
                }
                self.dirty = true;
            }
            Work::Listen { id, params, mut sink, permit, reply } => {
                let c = conn_entry(&mut self.conns, engine, conn, granted, self.tools);
                c.prune();
                let incoming = Incoming { id: Some(id.clone()), method: "subscriptions/listen".into(), params };
                match dispatcher::listen(&mut c.session, &incoming) {
                    Ok(ack) => {
                        let method = ack.get("method").and_then(Value::as_str).unwrap_or_default();
                        let _ = sink.send(&Encoded::new(method, &ack["params"]));
                        c.listeners.push(Listener { id, sink, _permit: permit });
                        let _ = reply.send(Ok(()));
                    }
                    Err(e) => {
                        let _ = reply.send(Err(e));
                    }
                }
            }
            Work::Notifications { sink } => {
                let c = conn_entry(&mut self.conns, engine, conn, granted, self.tools);
                c.prune();
                if c.streams.len() >= MAX_NOTIFICATION_STREAMS {
                    // The oldest gives way: a client that reconnects its GET stream must not be
                    // locked out by its own dead ones.
                    c.streams.remove(0);
                }
                c.streams.push(sink);
            }
            Work::Authorize { reply } => {
                // The client left while it waited: nobody would open the stream.
                if reply.is_closed() {
                    return;
                }
                let c = conn_entry(&mut self.conns, engine, conn, granted, self.tools);
                let reader = c.session.reader();
                let _ = reply.send(read_door(engine, &reader).map(|()| StreamGrant::new(&reader)));
            }
            Work::Subscribe { mut sink, permit, grant } => {
                let tick = engine.tick();
                let c = conn_entry(&mut self.conns, engine, conn, granted, self.tools);
                let mut baseline = Baseline::new(c.aoi);
                let world = engine.world();
                let snapshot = baseline.snapshot(&Frame::new(&world, sync::agent_views(&engine.agents(), tick), tick));
                drop(world);
                if sink.send(&Encoded::new("state/snapshot", &snapshot.message)).is_ok() {
                    baseline.delivered(snapshot);
                }
                // A revocation since the door allowed it ends it at the next publish.
                c.sub = Some(Subscriber { sink, reader: grant.reader(), baseline, full_since: None, _permit: Some(permit) });
            }
        }
    }

    /// The next call to serve, in the clients' turns: a client whose call with effects (a scene
    /// load or save) is still on the worker waits for it, so its calls apply in the order it sent
    /// them.
    fn next_call(&mut self) -> Option<(u64, (Grant, Work))> {
        let held: Vec<u64> = self.waiting.values().filter(|w| w.call.ordered).map(|w| w.conn).collect();
        self.queue.pop_where(|conn, (_, work)| work.ready() && !held.contains(&conn))
    }

    /// Answers the deferred calls whose heavy half is done; cancels those whose client stopped
    /// waiting (its request's answer can no longer be sent).
    fn finish_heavy(&mut self) {
        let engine = self.engine;
        let mut done = Vec::new();
        self.waiting.retain(|ticket, w| {
            let open = !w.reply.is_closed();
            if !open {
                engine.heavy_work().cancel(*ticket);
            }
            open
        });
        for (ticket, response) in engine.complete_deferred() {
            // Its client left: the call was traced; nobody hears the answer.
            let Some(w) = self.waiting.remove(&ticket) else { continue };
            let Some(c) = self.conns.get_mut(&w.conn) else { continue };
            let result = dispatcher::finish_deferred(engine, &mut c.session, w.call, &response);
            let mut answered = answered(engine, c, result);
            answered.notes.splice(0..0, w.notes);
            done.push((w.reply, answered));
            self.dirty = true;
        }
        for (reply, answered) in done {
            self.deliver(reply, answered);
        }
    }

    /// Why a tool call is not run now: the log's remote cannot take records (unreachable, its
    /// backlog full, or another writer took the log). None: run it.
    fn refusal(&self, method: &str) -> Option<RpcError> {
        if !matches!(method, "tools/call" | "callTool") {
            return None;
        }
        let why = self.engine.log_progress()?.writable.err()?;
        Some(RpcError {
            code: protocol::UNAVAILABLE,
            message: format!(
                "the world's log cannot take records now, so the call was not run: {why}; retry when /health shows the world writable"
            ),
            data: None,
        })
    }

    /// Sends an answer, or holds it until the log's remote has acknowledged everything recorded
    /// before it: a client is told a call succeeded only once what it did would survive this
    /// process (answers leave in the order they were made).
    fn deliver(&mut self, reply: tokio::sync::oneshot::Sender<Answered>, answered: Answered) {
        match self.engine.log_progress() {
            Some(p) if p.acknowledged < p.written || !self.held.is_empty() => {
                self.held.push_back(Held { needs: p.written, since: Instant::now(), reply, answered });
            }
            _ => {
                let _ = reply.send(answered);
            }
        }
    }

    /// Sends the held answers the remote has acknowledged; tells those held past `HOLD_LIMIT`
    /// (or held when the remote failed for good) that their calls are applied but not durable.
    fn release_held(&mut self, now: Instant) {
        let (acknowledged, failed) = match self.engine.log_progress() {
            Some(p) => (p.acknowledged, self.engine.make_locally_durable().err().map(|e| e.to_string())),
            None => (u64::MAX, None),
        };
        while let Some(front) = self.held.front() {
            let late = now.saturating_duration_since(front.since) >= HOLD_LIMIT;
            if front.needs > acknowledged && !late && failed.is_none() {
                break;
            }
            let Some(mut held) = self.held.pop_front() else { break };
            if held.needs > acknowledged {
                let why =
                    failed.clone().unwrap_or_else(|| format!("the log's remote has not acknowledged it after {} s", HOLD_LIMIT.as_secs()));
                held.answered.result = Err(RpcError {
                    code: protocol::UNAVAILABLE,
                    message: format!(
                        "the call was applied but is not yet durable: {why}; it becomes durable if the remote acknowledges it before this server stops"
                    ),
                    data: None,
                });
            }
            let _ = held.reply.send(held.answered);
        }
    }

    /// Queues each subscriber's delta without waiting (see the module doc for full queues), and
    /// tells clients with open notification streams that the tool list changed, if it did.
    pub(super) fn publish(&mut self) {
        self.dirty = false;
        if let Some(spectators) = &mut self.spectators {
            spectators.publish_trace(self.engine);
        }
        for c in self.conns.values_mut() {
            if c.listeners.is_empty() && c.streams.is_empty() {
                continue;
            }
            c.prune();
            let notes = dispatcher::pending_notifications(self.engine, &mut c.session);
            if !notes.is_empty() {
                c.deliver(notes);
            }
        }
        // Connections that only carried a state stream (a stateless HTTP `state/subscribe`
        // gets one of its own) end with it.
        let mut ended = Vec::new();
        self.end_revoked_streams(&mut ended);
        if !self.publish_deltas {
            self.forget_stream_conns(ended);
            return;
        }
        let tick = self.engine.tick();
        let world = self.engine.world();
        // Whose delta is computed first turns with each publish, so when the budget runs out it
        // is never the same subscribers who wait.
        let mut order: Vec<u64> = self.conns.iter().filter(|(_, c)| c.sub.is_some()).map(|(id, _)| *id).collect();
        order.sort_unstable();
        if order.is_empty() {
            // Nobody watches: the world stops journalling what it touches.
            sync::unwatched(&world);
            drop(world);
            self.forget_stream_conns(ended);
            return;
        }
        let turn = (self.publishes % order.len() as u64) as usize;
        order.rotate_left(turn);
        self.publishes += 1;
        // What every delta of this publish reads: the journal sealed once, the agents listed once.
        let frame = Frame::new(&world, sync::agent_views(&self.engine.agents(), tick), tick);
        // One delta per state sent and area of interest, computed and encoded once for all the
        // subscribers that were sent that state.
        let mut deltas: HashMap<(StateKey, AoiKey), SharedDelta> = HashMap::new();
        // The state a subscriber watching an area reaches now, whatever it had before: shared,
        // so subscribers that were sent different states share one from here on.
        let mut reached: HashMap<AoiKey, Sent> = HashMap::new();
        let started = Instant::now();
        for id in order {
            let Some(c) = self.conns.get_mut(&id) else { continue };
            let Some(sub) = &mut c.sub else { continue };
            if sub.sink.is_closed() {
                c.sub = None;
                ended.push(id);
                continue;
            }
            if !sub.sink.has_room() {
                self.stats.skipped += 1;
                if !sub.sink.stalls() {
                    continue;
                }
                let since = *sub.full_since.get_or_insert(tick);
                if tick.saturating_sub(since) >= STALL_TICKS {
                    sub.sink.cut_off(&format!(
                        "its state/delta queue has been full for {} ticks (since tick {since}): the client stalled and stopped reading",
                        tick - since
                    ));
                    tracing::debug!("subscriber of connection {id} dropped");
                    c.sub = None;
                    ended.push(id);
                    self.stats.cut_off += 1;
                }
                continue;
            }
            sub.full_since = None;
            if sub.sink.wants_keyframe(tick) {
                let snapshot = sub.baseline.snapshot(&frame);
                self.stats.built += 1;
                if sub.sink.send(&Encoded::new("state/snapshot", &snapshot.message)).is_ok() {
                    sub.baseline.delivered(snapshot);
                    self.stats.sent += 1;
                }
                continue;
            }
            let aoi = aoi_key(sub.baseline.aoi);
            let computed = deltas.len();
            let (delta, next) = match deltas.entry((sub.baseline.key(), aoi)) {
                Entry::Occupied(e) => e.into_mut(),
                Entry::Vacant(e) => {
                    if computed > 0 && started.elapsed() >= self.publish_budget {
                        // Its baseline stays put: the next publish's delta carries this one.
                        self.stats.deferred += 1;
                        continue;
                    }
                    let diff = sub.baseline.diff(&frame);
                    let next = reached.entry(aoi).or_insert(diff.next).clone();
                    if diff.message.is_some() {
                        self.stats.built += 1;
                    }
                    e.insert((diff.message.map(|m| Encoded::new("state/delta", &m)), next))
                }
            };
            let Some(delta) = delta else {
                // Nothing changed since what it has: it has what the others reach.
                sub.baseline.caught_up(next);
                continue;
            };
            match sub.sink.send(delta) {
                Ok(()) => {
                    sub.baseline.caught_up(next);
                    self.stats.sent += 1;
                }
                // An answer took the last slot since `has_room`: the next delta carries this one.
                Err(Undelivered::Full) => {}
                Err(Undelivered::Closed) => {
                    c.sub = None;
                    ended.push(id);
                }
            }
        }
        drop(frame);
        drop(world);
        self.forget_stream_conns(ended);
    }

    /// Forgets the connections among `ended` (their state stream ended) that carried nothing
    /// else.
    fn forget_stream_conns(&mut self, ended: Vec<u64>) {
        for id in ended {
            if self
                .conns
                .get(&id)
                .is_some_and(|c| c.session.mode == dispatcher::Mode::Fresh && c.listeners.is_empty() && c.streams.is_empty())
            {
                self.conns.remove(&id);
            }
        }
    }

    /// Ends the state streams whose reader was revoked (its session, its agent, or a capability
    /// the read door needs) since the door allowed them, before they are sent another delta.
    /// The check is the policy engine's own (`PolicyEngine::revoked`: a few set lookups per
    /// stream, nothing committed); a stream it flags passes the door once more, which records
    /// the refusal in the trace and words it for the client. Quotas and budgets counted the
    /// stream's opening and do not end it.
    fn end_revoked_streams(&mut self, ended: &mut Vec<u64>) {
        if self.conns.values().all(|c| c.sub.is_none()) {
            return;
        }
        // A door a mod unregistered opens no new stream (`not_found`); open ones carry on.
        let Some(door) = self.engine.registry().get(STATE_DOOR) else { return };
        let tick = self.engine.tick();
        let revoked: Vec<(u64, Option<String>)> = {
            let policy = self.engine.policy();
            self.conns
                .iter()
                .filter_map(|(id, c)| {
                    let r = &c.sub.as_ref()?.reader;
                    let ctx = DecisionContext {
                        agent_id: &r.agent_id,
                        session_id: &r.session_id,
                        profile: &r.profile,
                        skill: &door.name,
                        required: &door.permissions,
                        granted: r.permissions,
                        tick,
                        package: None,
                        acting_for: &[],
                    };
                    policy.revoked(&ctx).map(|(_, reason, _)| (*id, Some(reason)))
                })
                .collect()
        };
        for (id, reason) in revoked {
            let Some(mut sub) = self.conns.get_mut(&id).and_then(|c| c.sub.take()) else { continue };
            // The door refuses for the same rule; were the policy engine off (static profiles,
            // which no server runs with), the stream still ends: fail closed.
            let refusal = read_door(self.engine, &sub.reader).err().map(|e| e.message).or(reason).unwrap_or_default();
            let message = refusal.strip_prefix(REFUSED).unwrap_or(&refusal);
            tracing::debug!("state stream of connection {id} ended: {message}");
            sub.sink.end(&RpcError { code: protocol::FORBIDDEN, message: format!("state stream ended: {message}"), data: None });
            ended.push(id);
        }
    }
}

/// The skill every state stream passes (`skills/core/state.luau`).
pub(crate) const STATE_DOOR: &str = "state.subscribe";

/// How a refusal by the read door begins.
const REFUSED: &str = "state/subscribe refused: ";

/// The read door, the one place both transports' state streams are decided: `state.subscribe`
/// called as the stream's client, through the skill pipeline like any call. So the policy
/// engine decides it (revocations, the profile's `scene.read`, quotas, budgets), the trace
/// records the decision (`policy.decision` / `policy.denied`) and the call, and `audit.explain`
/// can say why. Err is the refusal as the client is told it.
fn read_door(engine: &Engine, reader: &Caller) -> Result<(), RpcError> {
    let response = engine.call(reader, STATE_DOOR, json!({}));
    match response.error {
        None => Ok(()),
        Some(e) => Err(RpcError {
            code: protocol::skill_error_code(e.code),
            message: format!("{REFUSED}{}", e.message),
            data: Some(json!({"skill": STATE_DOOR, "code": e.code.as_str()})),
        }),
    }
}

/// What the read door allowed: whom a state stream reads as. Only the door makes one (its
/// fields are private to this module), so no transport can open a stream the door did not
/// allow. Plain data, as it crosses to the transport's thread and back.
#[derive(Debug)]
pub(super) struct StreamGrant {
    agent_id: String,
    session_id: String,
    profile: String,
    permissions: PermissionSet,
}

impl StreamGrant {
    fn new(reader: &Caller) -> Self {
        Self {
            agent_id: reader.agent_id.to_string(),
            session_id: reader.session_id.to_string(),
            profile: reader.profile.to_string(),
            permissions: reader.permissions,
        }
    }

    fn reader(&self) -> Caller {
        let mut reader = Caller::new(&self.agent_id, &self.session_id, &self.profile);
        reader.permissions = self.permissions;
        reader
    }
}

/// An area of interest as a map key (None: the whole world).
type AoiKey = Option<[u64; 4]>;
/// Which state a subscriber was sent (`Baseline::key`).
type StateKey = usize;
/// One publish's delta for the subscribers that were sent one state (None: nothing changed),
/// and the state it leads to.
type SharedDelta = (Option<Encoded>, Sent);

fn aoi_key(aoi: Option<Aoi>) -> AoiKey {
    aoi.map(|a| [a.center[0].to_bits(), a.center[1].to_bits(), a.center[2].to_bits(), a.radius.to_bits()])
}

fn conn_entry<'a>(conns: &'a mut HashMap<u64, Conn>, engine: &Engine, conn: u64, granted: Grant, tools: ToolsMode) -> &'a mut Conn {
    conns.entry(conn).or_insert_with(|| Conn {
        session: McpSession::new(conn, granted.profile, engine).with_grant(granted).with_tools(tools).deferring_heavy(),
        aoi: None,
        sub: None,
        listeners: Vec::new(),
        streams: Vec::new(),
    })
}

fn call(engine: &Engine, c: &mut Conn, method: String, params: Value) -> Answered {
    let incoming = Incoming { id: Some(Value::Null), method, params };
    let result = dispatcher::dispatch(engine, &mut c.session, &incoming);
    answered(engine, c, result)
}

/// A call's answer as it goes out: held back if what it recorded is not yet durable, with the
/// notifications it caused that no open stream took.
fn answered(engine: &Engine, c: &mut Conn, result: Result<Value, RpcError>) -> Answered {
    // A changed tool list reaches the client's open streams (listen, GET, or the WebSocket state
    // channel); what none took goes back with the answer.
    c.prune();
    let notes = dispatcher::pending_notifications(engine, &mut c.session);
    // With a remote the answer is held until it acknowledges (`EngineLoop::deliver`); the file,
    // if any, is synced here as always.
    let durable =
        if engine.log_progress().is_some() { crate::mcp::locally_durable_answer(engine) } else { crate::mcp::durable_answer(engine) };
    let result = match (result, durable) {
        (Ok(_), Err(e)) => Err(RpcError { code: crate::mcp::protocol::INTERNAL_ERROR, message: e.to_string(), data: None }),
        (result, _) => result,
    };
    Answered { result, notes: c.deliver(notes) }
}

fn declare_aoi(c: &mut Conn, params: &Value) -> Result<Value, RpcError> {
    let bad = |message: &str| RpcError { code: protocol::INVALID_PARAMS, message: message.to_string(), data: None };
    if params.get("clear").and_then(Value::as_bool) == Some(true) {
        c.aoi = None;
    } else {
        let center =
            params.get("center").and_then(Value::as_array).filter(|a| a.len() == 3).ok_or_else(|| bad("center must be [x, y, z]"))?;
        let center: Vec<f64> = center
            .iter()
            .map(|v| v.as_f64().filter(|f| f.is_finite()))
            .collect::<Option<_>>()
            .ok_or_else(|| bad("center must hold 3 finite numbers"))?;
        let radius = params
            .get("radius")
            .and_then(Value::as_f64)
            .filter(|r| r.is_finite() && *r > 0.0)
            .ok_or_else(|| bad("radius must be a number > 0"))?;
        c.aoi = Some(Aoi { center: [center[0], center[1], center[2]], radius });
    }
    if let Some(sub) = &mut c.sub {
        sub.baseline.set_aoi(c.aoi);
    }
    Ok(json!({"ok": true, "aoi": c.aoi.map(|a| json!({"center": a.center, "radius": a.radius}))}))
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::host::{EngineConfig, Output};
    use crate::policy::Profile;

    /// A subscriber whose queue room the test sets, counting what it is sent.
    #[derive(Clone, Default)]
    struct FakeSink {
        room: Arc<AtomicBool>,
        sent: Arc<AtomicUsize>,
        cut: Arc<Mutex<Option<String>>>,
        ended: Arc<Mutex<Option<RpcError>>>,
    }

    impl DeltaSink for FakeSink {
        fn has_room(&self) -> bool {
            self.room.load(Ordering::SeqCst)
        }
        fn is_closed(&self) -> bool {
            self.cut.lock().unwrap().is_some()
        }
        fn send(&mut self, _message: &Encoded) -> Result<(), Undelivered> {
            if !self.has_room() {
                return Err(Undelivered::Full);
            }
            self.sent.fetch_add(1, Ordering::SeqCst);
            Ok(())
        }
        fn cut_off(&self, why: &str) {
            *self.cut.lock().unwrap() = Some(why.to_string());
        }
        fn end(&mut self, why: &RpcError) {
            *self.ended.lock().unwrap() = Some(why.clone());
        }
    }

    fn engine() -> Engine {
        Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(env!("CARGO_MANIFEST_DIR")) }).unwrap()
    }

    /// A world where every tick changes every entity: 200 spheres in free fall.
    fn falling(engine: &Engine) {
        for i in 0..200 {
            let spec = json!({"shape": "sphere", "dynamic": true, "position": [f64::from(i % 20) * 3.0, 50.0, f64::from(i / 20) * 3.0]});
            assert!(engine.call(engine.script_caller(), "scene.createEntity", spec).success);
        }
    }

    #[test]
    fn a_paused_world_runs_no_real_time_step() {
        let engine = engine();
        let mut l = unbudgeted(&engine);
        l.step(FramePlan { steps: 3, alpha: 0.0 });
        assert_eq!(engine.tick(), 3);
        engine.start_paused();
        l.step(FramePlan { steps: 5, alpha: 0.0 });
        assert_eq!(engine.tick(), 3, "paused: the frame's steps do not run");
    }

    /// A loop whose publishes compute every delta, however slow this build.
    fn unbudgeted(engine: &Engine) -> EngineLoop<'_> {
        let mut l = EngineLoop::new(engine, true, Duration::ZERO);
        l.publish_budget = Duration::from_secs(3600);
        l
    }

    fn subscribe(l: &mut EngineLoop<'_>, conn: u64, sink: &FakeSink) {
        open_stream(l, conn, Profile::BuilderReadWrite, sink).unwrap();
    }

    /// Asks the read door for `conn`, as a transport does; if it allows, subscribes `sink`.
    fn open_stream(l: &mut EngineLoop<'_>, conn: u64, profile: Profile, sink: &FakeSink) -> Result<(), RpcError> {
        let permit =
            Arc::new(super::super::admission::Admission::default()).admit(&Arc::new(super::super::admission::Load::default()), 0).unwrap();
        let grant = authorize(l, conn, profile)?;
        l.serve(conn, profile, Work::Subscribe { sink: Box::new(sink.clone()), permit, grant });
        Ok(())
    }

    fn authorize(l: &mut EngineLoop<'_>, conn: u64, profile: Profile) -> Result<StreamGrant, RpcError> {
        let (reply, mut answer) = tokio::sync::oneshot::channel();
        l.serve(conn, profile, Work::Authorize { reply });
        answer.try_recv().expect("the door answers at once")
    }

    fn tick(l: &mut EngineLoop<'_>) {
        l.step(FramePlan { steps: 1, alpha: 0.0 });
    }

    #[test]
    fn a_full_subscriber_costs_no_delta_and_is_cut_off_after_the_stall_limit() {
        let engine = engine();
        falling(&engine);
        let mut l = unbudgeted(&engine);
        let (healthy, stalled) = (FakeSink::default(), FakeSink::default());
        healthy.room.store(true, Ordering::SeqCst);
        stalled.room.store(true, Ordering::SeqCst);
        subscribe(&mut l, 1, &healthy);
        subscribe(&mut l, 2, &stalled);
        tick(&mut l);
        assert_eq!(stalled.sent.load(Ordering::SeqCst), 2, "snapshot and a first delta");
        // It stops reading: its queue stays full from now on.
        stalled.room.store(false, Ordering::SeqCst);
        let built_before = l.stats.built;
        for _ in 0..STALL_TICKS {
            tick(&mut l);
            l.publish(); // and a run of calls between ticks
        }
        assert!(stalled.cut.lock().unwrap().is_none(), "not before the limit");
        // Skipped deltas cost nothing: only the healthy subscriber's deltas were built.
        let healthy_deltas = healthy.sent.load(Ordering::SeqCst) as u64 - 2;
        assert_eq!(l.stats.built - built_before, healthy_deltas, "deltas built for a subscriber that could not take them");
        assert_eq!(l.stats.skipped, 2 * STALL_TICKS, "each publish passed it over");
        assert_eq!(stalled.sent.load(Ordering::SeqCst), 2);
        tick(&mut l);
        let why = stalled.cut.lock().unwrap().clone().expect("cut off once full for STALL_TICKS ticks");
        assert!(why.contains("full for 180 ticks"), "{why}");
        assert_eq!(l.stats.cut_off, 1);
        // The healthy one keeps getting every tick.
        let before = healthy.sent.load(Ordering::SeqCst);
        tick(&mut l);
        assert_eq!(healthy.sent.load(Ordering::SeqCst), before + 1);
        assert!(healthy.cut.lock().unwrap().is_none());
    }

    #[test]
    fn a_subscriber_that_catches_up_gets_everything_it_missed_and_is_not_cut_off() {
        let engine = engine();
        falling(&engine);
        let mut l = unbudgeted(&engine);
        let slow = FakeSink::default();
        slow.room.store(true, Ordering::SeqCst);
        subscribe(&mut l, 1, &slow);
        for round in 0..3 {
            slow.room.store(false, Ordering::SeqCst);
            for _ in 0..STALL_TICKS - 1 {
                tick(&mut l);
            }
            // It reads one message just in time: the stall clock starts again.
            slow.room.store(true, Ordering::SeqCst);
            let before = slow.sent.load(Ordering::SeqCst);
            tick(&mut l);
            assert_eq!(slow.sent.load(Ordering::SeqCst), before + 1, "round {round}: one coalesced delta");
        }
        assert!(slow.cut.lock().unwrap().is_none());
        assert_eq!(l.stats.cut_off, 0);
    }

    #[test]
    fn subscribers_sent_the_same_state_share_one_delta() {
        let engine = engine();
        falling(&engine);
        let mut l = unbudgeted(&engine);
        let sinks: Vec<FakeSink> = (0..10).map(|_| FakeSink::default()).collect();
        for (conn, sink) in (1..).zip(&sinks) {
            sink.room.store(true, Ordering::SeqCst);
            subscribe(&mut l, conn, sink);
        }
        // Each has its own snapshot; after the first delta they all hold the same state.
        tick(&mut l);
        let built = l.stats.built;
        for _ in 0..5 {
            tick(&mut l);
        }
        assert_eq!(l.stats.built - built, 5, "one delta per tick for ten subscribers, not one each");
        for sink in &sinks {
            assert_eq!(sink.sent.load(Ordering::SeqCst), 7, "a snapshot and six deltas each");
        }
        // One falls behind and catches up: it gets a delta of its own once, then shares again.
        sinks[0].room.store(false, Ordering::SeqCst);
        tick(&mut l);
        sinks[0].room.store(true, Ordering::SeqCst);
        let built = l.stats.built;
        tick(&mut l);
        assert_eq!(l.stats.built - built, 2, "the laggard's coalesced delta and everyone else's");
        let built = l.stats.built;
        tick(&mut l);
        assert_eq!(l.stats.built - built, 1, "shared again");
        assert_eq!(sinks[0].sent.load(Ordering::SeqCst), 9);
    }

    #[test]
    fn deltas_past_the_publish_budget_wait_their_turn() {
        let engine = engine();
        falling(&engine);
        let mut l = EngineLoop::new(&engine, true, Duration::ZERO);
        l.publish_budget = Duration::ZERO;
        let sinks: Vec<FakeSink> = (0..4).map(|_| FakeSink::default()).collect();
        for (conn, sink) in (1..).zip(&sinks) {
            sink.room.store(true, Ordering::SeqCst);
            subscribe(&mut l, conn, sink);
        }
        // Four different snapshots: one delta computed per publish, the others deferred.
        tick(&mut l);
        assert_eq!((l.stats.built, l.stats.deferred), (1, 3));
        for _ in 0..3 {
            tick(&mut l);
        }
        // Each had its turn in four publishes (a laggard's delta carries everything since what
        // it had).
        assert!(sinks.iter().all(|s| s.sent.load(Ordering::SeqCst) >= 2), "everyone got a delta");
        // With room in the budget, the deltas computed in one publish lead to one shared state.
        l.publish_budget = Duration::from_secs(3600);
        tick(&mut l);
        let (built, deferred) = (l.stats.built, l.stats.deferred);
        tick(&mut l);
        assert_eq!((l.stats.built - built, l.stats.deferred - deferred), (1, 0), "converged: one delta for all");
    }

    #[test]
    fn a_stream_holds_its_admission_permit_until_it_ends() {
        use super::super::admission::{Admission, Load};
        let engine = engine();
        let mut l = EngineLoop::new(&engine, true, Duration::ZERO);
        let admission = Arc::new(Admission::with_limits(1, 1000, 1000));
        let load = Arc::new(Load::default());
        let sink = FakeSink::default();
        sink.room.store(true, Ordering::SeqCst);
        let permit = admission.admit(&load, 0).unwrap();
        let grant = authorize(&mut l, 1, Profile::BuilderReadWrite).unwrap();
        l.serve(1, Profile::BuilderReadWrite, Work::Subscribe { sink: Box::new(sink.clone()), permit, grant });
        tick(&mut l);
        assert!(admission.admit(&load, 0).is_err(), "the open stream holds its place");
        sink.cut_off("the client left");
        tick(&mut l);
        assert!(admission.admit(&load, 0).is_ok(), "given back when the stream ends");
    }

    /// The policy events of `session`'s `state.subscribe` calls, in order: (type, rule, reason).
    fn door_decisions(engine: &Engine, session: &str) -> Vec<(String, String, String)> {
        engine
            .trace()
            .tail()
            .filter(|e| &*e.thread_id == session && e.event_type.starts_with("policy."))
            .map(|e| (e.event_type.to_string(), serde_json::from_str::<Value>(e.payload.json().get()).unwrap()))
            .filter(|(_, p)| p["skill"] == STATE_DOOR)
            .map(|(kind, p)| (kind, p["rule"].as_str().unwrap().to_string(), p["reason"].as_str().unwrap().to_string()))
            .collect()
    }

    fn govern(engine: &Engine, skill: &str, input: Value) {
        let r = engine.call(&engine.script_caller().clone(), skill, input);
        assert!(r.success, "{skill}: {:?}", r.error);
    }

    #[test]
    fn a_revoked_session_cannot_open_a_state_stream_and_the_refusal_is_traced() {
        let engine = engine();
        let mut l = EngineLoop::new(&engine, true, Duration::ZERO);
        // Connection 1 reads as ses_mcp1 before it initializes.
        govern(&engine, "policy.revoke", json!({"sessionId": "ses_mcp1"}));
        let sink = FakeSink::default();
        sink.room.store(true, Ordering::SeqCst);
        let refused = open_stream(&mut l, 1, Profile::BuilderReadWrite, &sink).unwrap_err();
        assert_eq!(refused.code, protocol::FORBIDDEN);
        assert_eq!(refused.message, "state/subscribe refused: session ses_mcp1 was revoked");
        tick(&mut l);
        assert_eq!(sink.sent.load(Ordering::SeqCst), 0, "no snapshot, no delta");
        assert_eq!(
            door_decisions(&engine, "ses_mcp1"),
            [("policy.denied".to_string(), "session.revoked".to_string(), "session ses_mcp1 was revoked".to_string())]
        );
        // Another session is not affected, and its allow is traced too.
        open_stream(&mut l, 2, Profile::BuilderReadWrite, &sink).unwrap();
        assert_eq!(door_decisions(&engine, "ses_mcp2")[0].0, "policy.decision");
        // A revoked capability the door needs refuses too, naming it.
        govern(&engine, "policy.revoke", json!({"sessionId": "ses_mcp3", "cap": "scene.read"}));
        let refused = open_stream(&mut l, 3, Profile::SystemReadonly, &sink).unwrap_err();
        assert_eq!(refused.message, "state/subscribe refused: capability scene.read was revoked for session ses_mcp3");
    }

    #[test]
    fn a_stream_whose_session_is_revoked_later_ends_at_the_next_delta_naming_why() {
        let engine = engine();
        falling(&engine);
        let mut l = unbudgeted(&engine);
        let (victim, bystander) = (FakeSink::default(), FakeSink::default());
        victim.room.store(true, Ordering::SeqCst);
        bystander.room.store(true, Ordering::SeqCst);
        subscribe(&mut l, 1, &victim);
        subscribe(&mut l, 2, &bystander);
        tick(&mut l);
        assert_eq!(victim.sent.load(Ordering::SeqCst), 2, "snapshot and a delta");
        govern(&engine, "policy.revoke", json!({"sessionId": "ses_mcp1"}));
        tick(&mut l);
        let ended = victim.ended.lock().unwrap().clone().expect("the stream ended");
        assert_eq!((ended.code, ended.message.as_str()), (protocol::FORBIDDEN, "state stream ended: session ses_mcp1 was revoked"));
        assert_eq!(victim.sent.load(Ordering::SeqCst), 2, "no delta after the revocation");
        assert!(victim.cut.lock().unwrap().is_none(), "the stream ends, not the connection");
        for _ in 0..3 {
            tick(&mut l);
        }
        assert_eq!(victim.sent.load(Ordering::SeqCst), 2);
        assert_eq!(bystander.sent.load(Ordering::SeqCst), 6, "the other stream carries on");
        // The end is a traced refusal of the door, after the allow that opened it.
        let kinds: Vec<String> = door_decisions(&engine, "ses_mcp1").into_iter().map(|d| d.0).collect();
        assert_eq!(kinds, ["policy.decision", "policy.denied"]);
    }

    #[test]
    fn a_read_only_client_may_open_a_stream() {
        let engine = engine();
        let mut l = EngineLoop::new(&engine, true, Duration::ZERO);
        let sink = FakeSink::default();
        sink.room.store(true, Ordering::SeqCst);
        open_stream(&mut l, 1, Profile::SystemReadonly, &sink).unwrap();
        assert_eq!(sink.sent.load(Ordering::SeqCst), 1, "its snapshot");
        let decisions = door_decisions(&engine, "ses_mcp1");
        assert_eq!((decisions[0].0.as_str(), decisions[0].1.as_str()), ("policy.decision", "profile.grant"));
    }

    #[test]
    fn opening_a_stream_counts_against_the_sessions_quota_and_an_open_one_is_not_ended_by_it() {
        let engine = engine();
        falling(&engine);
        let mut l = unbudgeted(&engine);
        govern(&engine, "policy.quota", json!({"sessionId": "ses_mcp1", "cap": STATE_DOOR, "limit": 1, "windowTicks": 1000}));
        let (first, second) = (FakeSink::default(), FakeSink::default());
        first.room.store(true, Ordering::SeqCst);
        second.room.store(true, Ordering::SeqCst);
        open_stream(&mut l, 1, Profile::BuilderReadWrite, &first).unwrap();
        let refused = open_stream(&mut l, 1, Profile::BuilderReadWrite, &second).unwrap_err();
        assert!(refused.message.starts_with("state/subscribe refused: quota of 1 calls per 1000 ticks"), "{}", refused.message);
        assert_eq!(second.sent.load(Ordering::SeqCst), 0);
        tick(&mut l);
        tick(&mut l);
        assert_eq!(first.sent.load(Ordering::SeqCst), 3, "the open stream carries on");
        assert!(first.ended.lock().unwrap().is_none());
        assert_eq!(door_decisions(&engine, "ses_mcp1")[1].1, "quota.exceeded");
    }

    /// A sink like the NATS feed's: asks for a full state every `every` ticks, is never cut off,
    /// and records the methods it was sent.
    struct FeedLike {
        inner: FakeSink,
        every: u64,
        tick: u64,
        next: u64,
        methods: Arc<Mutex<Vec<String>>>,
    }

    impl DeltaSink for FeedLike {
        fn has_room(&self) -> bool {
            self.inner.has_room()
        }
        fn is_closed(&self) -> bool {
            self.inner.is_closed()
        }
        fn send(&mut self, message: &Encoded) -> Result<(), Undelivered> {
            self.inner.send(message)?;
            if message.method == "state/snapshot" {
                self.next = self.tick + self.every;
            }
            self.methods.lock().unwrap().push(message.method.clone());
            Ok(())
        }
        fn cut_off(&self, why: &str) {
            self.inner.cut_off(why);
        }
        fn end(&mut self, why: &RpcError) {
            self.inner.end(why);
        }
        fn wants_keyframe(&mut self, tick: u64) -> bool {
            self.tick = tick;
            tick >= self.next
        }
        fn stalls(&self) -> bool {
            false
        }
    }

    #[test]
    fn a_feed_gets_keyframes_on_its_schedule_and_is_never_cut_off_when_full() {
        let engine = engine();
        falling(&engine);
        let mut l = unbudgeted(&engine);
        let inner = FakeSink::default();
        inner.room.store(true, Ordering::SeqCst);
        let methods = Arc::new(Mutex::new(Vec::new()));
        let feed = FeedLike { inner: inner.clone(), every: 5, tick: 0, next: 0, methods: Arc::clone(&methods) };
        let permit =
            Arc::new(super::super::admission::Admission::default()).admit(&Arc::new(super::super::admission::Load::default()), 0).unwrap();
        let grant = authorize(&mut l, 1, Profile::SystemReadonly).unwrap();
        l.serve(1, Profile::SystemReadonly, Work::Subscribe { sink: Box::new(feed), permit, grant });
        for _ in 0..10 {
            tick(&mut l);
        }
        let sent: Vec<String> = methods.lock().unwrap().clone();
        // The subscription's snapshot, then a message a tick: full states at ticks 5 and 10.
        let snapshots: Vec<usize> = sent.iter().enumerate().filter(|(_, m)| *m == "state/snapshot").map(|(i, _)| i).collect();
        assert_eq!(snapshots.len(), 3, "{sent:?}");
        assert_eq!(sent.len(), 11, "one message per tick after the first: {sent:?}");
        // Full for far longer than a client may stall: skipped, not cut off.
        inner.room.store(false, Ordering::SeqCst);
        for _ in 0..STALL_TICKS + 20 {
            tick(&mut l);
        }
        assert!(inner.cut.lock().unwrap().is_none(), "a feed is never cut off");
        assert_eq!(l.stats.cut_off, 0);
        // Room again: the overdue keyframe goes first.
        inner.room.store(true, Ordering::SeqCst);
        tick(&mut l);
        assert_eq!(methods.lock().unwrap().last().map(String::as_str), Some("state/snapshot"));
    }

    #[test]
    fn a_call_from_a_client_that_left_is_not_run() {
        let engine = engine();
        let mut l = EngineLoop::new(&engine, true, Duration::ZERO);
        let (reply, answer) = tokio::sync::oneshot::channel();
        drop(answer);
        let params = json!({"name": "scene.createEntity", "arguments": {}});
        l.intake(EngineMsg::Work {
            conn: 1,
            granted: Profile::BuilderReadWrite.into(),
            work: Work::Call { method: "tools/call".into(), params, reply, gate: None },
        });
        let (conn, (granted, work)) = l.queue.pop().unwrap();
        l.serve(conn, granted, work);
        assert_eq!(engine.world().entity_count(), 0);
    }

    #[test]
    fn a_closed_connection_takes_its_waiting_calls_with_it() {
        let engine = engine();
        let mut l = EngineLoop::new(&engine, true, Duration::ZERO);
        let mut answers = Vec::new();
        for _ in 0..3 {
            let (reply, answer) = tokio::sync::oneshot::channel();
            answers.push(answer);
            l.intake(EngineMsg::Work {
                conn: 9,
                granted: Profile::BuilderReadWrite.into(),
                work: Work::Call { method: "ping".into(), params: json!({}), reply, gate: None },
            });
        }
        assert_eq!(l.queue.len(), 3);
        l.intake(EngineMsg::Closed { conn: 9 });
        assert!(l.queue.is_empty());
    }
}

#[cfg(test)]
mod heavy_tests {
    //! Heavy calls in flight: the deterministic gate in front of the heavy-work thread holds a
    //! call's second half while the test looks at the clock and the other clients.

    use std::time::Duration;

    use serde_json::{Value, json};
    use tokio::sync::oneshot;

    use super::{Answered, EngineLoop, EngineMsg, Work};
    use crate::host::{Engine, EngineConfig, FramePlan, Output};

    fn engine() -> Engine {
        Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(env!("CARGO_MANIFEST_DIR")) }).unwrap()
    }

    /// Sends a request from `conn`, served at once; its answer arrives on the receiver.
    fn ask(l: &mut EngineLoop<'_>, conn: u64, method: &str, params: Value) -> oneshot::Receiver<Answered> {
        let (reply, answer) = oneshot::channel();
        l.intake(EngineMsg::Work {
            conn,
            granted: crate::policy::Profile::BuilderReadWrite.into(),
            work: Work::Call { method: method.into(), params, reply, gate: None },
        });
        let (conn, (granted, work)) = l.queue.pop().expect("queued");
        l.serve(conn, granted, work);
        answer
    }

    fn initialize(l: &mut EngineLoop<'_>, conn: u64) {
        let mut answer = ask(l, conn, "initialize", json!({"protocolVersion": "2025-11-25"}));
        assert!(answer.try_recv().expect("answered").result.is_ok());
    }

    /// Waits (without a time limit that could fail a slow build) until the loop has answered.
    fn answer_of(l: &mut EngineLoop<'_>, answer: &mut oneshot::Receiver<Answered>) -> Value {
        for _ in 0..600 {
            l.finish_heavy();
            if let Ok(answered) = answer.try_recv() {
                return answered.result.expect("an answer, not an error");
            }
            l.engine.heavy_work().wait_finished(Duration::from_millis(500));
        }
        panic!("the heavy call was never answered");
    }

    fn step(l: &mut EngineLoop<'_>) {
        l.step(FramePlan { steps: 1, alpha: 0.0 });
    }

    fn events(engine: &Engine, kind: &str) -> Vec<Value> {
        let trace = engine.trace();
        trace.since(0).filter_map(Result::ok).filter(|e| &*e.event_type == kind).map(|e| e.payload_value()).collect()
    }

    #[test]
    fn a_playtest_in_flight_holds_neither_the_clock_nor_another_clients_call() {
        let engine = engine();
        let mut l = EngineLoop::new(&engine, true, Duration::ZERO);
        initialize(&mut l, 1);
        initialize(&mut l, 2);
        let hold = engine.heavy_work().hold();
        let called_at = engine.tick();
        let source = "it('sees the live world', function() expect(#limina.call('scene.queryEntities', {}).result.entities).toBe(1) end)";
        assert!(engine.call(engine.script_caller(), "scene.createEntity", json!({})).success);
        let mut playtest = ask(&mut l, 1, "tools/call", json!({"name": "test.run", "arguments": {"source": source}}));
        assert!(playtest.try_recv().is_err(), "the playtest is on the worker, not answered inline");
        // The clock goes on, and another client's call (a write) is answered meanwhile.
        for _ in 0..3 {
            step(&mut l);
        }
        assert_eq!(engine.tick(), called_at + 3, "the world stepped while the playtest was in flight");
        let mut other = ask(&mut l, 2, "tools/call", json!({"name": "scene.createEntity", "arguments": {}}));
        let other = other.try_recv().expect("another client's call is answered while the playtest is held").result.unwrap();
        assert_eq!(other["isError"], json!(false), "{other}");
        l.finish_heavy();
        assert!(playtest.try_recv().is_err(), "still held");
        drop(hold);
        let answer = answer_of(&mut l, &mut playtest);
        assert_eq!(answer["isError"], json!(false), "{answer}");
        let result = &answer["structuredContent"];
        assert_eq!(
            (result["success"].clone(), result["passed"].clone()),
            (json!(true), json!(1)),
            "it ran on the copy taken at the call: {result}"
        );
        // One traced call: decided at call time, executed at the tick it completed on.
        let decided = engine
            .trace()
            .since(0)
            .filter_map(Result::ok)
            .filter(|e| &*e.event_type == "policy.decision")
            .filter(|e| e.payload_value()["skill"] == "test.run")
            .map(|e| e.tick)
            .collect::<Vec<_>>();
        let executed: Vec<Value> = events(&engine, "skill.executed").into_iter().filter(|p| p["skill"] == "test.run").collect();
        assert_eq!(decided, vec![called_at], "decided once, at the call's tick");
        assert_eq!(executed.len(), 1, "{executed:?}");
        assert_eq!(executed[0]["tick"], json!(called_at + 3), "executed at the tick it completed on");
        assert_eq!(engine.heavy_work().in_flight(), 0);
    }

    #[test]
    fn a_client_that_leaves_while_its_heavy_call_waits_leaves_nothing_behind() {
        let engine = engine();
        let mut l = EngineLoop::new(&engine, true, Duration::ZERO);
        initialize(&mut l, 1);
        initialize(&mut l, 2);
        let hold = engine.heavy_work().hold();
        let run = json!({"name": "test.run", "arguments": {"source": "it('x', function() end)"}});
        let first = ask(&mut l, 1, "tools/call", run.clone());
        let second = ask(&mut l, 1, "tools/call", run.clone());
        // The third is past the per-session bound: refused at once, naming it.
        let mut third = ask(&mut l, 1, "tools/call", run.clone());
        let refused = third.try_recv().expect("refused at once").result.unwrap();
        assert_eq!(refused["isError"], json!(true));
        assert!(refused["content"][0]["text"].as_str().unwrap().contains("capacity_exceeded"), "{refused}");
        assert_eq!(engine.heavy_work().in_flight(), 2);
        l.intake(EngineMsg::Closed { conn: 1 });
        drop((first, second));
        drop(hold);
        while engine.heavy_work().in_flight() > 0 {
            engine.heavy_work().wait_finished(Duration::from_millis(500));
            l.finish_heavy();
        }
        assert!(l.waiting.is_empty(), "no answer is kept for a client that left");
        let failed: Vec<Value> = events(&engine, "skill.failed").into_iter().filter(|p| p["skill"] == "test.run").collect();
        assert!(
            failed.iter().filter(|p| p["message"].as_str().unwrap_or("").contains("cancelled before it ran")).count() >= 1,
            "{failed:?}"
        );
        // The place is free again for another client.
        let mut next = ask(&mut l, 2, "tools/call", run);
        assert_eq!(answer_of(&mut l, &mut next)["isError"], json!(false));
    }

    fn engine_in(project: &std::path::Path) -> Engine {
        Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(project) }).unwrap()
    }

    fn call(engine: &Engine, skill: &str, input: Value) -> Value {
        let response = engine.call(engine.script_caller(), skill, input);
        assert!(response.success, "{skill}: {:?}", response.error);
        response.result.unwrap_or(Value::Null)
    }

    #[test]
    fn a_scene_save_in_flight_writes_the_world_of_its_calls_tick_while_the_clock_goes_on() {
        let project = tempfile::tempdir().unwrap();
        let engine = engine_in(project.path());
        let mut l = EngineLoop::new(&engine, true, Duration::ZERO);
        initialize(&mut l, 1);
        initialize(&mut l, 2);
        for x in 0..3 {
            call(&engine, "scene.createEntity", json!({"position": [f64::from(x) * 2.0, 0.5, 0.0]}));
        }
        let hold = engine.heavy_work().hold();
        let mut save = ask(&mut l, 1, "tools/call", json!({"name": "scene.save", "arguments": {"name": "held"}}));
        assert!(save.try_recv().is_err(), "printed and written on the worker");
        let ticked = engine.tick();
        step(&mut l);
        assert_eq!(engine.tick(), ticked + 1, "the world steps while the save is in flight");
        let mut other = ask(&mut l, 2, "tools/call", json!({"name": "scene.createEntity", "arguments": {}}));
        assert_eq!(other.try_recv().expect("answered meanwhile").result.unwrap()["isError"], json!(false));
        drop(hold);
        let answer = answer_of(&mut l, &mut save);
        assert_eq!(answer["isError"], json!(false), "{answer}");
        assert_eq!(answer["structuredContent"]["entities"], json!(3), "the world of the call's tick, not the one after: {answer}");
        let text = std::fs::read_to_string(project.path().join("scenes/held.lua")).unwrap();
        assert_eq!(text.matches("shape = ").count(), 3, "{text}");
    }

    #[test]
    fn a_scene_load_is_read_on_the_worker_and_applied_whole_between_two_steps() {
        let project = tempfile::tempdir().unwrap();
        let engine = engine_in(project.path());
        let mut l = EngineLoop::new(&engine, true, Duration::ZERO);
        initialize(&mut l, 1);
        initialize(&mut l, 2);
        for x in 0..4 {
            call(&engine, "scene.createEntity", json!({"position": [f64::from(x) * 2.0, 0.5, 0.0], "color": 0x00ff00}));
        }
        call(&engine, "scene.save", json!({"name": "four"}));
        call(&engine, "scene.load", json!({"name": "four"}));
        call(&engine, "scene.createEntity", json!({}));
        let before = engine.world().entity_count();
        assert_eq!(before, 5);
        let hold = engine.heavy_work().hold();
        let called_at = engine.tick();
        let mut load = ask(&mut l, 1, "tools/call", json!({"name": "scene.load", "arguments": {"name": "four"}}));
        assert!(load.try_recv().is_err(), "read and checked on the worker");
        for _ in 0..3 {
            step(&mut l);
        }
        assert_eq!(engine.world().entity_count(), before, "nothing of the load shows before it is applied");
        let mut other = ask(&mut l, 2, "tools/call", json!({"name": "scene.queryEntities", "arguments": {}}));
        let seen = other.try_recv().expect("answered meanwhile").result.unwrap();
        assert_eq!(seen["structuredContent"]["entities"].as_array().map(Vec::len), Some(before), "{seen}");
        drop(hold);
        let answer = answer_of(&mut l, &mut load);
        assert_eq!(answer["isError"], json!(false), "{answer}");
        assert_eq!(
            (answer["structuredContent"]["entities"].clone(), answer["structuredContent"]["destroyed"].clone()),
            (json!(4), json!(5))
        );
        assert_eq!(engine.world().entity_count(), 4);
        // Every change was made at the tick the load completed on, through traced calls.
        let applied_at = engine.tick();
        assert_eq!(applied_at, called_at + 3);
        let creates: Vec<Value> = events(&engine, "skill.executed")
            .into_iter()
            .filter(|p| p["skill"] == "scene.createEntity" && p["tick"] == json!(applied_at))
            .collect();
        assert_eq!(creates.len(), 4, "the scene's entities are created at the completion tick");
    }

    #[test]
    fn a_clients_calls_after_its_scene_load_wait_for_it_and_others_do_not() {
        let project = tempfile::tempdir().unwrap();
        let engine = engine_in(project.path());
        let mut l = EngineLoop::new(&engine, true, Duration::ZERO);
        initialize(&mut l, 1);
        initialize(&mut l, 2);
        call(&engine, "scene.createEntity", json!({}));
        call(&engine, "scene.save", json!({"name": "one"}));
        let hold = engine.heavy_work().hold();
        let mut load = ask(&mut l, 1, "tools/call", json!({"name": "scene.load", "arguments": {"name": "one"}}));
        let queue = |l: &mut EngineLoop<'_>, conn: u64| {
            let (reply, answer) = oneshot::channel();
            let params = json!({"name": "scene.createEntity", "arguments": {"position": [5.0, 0.5, 0.0]}});
            l.intake(EngineMsg::Work {
                conn,
                granted: crate::policy::Profile::BuilderReadWrite.into(),
                work: Work::Call { method: "tools/call".into(), params, reply, gate: None },
            });
            answer
        };
        let mut after = queue(&mut l, 1);
        let mut others = queue(&mut l, 2);
        // Run the loop's own choice of what to serve, as `run` does, a few times over.
        for _ in 0..4 {
            if let Some((conn, (profile, work))) = l.next_call() {
                l.serve(conn, profile, work);
            }
        }
        assert!(others.try_recv().is_ok(), "another client is served while the load is on the worker");
        assert!(after.try_recv().is_err(), "the loading client's next call waits for its load");
        drop(hold);
        answer_of(&mut l, &mut load);
        let (conn, (profile, work)) = l.next_call().expect("its call is served now");
        l.serve(conn, profile, work);
        assert_eq!(after.try_recv().expect("answered after the load").result.unwrap()["isError"], json!(false));
        // Applied after the load, in the order sent: the load's entity and this one are live.
        assert_eq!(engine.world().entity_count(), 2);
    }

    #[test]
    fn a_scene_that_does_not_check_out_fails_its_deferred_load_with_nothing_changed() {
        let project = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(project.path().join("scenes")).unwrap();
        std::fs::write(project.path().join("scenes/bad.lua"), "return { format = 1, entities = { { shape = 'box', size = -1 } } }")
            .unwrap();
        let engine = engine_in(project.path());
        let mut l = EngineLoop::new(&engine, true, Duration::ZERO);
        initialize(&mut l, 1);
        call(&engine, "scene.createEntity", json!({}));
        let mut load = ask(&mut l, 1, "tools/call", json!({"name": "scene.load", "arguments": {"name": "bad"}}));
        let answer = answer_of(&mut l, &mut load);
        assert_eq!(answer["isError"], json!(true), "{answer}");
        let text = answer["content"][0]["text"].as_str().unwrap();
        assert!(text.contains("invalid_input") && text.contains("scenes/bad.lua"), "{text}");
        assert_eq!(engine.world().entity_count(), 1, "the world is as it was");
        assert_eq!(engine.heavy_work().in_flight(), 0);
    }

    #[cfg(feature = "render")]
    #[test]
    fn a_deferred_capture_shows_the_world_at_its_calls_tick() {
        use base64::Engine as _;
        let engine = engine();
        let mut l = EngineLoop::new(&engine, true, Duration::ZERO);
        initialize(&mut l, 1);
        let spec = json!({"shape": "sphere", "dynamic": true, "position": [0.0, 2.0, 0.0], "size": 1.0});
        assert!(engine.call(engine.script_caller(), "scene.createEntity", spec).success);
        let before = match engine.capture_png(64, 48) {
            Ok(png) => png,
            Err(e) if !std::path::Path::new("/usr/share/vulkan/icd.d/lvp_icd.x86_64.json").exists() => {
                eprintln!("skipping: {e}");
                return;
            }
            Err(e) => panic!("rendering failed on a machine with a Vulkan driver: {e}"),
        };
        let hold = engine.heavy_work().hold();
        let mut capture = ask(&mut l, 1, "tools/call", json!({"name": "render.capture", "arguments": {"width": 64, "height": 48}}));
        assert!(capture.try_recv().is_err(), "drawn on the worker");
        for _ in 0..30 {
            step(&mut l);
        }
        drop(hold);
        let answer = answer_of(&mut l, &mut capture);
        assert_eq!(answer["content"][0]["type"], json!("image"), "{answer}");
        let png = base64::engine::general_purpose::STANDARD.decode(answer["content"][0]["data"].as_str().unwrap()).unwrap();
        assert!(png == before, "the picture is of the world when the call was made");
        assert!(engine.capture_png(64, 48).unwrap() != before, "the sphere fell meanwhile");
    }
}
