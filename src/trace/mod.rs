//! The world log: every skill call, denial and signal becomes an EventLoom-shaped event.
//!
//! Emitting is on the hot path (every skill call), so it does no cryptography: the id is a
//! sequence number plus a cheap FNV-1a discriminator computed by streaming the payload through
//! the hasher (no intermediate string). The sha256 chain and JSONL export are computed later,
//! off the loop, from the durable history kept here.

mod event;
mod time;

pub use event::{Event, EventDraft, fnv1a64};
pub use time::iso8601_now;

use serde_json::Value;

/// The world log of one engine: full durable history in emit order.
#[derive(Debug)]
pub struct TraceLog {
    thread_id: String,
    events: Vec<Event>,
    next_seq: u64,
}

impl TraceLog {
    pub fn new(thread_id: impl Into<String>) -> Self {
        Self {
            thread_id: thread_id.into(),
            events: Vec::new(),
            next_seq: 1,
        }
    }

    /// Appends an event and returns its id.
    pub fn emit(&mut self, draft: EventDraft<'_>, tick: u64, payload: Value) -> &Event {
        let seq = self.next_seq;
        self.next_seq += 1;
        let thread_id = draft.thread_id.unwrap_or(&self.thread_id).to_string();
        let event = Event::new(seq, draft, thread_id, tick, payload);
        self.events.push(event);
        // Just pushed, so the vector is non-empty.
        &self.events[self.events.len() - 1]
    }

    pub fn events(&self) -> &[Event] {
        &self.events
    }

    pub fn len(&self) -> usize {
        self.events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    pub fn thread_id(&self) -> &str {
        &self.thread_id
    }

    /// Events with a sequence number above `after_seq`, oldest first.
    pub fn since(&self, after_seq: u64) -> &[Event] {
        // Sequence numbers start at 1 and are dense, so the index is seq - 1.
        let start = usize::try_from(after_seq)
            .unwrap_or(usize::MAX)
            .min(self.events.len());
        &self.events[start..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ids_carry_actor_sequence_and_discriminator() {
        let mut log = TraceLog::new("thr_main");
        let id = log
            .emit(
                EventDraft::new("skill.executed", "agt_a"),
                3,
                json!({"x": 1}),
            )
            .id
            .clone();
        assert!(id.starts_with("evt_agt_a_000000000001_"), "{id}");
        assert_eq!(id.len(), "evt_agt_a_000000000001_".len() + 16);
        let second = log
            .emit(
                EventDraft::new("skill.executed", "agt_a"),
                3,
                json!({"x": 1}),
            )
            .id
            .clone();
        assert!(second.contains("_000000000002_"));
        assert_ne!(
            id[id.len() - 16..],
            second[second.len() - 16..],
            "seq is part of the discriminator"
        );
    }

    #[test]
    fn causality_and_tick_are_recorded() {
        let mut log = TraceLog::new("thr_main");
        let parent = log
            .emit(EventDraft::new("a", "sys"), 0, Value::Null)
            .id
            .clone();
        let draft = EventDraft::new("b", "sys")
            .caused_by(vec![parent.clone()])
            .parent(Some(parent.clone()));
        let child = log.emit(draft, 7, Value::Null);
        assert_eq!(child.caused_by, vec![parent.clone()]);
        assert_eq!(child.parent_event_id.as_deref(), Some(parent.as_str()));
        assert_eq!(child.tick, 7);
        assert_eq!(child.thread_id, "thr_main");
        assert_eq!(log.since(1).len(), 1);
        assert_eq!(log.since(99).len(), 0);
    }
}
