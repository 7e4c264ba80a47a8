//! The event envelope and its cheap id.

use std::rc::Rc;

use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;

/// One world-log event, EventLoom-shaped (`seq` and `tick` are our additions).
///
/// Fields are declared in the sorted order of their JSON names, and the payload writes compact
/// JSON with sorted keys, so serializing an event *is* its canonical form: the sha256 chain
/// hashes exactly what `serde_json` writes. The payload is either the JSON it was serialized to
/// at emit time or, for the skill pipeline's own events (two per call, the hot path), a typed
/// value that writes the same JSON only when something reads it (export, tail, audit, a live
/// append file); see [`Payload`].
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    pub actor_id: Rc<str>,
    pub caused_by: Vec<String>,
    pub id: String,
    pub parent_event_id: Option<String>,
    pub payload: Payload,
    pub seq: u64,
    pub thread_id: Rc<str>,
    pub tick: u64,
    /// Unix milliseconds; serialized as ISO 8601.
    #[serde(serialize_with = "iso8601")]
    pub timestamp: i64,
    #[serde(rename = "type")]
    pub event_type: Rc<str>,
}

fn iso8601<S: Serializer>(ms: &i64, s: S) -> Result<S::Ok, S::Error> {
    match super::time::unix_millis_text(*ms, &mut [0; 24]) {
        Some(text) => s.serialize_str(text),
        None => s.serialize_str(&super::time::format_unix_millis(*ms)),
    }
}

/// Why a canonical event line (the spill file's) does not read back as an event.
#[derive(Debug, thiserror::Error)]
pub enum EventLineError {
    #[error("not an event line: {0}")]
    NotAnEvent(#[source] serde_json::Error),
    #[error("timestamp {timestamp:?} is not one the log writes")]
    Timestamp { timestamp: String },
    #[error("id {id} is not the one its seq, type and actor give ({expected})")]
    ForgedId { id: String, expected: String },
}

/// An event's fields as its canonical line spells them (see [`Event::from_canonical`]).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct StoredEvent {
    actor_id: String,
    caused_by: Vec<String>,
    id: String,
    parent_event_id: Option<String>,
    payload: Box<RawValue>,
    seq: u64,
    thread_id: String,
    tick: u64,
    timestamp: String,
    #[serde(rename = "type")]
    event_type: String,
}

/// An event's payload: JSON text, or a typed value serialized when read.
///
/// Deferring is safe only for values that cannot change after emit (they are owned or shared
/// immutably) and whose JSON is canonical (fields in sorted order, maps sorted): reading it at
/// export then gives the very bytes an eager emit would have stored.
#[derive(Debug, Clone)]
pub enum Payload {
    Json(Box<RawValue>),
    Deferred(Rc<dyn DeferredPayload>),
}

/// A payload that writes its canonical JSON on demand.
pub trait DeferredPayload: std::fmt::Debug {
    /// The payload's compact JSON, sorted keys (what `serde_json::to_string` of it would give).
    fn to_json(&self) -> Box<RawValue>;

    /// Appends the same JSON to `out` (spilling and exporting write every payload: a payload
    /// that can write straight into the line saves building and copying its text).
    fn write_json(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.to_json().get().as_bytes());
    }

    /// Bytes of caller data it keeps (an input's JSON, say): what the log's size estimate counts.
    fn retained_bytes(&self) -> usize {
        0
    }

    /// The skill call it records, if it records one: the skill's name and whether that skill
    /// may change the world. Lets a reader summarise the log (`world.digest`) without writing
    /// payloads out.
    fn skill_call(&self) -> Option<(&str, bool)> {
        None
    }
}

impl Payload {
    /// The payload's compact JSON.
    pub fn json(&self) -> std::borrow::Cow<'_, RawValue> {
        match self {
            Payload::Json(raw) => std::borrow::Cow::Borrowed(&**raw),
            Payload::Deferred(typed) => std::borrow::Cow::Owned(typed.to_json()),
        }
    }
}

impl Serialize for Payload {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Payload::Json(raw) => raw.serialize(s),
            Payload::Deferred(typed) => typed.to_json().serialize(s),
        }
    }
}

