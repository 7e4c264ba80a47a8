//! The world log: every skill call, decision, denial and signal becomes an EventLoom-shaped
//! event.
//!
//! Emitting is on the hot path (every skill call), so it does no cryptography: the id is a
//! sequence number plus a cheap FNV-1a discriminator computed by streaming the payload through
//! the hasher. The log keeps the full durable history (for export and causal lookups), and the
//! bounded tail `trace.tail` pages through is a view of its newest events (nothing to maintain
//! per emit); the sha256 chain is computed at export time, or live on a
//! background thread when append-on-emit is on. Every chained file ends with a seal (an export
//! always, a live file when it is closed), so a cut-off tail is detectable, and export returns
//! the seal's hash as the [`Anchor`] an auditor keeps to catch a full rewrite.

mod append;
mod chain;
mod event;
mod kind;
mod strict_json;
mod time;
mod verify;

pub use append::AppendWriter;
pub use chain::{Anchor, AnchorParseError, ChainWriter, chain_hash};
pub use event::{DeferredPayload, Event, EventDraft, Payload, fnv1a64, seq_of};
pub use kind::EventKind;
pub use verify::{Verified, VerifyFailure, VerifyReason, verify_chain, verify_jsonl, verify_sealed};

use event::{Names, raw_json};
pub use time::{format_unix_millis, iso8601_now, unix_millis_now};

use std::collections::{BTreeSet, HashSet};
use std::io::{self, Write};
use std::path::Path;
use std::rc::Rc;

use serde::Serialize;

/// Default number of events `trace.tail` can page through.
pub(crate) const DEFAULT_TAIL_CAPACITY: usize = 8192;

/// Counts of an export, and its anchor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExportStats {
    /// Events written (the seal line is not one).
    pub events: u64,
    /// Bytes written, the seal line included.
    pub bytes: u64,
    /// The seal's hash: keep it to check the file later (`limina trace verify --anchor`).
    pub anchor: Anchor,
}

/// What an event costs in memory besides its payload (envelope, ids, hashes), for the estimate.
const EVENT_OVERHEAD: usize = 256;

/// The world log of one engine.
#[derive(Debug)]
pub struct TraceLog {
    thread_id: Rc<str>,
    /// Every event in emit order, by ascending seq: `durable[seq - 1]` is the event with that
    /// seq, unless the numbering was moved on (`continue_after`), which leaves a gap.
    durable: Vec<Event>,
    /// The seq the next event gets.
    next_seq: u64,
    /// How many of the newest events `tail` shows (the history is complete, so the tail is a
    /// view of its end, not a second list to maintain on every emit).
    tail_capacity: usize,
    /// (parent seq, child seq) for every causal link, in emit order. Flat on purpose: emitting
    /// a caused event costs no allocation, and `children` (a read path) scans.
    links: Vec<(u64, u64)>,
    actors: BTreeSet<String>,
    /// Event types, actor and thread ids repeat endlessly: one shared copy of each.
    names: HashSet<Rc<str>>,
    recent_names: [Rc<str>; 6],
    last_actor: Option<Rc<str>>,
    append: Option<AppendWriter>,
    /// Roughly what the events hold in memory: payload bytes plus a fixed cost per event.
    retained: usize,
}

impl TraceLog {
    pub fn new(thread_id: impl Into<String>) -> Self {
        Self::with_tail_capacity(thread_id, DEFAULT_TAIL_CAPACITY)
    }

    pub(crate) fn with_tail_capacity(thread_id: impl Into<String>, tail_capacity: usize) -> Self {
        Self {
            thread_id: Rc::from(thread_id.into()),
            durable: Vec::new(),
            next_seq: 1,
            tail_capacity: tail_capacity.max(1),
            links: Vec::new(),
            actors: BTreeSet::new(),
            names: HashSet::new(),
            recent_names: std::array::from_fn(|_| Rc::from("")),
            last_actor: None,
            append: None,
            retained: 0,
        }
    }

