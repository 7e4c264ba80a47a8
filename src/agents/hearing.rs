//! What an agent hears, and what happens to it between two looks: one bounded inbox per agent,
//! numbered so a reader with a cursor misses nothing without being told.
//!
//! A line said (`social.said`) is delivered at once, in the tick it is said, to every other agent
//! whose body is within [`EARSHOT_M`] of the speaker's body (3-D distance between the bodies'
//! positions; an agent without a body neither speaks nor hears). Each inbox keeps the latest
//! [`INBOX_CAPACITY`] items: past that the oldest go, and the next look says how many it missed.
//! Items are numbered per agent from 1; a look returns the items after a cursor and the cursor to
//! pass next time. Inboxes are kept beside the records, not in them: they are derived from the
//! world log (a replay re-delivers every line as it re-applies the calls), so they are neither in
//! the world hash nor in snapshots.

use std::collections::VecDeque;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

/// How far a said line carries, metres: a raised voice across a room or a small clearing.
pub const EARSHOT_M: f64 = 20.0;
/// Items one agent's inbox keeps; older ones are dropped (and counted) when more arrive.
pub const INBOX_CAPACITY: usize = 64;
/// Items one look returns at most (the rest wait for the next).
pub const MAX_LOOK: usize = 64;

/// A line an agent heard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HeardLine {
    /// The speaker's agent id (its name: agents are known by their ids, `agt_fox`).
    pub speaker: String,
    /// The entity the speaker inhabits.
    pub speaker_entity: String,
    pub text: String,
    /// The tick it was said.
    pub tick: u64,
    /// Metres between the speaker's body and the hearer's when it was said.
    pub distance: f64,
}

/// One thing an agent was told of.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Happening {
    /// A line said within earshot.
    Heard(HeardLine),
    /// An event of its own the world log recorded (an approach arrived or failed, a signal it
    /// sent): the outcomes of its calls are not repeated here, the caller had them as answers.
    Event {
        #[serde(rename = "type")]
        event_type: Rc<str>,
        tick: u64,
    },
}

/// A numbered item of an inbox.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Item {
    pub seq: u64,
    #[serde(flatten)]
    pub what: Happening,
}

/// One agent's inbox.
#[derive(Debug, Default, Clone)]
pub struct Inbox {
    items: VecDeque<Item>,
    /// The number of the latest item (0: none yet).
    last_seq: u64,
    /// Where a look without a cursor starts: the latest item any look has returned.
    looked: u64,
}

/// What one look returns.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Look {
    pub items: Vec<Item>,
    /// Items after the cursor that were dropped (the inbox was full) before this look.
    pub dropped: u64,
    /// Pass this as the next look's cursor.
    pub cursor: u64,
    /// Items after `cursor` still waiting (the look returned at most its `max`).
    pub more: u64,
}

impl Inbox {
    pub fn push(&mut self, what: Happening) {
        if self.items.len() == INBOX_CAPACITY {
            self.items.pop_front();
        }
        self.last_seq += 1;
        self.items.push_back(Item { seq: self.last_seq, what });
    }

    /// The items after `cursor` (None: after the last look), at most `max`. A cursor past the
    /// latest item reads as the latest (nothing is skipped ahead of time).
    pub fn look(&mut self, cursor: Option<u64>, max: usize) -> Look {
        let after = cursor.unwrap_or(self.looked).min(self.last_seq);
        let first = self.items.front().map_or(self.last_seq + 1, |i| i.seq);
        let dropped = first.saturating_sub(after + 1);
        let waiting: Vec<&Item> = self.items.iter().filter(|i| i.seq > after).collect();
        let items: Vec<Item> = waiting.iter().take(max).map(|i| (*i).clone()).collect();
        let next = items.last().map_or(after.max(first.saturating_sub(1)), |i| i.seq);
        self.looked = self.looked.max(next);
        Look { more: (waiting.len() - items.len()) as u64, items, dropped, cursor: next }
    }
}

/// Whether an event of an agent's own is worth telling its client (see [`Happening::Event`]).
pub(crate) fn worth_telling(event_type: &str) -> bool {
    !(event_type.starts_with("skill.")
        || event_type.starts_with("policy.")
        || event_type.starts_with("security.")
        || event_type.starts_with("agent.perception.")
        || event_type == "social.said")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(n: u64) -> Happening {
        Happening::Heard(HeardLine {
            speaker: "agt_a".into(),
            speaker_entity: "ent_0001".into(),
            text: format!("line {n}"),
            tick: n,
            distance: 1.0,
        })
    }

    #[test]
    fn a_cursor_misses_nothing_and_counts_what_was_dropped() {
        let mut inbox = Inbox::default();
        for n in 1..=3 {
            inbox.push(line(n));
        }
        let first = inbox.look(None, MAX_LOOK);
        assert_eq!((first.items.len(), first.dropped, first.cursor, first.more), (3, 0, 3, 0));
        assert_eq!(inbox.look(None, MAX_LOOK).items.len(), 0, "nothing new since the last look");
        for n in 4..=(3 + INBOX_CAPACITY as u64 + 10) {
            inbox.push(line(n));
        }
        let late = inbox.look(Some(first.cursor), MAX_LOOK);
        assert_eq!(late.dropped, 10, "ten items after the cursor were pushed out");
        assert_eq!(late.items.first().map(|i| i.seq), Some(14));
        assert_eq!(late.items.len(), INBOX_CAPACITY.min(MAX_LOOK));
        assert_eq!(late.cursor, 3 + INBOX_CAPACITY as u64 + 10);
    }

    #[test]
    fn a_small_look_leaves_the_rest_for_the_next() {
        let mut inbox = Inbox::default();
        for n in 1..=5 {
            inbox.push(line(n));
        }
        let a = inbox.look(Some(0), 2);
        assert_eq!((a.items.len(), a.cursor, a.more), (2, 2, 3));
        let b = inbox.look(Some(a.cursor), 10);
        assert_eq!((b.items.len(), b.dropped, b.cursor, b.more), (3, 0, 5, 0));
        let future = inbox.look(Some(1_000), 10);
        assert_eq!((future.items.len(), future.cursor), (0, 5), "a cursor from the future reads as now");
    }

    #[test]
    fn an_inbox_never_holds_more_than_its_capacity() {
        let mut inbox = Inbox::default();
        for n in 0..10_000 {
            inbox.push(line(n));
        }
        assert_eq!(inbox.items.len(), INBOX_CAPACITY);
    }
}
