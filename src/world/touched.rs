//! Which entities changed what a viewer sees, and when: the journal the state stream reads so a
//! publish costs what changed, not what exists.
//!
//! Every mutation path in `World` that changes a viewer's picture (create, destroy, a transform
//! edit, physics writing poses back, a tag or material or look change) calls `touch`. Touches
//! land in the open batch; a reader `seal`s it and gets an epoch, and later asks what was touched
//! `since` that epoch. Each entity keeps one `Stamp` (the epochs of its last touch of each kind),
//! and each batch lists an id once (the stamp dedupes), so a reader walks only the batches after
//! its epoch and takes an id only from the batch of its last touch: O(touched since), never
//! O(world).
//!
//! Bounded: batches are dropped oldest first past `MAX_ENTRIES` ids or `MAX_BATCHES` batches,
//! raising `floor`; a reader behind the floor (a subscriber that stalled, or a world replaced by a
//! load or a restore, whose journal has another `id`) must resync with a snapshot. Off until a
//! reader turns it on (`set_enabled`), so a world nobody watches pays nothing per touch.
//!
//! Why a journal and not bevy_ecs change ticks: `Changed<Transform>` is answered by a query that
//! visits every entity's tick (O(world) per publish, the cost this replaces), and it would miss
//! destroyed entities. Why batches and not one stamp-ordered index (a BTreeMap keyed by last
//! touch): a touch is then a remove and an insert (O(log n), 2000 bodies every tick), against a
//! hash lookup and a push here; the price is stale ids in old batches, which the bound caps.
//!
//! Not world state: it is neither hashed nor saved. A restored or loaded world starts with a new,
//! empty journal, and whoever read the old one resyncs.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};

use super::EntityId;

/// Ids all batches may hold together (8 bytes each: 4 MiB). 2,000 bodies moving every tick fill
/// it in 262 ticks, longer than a subscriber may stall before it is cut off.
pub const MAX_ENTRIES: usize = 1 << 19;
/// Sealed batches kept (one per publish that saw a change).
pub const MAX_BATCHES: usize = 4096;

/// What kind of change a touch records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Touch {
    Created,
    /// Position, rotation or scale.
    Pose,
    /// Shape, size, colour, material or tags.
    Look,
    Destroyed,
}

/// The epochs of an entity's last touches (0: never, within this journal).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stamp {
    pub last: u64,
    pub created: u64,
    pub pose: u64,
    pub look: u64,
    pub destroyed: u64,
}

#[derive(Debug)]
struct Batch {
    epoch: u64,
    ids: Vec<EntityId>,
}

/// Makes each journal's id unique in the process, so a reader can tell a replaced world.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

#[derive(Debug)]
pub struct TouchJournal {
    id: u64,
    enabled: bool,
    /// The last sealed epoch; the open batch becomes `epoch + 1`.
    epoch: u64,
    /// Readers at an epoch below this missed changes (dropped batches, or the journal was off).
    floor: u64,
    batches: VecDeque<Batch>,
    open: Vec<EntityId>,
    entries: usize,
    stamps: HashMap<EntityId, Stamp>,
}

impl Default for TouchJournal {
    fn default() -> Self {
        Self {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            enabled: false,
            epoch: 0,
            floor: 0,
            batches: VecDeque::new(),
            open: Vec::new(),
            entries: 0,
            stamps: HashMap::new(),
        }
    }
}

impl TouchJournal {
    /// Which journal this is (a new world, a loaded or restored one, has another).
    pub fn id(&self) -> u64 {
        self.id
    }

    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Turns recording on or off. Off forgets everything, and on again starts a new epoch that
    /// every earlier reader is behind (what happened meanwhile was not recorded).
    pub fn set_enabled(&mut self, on: bool) {
        if on == self.enabled {
            return;
        }
        self.enabled = on;
        self.batches.clear();
        self.open.clear();
        self.stamps.clear();
        self.entries = 0;
        self.epoch += 1;
        self.floor = self.epoch;
    }

    /// Records that `id` changed in the open batch (nothing when off).
    #[inline]
    pub fn touch(&mut self, id: EntityId, kind: Touch) {
        if !self.enabled {
            return;
        }
        let open = self.epoch + 1;
        let stamp = self.stamps.entry(id).or_default();
        if stamp.last != open {
            stamp.last = open;
            self.open.push(id);
        }
        match kind {
            Touch::Created => stamp.created = open,
            Touch::Pose => stamp.pose = open,
            Touch::Look => stamp.look = open,
            Touch::Destroyed => stamp.destroyed = open,
        }
    }