    fn intern(&mut self, text: &str) -> Rc<str> {
        // Most events repeat the names of the one before: check those before hashing.
        if let Some(recent) = self.recent_names.iter().find(|n| &***n == text) {
            return Rc::clone(recent);
        }
        let name = self.intern_slow(text);
        self.recent_names.rotate_right(1);
        self.recent_names[0] = Rc::clone(&name);
        name
    }

    fn intern_slow(&mut self, text: &str) -> Rc<str> {
        if let Some(name) = self.names.get(text) {
            return Rc::clone(name);
        }
        let name: Rc<str> = text.into();
        self.names.insert(Rc::clone(&name));
        name
    }

    /// Appends an event and returns it. The payload is serialized once, here (a payload that
    /// cannot be serialized, which JSON values and our payload structs never are, is recorded
    /// as null with a warning).
    pub(crate) fn emit<P: Serialize + ?Sized>(&mut self, draft: EventDraft<'_>, tick: u64, payload: &P) -> &Event {
        let raw = raw_json(payload, draft.event_type);
        self.push(draft, tick, Payload::Json(raw))
    }

    /// `emit` for a payload serialized only when read (see [`Payload`]): the skill pipeline's
    /// own events, on every call.
    pub(crate) fn emit_deferred(&mut self, draft: EventDraft<'_>, tick: u64, payload: Rc<dyn DeferredPayload>) -> &Event {
        self.push(draft, tick, Payload::Deferred(payload))
    }

    fn push(&mut self, draft: EventDraft<'_>, tick: u64, payload: Payload) -> &Event {
        // Verification reads a line of this type as the seal; an event carrying it would make
        // every export of this log fail as `seal_mismatch`. No emitter takes a type verbatim.
        debug_assert_ne!(draft.event_type, chain::SEAL_TYPE, "the seal's type is reserved");
        let seq = self.next_seq;
        self.next_seq += 1;
        let thread_id = match draft.thread_id {
            Some(t) => self.intern(t),
            None => Rc::clone(&self.thread_id),
        };
        let names = Names { event_type: self.intern(draft.event_type), actor_id: self.intern(draft.actor_id), thread_id };
        if self.last_actor.as_ref().is_none_or(|a| !Rc::ptr_eq(a, &names.actor_id)) {
            if !self.actors.contains(draft.actor_id) {
                self.actors.insert(draft.actor_id.to_string());
            }
            self.last_actor = Some(Rc::clone(&names.actor_id));
        }
        let event = Event::new(seq, draft, names, tick, payload);
        for parent in event.parents() {
            if let Some(p) = seq_of(parent) {
                self.links.push((p, seq));
            }
        }
        if let Some(append) = &self.append
            && let Ok(canonical) = serde_json::to_vec(&event)
            && !append.send(canonical)
        {
            tracing::warn!(path = %append.path().display(), "trace append writer stopped; events are kept in memory only");
        }
        self.retained += EVENT_OVERHEAD
            + match &event.payload {
                Payload::Json(raw) => raw.get().len(),
                Payload::Deferred(typed) => typed.retained_bytes(),
            };
        self.durable.push(event);
        &self.durable[self.durable.len() - 1]
    }

    /// Turns on append-on-emit: from now on every event is chained into `path` as it is
    /// emitted. Events emitted before are written first, so the file holds the whole history.
    pub(crate) fn append_to(&mut self, path: &Path) -> io::Result<()> {
        let writer = AppendWriter::create(path)?;
        for event in &self.durable {
            writer.send(serde_json::to_vec(event)?);
        }
        writer.flush()?;
        self.append = Some(writer);
        Ok(())
    }