/// Serializes a typed payload, recording null (with a warning) for one that cannot be
/// serialized (JSON values and our payload structs never fail).
pub(crate) fn raw_json<P: Serialize + ?Sized>(payload: &P, what: &str) -> Box<RawValue> {
    serde_json::value::to_raw_value(payload).unwrap_or_else(|e| {
        tracing::warn!(event = what, "event payload could not be serialized ({e}); recorded as null");
        RawValue::NULL.to_owned()
    })
}

/// What a caller supplies to emit an event; the log fills in ids, sequence and time.
#[derive(Debug, Clone)]
pub struct EventDraft<'a> {
    pub event_type: &'a str,
    pub actor_id: &'a str,
    pub thread_id: Option<&'a str>,
    pub parent_event_id: Option<String>,
    pub caused_by: Vec<String>,
}

impl<'a> EventDraft<'a> {
    pub fn new(event_type: &'a str, actor_id: &'a str) -> Self {
        Self { event_type, actor_id, thread_id: None, parent_event_id: None, caused_by: Vec::new() }
    }

    pub fn thread(mut self, thread_id: &'a str) -> Self {
        self.thread_id = Some(thread_id);
        self
    }

    pub fn parent(mut self, parent: Option<String>) -> Self {
        self.parent_event_id = parent;
        self
    }

    pub fn caused_by(mut self, causes: Vec<String>) -> Self {
        self.caused_by = causes;
        self
    }
}

/// The names an event carries, interned by the log.
pub(super) struct Names {
    pub event_type: Rc<str>,
    pub actor_id: Rc<str>,
    pub thread_id: Rc<str>,
}

impl Event {
    pub(super) fn new(seq: u64, draft: EventDraft<'_>, names: Names, tick: u64, payload: Payload) -> Self {
        let discriminator = discriminator(seq, draft.event_type, draft.actor_id);
        Event {
            id: event_id(draft.actor_id, seq, discriminator),
            event_type: names.event_type,
            actor_id: names.actor_id,
            thread_id: names.thread_id,
            parent_event_id: draft.parent_event_id,
            caused_by: draft.caused_by,
            timestamp: super::time::unix_millis_now(),
            seq,
            tick,
            payload,
        }
    }

    /// Reads an event back from its canonical line (what serializing it wrote): the payload
    /// comes back as the exact JSON text it was written as (`Payload::Json`), and the id must
    /// be the one its seq, type and actor give, or the line is refused.
    pub(super) fn from_canonical(line: &[u8]) -> Result<Event, EventLineError> {
        let stored: StoredEvent = serde_json::from_slice(line).map_err(EventLineError::NotAnEvent)?;
        let timestamp =
            super::time::parse_unix_millis(&stored.timestamp).ok_or(EventLineError::Timestamp { timestamp: stored.timestamp })?;
        let expected = event_id(&stored.actor_id, stored.seq, discriminator(stored.seq, &stored.event_type, &stored.actor_id));
        if stored.id != expected {
            return Err(EventLineError::ForgedId { id: stored.id, expected });
        }
        Ok(Event {
            actor_id: stored.actor_id.into(),
            caused_by: stored.caused_by,
            id: stored.id,
            parent_event_id: stored.parent_event_id,
            payload: Payload::Json(stored.payload),
            seq: stored.seq,
            thread_id: stored.thread_id.into(),
            tick: stored.tick,
            timestamp,
            event_type: stored.event_type.into(),
        })
    }