    /// Closes the open batch (when it holds anything) and returns the epoch a reader now stands
    /// at: every change so far is at or before it.
    pub fn seal(&mut self) -> u64 {
        if self.open.is_empty() {
            return self.epoch;
        }
        self.epoch += 1;
        let ids = std::mem::take(&mut self.open);
        self.entries += ids.len();
        self.batches.push_back(Batch { epoch: self.epoch, ids });
        while self.entries > MAX_ENTRIES || self.batches.len() > MAX_BATCHES {
            let Some(old) = self.batches.pop_front() else { break };
            self.entries -= old.ids.len();
            self.floor = old.epoch;
            // A destroyed entity's stamp goes with the batch of its last touch (its destruction).
            for id in old.ids {
                if self.stamps.get(&id).is_some_and(|s| s.last == old.epoch && s.destroyed == old.epoch) {
                    self.stamps.remove(&id);
                }
            }
        }
        self.epoch
    }

    /// Whether a reader at `epoch` can be told what changed since (else it must resync).
    pub fn covers(&self, epoch: u64) -> bool {
        self.enabled && epoch >= self.floor && epoch <= self.epoch
    }

    /// The entities touched after `epoch` up to the last seal, each once with its stamp, in the
    /// order of their last touch; None when the journal no longer covers `epoch`.
    pub fn since(&self, epoch: u64) -> Option<impl Iterator<Item = (EntityId, Stamp)> + '_> {
        if !self.covers(epoch) {
            return None;
        }
        let first = self.batches.partition_point(|b| b.epoch <= epoch);
        Some(
            self.batches
                .range(first..)
                .flat_map(move |b| b.ids.iter().filter_map(move |id| self.stamps.get(id).filter(|s| s.last == b.epoch).map(|s| (*id, *s)))),
        )
    }

    /// Ids the batches hold (for tests and the bound).
    pub fn entries(&self) -> usize {
        self.entries
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on() -> TouchJournal {
        let mut j = TouchJournal::default();
        j.set_enabled(true);
        j
    }

    #[test]
    fn each_touched_entity_is_listed_once_with_the_kinds_since_the_epoch() {
        let mut j = on();
        j.touch(EntityId(1), Touch::Created);
        let e0 = j.seal();
        j.touch(EntityId(1), Touch::Pose);
        j.touch(EntityId(2), Touch::Look);
        j.seal();
        j.touch(EntityId(1), Touch::Pose);
        let e2 = j.seal();
        let seen: Vec<(EntityId, Stamp)> = j.since(e0).unwrap().collect();
        assert_eq!(seen.iter().map(|(id, _)| id.0).collect::<Vec<_>>(), vec![2, 1], "once each, by last touch");
        let one = seen[1].1;
        assert!(one.pose > e0 && one.created <= e0 && one.look == 0);
        assert_eq!(j.since(e2).unwrap().count(), 0);
    }

    #[test]
    fn off_records_nothing_and_a_reader_from_before_is_behind() {
        let mut j = TouchJournal::default();
        j.touch(EntityId(1), Touch::Pose);
        assert_eq!(j.entries(), 0);
        let before = j.seal();
        j.set_enabled(true);
        assert!(!j.covers(before), "changes while off were not recorded");
        let now = j.seal();
        assert!(j.covers(now));
    }

    #[test]
    fn past_the_bound_the_oldest_batches_go_and_their_readers_must_resync() {
        let mut j = on();
        let start = j.seal();
        for round in 0..3u64 {
            for i in 0..(MAX_ENTRIES as u64 / 2) {
                j.touch(EntityId(round * 1_000_000 + i), Touch::Pose);
            }
            j.seal();
        }
        assert!(j.entries() <= MAX_ENTRIES);
        assert!(j.since(start).is_none(), "a reader behind the window resyncs");
        let now = j.seal();
        assert!(j.since(now).is_some());
    }

    #[test]
    fn a_destroyed_entity_is_forgotten_with_its_last_batch() {
        let mut j = on();
        j.touch(EntityId(7), Touch::Destroyed);
        j.seal();
        for i in 0..(MAX_ENTRIES as u64 + 1) {
            j.touch(EntityId(100 + i), Touch::Pose);
        }
        j.seal();
        assert!(!j.stamps.contains_key(&EntityId(7)));
    }
}