    /// Ends append-on-emit: writes the seal after every event emitted so far and returns the
    /// file's anchor (None when append-on-emit was off). Later events stay in memory only.
    /// Dropping the log seals the file too, without reporting the anchor.
    #[cfg(test)]
    pub(crate) fn seal_append(&mut self) -> io::Result<Option<Anchor>> {
        match self.append.take() {
            Some(mut writer) => writer.seal().map(Some),
            None => Ok(None),
        }
    }

    /// Waits for append-on-emit to reach the disk (no-op without it).
    pub fn flush(&self) -> io::Result<()> {
        match &self.append {
            Some(a) => a.flush(),
            None => Ok(()),
        }
    }

    pub fn durable(&self) -> impl ExactSizeIterator<Item = &Event> {
        self.durable.iter()
    }

    /// The bounded tail, oldest first.
    pub fn tail(&self) -> impl DoubleEndedIterator<Item = &Event> {
        self.durable[self.durable.len().saturating_sub(self.tail_capacity)..].iter()
    }

    /// Events held.
    pub fn len(&self) -> usize {
        self.durable.len()
    }

    /// The seq of the newest event (0 before the first): events emitted from now on have
    /// higher ones.
    pub fn last_seq(&self) -> u64 {
        self.next_seq - 1
    }

    /// Numbers the events emitted from now on after `seq` (a restored snapshot's last event), so
    /// their ids continue the saved engine's. Numbering never goes back: a log that already holds
    /// later events goes on from its own. Returns whether the next event is `seq + 1`.
    pub(crate) fn continue_after(&mut self, seq: u64) -> bool {
        self.next_seq = self.next_seq.max(seq.saturating_add(1));
        self.next_seq == seq.saturating_add(1)
    }

    /// Where the event with `seq` is (or would be) in `durable`: its index when the numbering has
    /// no gap before it (every log that was never moved on), else a binary search.
    fn index_of(&self, seq: u64) -> usize {
        let direct = usize::try_from(seq.saturating_sub(1)).unwrap_or(usize::MAX);
        match self.durable.get(direct) {
            Some(e) if e.seq == seq => direct,
            _ if direct == self.durable.len() && self.durable.last().is_none_or(|e| e.seq < seq) => direct,
            _ => self.durable.partition_point(|e| e.seq < seq),
        }
    }

    /// Roughly the bytes the events hold (payloads and a fixed cost each): what a playtest's
    /// scratch log may grow to is bounded by it.
    pub(crate) fn retained_bytes(&self) -> usize {
        self.retained
    }

    pub fn is_empty(&self) -> bool {
        self.durable.is_empty()
    }

    pub(crate) fn thread_id(&self) -> &str {
        &self.thread_id
    }

    pub(crate) fn actors(&self) -> impl Iterator<Item = &str> {
        self.actors.iter().map(String::as_str)
    }

    pub(crate) fn by_seq(&self, seq: u64) -> Option<&Event> {
        self.durable.get(self.index_of(seq)).filter(|e| e.seq == seq)
    }

    /// Looks an event up by id (the id carries its seq, so no index is needed).
    pub fn get(&self, id: &str) -> Option<&Event> {
        self.by_seq(seq_of(id)?).filter(|e| e.id == id)
    }

    /// Events that name `id` as a parent or cause, in emit order.
    pub(crate) fn children(&self, id: &str) -> Vec<&Event> {
        let Some(event) = self.get(id) else {
            return Vec::new();
        };
        let parent = event.seq;
        // Links are appended when the child is emitted, and a child comes after its parent.
        let from = self.links.partition_point(|(_, child)| *child <= parent);
        self.links[from..].iter().filter(|(p, _)| *p == parent).filter_map(|(_, c)| self.by_seq(*c)).collect()
    }

    /// Events with a sequence number above `after_seq`, oldest first (the whole history).
    pub fn since(&self, after_seq: u64) -> &[Event] {
        let start = self.index_of(after_seq.saturating_add(1)).min(self.durable.len());
        &self.durable[start..]
    }

