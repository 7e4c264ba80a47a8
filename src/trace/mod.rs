//! The world log: every skill call, decision, denial and signal becomes an EventLoom-shaped
//! event.
//!
//! Emitting is on the hot path (every skill call), so it does no cryptography: the id is a
//! sequence number plus a cheap FNV-1a discriminator over the event's header. Memory holds a
//! bounded window of the newest events ([`TraceWindow`]: a count, and a byte cap that wins over
//! it for huge payloads); older ones are spilled, a block at a time, to a private file
//! (`spill.rs`), so a long-running server's memory stays flat however many calls it serves.
//! Every reader still sees the whole history: export and `since` stream the file then memory,
//! `get` and `children` read the blocks they need back, checked against the digest kept when
//! they were written (read-backs come back as `Payload::Json`). A spill that cannot be written
//! is recorded as a `trace.spill.failed` event and a warning, and its events stay in memory
//! (tried again when memory has doubled): history is never dropped.
//!
//! The bounded tail `trace.tail` pages through is a view of the window's newest events
//! (nothing to maintain per emit); the sha256 chain is computed at export time, or live on a
//! background thread when append-on-emit is on. Every chained file ends with a seal (an export
//! always, a live file when it is closed), so a cut-off tail is detectable, and export returns
//! the seal's hash as the [`Anchor`] an auditor keeps to catch a full rewrite.

mod append;
mod chain;
mod event;
mod kind;
mod spill;
mod strict_json;
mod time;
mod verify;

pub use append::AppendWriter;
pub use chain::{Anchor, AnchorParseError, ChainWriter, chain_hash};
pub use event::{DeferredPayload, Event, EventDraft, EventLineError, Payload, fnv1a64, seq_of};
pub use kind::EventKind;
pub use spill::HistoryError;
pub use verify::{
    MAX_LINE_BYTES, Verified, VerifyFailure, VerifyReason, require_seal, verify_chain, verify_file, verify_jsonl, verify_reader,
    verify_sealed,
};

use event::{Names, raw_json};
pub use time::{format_unix_millis, iso8601_now, unix_millis_now};

use std::borrow::Cow;
use std::collections::{BTreeSet, HashSet, VecDeque};
use std::io::{self, Write};
use std::path::Path;
use std::rc::Rc;

use serde::Serialize;
use serde_json::json;
use spill::{BLOCK_EVENTS, Spill};

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

/// How much of the history memory holds; older events are spilled to disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceWindow {
    /// Events memory holds at most. Reaching it spills the oldest block (up to 512 events, at
    /// most half the window), so memory holds between `events - 512` and `events`.
    pub events: usize,
    /// Bytes (the same rough estimate as [`TraceLog::retained_bytes`]) the events in memory may
    /// hold. Past it the oldest are spilled down to half of it, even below the count (only the
    /// newest event always stays): huge payloads cannot grow memory either.
    pub bytes: usize,
}

impl TraceWindow {
    /// The tail `trace.tail` pages through (8192 events) and one block more, within 32 MiB.
    pub const DEFAULT: TraceWindow = TraceWindow { events: DEFAULT_TAIL_CAPACITY + BLOCK_EVENTS, bytes: 32 << 20 };
    /// Everything in memory, nothing on disk: the log before spilling (for comparisons).
    pub const UNBOUNDED: TraceWindow = TraceWindow { events: usize::MAX, bytes: usize::MAX };

    /// Events a spill writes when the count is reached.
    fn spill_unit(&self) -> usize {
        (self.events / 2).clamp(1, BLOCK_EVENTS)
    }
}

