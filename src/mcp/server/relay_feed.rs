//! What a viewer relay (`limina spectate … --http`) holds of a world's feeds from NATS: the
//! state messages since the newest keyframe, which a viewer that joins replays to reach the
//! present, and the last trace events, which answer its trace panel.
//!
//! The state feed is a window of SSE events numbered from the relay's start. Every viewer holds
//! only a `Cursor` into it; nothing is queued per viewer, so a thousand viewers cost a thousand
//! numbers. A viewer reads from its cursor to the end of the window; one that joins, or fell
//! behind what the window still holds, starts again at the keyframe the window begins with (a
//! keyframe replaces the state whole, so the deltas it skipped are superseded, not lost). When
//! the window does not begin with a keyframe (it was trimmed, or a message went missing), such a
//! viewer waits for the next one: at most `KEYFRAME_TICKS` of world time. A missing message (a
//! gap in `Limina-Seq`) means the deltas after it cannot be applied: every viewer waits for the
//! next keyframe.
//!
//! Every message is checked before it is held: a state message must be one compact JSON-RPC
//! notification (`state/snapshot` or `state/delta` with object params, no line breaks, so it
//! cannot split the event stream it is copied into); a trace line must be a JSON object with a
//! `seq`. Anything else is counted and dropped. The window is bounded (`MAX_WINDOW_MESSAGES`,
//! `MAX_WINDOW_BYTES`), and so is the trace (`MAX_TRACE_EVENTS`, `MAX_TRACE_BYTES`).

use std::collections::VecDeque;
use std::sync::Mutex;

use bytes::Bytes;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};

use crate::nats::{Feed, Spectated};

/// State messages the window holds (a keyframe every 300 ticks and at most one delta per tick
/// keep it near 300).
pub(super) const MAX_WINDOW_MESSAGES: usize = 1024;
/// Bytes of state messages the window holds.
pub(super) const MAX_WINDOW_BYTES: usize = 64 << 20;
/// Trace events held for the trace panel.
pub(super) const MAX_TRACE_EVENTS: usize = 1000;
/// Bytes of trace events held.
pub(super) const MAX_TRACE_BYTES: usize = 8 << 20;
/// One trace event larger than this is dropped (counted).
pub(super) const MAX_TRACE_EVENT_BYTES: usize = 64 << 10;
/// Events one `trace.tail` answer carries, at most.
pub(super) const MAX_TAIL: usize = 1000;
/// Bytes of events one `trace.tail` answer carries, at most (one event always fits): what a
/// client that does not read its answers can hold per connection.
pub(super) const MAX_TAIL_BYTES: usize = 256 << 10;
/// The largest `seq` a trace event may carry: the page counts in JavaScript numbers, exact to
/// 2^53 - 1 (a larger one could never be asked for again).
pub(super) const MAX_SEQ: u64 = (1 << 53) - 1;

/// Why a message from NATS was dropped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(super) enum Dropped {
    #[error("the state message is not a compact JSON-RPC state/snapshot or state/delta notification: {0}")]
    NotState(String),
    #[error("a trace line is not a JSON object with a numeric seq: {0}")]
    NotEvent(String),
    #[error("a trace event of {0} bytes is over the {MAX_TRACE_EVENT_BYTES}-byte limit")]
    EventTooLarge(usize),
}

/// A `trace.tail` result: its JSON (`{"events":[…],"nextAfterSeq":…}`), how many events it
/// holds and the seq of the last.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Tail {
    pub json: String,
    pub count: usize,
    pub next: Option<u64>,
}

/// A viewer's place in the state feed: None until it has started at a keyframe.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) struct Cursor(Option<u64>);

/// Counts for `/health` and tests.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct FeedCounts {
    pub state_messages: u64,
    pub keyframes: u64,
    /// Times the state feed lost continuity (a sequence gap): viewers waited for a keyframe.
    pub gaps: u64,
    pub trace_events: u64,
    /// Messages and lines dropped as not what the feed carries.
    pub invalid: u64,
}

/// The relay's copy of a world's feeds, shared by the NATS reader and every viewer.
pub(super) struct RelayFeed {
    inner: Mutex<Inner>,
    /// Bumped on every change of the state window: viewers wait on it.
    changed: tokio::sync::watch::Sender<u64>,
}