    /// Appends the event's canonical JSON to `out`: byte for byte what serializing it writes
    /// (the tests hold the two together), without serde's machinery, since every event that
    /// leaves memory for the spill file, or goes into an export, is written this way.
    pub(super) fn write_canonical(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"actorId\":");
        json_str(out, &self.actor_id);
        out.extend_from_slice(b",\"causedBy\":[");
        for (i, cause) in self.caused_by.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            json_str(out, cause);
        }
        out.extend_from_slice(b"],\"id\":");
        json_str(out, &self.id);
        out.extend_from_slice(b",\"parentEventId\":");
        match &self.parent_event_id {
            Some(parent) => json_str(out, parent),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"payload\":");
        match &self.payload {
            Payload::Json(raw) => out.extend_from_slice(raw.get().as_bytes()),
            Payload::Deferred(typed) => typed.write_json(out),
        }
        out.extend_from_slice(b",\"seq\":");
        json_u64(out, self.seq);
        out.extend_from_slice(b",\"threadId\":");
        json_str(out, &self.thread_id);
        out.extend_from_slice(b",\"tick\":");
        json_u64(out, self.tick);
        out.extend_from_slice(b",\"timestamp\":");
        match super::time::unix_millis_text(self.timestamp, &mut [0; 24]) {
            Some(text) => json_str(out, text),
            None => json_str(out, &super::time::format_unix_millis(self.timestamp)),
        }
        out.extend_from_slice(b",\"type\":");
        json_str(out, &self.event_type);
        out.push(b'}');
    }

    /// The payload as a JSON value (parsed on demand).
    pub fn payload_value(&self) -> Value {
        serde_json::from_str(self.payload.json().get()).unwrap_or(Value::Null)
    }

    /// All causal parents: `parentEventId` first, then `causedBy`, without repeats.
    pub fn parents(&self) -> impl Iterator<Item = &str> {
        let parent = self.parent_event_id.as_deref();
        parent.into_iter().chain(self.caused_by.iter().map(String::as_str).filter(move |c| Some(*c) != parent))
    }
}

/// A JSON string as serde_json writes it: quoted, with `"`, `\\` and control characters
/// escaped. Names and ids rarely hold any, so they are copied in one go; the rest take
/// serde_json's own escaping, which keeps the two writers identical.
fn json_str(out: &mut Vec<u8>, text: &str) {
    // No early exit: over a whole (short) name the compiler checks many bytes at once.
    let plain = !text.bytes().fold(false, |escape, b| escape | (b < 0x20) | (b == b'"') | (b == b'\\'));
    if plain {
        out.reserve(text.len() + 2);
        out.push(b'"');
        out.extend_from_slice(text.as_bytes());
        out.push(b'"');
    } else if serde_json::to_writer(&mut *out, text).is_err() {
        // Writing a string into a Vec cannot fail; null keeps the line valid JSON if it did.
        out.extend_from_slice(b"null");
    }
}

