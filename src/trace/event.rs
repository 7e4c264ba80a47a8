//! The event envelope and its cheap id.

use serde::Serialize;
use serde_json::Value;
use std::io;

/// One world-log event, EventLoom-shaped (`tick` and `seq` are our additions).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    pub id: String,
    #[serde(rename = "type")]
    pub event_type: String,
    pub actor_id: String,
    pub thread_id: String,
    pub parent_event_id: Option<String>,
    pub caused_by: Vec<String>,
    pub timestamp: String,
    pub seq: u64,
    pub tick: u64,
    pub payload: Value,
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
        Self {
            event_type,
            actor_id,
            thread_id: None,
            parent_event_id: None,
            caused_by: Vec::new(),
        }
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

impl Event {
    pub(super) fn new(
        seq: u64,
        draft: EventDraft<'_>,
        thread_id: String,
        tick: u64,
        payload: Value,
    ) -> Self {
        let discriminator = discriminator(seq, draft.event_type, draft.actor_id, &payload);
        Event {
            id: format!("evt_{}_{:012}_{:016x}", draft.actor_id, seq, discriminator),
            event_type: draft.event_type.to_string(),
            actor_id: draft.actor_id.to_string(),
            thread_id,
            parent_event_id: draft.parent_event_id,
            caused_by: draft.caused_by,
            timestamp: super::iso8601_now(),
            seq,
            tick,
            payload,
        }
    }
}

/// FNV-1a over `{seq, type, actorId, payload}`, streaming the payload's JSON into the hasher.
fn discriminator(seq: u64, event_type: &str, actor_id: &str, payload: &Value) -> u64 {
    let mut h = Fnv1a64::default();
    h.feed(&seq.to_le_bytes());
    h.feed(event_type.as_bytes());
    h.feed(&[0]);
    h.feed(actor_id.as_bytes());
    h.feed(&[0]);
    // Writing into the hasher cannot fail; a serialization error would only mean a weaker
    // discriminator, never a wrong event, so it is ignored.
    let _ = serde_json::to_writer(&mut h, payload);
    h.0
}

/// 64-bit FNV-1a of a byte string.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h = Fnv1a64::default();
    h.feed(bytes);
    h.0
}

struct Fnv1a64(u64);

impl Default for Fnv1a64 {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a64 {
    fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

impl io::Write for Fnv1a64 {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.feed(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a64_matches_the_published_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
    }
}