#[derive(Default)]
struct Inner {
    /// SSE events (`event: message\ndata: …\n\n`), the first numbered `base`.
    window: VecDeque<Bytes>,
    base: u64,
    bytes: usize,
    /// The window's first event is a keyframe: a viewer may start there.
    starts_with_keyframe: bool,
    /// The tick of that keyframe.
    keyframe_tick: Option<u64>,
    /// The tick of the newest state message.
    tick: Option<u64>,
    /// `Limina-Seq` of the last state message held.
    last_seq: Option<u64>,
    trace: VecDeque<(u64, Bytes)>,
    trace_bytes: usize,
    counts: FeedCounts,
}

impl Inner {
    fn end(&self) -> u64 {
        self.base + self.window.len() as u64
    }

    /// Empties the window so that nobody reads on from where they are: the next keyframe
    /// starts everyone again.
    fn break_continuity(&mut self) {
        self.base = self.end() + 1;
        self.window.clear();
        self.bytes = 0;
        self.starts_with_keyframe = false;
        self.keyframe_tick = None;
    }

    fn trim(&mut self) {
        while self.window.len() > MAX_WINDOW_MESSAGES || (self.bytes > MAX_WINDOW_BYTES && self.window.len() > 1) {
            let Some(first) = self.window.pop_front() else { break };
            self.bytes -= first.len();
            self.base += 1;
            self.starts_with_keyframe = false;
            self.keyframe_tick = None;
        }
    }
}

/// A state message's shape, checked without building its params.
#[derive(Deserialize)]
struct Notification<'a> {
    jsonrpc: &'a str,
    method: &'a str,
    #[serde(borrow)]
    params: &'a RawValue,
}

/// The one field of a state message's params that says whether it is a full state.
#[derive(Deserialize)]
struct StateKind<'a> {
    #[serde(borrow)]
    kind: Option<std::borrow::Cow<'a, str>>,
}

/// A checked state message: its SSE event, and whether it is a full state.
struct StateEvent {
    event: Bytes,
    full: bool,
}

/// The SSE event carrying `body`, if it is a state notification the viewer can read as is, and
/// whether it is a full state as the viewer tells one (`state/snapshot`, or `params.kind`
/// `snapshot`): judged by what the viewer will read, not by the `Limina-Kind` header, so a delta
/// labelled a keyframe never becomes where viewers start.
fn state_event(body: &[u8]) -> Result<StateEvent, Dropped> {
    if body.iter().any(|b| *b == b'\n' || *b == b'\r') {
        return Err(Dropped::NotState("it holds a line break".into()));
    }
    let note: Notification<'_> = serde_json::from_slice(body).map_err(|e| Dropped::NotState(e.to_string()))?;
    if note.jsonrpc != "2.0" || !matches!(note.method, "state/snapshot" | "state/delta") {
        return Err(Dropped::NotState(format!("method '{}'", crate::clip::shown(note.method))));
    }
    if !note.params.get().starts_with('{') {
        return Err(Dropped::NotState("its params are not an object".into()));
    }
    let kind: StateKind<'_> = serde_json::from_str(note.params.get()).map_err(|e| Dropped::NotState(e.to_string()))?;
    let full = note.method == "state/snapshot" || kind.kind.as_deref() == Some("snapshot");
    let mut event = Vec::with_capacity(body.len() + 24);
    event.extend_from_slice(b"event: message\ndata: ");
    event.extend_from_slice(body);
    event.extend_from_slice(b"\n\n");
    Ok(StateEvent { event: Bytes::from(event), full })
}

#[derive(Deserialize)]
struct EventSeq {
    seq: u64,
}