    /// Writes the full history as chained JSONL, ending with the seal.
    pub fn export<W: Write>(&self, out: W) -> io::Result<ExportStats> {
        let mut writer = ChainWriter::new(out, None);
        for event in &self.durable {
            writer.write_event(event)?;
        }
        let anchor = writer.seal()?;
        writer.flush()?;
        Ok(ExportStats { events: writer.events(), bytes: writer.bytes(), anchor })
    }

    /// Exports to a file atomically (written beside it, then renamed into place).
    pub(crate) fn export_to(&self, path: &Path) -> io::Result<ExportStats> {
        let partial = path.with_extension("jsonl.partial");
        let stats = self.export(io::BufWriter::new(std::fs::File::create(&partial)?))?;
        std::fs::rename(&partial, path)?;
        Ok(stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    #[test]
    fn ids_carry_actor_sequence_and_discriminator() {
        let mut log = TraceLog::new("thr_main");
        let id = log.emit(EventDraft::new("skill.executed", "agt_a"), 3, &json!({"x": 1})).id.clone();
        assert!(id.starts_with("evt_agt_a_000000000001_"), "{id}");
        assert_eq!(id.len(), "evt_agt_a_000000000001_".len() + 16);
        let second = log.emit(EventDraft::new("skill.executed", "agt_a"), 3, &json!({"x": 1})).id.clone();
        assert!(second.contains("_000000000002_"));
        assert_ne!(id[id.len() - 16..], second[second.len() - 16..], "seq is part of the discriminator");
    }

    #[test]
    fn numbering_continued_past_a_gap_still_finds_every_event() {
        let mut log = TraceLog::new("thr_main");
        let first = log.emit(EventDraft::new("a", "sys"), 0, &Value::Null).id.clone();
        assert!(log.continue_after(100), "an earlier log's numbering is taken up");
        assert!(!log.continue_after(50), "numbering never goes back");
        let draft = EventDraft::new("b", "sys").caused_by(vec![first.clone()]);
        let after = log.emit(draft, 1, &Value::Null).id.clone();
        assert!(after.contains("_000000000101_"), "{after}");
        log.emit(EventDraft::new("c", "sys"), 2, &Value::Null);
        assert_eq!((log.len(), log.last_seq()), (3, 102));
        assert_eq!(log.get(&first).map(|e| e.seq), Some(1));
        assert_eq!(log.get(&after).map(|e| e.seq), Some(101));
        assert!(log.by_seq(2).is_none() && log.by_seq(100).is_none() && log.by_seq(103).is_none());
        let seqs = |after: u64| log.since(after).iter().map(|e| e.seq).collect::<Vec<_>>();
        assert_eq!(
            (seqs(0), seqs(1), seqs(60), seqs(101), seqs(102)),
            (vec![1, 101, 102], vec![101, 102], vec![101, 102], vec![102], vec![])
        );
        assert_eq!(log.children(&first).iter().map(|e| e.seq).collect::<Vec<_>>(), [101]);
    }

    #[test]
    fn causality_is_indexed_both_ways() {
        let mut log = TraceLog::new("thr_main");
        let parent = log.emit(EventDraft::new("a", "sys"), 0, &Value::Null).id.clone();
        let draft = EventDraft::new("b", "sys").caused_by(vec![parent.clone()]).parent(Some(parent.clone()));
        let child = log.emit(draft, 7, &Value::Null).id.clone();
        let c = log.get(&child).unwrap();
        assert_eq!(c.parents().collect::<Vec<_>>(), vec![parent.as_str()], "a parent listed twice counts once");
        assert_eq!(c.tick, 7);
        assert_eq!(log.children(&parent).iter().map(|e| e.id.as_str()).collect::<Vec<_>>(), vec![child.as_str()]);
        assert!(log.get("evt_sys_000000000001_0000000000000000").is_none(), "a forged id with a real seq is not found");
    }

    #[test]
    fn the_tail_is_bounded_but_history_is_complete() {
        let mut log = TraceLog::with_tail_capacity("thr", 10);
        for i in 0..25 {
            log.emit(EventDraft::new("e", "a"), i, &Value::Null);
        }
        assert_eq!(log.tail().count(), 10);
        assert_eq!(log.tail().next().unwrap().seq, 16);
        assert_eq!(log.len(), 25);
        let mut out = Vec::new();
        let stats = log.export(&mut out).unwrap();
        assert_eq!(stats.events, 25);
        assert_eq!(stats.bytes, out.len() as u64);
        assert_eq!(verify_jsonl(&out), Ok(25));
        assert_eq!(verify_sealed(&out, Some(&stats.anchor)).map(|v| v.seal), Ok(Some(stats.anchor)));
    }

    /// The lines of a chained file without its seal.
    fn event_lines(bytes: &[u8]) -> &[u8] {
        let body = &bytes[..bytes.len() - 1];
        &bytes[..=body.iter().rposition(|b| *b == b'\n').unwrap()]
    }

    #[test]
    fn append_on_emit_matches_an_export_and_survives_a_torn_last_line() {
        let dir = tempfile::tempdir().unwrap();
        let live = dir.path().join("live.jsonl");
        let mut log = TraceLog::new("thr");
        log.emit(EventDraft::new("before", "a"), 0, &json!({"n": 0}));
        log.append_to(&live).unwrap();
        for i in 1..20 {
            log.emit(EventDraft::new("after", "a"), i, &json!({"n": i}));
        }
        log.flush().unwrap();
        let written = std::fs::read(&live).unwrap();
        let mut exported = Vec::new();
        log.export(&mut exported).unwrap();
        assert_eq!(written, event_lines(&exported), "the live chain is the export chain, until the seal");

        // While open the file is unsealed: intact, but nothing shows it is complete.
        assert_eq!(verify_chain(&written), Ok(Verified { events: 20, seal: None }));
        assert_eq!(verify_jsonl(&written).map_err(|f| (f.line, f.reason)), Err((21, VerifyReason::Truncated)));

        // A crash mid-write leaves half a line: detected, and everything before still verifies.
        let cut = written.len() - 30;
        let torn = &written[..cut];
        let failure = verify_chain(torn).unwrap_err();
        assert_eq!((failure.line, failure.reason), (20, VerifyReason::PartialFinalLine));
        let last_newline = torn.iter().rposition(|b| *b == b'\n').unwrap();
        assert_eq!(verify_chain(&torn[..=last_newline]).map(|v| v.events), Ok(19));
    }

    #[test]
    fn closing_a_live_file_seals_it_and_later_events_stay_in_memory() {
        let dir = tempfile::tempdir().unwrap();
        let live = dir.path().join("live.jsonl");
        let mut log = TraceLog::new("thr");
        log.append_to(&live).unwrap();
        for i in 0..3 {
            log.emit(EventDraft::new("e", "a"), i, &json!({"n": i}));
        }
        let anchor = log.seal_append().unwrap().expect("append-on-emit was on");
        log.emit(EventDraft::new("late", "a"), 3, &Value::Null);
        assert_eq!(log.seal_append().unwrap(), None, "sealed once");
        let written = std::fs::read(&live).unwrap();
        assert_eq!(verify_sealed(&written, Some(&anchor)), Ok(Verified { events: 3, seal: Some(anchor) }));
        assert_eq!(log.len(), 4);

        // Dropping the log (the engine shutting down) seals too.
        let dropped = dir.path().join("dropped.jsonl");
        let mut log = TraceLog::new("thr");
        log.append_to(&dropped).unwrap();
        log.emit(EventDraft::new("e", "a"), 0, &Value::Null);
        drop(log);
        assert_eq!(verify_jsonl(&std::fs::read(&dropped).unwrap()), Ok(1));
    }
}
