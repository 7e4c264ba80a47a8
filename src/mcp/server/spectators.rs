//! Spectators through NATS, the engine's side: with `--nats`, each world publishes its state
//! stream on `limina.world.{world}.delta` and its trace events on `limina.world.{world}.trace`
//! (`crate::nats::SpectatorFeed` owns the subjects, the queue and the publishing task).
//!
//! The state feed is one more subscriber of the engine loop (`StateSink`), reading as an internal
//! read-only caller (`reader`) that the read door must allow, like any client's stream: its
//! deltas are the ones computed and encoded once for every subscriber, not a second path. It
//! differs from a client's in two ways the `DeltaSink` trait lets it ask for: a full state every
//! `KEYFRAME_TICKS` (late joiners on NATS can start there), and a full queue is skipped but never
//! cut off (NATS is down or slow; nobody there stalled). The trace feed (`Spectators`) sends the
//! events since the last one at most once per tick, bounded by `MAX_TRACE_BYTES`; what it leaves
//! out is named by a gap line. Nothing here waits: a full queue costs the engine nothing but a
//! count, and the state's baseline stays put, so the next delta carries what was skipped.

use std::io::Write as _;
use std::sync::Arc;

use serde_json::{Value, json};

use super::engine_loop::{DeltaSink, Encoded, Undelivered};
use crate::host::Engine;
use crate::mcp::dispatcher::RpcError;
use crate::nats::{JetStream, Kind, MAX_TRACE_BYTES, Refused, SpectatorFeed};
use crate::skills::Caller;

/// The engine loop's connection number for the state feed (transports count up from 1).
pub(super) const CONN: u64 = u64::MAX;
/// Ticks between two full states on the feed (5 s of world time).
pub(crate) const KEYFRAME_TICKS: u64 = 300;

/// Whom the state feed reads as: a read-only caller of its own, so the trace and
/// `policy.revoke {sessionId: "ses_spectators"}` name it.
pub(super) fn reader() -> Caller {
    Caller::with_profile("agt_spectators", "ses_spectators", crate::policy::Profile::SystemReadonly)
}

/// A world's feeds, and the trace feed's place in the trace.
pub(crate) struct Spectators {
    feed: Arc<SpectatorFeed>,
    /// The seq of the last event sent (or passed over in a gap line).
    cursor: u64,
    /// The tick of the last trace message (one per tick at most while the world runs).
    sent_at: Option<u64>,
}

/// The feeds of a world served with `--nats` (None without, or if they cannot start: the world
/// serves either way).
pub(super) fn for_world(nats: Option<&JetStream>, world: &super::WorldName, engine: &Engine) -> Option<Spectators> {
    let js = nats?;
    match Spectators::start(js, world.as_str(), engine.trace().last_seq()) {
        Ok(spectators) => Some(spectators),
        Err(e) => {
            tracing::warn!("world '{world}': no spectator feeds on NATS: {e}");
            None
        }
    }
}

impl Spectators {
    /// Starts `world`'s feeds on `js`'s connection; the trace feed starts after `cursor` (the
    /// events emitted from now on: a world's past is in its exported trace).
    pub fn start(js: &JetStream, world: &str, cursor: u64) -> Result<Spectators, crate::nats::NatsError> {
        Ok(Spectators { feed: Arc::new(SpectatorFeed::start(js, world)?), cursor, sent_at: None })
    }

    pub(super) fn state_sink(&self) -> StateSink {
        StateSink { feed: Arc::clone(&self.feed), tick: 0, keyframe_at: 0 }
    }

    /// Sends the trace events since the last message, as JSON lines, once per tick at most (and
    /// once per run of calls while the world is paused). A full queue sends nothing and keeps the
    /// cursor; events the message cannot hold (more than `MAX_TRACE_BYTES`, or no longer in
    /// memory) are named by a gap line instead.
    pub(super) fn publish_trace(&mut self, engine: &Engine) {
        let tick = engine.tick();
        if self.sent_at == Some(tick) && !engine.paused() {
            return;
        }
        let trace = engine.trace();
        let last = trace.last_seq();
        if last <= self.cursor || !self.feed.has_room() {
            return;
        }
        self.sent_at = Some(tick);
        let (body, sent_to) = trace_lines(&trace, self.cursor, MAX_TRACE_BYTES);
        drop(trace);
        match self.feed.offer(Kind::Events, tick, body) {
            // Too large to send can only be a single event past the queue's bound: passed over.
            Ok(()) | Err(Refused::Oversized) => self.cursor = sent_to,
            Err(Refused::Full) => {}
        }
    }
}

/// The events after `cursor` as JSON lines, within about `budget` bytes, with gap lines for
/// what is left out; and the seq the lines reach. Reads memory only (events already spilled
/// to disk are named by a gap line, never read back on the engine thread).
fn trace_lines(trace: &crate::trace::TraceLog, cursor: u64, budget: usize) -> (Vec<u8>, u64) {
    let last = trace.last_seq();
    let first_held = last + 1 - trace.resident_len() as u64;
    let mut body = Vec::new();
    let mut from = cursor + 1;
    if from < first_held {
        gap_line(&mut body, from, first_held - 1, "no longer held in memory (the feed fell behind)");
        from = first_held;
    }
    for event in trace.since(from - 1) {
        let Ok(event) = event else { break };
        let start = body.len();
        // Writing into a Vec cannot fail; an event that did would be left out whole.
        if serde_json::to_writer(&mut body, &*event).is_err() {
            body.truncate(start);
            continue;
        }
        body.push(b'\n');
        if body.len() > budget && start > 0 {
            body.truncate(start);
            gap_line(&mut body, event.seq, last, &format!("more than {budget} bytes of events since the last message"));
            break;
        }
    }
    (body, last)
}