impl RelayFeed {
    pub fn new() -> Self {
        Self { inner: Mutex::new(Inner::default()), changed: tokio::sync::watch::Sender::new(0) }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Takes one whole message from NATS; what is dropped says why (the caller logs it).
    pub fn offer(&self, message: &Spectated) -> Vec<Dropped> {
        match message.feed {
            Feed::State => self.offer_state(message).err().into_iter().collect(),
            Feed::Trace => self.offer_trace(&message.body),
        }
    }

    fn offer_state(&self, message: &Spectated) -> Result<(), Dropped> {
        let checked = state_event(&message.body);
        let mut s = self.lock();
        let StateEvent { event, full } = match checked {
            Ok(checked) => checked,
            Err(why) => {
                s.counts.invalid += 1;
                return Err(why);
            }
        };
        s.counts.state_messages += 1;
        // Continuity is judged on the messages held: one numbered out of turn (missing ones
        // between, or a publisher that started again) breaks it.
        let in_turn = s.last_seq.is_some_and(|last| message.seq == last.wrapping_add(1));
        if !in_turn && s.last_seq.is_some() {
            s.counts.gaps += 1;
        }
        s.last_seq = Some(message.seq);
        s.tick = Some(message.tick);
        if full {
            s.counts.keyframes += 1;
            let at = s.end();
            s.window.clear();
            s.base = at;
            s.bytes = event.len();
            s.window.push_back(event);
            s.starts_with_keyframe = true;
            s.keyframe_tick = Some(message.tick);
        } else if !in_turn {
            // This delta applies to a state nobody here has: dropped with what went before.
            s.break_continuity();
        } else {
            s.bytes += event.len();
            s.window.push_back(event);
            s.trim();
        }
        drop(s);
        self.changed.send_modify(|n| *n = n.wrapping_add(1));
        Ok(())
    }

    fn offer_trace(&self, body: &[u8]) -> Vec<Dropped> {
        let mut dropped = Vec::new();
        let mut s = self.lock();
        for line in body.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
            let checked = if line.len() > MAX_TRACE_EVENT_BYTES {
                Err(Dropped::EventTooLarge(line.len()))
            } else {
                match serde_json::from_slice::<Value>(line) {
                    // A gap line says what the publisher left out; the panel has no use for it.
                    Ok(Value::Object(fields)) if fields.contains_key("gap") => continue,
                    Ok(event @ Value::Object(_)) => match serde_json::from_value::<EventSeq>(event) {
                        Ok(EventSeq { seq }) if seq <= MAX_SEQ => Ok(seq),
                        Ok(EventSeq { seq }) => Err(Dropped::NotEvent(format!("seq {seq} is over {MAX_SEQ}"))),
                        Err(e) => Err(Dropped::NotEvent(e.to_string())),
                    },
                    Ok(_) => Err(Dropped::NotEvent("not an object".into())),
                    Err(e) => Err(Dropped::NotEvent(e.to_string())),
                }
            };
            let seq = match checked {
                Ok(seq) => seq,
                Err(why) => {
                    s.counts.invalid += 1;
                    dropped.push(why);
                    continue;
                }
            };
            // Numbered before what is held: another history (the world started again).
            if s.trace.back().is_some_and(|(last, _)| seq <= *last) {
                s.trace.clear();
                s.trace_bytes = 0;
            }
            s.counts.trace_events += 1;
            s.trace_bytes += line.len();
            s.trace.push_back((seq, Bytes::copy_from_slice(line)));
            while s.trace.len() > MAX_TRACE_EVENTS || s.trace_bytes > MAX_TRACE_BYTES {
                let Some((_, first)) = s.trace.pop_front() else { break };
                s.trace_bytes -= first.len();
            }
        }
        dropped
    }

    /// The state events for a viewer at `cursor`, which moves past them: from the cursor to the
    /// end of the window, or the window whole from its keyframe for a viewer that has none or
    /// fell behind it; nothing when it must wait for a keyframe.
    pub fn read(&self, cursor: &mut Cursor) -> Vec<Bytes> {
        let s = self.lock();
        let from = match cursor.0 {
            Some(at) if at >= s.base => at,
            _ if s.starts_with_keyframe => s.base,
            _ => {
                cursor.0 = None;
                return Vec::new();
            }
        };
        cursor.0 = Some(s.end());
        s.window.range((from - s.base) as usize..).cloned().collect()
    }

    /// Wakes when the state window changes (mark it seen before `read`, then wait).
    pub fn watch(&self) -> tokio::sync::watch::Receiver<u64> {
        self.changed.subscribe()
    }