impl Default for TraceWindow {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// What an event costs in memory besides its payload (envelope, ids, hashes), for the estimate.
const EVENT_OVERHEAD: usize = 256;

/// Names interned at most: event types and actor ids can come from callers (`agent.signal.*`,
/// `trace.emit`), and a table that grew with each new one would grow with the log. Past it a
/// name is still shared by the events that carry it, just not looked up again.
const MAX_INTERNED: usize = 4096;

/// What an event with this payload holds in memory, roughly: the payload and a fixed cost.
fn retained_by_payload(payload: &Payload) -> usize {
    EVENT_OVERHEAD
        + match payload {
            Payload::Json(raw) => raw.get().len(),
            Payload::Deferred(typed) => typed.retained_bytes(),
        }
}

fn retained_by(event: &Event) -> usize {
    retained_by_payload(&event.payload)
}

/// The world log of one engine.
#[derive(Debug)]
pub struct TraceLog {
    thread_id: Rc<str>,
    /// The newest events in emit order: `resident[i]` has seq `spill.events() + 1 + i`; the
    /// ones before are in `spill`.
    resident: VecDeque<Event>,
    window: TraceWindow,
    /// How many of the newest events `tail` shows (a view of the window's end, not a second
    /// list to maintain on every emit).
    tail_capacity: usize,
    /// (parent seq, child seq) for every causal link whose child is in memory, in emit order.
    /// Flat on purpose: emitting a caused event costs no allocation, and `children` (a read
    /// path) scans. Links of spilled children are found in the spill file.
    links: VecDeque<(u64, u64)>,
    spill: Spill,
    /// After a failed spill: events stay in memory until there are this many, then it is tried
    /// again (doubling, so a full disk costs a bounded number of attempts).
    spill_retry_at: Option<usize>,
    actors: BTreeSet<String>,
    /// Event types, actor and thread ids repeat endlessly: one shared copy of each.
    names: HashSet<Rc<str>>,
    recent_names: [Rc<str>; 6],
    last_actor: Option<Rc<str>>,
    append: Option<AppendWriter>,
    /// Roughly what the events in memory hold: payload bytes plus a fixed cost per event.
    retained: usize,
}

impl TraceLog {
    pub fn new(thread_id: impl Into<String>) -> Self {
        Self::with_window(thread_id, TraceWindow::DEFAULT)
    }

    /// A log whose memory holds `window` (older events go to a spill file under the system
    /// temp folder).
    pub fn with_window(thread_id: impl Into<String>, window: TraceWindow) -> Self {
        Self {
            thread_id: Rc::from(thread_id.into()),
            resident: VecDeque::new(),
            window: TraceWindow { events: window.events.max(1), bytes: window.bytes },
            tail_capacity: DEFAULT_TAIL_CAPACITY,
            links: VecDeque::new(),
            spill: Spill::new(std::env::temp_dir()),
            spill_retry_at: None,
            actors: BTreeSet::new(),
            names: HashSet::new(),
            recent_names: std::array::from_fn(|_| Rc::from("")),
            last_actor: None,
            append: None,
            retained: 0,
        }
    }

    #[cfg(test)]
    pub(crate) fn with_tail_capacity(thread_id: impl Into<String>, tail_capacity: usize) -> Self {
        Self { tail_capacity: tail_capacity.max(1), ..Self::new(thread_id) }
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
        if self.names.len() < MAX_INTERNED {
            self.names.insert(Rc::clone(&name));
        }
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
        // Room is made before the event goes in, so the event returned is always in memory
        // and any `trace.spill.failed` record comes before it.
        let incoming = retained_by_payload(&payload);
        if self.must_spill(incoming) {
            self.make_room(incoming, tick);
        }
        self.push_resident(draft, tick, payload, incoming)
    }