fn gap_line(body: &mut Vec<u8>, from: u64, to: u64, why: &str) {
    let line = json!({"gap": {"fromSeq": from, "toSeq": to, "reason": why}});
    let _ = writeln!(body, "{line}");
}

/// The state feed's end in the engine loop: every message as the JSON-RPC notification a
/// WebSocket subscriber is sent, queued for NATS.
pub(super) struct StateSink {
    feed: Arc<SpectatorFeed>,
    /// The tick of the publish whose message is being sent.
    tick: u64,
    /// The tick from which the next full state is due.
    keyframe_at: u64,
}

/// Whether a state message is a full state: `state/snapshot`, or the snapshot a `state/delta`
/// carries when the journal no longer covers the subscriber (keys are written sorted, so a
/// snapshot's `agents` list comes first; a delta's `agents`, if any, is an object).
fn is_full_state(message: &Encoded) -> bool {
    message.method == "state/snapshot" || message.params.get().starts_with("{\"agents\":[")
}

impl DeltaSink for StateSink {
    fn has_room(&self) -> bool {
        self.feed.has_room()
    }

    fn is_closed(&self) -> bool {
        false
    }

    fn send(&mut self, message: &Encoded) -> Result<(), Undelivered> {
        let method = Value::from(message.method.as_str());
        let mut body = Vec::with_capacity(message.len() + 48);
        let _ = write!(body, "{{\"jsonrpc\":\"2.0\",\"method\":{method},\"params\":{}}}", message.params.get());
        let full = is_full_state(message);
        let kind = if full { Kind::Keyframe } else { Kind::Delta };
        match self.feed.offer(kind, self.tick, body) {
            Ok(()) => {
                if full {
                    self.keyframe_at = self.tick + KEYFRAME_TICKS;
                }
                Ok(())
            }
            // Never sendable (counted, and numbered so consumers see it missing): taken as sent,
            // so the engine does not build it again at every publish; the next keyframe is
            // tried at its time.
            Err(Refused::Oversized) => {
                if full {
                    self.keyframe_at = self.tick + KEYFRAME_TICKS;
                }
                Ok(())
            }
            Err(Refused::Full) => Err(Undelivered::Full),
        }
    }

    fn cut_off(&self, why: &str) {
        tracing::warn!("the NATS state feed was cut off: {why}");
    }

    fn end(&mut self, why: &RpcError) {
        tracing::warn!("the NATS state feed ended: {}", why.message);
    }

    fn wants_keyframe(&mut self, tick: u64) -> bool {
        self.tick = tick;
        tick >= self.keyframe_at
    }

    fn stalls(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::{EngineConfig, Output};
    use crate::mcp::sync::{Baseline, Frame};

    fn engine() -> Engine {
        Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(env!("CARGO_MANIFEST_DIR")) }).unwrap()
    }

    #[test]
    fn snapshots_are_told_from_deltas_by_their_first_key() {
        let engine = engine();
        assert!(engine.call(engine.script_caller(), "scene.createEntity", json!({})).success);
        let world = engine.world();
        let frame = Frame::new(&world, Vec::new(), 1);
        let mut baseline = Baseline::new(None);
        let snapshot = baseline.snapshot(&frame);
        assert!(is_full_state(&Encoded::new("state/delta", &snapshot.message)), "a resync snapshot sent as state/delta");
        assert!(is_full_state(&Encoded::new("state/snapshot", &snapshot.message)));
        baseline.delivered(snapshot);
        drop(frame);
        drop(world);
        assert!(engine.call(engine.script_caller(), "scene.createEntity", json!({})).success);
        let world = engine.world();
        let frame = Frame::new(&world, Vec::new(), 2);
        let delta = baseline.diff(&frame).message.expect("an entity was made");
        assert_eq!(delta["kind"], "delta");
        assert!(!is_full_state(&Encoded::new("state/delta", &delta)));
    }

    #[test]
    fn trace_lines_stop_at_the_budget_with_a_gap_line() {
        let engine = engine();
        for _ in 0..20 {
            assert!(engine.call(engine.script_caller(), "scene.createEntity", json!({})).success);
        }
        let trace = engine.trace();
        let (body, to) = trace_lines(&trace, 0, usize::MAX);
        assert_eq!(to, trace.last_seq());
        let lines: Vec<Value> = body.split(|b| *b == b'\n').filter(|l| !l.is_empty()).map(|l| serde_json::from_slice(l).unwrap()).collect();
        assert_eq!(lines.len() as u64, trace.last_seq(), "every event, one per line");
        assert_eq!(lines[0]["seq"], 1);
        let (small, to) = trace_lines(&trace, 0, 2000);
        assert_eq!(to, trace.last_seq(), "the cursor passes what the gap names");
        let text = String::from_utf8(small).unwrap();
        assert!(text.len() < 2000 + 200, "{}", text.len());
        let gap: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
        assert_eq!(gap["gap"]["toSeq"], trace.last_seq());
        assert!(gap["gap"]["reason"].as_str().unwrap().contains("more than 2000 bytes"), "{gap}");
        let first_left_out = gap["gap"]["fromSeq"].as_u64().unwrap();
        assert_eq!(text.lines().count() as u64, first_left_out, "the events before the gap, then the gap line");
    }
}