    /// `trace.tail`'s result from the events held: those numbered after `after`, at most
    /// `limit` and `MAX_TAIL_BYTES` of them (a client pages on with `nextAfterSeq`), as the
    /// world's own `trace.tail` answers (`events`, `nextAfterSeq`). The events go out as they
    /// came, byte for byte: parsed and written again, a number like `1e15` would grow fourfold
    /// past the bound.
    pub fn tail(&self, after: i64, limit: usize) -> Tail {
        let s = self.lock();
        let mut json = String::from("{\"events\":[");
        let (mut count, mut next) = (0, None);
        for (seq, line) in s.trace.iter().filter(|(seq, _)| (*seq as i128) > after as i128).take(limit.min(MAX_TAIL)) {
            if count > 0 && json.len() + line.len() > MAX_TAIL_BYTES {
                break;
            }
            if count > 0 {
                json.push(',');
            }
            // Checked as one JSON object (so UTF-8) when it was taken.
            json.push_str(std::str::from_utf8(line).unwrap_or("null"));
            count += 1;
            next = Some(*seq);
        }
        json.push_str("],\"nextAfterSeq\":");
        json.push_str(&next.map_or_else(|| "null".to_string(), |n| n.to_string()));
        json.push('}');
        Tail { json, count, next }
    }

    #[cfg(test)]
    fn counts(&self) -> FeedCounts {
        self.lock().counts
    }