/// A u64 in decimal, as serde_json writes it.
fn json_u64(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

/// The sequence number inside an event id (`evt_<actor>_<seq:012>_<fnv:016x>`), if well-formed.
pub fn seq_of(id: &str) -> Option<u64> {
    let rest = id.strip_prefix("evt_")?;
    let (head, fnv) = rest.rsplit_once('_')?;
    let (_, seq) = head.rsplit_once('_')?;
    let valid = fnv.len() == 16 && fnv.bytes().all(|b| b.is_ascii_hexdigit()) && seq.len() >= 12 && seq.bytes().all(|b| b.is_ascii_digit());
    if valid { seq.parse().ok() } else { None }
}

/// `evt_<actor>_<seq:012>_<discriminator:016x>`, written without the formatting machinery
/// (this runs for every event).
fn event_id(actor: &str, seq: u64, discriminator: u64) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    // Seq (at least 12 digits, zero-padded), '_', 16 hex digits, built right to left in one
    // buffer and appended at once: in a dev build each `push` is a real call.
    let mut tail = [b'0'; 20 + 1 + 16];
    let mut at = tail.len();
    let mut d = discriminator;
    for _ in 0..16 {
        at -= 1;
        tail[at] = HEX[(d & 15) as usize];
        d >>= 4;
    }
    at -= 1;
    tail[at] = b'_';
    let digits_end = at;
    let mut n = seq;
    loop {
        at -= 1;
        tail[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // The buffer is pre-filled with '0', so padding is only moving the start.
    at = at.min(digits_end - 12);
    let mut id = String::with_capacity(4 + actor.len() + 1 + tail.len() - at);
    id.push_str("evt_");
    id.push_str(actor);
    id.push('_');
    id.push_str(std::str::from_utf8(&tail[at..]).unwrap_or_default());
    id
}

/// The id discriminator: FNV-1a-64 over `{seq, type, actorId}`. It is an identity hint for
/// humans and tools, never part of verification (that is the sha256 chain), and it leaves the
/// payload out so an id exists the moment an event is emitted, before (and without) its payload
/// being serialized: the pipeline's events defer theirs (see [`Payload`]), yet a call's
/// `decisionId` and `causedBy` need the id at once.
fn discriminator(seq: u64, event_type: &str, actor_id: &str) -> u64 {
    let mut h = Fnv1a64::default();
    h.feed(&seq.to_le_bytes());
    h.feed(event_type.as_bytes());
    h.feed(&[0]);
    h.feed(actor_id.as_bytes());
    h.feed(&[0]);
    h.0
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// 64-bit FNV-1a of a byte string.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h = Fnv1a64::default();
    h.feed(bytes);
    h.0
}

struct Fnv1a64(u64);

impl Default for Fnv1a64 {
    fn default() -> Self {
        Self(FNV_OFFSET)
    }
}

impl Fnv1a64 {
    fn feed(&mut self, bytes: &[u8]) {
        let mut i = 0;
        while i < bytes.len() {
            self.0 = (self.0 ^ bytes[i] as u64).wrapping_mul(FNV_PRIME);
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fnv1a64_matches_the_published_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
    }

    fn event(seq: u64, actor: &str, payload: Value) -> Event {
        let names = Names { event_type: "t".into(), actor_id: actor.into(), thread_id: "thr".into() };
        let raw = RawValue::from_string(payload.to_string()).unwrap();
        Event::new(seq, EventDraft::new("t", actor), names, 0, Payload::Json(raw))
    }

    #[test]
    fn serialization_is_canonical_sorted_keys_compact() {
        let e = event(1, "agt_a", json!({"b": 1, "a": {"z": 0, "y": [2, 1]}}));
        let text = serde_json::to_string(&e).unwrap();
        // Round-tripping through a sorted map reproduces the same bytes.
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(serde_json::to_string(&value).unwrap(), text);
        assert!(text.starts_with("{\"actorId\":\"agt_a\",\"causedBy\":[],\"id\":"), "{text}");
        assert!(text.contains("\"payload\":{\"a\":{\"y\":[2,1],\"z\":0},\"b\":1}"), "{text}");
    }

    #[test]
    fn ids_are_zero_padded_and_hex() {
        assert_eq!(event_id("agt_a", 7, 0xabc), "evt_agt_a_000000000007_0000000000000abc");
        assert_eq!(event_id("x", 0, u64::MAX), "evt_x_000000000000_ffffffffffffffff");
        assert_eq!(event_id("x", 1234567890123, 1), "evt_x_1234567890123_0000000000000001");
        // Seq, type and actor each change the discriminator; the same header gives the same one.
        assert_ne!(discriminator(1, "t", "a"), discriminator(2, "t", "a"));
        assert_ne!(discriminator(1, "t", "a"), discriminator(1, "u", "a"));
        assert_ne!(discriminator(1, "t", "a"), discriminator(1, "t", "b"));
        assert_eq!(discriminator(1, "t", "a"), discriminator(1, "t", "a"));
    }

    /// The id as the formula reads (formatting machinery, FNV-1a byte by byte): the fast
    /// version must agree with it bit for bit.
    fn reference_id(actor: &str, seq: u64, event_type: &str) -> String {
        let mut h = Fnv1a64::default();
        for part in [&seq.to_le_bytes()[..], event_type.as_bytes(), &[0], actor.as_bytes(), &[0]] {
            for &b in part {
                h.0 = (h.0 ^ u64::from(b)).wrapping_mul(FNV_PRIME);
            }
        }
        format!("evt_{actor}_{seq:012}_{:016x}", h.0)
    }

    #[test]
    fn ids_match_the_reference_formula_bit_for_bit() {
        for (actor, kind) in [("agt_x", "skill.executed"), ("", ""), ("a_b_c", "policy.decision")] {
            for seq in [0, 1, 9, 10, 999_999_999_999, 1_000_000_000_000, u64::MAX] {
                let fast = event_id(actor, seq, discriminator(seq, kind, actor));
                assert_eq!(fast, reference_id(actor, seq, kind), "{actor} {kind} seq {seq}");
            }
        }
    }

    #[test]
    fn a_deferred_payload_serializes_as_the_same_json_inline() {
        #[derive(Debug)]
        struct Typed(u64);
        impl DeferredPayload for Typed {
            fn to_json(&self) -> Box<RawValue> {
                raw_json(&serde_json::json!({"b": self.0, "a": [1, "x"]}), "test")
            }
        }
        let names = || Names { event_type: "t".into(), actor_id: "agt_a".into(), thread_id: "thr".into() };
        let eager = Event::new(
            1,
            EventDraft::new("t", "agt_a"),
            names(),
            0,
            Payload::Json(raw_json(&serde_json::json!({"a": [1, "x"], "b": 7}), "test")),
        );
        let mut deferred = Event::new(1, EventDraft::new("t", "agt_a"), names(), 0, Payload::Deferred(Rc::new(Typed(7))));
        deferred.timestamp = eager.timestamp;
        assert_eq!(serde_json::to_string(&deferred).unwrap(), serde_json::to_string(&eager).unwrap());
        assert_eq!(deferred.payload_value(), serde_json::json!({"a": [1, "x"], "b": 7}));
    }

    #[test]
    fn an_event_reads_back_from_its_line_to_the_same_bytes() {
        let mut e = event(7, "agt_a", json!({"z": [1, 2.5, "é\n"], "a": null}));
        e.caused_by = vec!["evt_agt_a_000000000003_0000000000000001".into()];
        e.parent_event_id = Some("evt_agt_a_000000000005_0000000000000002".into());
        let line = serde_json::to_vec(&e).unwrap();
        let back = Event::from_canonical(&line).unwrap();
        assert!(matches!(back.payload, Payload::Json(_)));
        assert_eq!(serde_json::to_vec(&back).unwrap(), line);
        assert_eq!((back.seq, back.timestamp, back.parents().count()), (7, e.timestamp, 2));

        // A line whose id no longer matches its header is refused, not believed.
        let forged = String::from_utf8(line).unwrap().replace("\"seq\":7", "\"seq\":8");
        assert!(matches!(Event::from_canonical(forged.as_bytes()), Err(EventLineError::ForgedId { .. })));
        assert!(Event::from_canonical(forged.as_bytes()).unwrap_err().to_string().contains("is not the one"));
        assert!(Event::from_canonical(b"{}").is_err());
    }

    #[test]
    fn the_canonical_writer_writes_what_serde_writes() {
        #[derive(Debug)]
        struct Typed;
        impl DeferredPayload for Typed {
            fn to_json(&self) -> Box<RawValue> {
                raw_json(&serde_json::json!({"a": "\u{1}\"\\", "b": [1.5, null]}), "test")
            }
        }
        let mut odd = event(u64::MAX, "agt_\"quoted\"\n\u{7f}é", json!({"x": "\t"}));
        odd.caused_by = vec!["evt_a_000000000001_0000000000000001".into(), "c\u{1f}".into(), "q\"uote".into()];
        odd.parent_event_id = Some("evt_\\".into());
        odd.tick = 0;
        odd.timestamp = 253_402_300_800_000; // year 10000: the slow formatter
        let mut deferred = event(1, "agt_a", Value::Null);
        deferred.payload = Payload::Deferred(Rc::new(Typed));
        for e in [event(1, "agt_a", json!({"b": 1})), event(12_345, "", json!([])), odd, deferred] {
            let mut fast = Vec::new();
            e.write_canonical(&mut fast);
            assert_eq!(String::from_utf8(fast).unwrap(), serde_json::to_string(&e).unwrap());
        }
    }

    #[test]
    fn seq_is_read_back_from_ids() {
        let e = event(42, "agt_with_underscores", Value::Null);
        assert_eq!(seq_of(&e.id), Some(42));
        assert_eq!(seq_of("evt_x_000000000001_zzzzzzzzzzzzzzzz"), None);
        assert_eq!(seq_of("nope"), None);
    }
}