    fn push_resident(&mut self, draft: EventDraft<'_>, tick: u64, payload: Payload, size: usize) -> &Event {
        // Verification reads a line of this type as the seal; an event carrying it would make
        // every export of this log fail as `seal_mismatch`. No emitter takes a type verbatim.
        debug_assert_ne!(draft.event_type, chain::SEAL_TYPE, "the seal's type is reserved");
        let seq = self.last_seq() + 1;
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
                self.links.push_back((p, seq));
            }
        }
        if let Some(append) = &self.append
            && let Ok(canonical) = serde_json::to_vec(&event)
            && !append.send(canonical)
        {
            tracing::warn!(path = %append.path().display(), "trace append writer stopped; events are kept in memory only");
        }
        self.retained += size;
        self.resident.push_back(event);
        &self.resident[self.resident.len() - 1]
    }

    /// Whether memory must make room for an event of `incoming` bytes (two compares on the
    /// hot path; the spill itself is amortized over a block).
    fn must_spill(&self, incoming: usize) -> bool {
        let held = self.resident.len();
        (held >= self.window.events || self.retained.saturating_add(incoming) > self.window.bytes)
            && held > 0
            && self.spill_retry_at.is_none_or(|at| held >= at)
    }

    /// How many of the oldest events in memory to spill to make room for `incoming` bytes.
    fn spill_count(&self, incoming: usize) -> usize {
        let held = self.resident.len();
        let mut count = 0;
        if held >= self.window.events {
            count = (held + 1 - self.window.events).max(self.window.spill_unit()).min(held);
        }
        if self.retained.saturating_add(incoming) > self.window.bytes {
            // Down to half the cap, so a log of big payloads does not spill on every emit.
            let target = self.window.bytes / 2;
            let mut left = self.retained - self.resident.range(..count).map(retained_by).sum::<usize>();
            while count < held && left.saturating_add(incoming) > target {
                left -= retained_by(&self.resident[count]);
                count += 1;
            }
        }
        count
    }

    /// Moves the oldest events in memory to the spill file; on failure keeps them, says so
    /// (a warning and a `trace.spill.failed` event) and waits for memory to double.
    fn make_room(&mut self, incoming: usize, tick: u64) {
        let count = self.spill_count(incoming);
        if count == 0 {
            return;
        }
        match self.spill.write(self.resident.range(..count), self.links.iter().copied()) {
            Ok(()) => {
                for event in self.resident.drain(..count) {
                    self.retained -= retained_by(&event);
                }
                let first_resident = self.spill.events() + 1;
                while self.links.front().is_some_and(|(_, child)| *child < first_resident) {
                    self.links.pop_front();
                }
                if self.spill_retry_at.take().is_some() {
                    tracing::info!(spilled = self.spill.events(), "the trace spills to disk again");
                    let payload = json!({"spilledEvents": self.spill.events(), "eventsInMemory": self.resident.len()});
                    self.record(EventKind::TraceSpillResumed, tick, &payload);
                }
            }
            Err(e) => {
                let held = self.resident.len();
                let retry_at = held.saturating_mul(2).max(held + self.window.spill_unit());
                self.spill_retry_at = Some(retry_at);
                tracing::warn!(
                    "{e}; the trace keeps its {held} newest events in memory instead (none are lost) and tries again at {retry_at}"
                );
                let payload = json!({
                    "error": e.to_string(),
                    "eventsInMemory": held,
                    "spilledEvents": self.spill.events(),
                    "retryAtEvents": retry_at,
                });
                self.record(EventKind::TraceSpillFailed, tick, &payload);
            }
        }
    }

    /// The log's own record of what happened to it (no spill check: it is emitted while
    /// making room).
    fn record(&mut self, kind: EventKind, tick: u64, payload: &serde_json::Value) {
        let payload = Payload::Json(raw_json(payload, kind.as_str()));
        let size = retained_by_payload(&payload);
        self.push_resident(EventDraft::new(kind.as_str(), "engine"), tick, payload, size);
    }

    /// The file append-on-emit writes, if it is on.
    pub(crate) fn append_path(&self) -> Option<&Path> {
        self.append.as_ref().map(AppendWriter::path)
    }

    /// Turns on append-on-emit: from now on every event is chained into `path` as it is
    /// emitted. Events emitted before are written first, so the file holds the whole history.
    /// Events that leave memory are spilled beside `path` (see `spill.rs`).
    pub(crate) fn append_to(&mut self, path: &Path) -> io::Result<()> {
        let writer = AppendWriter::create(path)?;
        self.spill.for_each_line(|line| -> io::Result<()> {
            writer.send(line.to_vec());
            Ok(())
        })?;
        for event in &self.resident {
            writer.send(serde_json::to_vec(event)?);
        }
        writer.flush()?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            self.spill.set_base(dir.to_path_buf());
        }
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

    /// The whole history, oldest first: spilled events read back from disk, then memory's.
    pub fn durable(&self) -> History<'_> {
        self.since(0)
    }

    /// The bounded tail, oldest first: the newest `trace.tail` capacity of the events in memory
    /// (all of it unless the window's byte cap holds fewer).
    pub fn tail(&self) -> impl DoubleEndedIterator<Item = &Event> {
        self.resident.range(self.resident.len().saturating_sub(self.tail_capacity)..)
    }

    /// Events emitted, on disk and in memory.
    /// Events held (on disk and in memory).
    pub fn len(&self) -> usize {
        (self.last_seq() + 1 - self.spill.first()) as usize
    }

    /// Events in memory.
    pub fn resident_len(&self) -> usize {
        self.resident.len()
    }

    /// Roughly the bytes the log holds in memory: the events in it (payloads and a fixed cost
    /// each), the causal links among them and the spill file's index.
    pub(crate) fn retained_bytes(&self) -> usize {
        self.retained + self.links.len() * std::mem::size_of::<(u64, u64)>() + self.spill.index_bytes()
    }

    /// Bytes of spilled events on disk.
    pub(crate) fn spilled_bytes(&self) -> u64 {
        self.spill.bytes()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub(crate) fn thread_id(&self) -> &str {
        &self.thread_id
    }

    pub(crate) fn actors(&self) -> impl Iterator<Item = &str> {
        self.actors.iter().map(String::as_str)
    }

    fn resident_at(&self, seq: u64) -> Option<&Event> {
        let index = seq.checked_sub(self.spill.events() + 1)?;
        self.resident.get(usize::try_from(index).ok()?)
    }

    /// The event with this seq, from memory or read back from disk.
    pub(crate) fn by_seq(&self, seq: u64) -> Result<Option<Cow<'_, Event>>, HistoryError> {
        if seq > self.spill.events() {
            return Ok(self.resident_at(seq).map(Cow::Borrowed));
        }
        Ok(self.spill.event(seq)?.map(Cow::Owned))
    }

    /// Looks an event up by id (the id carries its seq, so no index is needed).
    pub fn get(&self, id: &str) -> Result<Option<Cow<'_, Event>>, HistoryError> {
        let Some(seq) = seq_of(id) else { return Ok(None) };
        Ok(self.by_seq(seq)?.filter(|e| e.id == id))
    }

    /// Events that name `id` as a parent or cause, in emit order.
    pub(crate) fn children(&self, id: &str) -> Result<Vec<Cow<'_, Event>>, HistoryError> {
        let Some(event) = self.get(id)? else {
            return Ok(Vec::new());
        };
        let parent = event.seq;
        let mut children: Vec<Cow<'_, Event>> = self.spill.children_of(id, parent)?.into_iter().map(Cow::Owned).collect();
        // Links are appended when the child is emitted, and a child comes after its parent.
        let from = self.links.partition_point(|(_, child)| *child <= parent);
        let linked = self.links.range(from..).filter(|(p, _)| *p == parent).filter_map(|(_, c)| self.resident_at(*c));
        // The link holds only the seq: the child must name this very id, not a forged one.
        children.extend(linked.filter(|c| c.parents().any(|p| p == id)).map(Cow::Borrowed));
        children.dedup_by_key(|c| c.seq);
        Ok(children)
    }

    /// Events with a sequence number above `after_seq`, oldest first (the whole history).
    pub fn since(&self, after_seq: u64) -> History<'_> {
        let next = after_seq.saturating_add(1).max(self.spill.first());
        History { log: self, next, decoded: Vec::new().into_iter(), failed: false }
    }

    /// The seq of the newest event (0 before the first): events emitted from now on have
    /// higher ones.
    pub fn last_seq(&self) -> u64 {
        self.spill.events() + self.resident.len() as u64
    }

    /// Numbers the events emitted from now on after `seq` (a restored snapshot's last event), so
    /// their ids continue the saved engine's. Only a log that holds no event yet can take up
    /// another's numbering (a replay or recovery engine, a fresh engine); numbering never goes
    /// back. Returns whether the next event is `seq + 1`.
    pub(crate) fn continue_after(&mut self, seq: u64) -> bool {
        if self.is_empty() {
            if seq >= self.spill.events() {
                self.spill.start_after(seq);
            }
            return self.last_seq() == seq;
        }
        self.last_seq() == seq
    }

    /// Writes the full history as chained JSONL, ending with the seal: the spilled lines as
    /// they were written (each block checked against its digest), then memory's events.
    pub fn export<W: Write>(&self, out: W) -> io::Result<ExportStats> {
        let mut writer = ChainWriter::new(out, None);
        self.spill.for_each_line(|line| writer.write_canonical(line))?;
        for event in &self.resident {
            writer.write_event(event)?;
        }
        let anchor = writer.seal()?;
        writer.flush()?;
        Ok(ExportStats { events: writer.events(), bytes: writer.bytes(), anchor })
    }
}