    /// What `/health` says of the state feed.
    pub fn status(&self) -> Value {
        let s = self.lock();
        json!({
            "tick": s.tick,
            "keyframeTick": s.keyframe_tick,
            "joinable": s.starts_with_keyframe,
            "windowMessages": s.window.len(),
            "windowBytes": s.bytes,
            "traceEvents": s.trace.len(),
            "counts": s.counts,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nats::Kind;

    fn state(kind: Kind, seq: u64, tick: u64) -> Spectated {
        let method = if kind == Kind::Keyframe { "state/snapshot" } else { "state/delta" };
        let body = json!({"jsonrpc": "2.0", "method": method, "params": {"tick": tick}}).to_string().into_bytes();
        Spectated { feed: Feed::State, kind, tick, seq, missed: 0, body }
    }

    fn ticks(events: &[Bytes]) -> Vec<u64> {
        events
            .iter()
            .map(|e| {
                let text = std::str::from_utf8(e).unwrap();
                let data = text.strip_prefix("event: message\ndata: ").unwrap().strip_suffix("\n\n").unwrap();
                serde_json::from_str::<Value>(data).unwrap()["params"]["tick"].as_u64().unwrap()
            })
            .collect()
    }

    #[test]
    fn a_viewer_starts_at_the_keyframe_and_reads_on_from_its_cursor() {
        let feed = RelayFeed::new();
        let mut early = Cursor::default();
        assert!(feed.offer(&state(Kind::Delta, 1, 1)).is_empty());
        assert!(feed.read(&mut early).is_empty(), "no keyframe yet: wait");
        feed.offer(&state(Kind::Keyframe, 2, 2));
        feed.offer(&state(Kind::Delta, 3, 3));
        assert_eq!(ticks(&feed.read(&mut early)), [2, 3]);
        feed.offer(&state(Kind::Delta, 4, 4));
        let mut late = Cursor::default();
        assert_eq!(ticks(&feed.read(&mut late)), [2, 3, 4], "a newcomer replays from the keyframe");
        assert_eq!(ticks(&feed.read(&mut early)), [4], "a viewer reads on from where it was");
        assert!(feed.read(&mut early).is_empty());
        // A new keyframe: everyone gets it (it replaces the delta of its tick).
        feed.offer(&state(Kind::Keyframe, 5, 5));
        assert_eq!(ticks(&feed.read(&mut early)), [5]);
        assert_eq!(ticks(&feed.read(&mut late)), [5]);
    }

    #[test]
    fn a_gap_makes_every_viewer_wait_for_the_next_keyframe() {
        let feed = RelayFeed::new();
        let mut viewer = Cursor::default();
        feed.offer(&state(Kind::Keyframe, 1, 1));
        feed.offer(&state(Kind::Delta, 2, 2));
        assert_eq!(ticks(&feed.read(&mut viewer)), [1, 2]);
        feed.offer(&state(Kind::Delta, 4, 4));
        feed.offer(&state(Kind::Delta, 5, 5));
        assert!(feed.read(&mut viewer).is_empty(), "seq 3 is missing: deltas 4 and 5 apply to a state nobody has");
        assert!(feed.read(&mut Cursor::default()).is_empty(), "nor may a newcomer start");
        feed.offer(&state(Kind::Keyframe, 6, 6));
        assert_eq!(ticks(&feed.read(&mut viewer)), [6]);
        assert_eq!(feed.counts().gaps, 1);
        // A publisher that starts again (a new owner after failover) starts with a keyframe.
        feed.offer(&state(Kind::Keyframe, 1, 90));
        feed.offer(&state(Kind::Delta, 2, 91));
        assert_eq!(ticks(&feed.read(&mut viewer)), [90, 91]);
        // A delta numbered before the last one held is out of turn too.
        feed.offer(&state(Kind::Delta, 2, 92));
        assert!(feed.read(&mut viewer).is_empty());
    }

    #[test]
    fn a_viewer_behind_a_trimmed_window_waits_and_one_that_kept_up_reads_on() {
        let feed = RelayFeed::new();
        let mut kept_up = Cursor::default();
        let mut behind = Cursor::default();
        feed.offer(&state(Kind::Keyframe, 1, 1));
        assert_eq!(feed.read(&mut behind).len(), 1);
        for seq in 2..=(MAX_WINDOW_MESSAGES as u64 + 10) {
            feed.offer(&state(Kind::Delta, seq, seq));
            feed.read(&mut kept_up);
        }
        assert_eq!(feed.lock().window.len(), MAX_WINDOW_MESSAGES, "the window is bounded");
        assert!(feed.read(&mut behind).is_empty(), "what it missed is gone and no keyframe is held");
        assert_eq!(behind, Cursor(None));
        feed.offer(&state(Kind::Delta, MAX_WINDOW_MESSAGES as u64 + 11, 9999));
        assert_eq!(ticks(&feed.read(&mut kept_up)), [9999]);
        assert_eq!(feed.counts().gaps, 0);
    }

    #[test]
    fn hostile_state_messages_are_dropped_and_counted() {
        let feed = RelayFeed::new();
        let mut viewer = Cursor::default();
        feed.offer(&state(Kind::Keyframe, 1, 1));
        let bad: [&[u8]; 7] = [
            b"not json",
            b"{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{}}",
            b"{\"jsonrpc\":\"2.0\",\"method\":\"state/delta\",\"params\":[1]}",
            b"{\"jsonrpc\":\"1.0\",\"method\":\"state/delta\",\"params\":{}}",
            // Valid JSON, but a line break would end the event early and forge another.
            b"{\"jsonrpc\":\"2.0\",\"method\":\"state/delta\",\"params\":{}\n}",
            b"{\"jsonrpc\":\"2.0\",\"method\":\"state/delta\",\"params\":{},\"x\":\"\r\ndata: {}\"}",
            b"",
        ];
        for (i, body) in bad.iter().enumerate() {
            let message = Spectated { feed: Feed::State, kind: Kind::Delta, tick: 2, seq: 2, missed: 0, body: body.to_vec() };
            let dropped = feed.offer(&message);
            assert!(matches!(dropped.as_slice(), [Dropped::NotState(_)]), "{i}: {dropped:?}");
        }
        assert_eq!(feed.counts().invalid, bad.len() as u64);
        // Dropped whole: the real message numbered 2 still follows on.
        feed.offer(&state(Kind::Delta, 2, 2));
        assert_eq!(ticks(&feed.read(&mut viewer)), [1, 2]);
        assert_eq!(feed.counts().gaps, 0);
    }

    #[test]
    fn a_viewer_starts_at_what_the_viewer_reads_as_a_full_state_whatever_the_header_says() {
        let feed = RelayFeed::new();
        let labelled =
            |kind, seq, body: Value| Spectated { feed: Feed::State, kind, tick: seq, seq, missed: 0, body: body.to_string().into_bytes() };
        // A delta labelled a keyframe is a delta: nobody may start there.
        let delta = json!({"jsonrpc": "2.0", "method": "state/delta", "params": {"kind": "delta", "tick": 1}});
        feed.offer(&labelled(Kind::Keyframe, 1, delta));
        assert!(feed.read(&mut Cursor::default()).is_empty());
        // A resync snapshot sent as state/delta (as the server marks one) is a full state.
        let resync = json!({"jsonrpc": "2.0", "method": "state/delta", "params": {"kind": "snapshot", "tick": 2}});
        feed.offer(&labelled(Kind::Delta, 2, resync));
        assert_eq!(ticks(&feed.read(&mut Cursor::default())), [2]);
        assert_eq!(feed.counts().keyframes, 1);
    }

    #[test]
    fn trace_tail_answers_are_bounded_in_bytes_and_seqs_stay_exact_in_javascript() {
        let feed = RelayFeed::new();
        let big = "y".repeat(MAX_TRACE_EVENT_BYTES - 100);
        let body: String = (1..=40).map(|seq| format!("{{\"seq\":{seq},\"x\":\"{big}\"}}\n")).collect();
        feed.offer(&Spectated { feed: Feed::Trace, kind: Kind::Events, tick: 1, seq: 1, missed: 0, body: body.into_bytes() });
        let tail = feed.tail(-1, 1000);
        assert!(tail.json.len() <= MAX_TAIL_BYTES, "{} bytes", tail.json.len());
        let answer: Value = serde_json::from_str(&tail.json).unwrap();
        let n = answer["events"].as_array().unwrap().len();
        assert_eq!(n, tail.count);
        assert!((1..40).contains(&n), "{n} events");
        assert_eq!(answer["nextAfterSeq"], n as u64, "the client pages on from there");
        // Numbers go out as they came: `1e15` stays 4 bytes (written again it takes 18).
        let fresh = RelayFeed::new();
        let body: String = (1..=20000).map(|seq| format!("{{\"seq\":{seq},\"n\":[{}]}}\n", ["1e15"; 12].join(","))).collect();
        fresh.offer(&Spectated { feed: Feed::Trace, kind: Kind::Events, tick: 1, seq: 1, missed: 0, body: body.into_bytes() });
        let tail = fresh.tail(-1, 1000);
        assert!(tail.json.len() <= MAX_TAIL_BYTES && tail.json.contains("1e15"), "{} bytes", tail.json.len());
        let line = format!("{{\"seq\":{}}}\n", MAX_SEQ + 1);
        let dropped = feed.offer(&Spectated { feed: Feed::Trace, kind: Kind::Events, tick: 1, seq: 2, missed: 0, body: line.into_bytes() });
        assert!(matches!(dropped.as_slice(), [Dropped::NotEvent(_)]), "{dropped:?}");
    }

    #[test]
    fn the_trace_is_held_bounded_and_answers_trace_tail() {
        let feed = RelayFeed::new();
        let mut body = String::new();
        for seq in 1..=(MAX_TRACE_EVENTS as u64 + 5) {
            body.push_str(&format!("{{\"seq\":{seq},\"type\":\"skill.called\"}}\n"));
        }
        body.push_str("{\"gap\":{\"fromSeq\":1,\"toSeq\":2}}\nnot json\n[1]\n{\"seq\":\"x\"}\n");
        let message = Spectated { feed: Feed::Trace, kind: Kind::Events, tick: 1, seq: 1, missed: 0, body: body.into_bytes() };
        let dropped = feed.offer(&message);
        assert_eq!(dropped.len(), 3, "{dropped:?}");
        let parsed = |tail: Tail| serde_json::from_str::<Value>(&tail.json).unwrap();
        let all = parsed(feed.tail(-1, usize::MAX));
        assert_eq!(all["events"].as_array().unwrap().len(), MAX_TAIL);
        assert_eq!(all["events"][0]["seq"], 6, "the oldest went first");
        let last = parsed(feed.tail(1003, 10));
        assert_eq!(last["events"].as_array().unwrap().len(), 2);
        assert_eq!(last["nextAfterSeq"], 1005);
        assert_eq!(parsed(feed.tail(1005, 10)), json!({"events": [], "nextAfterSeq": null}));
        let huge = format!("{{\"seq\":2000,\"x\":\"{}\"}}", "y".repeat(MAX_TRACE_EVENT_BYTES));
        let message = Spectated { feed: Feed::Trace, kind: Kind::Events, tick: 1, seq: 2, missed: 0, body: huge.into_bytes() };
        assert!(matches!(feed.offer(&message).as_slice(), [Dropped::EventTooLarge(_)]));
    }
}