/// The history from some seq on, oldest first: spilled events are read back a block at a time
/// (owned, `Payload::Json`), memory's are borrowed. A block that cannot be read back, or was
/// changed on disk, is one `Err` item, and the iteration ends there.
#[derive(Debug)]
pub struct History<'a> {
    log: &'a TraceLog,
    /// The seq of the next event to read from disk or memory (after `decoded`).
    next: u64,
    decoded: std::vec::IntoIter<Event>,
    failed: bool,
}

impl<'a> Iterator for History<'a> {
    type Item = Result<Cow<'a, Event>, HistoryError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(event) = self.decoded.next() {
            return Some(Ok(Cow::Owned(event)));
        }
        if self.failed {
            return None;
        }
        if self.next <= self.log.spill.events() {
            match self.log.spill.events_from(self.next) {
                Ok(events) if !events.is_empty() => {
                    self.next += events.len() as u64;
                    self.decoded = events.into_iter();
                    return self.decoded.next().map(|e| Ok(Cow::Owned(e)));
                }
                Ok(_) => {
                    self.failed = true;
                    let seq = self.next;
                    let detail = "no block holds it".to_string();
                    return Some(Err(HistoryError::Corrupt { path: self.log.spill.path(), seq, detail }));
                }
                Err(e) => {
                    self.failed = true;
                    return Some(Err(e));
                }
            }
        }
        let event = self.log.resident_at(self.next)?;
        self.next += 1;
        Some(Ok(Cow::Borrowed(event)))
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
    fn a_fresh_log_continues_a_restored_engines_numbering_through_its_spill() {
        let mut log = TraceLog::with_window("thr", TraceWindow { events: 16, bytes: usize::MAX });
        assert!(log.continue_after(100), "an empty log takes up the saved numbering");
        let ids: Vec<String> = (0..100).map(|i| log.emit(EventDraft::new("e", "a"), i, &Value::Null).id.clone()).collect();
        assert!(ids[0].contains("_000000000101_"), "{}", ids[0]);
        assert_eq!((log.len(), log.last_seq()), (100, 200));
        assert!(log.resident_len() < 100, "the oldest spilled");
        for (i, id) in ids.iter().enumerate() {
            assert_eq!(log.get(id).unwrap().map(|e| e.seq), Some(101 + i as u64), "{id}");
        }
        assert!(log.by_seq(100).unwrap().is_none() && log.by_seq(1).unwrap().is_none() && log.by_seq(201).unwrap().is_none());
        let seqs = |after: u64| log.since(after).map(|e| e.unwrap().seq).collect::<Vec<_>>();
        assert_eq!(seqs(0), (101..=200).collect::<Vec<_>>(), "nothing before the numbering is asked for");
        assert_eq!(seqs(150), (151..=200).collect::<Vec<_>>());
        assert!(!log.continue_after(500), "a log that holds events keeps its own numbering");
        let mut out = Vec::new();
        assert_eq!(log.export(&mut out).unwrap().events, 100);
        assert_eq!(verify_jsonl(&out), Ok(100));
    }

    /// The streaming verifier gives what the in-memory one gives, line for line, on intact,
    /// cut and tampered files; and it refuses a line it would have to hold past its limit.
    #[test]
    fn verifying_a_stream_matches_verifying_the_bytes() {
        let mut log = TraceLog::new("thr_main");
        for i in 0..40u64 {
            log.emit(EventDraft::new("test.event", "sys"), i, &json!({"i": i, "text": "a\nb"}));
        }
        let mut out = Vec::new();
        log.export(&mut out).unwrap();
        let text = String::from_utf8(out.clone()).unwrap();
        let cut = &out[..out.len() - 30];
        let tampered = text.replacen("\"i\":7", "\"i\":8", 1).into_bytes();
        let after_seal = [out.as_slice(), b"{}\n"].concat();
        for bytes in [&out[..], cut, &tampered[..], &after_seal[..], b"", b"not json\n"] {
            let stream = verify_reader(std::io::Cursor::new(bytes));
            assert_eq!(stream, verify_chain(bytes), "{:?}", String::from_utf8_lossy(&bytes[..bytes.len().min(80)]));
        }
        assert_eq!(verify_reader(std::io::Cursor::new(&out)).and_then(|v| require_seal(v, None)).map(|v| v.events), Ok(40));

        use std::io::Read;
        let endless = std::io::BufReader::new(std::io::repeat(b'x').take(MAX_LINE_BYTES as u64 + 10));
        let e = verify_reader(endless).unwrap_err();
        assert_eq!((e.line, e.reason), (1, VerifyReason::LineTooLong));

        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo.jsonl");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        let e = verify_file(&fifo).unwrap_err().to_string();
        assert!(e.contains("not a regular file"), "{e}");
        assert!(verify_file(dir.path()).is_err(), "a folder is not read either");
    }

    #[test]
    fn causality_is_indexed_both_ways() {
        let mut log = TraceLog::new("thr_main");
        let parent = log.emit(EventDraft::new("a", "sys"), 0, &Value::Null).id.clone();
        let draft = EventDraft::new("b", "sys").caused_by(vec![parent.clone()]).parent(Some(parent.clone()));
        let child = log.emit(draft, 7, &Value::Null).id.clone();
        let c = log.get(&child).unwrap().unwrap();
        assert_eq!(c.parents().collect::<Vec<_>>(), vec![parent.as_str()], "a parent listed twice counts once");
        assert_eq!(c.tick, 7);
        assert_eq!(log.children(&parent).unwrap().iter().map(|e| e.id.as_str()).collect::<Vec<_>>(), vec![child.as_str()]);
        assert!(log.get("evt_sys_000000000001_0000000000000000").unwrap().is_none(), "a forged id with a real seq is not found");
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

    /// A payload serialized only when read, as the skill pipeline's are.
    #[derive(Debug)]
    struct Typed(u64);

    impl DeferredPayload for Typed {
        fn to_json(&self) -> Box<serde_json::value::RawValue> {
            raw_json(&json!({"n": self.0, "skill": "ecs.updateComponent"}), "test")
        }
    }

    /// Emits `n` events shaped like a busy world's: eager and deferred payloads, each fifth
    /// caused by the root (seq 1), the others by the event before them.
    fn busy(log: &mut TraceLog, n: u64) -> Vec<String> {
        let mut ids = vec![log.emit(EventDraft::new("root", "sys"), 0, &json!({"i": 0})).id.clone()];
        for i in 1..n {
            let cause = if i % 5 == 0 { ids[0].clone() } else { ids[ids.len() - 1].clone() };
            let draft = EventDraft::new(if i % 2 == 0 { "a" } else { "b" }, "agt_x").thread("ses_x").caused_by(vec![cause]);
            let id = if i % 3 == 0 {
                log.emit_deferred(draft, i, Rc::new(Typed(i))).id.clone()
            } else {
                log.emit(draft, i, &json!({"i": i, "text": "é\n\"q\""})).id.clone()
            };
            ids.push(id);
        }
        ids
    }

    const TINY: TraceWindow = TraceWindow { events: 64, bytes: usize::MAX };

    #[test]
    fn names_from_callers_do_not_grow_the_intern_table_without_bound() {
        let mut log = TraceLog::with_window("thr", TINY);
        for i in 0..(MAX_INTERNED as u64 + 2_000) {
            let kind = format!("agent.signal.s{i}");
            log.emit(EventDraft::new(&kind, "agt_x"), i, &Value::Null);
        }
        assert!(log.names.len() <= MAX_INTERNED, "{} names interned", log.names.len());
        assert_eq!(&*log.get(&log.by_seq(5_000).unwrap().unwrap().id).unwrap().unwrap().event_type, "agent.signal.s4999");
    }

    #[test]
    fn a_tiny_window_holds_memory_to_it_over_ten_thousand_events() {
        let mut log = TraceLog::with_window("thr", TINY);
        let mut most = 0;
        let mut first = log.emit(EventDraft::new("root", "sys"), 0, &Value::Null).id.clone();
        for i in 1..12_000u64 {
            let draft = EventDraft::new("e", "agt_x").caused_by(vec![first.clone()]);
            first = log.emit_deferred(draft, i, Rc::new(Typed(i))).id.clone();
            most = most.max(log.resident_len());
        }
        assert_eq!(log.len(), 12_000);
        assert!(most <= TINY.events, "memory held {most} events, the window is {}", TINY.events);
        assert!(log.resident_len() >= TINY.events / 2, "the window stays about full: {}", log.resident_len());
        assert!(log.spilled_bytes() > 0);
        // The links and the index stay small too: well under a byte cap's worth per event.
        assert!(log.retained_bytes() < 64 * 1024, "{} bytes in memory", log.retained_bytes());
        let unbounded = {
            let mut log = TraceLog::with_window("thr", TraceWindow::UNBOUNDED);
            busy(&mut log, 12_000);
            log.retained_bytes()
        };
        assert!(unbounded > 20 * log.retained_bytes(), "{unbounded} vs {}", log.retained_bytes());
    }

    #[test]
    fn a_spilled_log_exports_the_bytes_and_anchor_of_one_held_in_memory() {
        time::fix_clock(Some(1_795_314_667_123));
        let mut spilled = TraceLog::with_window("thr", TINY);
        let mut held = TraceLog::with_window("thr", TraceWindow::UNBOUNDED);
        busy(&mut spilled, 10_000);
        busy(&mut held, 10_000);
        assert!(spilled.spill.events() > 9_000 && held.spill.events() == 0);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let (sa, sb) = (spilled.export(&mut a).unwrap(), held.export(&mut b).unwrap());
        time::fix_clock(None);
        assert!(a == b, "the exports differ");
        assert_eq!(sa, sb, "same counts and anchor");
        assert_eq!(verify_sealed(&a, Some(&sa.anchor)).map(|v| v.events), Ok(10_000));
        // Reading the history gives the same events (old ones as JSON read back from disk).
        let mut n = 0;
        for (x, y) in spilled.durable().zip(held.durable()) {
            let (x, y) = (x.unwrap(), y.unwrap());
            assert_eq!(serde_json::to_vec(&*x).unwrap(), serde_json::to_vec(&*y).unwrap());
            n += 1;
        }
        assert_eq!(n, 10_000);
        assert!(matches!(spilled.by_seq(3).unwrap().unwrap().payload, Payload::Json(_)), "read back as JSON");
    }

    #[test]
    fn spilled_events_are_found_by_id_seq_children_and_since() {
        let mut log = TraceLog::with_window("thr", TINY);
        let mut held = TraceLog::with_window("thr", TraceWindow::UNBOUNDED);
        let ids = busy(&mut log, 3_000);
        busy(&mut held, 3_000);
        let first_resident = log.spill.events() + 1;
        assert!(first_resident > 2_900);
        let same = |a: &Event, b: &Event| {
            assert_eq!((&a.id, a.seq, a.payload_value(), &a.caused_by), (&b.id, b.seq, b.payload_value(), &b.caused_by))
        };
        for seq in [1, 2, 511, 512, 513, 1_500, first_resident - 1, first_resident, 3_000] {
            let id = &ids[seq as usize - 1];
            let found = log.get(id).unwrap().unwrap_or_else(|| panic!("{id} not found"));
            same(&found, &held.get(id).unwrap().unwrap());
            assert_eq!(matches!(found, Cow::Owned(_)), seq < first_resident, "seq {seq}: old ones come from disk");
            same(&log.by_seq(seq).unwrap().unwrap(), &found);
        }
        assert!(log.get(&ids[10].replace("_000000000011_", "_000000000012_")).unwrap().is_none(), "an id is checked, not just its seq");
        assert!(log.by_seq(3_001).unwrap().is_none() && log.by_seq(0).unwrap().is_none());

        // The root's children run through every block and into memory; a spilled event's own.
        let seqs = |v: Vec<Cow<'_, Event>>| v.iter().map(|e| e.seq).collect::<Vec<_>>();
        let root_children = seqs(log.children(&ids[0]).unwrap());
        assert_eq!(root_children, (1..3_000).filter(|i| i % 5 == 0 || *i == 1).map(|i| i + 1).collect::<Vec<_>>());
        assert_eq!(root_children, seqs(held.children(&ids[0]).unwrap()));
        for seq in [2, 512, 513, first_resident - 1] {
            let id = &ids[seq as usize - 1];
            assert_eq!(seqs(log.children(id).unwrap()), seqs(held.children(id).unwrap()), "children of {seq}");
        }
        assert_eq!(seqs(log.children(&ids[511]).unwrap()), vec![513], "a child in the next block");

        for after in [0, 1, 700, first_resident - 2, first_resident, 2_999, 3_000, 5_000] {
            let got: Vec<u64> = log.since(after).map(|e| e.unwrap().seq).collect();
            assert_eq!(got, (after + 1..=3_000).collect::<Vec<_>>(), "since {after}");
        }
    }
}
