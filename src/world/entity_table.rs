//! `EntityTable`: the only map from the opaque `ent_0001` ids the outside world sees to the
//! engine's internal handles.
//!
//! Ids are monotonic and never reused, so a destroyed id resolves to nothing forever, even when
//! bevy recycles the underlying `Entity` index. The table can snapshot and restore its identity
//! state (live entries in creation order, the counter, the version) so a restored world issues the
//! same next ids. It owns no components; the ECS and physics hold the data.
//!
//! A lookup that fails says why (`EntityRefError`): a malformed id, an id past the counter (it
//! never existed: ids are never reused, so the counter decides), or a destroyed one, with the
//! tick it was destroyed at. Destruction ticks are kept for the last `DESTROYED_KEPT`
//! destructions only, so a server that destroys millions of entities holds a fixed amount; an
//! older destroyed id is reported as destroyed at or before the newest tick the window forgot.
//! Only the failure path reads the window (a scan, newest first).

use std::collections::{BTreeMap, VecDeque};
use std::fmt;

/// Live entities a world holds at most unless built with another capacity (`World::with_capacity`,
/// `EngineConfig::entity_capacity`). Four times the reference's `MAX_ENTITIES` (16384), for
/// worlds with in-world agents; the table is a map, so an unused capacity costs no memory.
pub const DEFAULT_ENTITY_CAPACITY: usize = 65_536;

/// Destructions whose exact tick a table remembers (16 bytes each).
pub const DESTROYED_KEPT: usize = 4096;

/// The numeric part of an `ent_` id. Ordered by creation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EntityId(pub u64);

impl EntityId {
    /// Parses the canonical form only: `ent_` followed by at least four digits with no extra
    /// leading zeros, so `ent_1` or `ent_00001` never alias `ent_0001`.
    pub fn parse(text: &str) -> Option<EntityId> {
        let digits = text.strip_prefix("ent_")?;
        if digits.len() < 4 || digits.len() > 19 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        // Canonical is `{:04}`: four digits, or more without a leading zero. Checked on the text
        // (formatting the id back to compare allocated on every skill call naming an entity).
        if digits.len() > 4 && digits.starts_with('0') {
            return None;
        }
        let n: u64 = digits.parse().ok()?;
        (n > 0).then_some(EntityId(n))
    }
}

/// Serialized as its public text (`ent_0001`).
impl serde::Serialize for EntityId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl fmt::Display for EntityId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ent_{:04}", self.0)
    }
}

/// Internal handles of one live entity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EntityRecord<H: Copy> {
    pub id: EntityId,
    pub handle: H,
}

/// When a destroyed entity went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DestroyedAt {
    /// The exact tick (a recent destruction).
    Tick(u64),
    /// At or before this tick: the exact one has left the bounded window.
    AtOrBefore(u64),
}

impl fmt::Display for DestroyedAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DestroyedAt::Tick(t) => write!(f, "at tick {t}"),
            DestroyedAt::AtOrBefore(t) => write!(f, "at or before tick {t}"),
        }
    }
}

/// Why an id names no live entity. The message leaves out the field; callers prefix it
/// (`entity: ...`).
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum EntityRefError {
    #[error("'{text}' is not an entity id ({})", malformed_because(text))]
    Malformed { text: String },
    #[error("{id} never existed ({})", match last { Some(last) => format!("ids so far go up to {last}"), None => "no entity has been created yet".to_string() })]
    NeverExisted { id: EntityId, last: Option<EntityId> },
    #[error("{id} was destroyed {at}")]
    Destroyed { id: EntityId, at: DestroyedAt },
}

/// What is wrong with text that has the general look of an entity id, or the form expected.
fn malformed_because(text: &str) -> &'static str {
    let digits = text.strip_prefix("ent_").filter(|d| d.len() >= 4 && d.bytes().all(|b| b.is_ascii_digit()));
    match digits {
        Some(d) if d.len() > 4 && d.starts_with('0') => "expected the form ent_0001: the number is padded to 4 digits, no further",
        Some(d) if d.bytes().all(|b| b == b'0') => "ids start at ent_0001",
        Some(_) => "the number is larger than any entity id (at most 19 digits)",
        None => "expected the form ent_0001: ent_ then 4 or more digits",
    }
}

impl EntityRefError {
    /// True for a malformed id (the caller's `invalid_input`); the others are `not_found`.
    pub fn is_malformed(&self) -> bool {
        matches!(self, EntityRefError::Malformed { .. })
    }
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum EntityTableError {
    #[error("entity capacity exceeded: {live} live entities is the maximum ({max})")]
    CapacityExceeded { live: usize, max: usize },
}

/// Identity state of a table, enough to restore it exactly.
#[derive(Debug, Clone, PartialEq)]
pub struct EntityTableSnapshot<H: Copy> {
    pub live: Vec<EntityRecord<H>>,
    pub next: u64,
    pub version: u64,
    pub destroyed: Destroyed,
}

/// The recent destructions (id, tick), oldest first, and the newest tick that left the window.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Destroyed {
    recent: VecDeque<(EntityId, u64)>,
    forgotten_through: Option<u64>,
}

impl Destroyed {
    fn record(&mut self, id: EntityId, tick: u64) {
        if self.recent.len() == DESTROYED_KEPT
            && let Some((_, tick)) = self.recent.pop_front()
        {
            self.forgotten_through = Some(self.forgotten_through.map_or(tick, |t| t.max(tick)));
        }
        self.recent.push_back((id, tick));
    }

    /// When `id` (created, not live) was destroyed.
    fn at(&self, id: EntityId) -> DestroyedAt {
        match self.recent.iter().rev().find(|(d, _)| *d == id) {
            Some((_, tick)) => DestroyedAt::Tick(*tick),
            // Every destruction not in the window left it, so it happened by the newest tick
            // that left. (Without one, only a table restored from an older snapshot format could
            // get here; tick 0 is then still true.)
            None => DestroyedAt::AtOrBefore(self.forgotten_through.unwrap_or(0)),
        }
    }
}

/// Maps ids to handles `H` (the world stores a bundle of ECS entity + physics body there).
#[derive(Debug, Clone)]
pub struct EntityTable<H: Copy> {
    live: BTreeMap<EntityId, H>,
    next: u64,
    version: u64,
    capacity: usize,
    destroyed: Destroyed,
}

impl<H: Copy> Default for EntityTable<H> {
    fn default() -> Self {
        Self::with_capacity(DEFAULT_ENTITY_CAPACITY)
    }
}

impl<H: Copy> EntityTable<H> {
    pub fn with_capacity(capacity: usize) -> Self {
        Self { live: BTreeMap::new(), next: 1, version: 0, capacity, destroyed: Destroyed::default() }
    }

    /// Checks there is room for one more entity. Callers check before building anything so a
    /// refused create leaves nothing half-made.
    pub(crate) fn ensure_room(&self) -> Result<(), EntityTableError> {
        if self.live.len() >= self.capacity {
            return Err(EntityTableError::CapacityExceeded { live: self.live.len(), max: self.capacity });
        }
        Ok(())
    }

    /// The id the next `insert` will allocate.
    pub(crate) fn peek_next(&self) -> EntityId {
        EntityId(self.next)
    }

    pub fn insert(&mut self, handle: H) -> Result<EntityId, EntityTableError> {
        self.ensure_room()?;
        let id = EntityId(self.next);
        self.next += 1;
        self.version += 1;
        self.live.insert(id, handle);
        Ok(id)
    }

    /// A copy whose handles are `f` of these (a duplicated world's new ECS entities).
    pub(crate) fn remapped(&self, mut f: impl FnMut(H) -> H) -> Self {
        let mut copy = self.clone();
        for handle in copy.live.values_mut() {
            *handle = f(*handle);
        }
        copy
    }

    pub fn get(&self, id: EntityId) -> Option<H> {
        self.live.get(&id).copied()
    }

    /// Resolves an id string; anything malformed or retired resolves to `None`.
    pub fn resolve(&self, text: &str) -> Option<(EntityId, H)> {
        self.lookup(text).ok()
    }

    /// Resolves an id string, saying why when it names no live entity.
    pub fn lookup(&self, text: &str) -> Result<(EntityId, H), EntityRefError> {
        let id = EntityId::parse(text).ok_or_else(|| EntityRefError::Malformed { text: crate::clip::shown(text) })?;
        match self.get(id) {
            Some(h) => Ok((id, h)),
            None if id.0 >= self.next => Err(EntityRefError::NeverExisted { id, last: (self.next > 1).then(|| EntityId(self.next - 1)) }),
            None => Err(EntityRefError::Destroyed { id, at: self.destroyed.at(id) }),
        }
    }

    /// Removes a live entity, remembering that it went at `tick`.
    pub fn remove(&mut self, id: EntityId, tick: u64) -> Option<H> {
        let removed = self.live.remove(&id);
        if removed.is_some() {
            self.version += 1;
            self.destroyed.record(id, tick);
        }
        removed
    }

    pub fn len(&self) -> usize {
        self.live.len()
    }

    pub fn is_empty(&self) -> bool {
        self.live.is_empty()
    }

    pub(crate) fn capacity(&self) -> usize {
        self.capacity
    }

    pub fn version(&self) -> u64 {
        self.version
    }

    /// Live entries in id (= creation) order.
    pub fn iter(&self) -> impl Iterator<Item = (EntityId, H)> + '_ {
        self.live.iter().map(|(id, h)| (*id, *h))
    }

    /// Live entries within an id range, in id order.
    pub fn range(&self, range: (std::ops::Bound<EntityId>, std::ops::Bound<EntityId>)) -> impl Iterator<Item = (EntityId, H)> + '_ {
        self.live.range(range).map(|(id, h)| (*id, *h))
    }

    pub fn snapshot(&self) -> EntityTableSnapshot<H> {
        EntityTableSnapshot {
            live: self.iter().map(|(id, handle)| EntityRecord { id, handle }).collect(),
            next: self.next,
            version: self.version,
            destroyed: self.destroyed.clone(),
        }
    }

    pub fn restore(snapshot: &EntityTableSnapshot<H>, capacity: usize) -> Self {
        Self {
            live: snapshot.live.iter().map(|r| (r.id, r.handle)).collect(),
            next: snapshot.next,
            version: snapshot.version,
            capacity,
            destroyed: snapshot.destroyed.clone(),
        }
    }
}

/// The largest id counter a snapshot may carry.
const MAX_COUNTER: u64 = 1 << 63;

/// A table's identity state for snapshots: the counter, the version and the destroyed window
/// (the live entries travel with their entities).
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct TableState {
    next: u64,
    version: u64,
    /// (id, tick), oldest first.
    destroyed: Vec<(u64, u64)>,
    forgotten_through: Option<u64>,
}

impl<H: Copy> EntityTable<H> {
    pub(crate) fn state(&self) -> TableState {
        TableState {
            next: self.next,
            version: self.version,
            destroyed: self.destroyed.recent.iter().map(|(id, tick)| (id.0, *tick)).collect(),
            forgotten_through: self.destroyed.forgotten_through,
        }
    }

    /// The table `state` describes with `live` as its entries, holding at most `capacity`.
    pub(crate) fn from_state(
        state: TableState,
        live: BTreeMap<EntityId, H>,
        capacity: usize,
    ) -> Result<Self, super::state::WorldStateError> {
        use super::state::WorldStateError as E;
        // No engine gets near 2^63 ids (one per entity created); a counter past it could wrap
        // in `insert` and hand out ids that are live or 0.
        if !(1..=MAX_COUNTER).contains(&state.next) {
            return Err(E::BadCounter { next: state.next, max: MAX_COUNTER });
        }
        if live.len() > capacity {
            return Err(E::TooMany { what: "live entities", count: live.len(), max: capacity });
        }
        if let Some((last, _)) = live.last_key_value()
            && last.0 >= state.next
        {
            return Err(E::PastCounter { id: *last, next: state.next });
        }
        if state.destroyed.len() > DESTROYED_KEPT {
            return Err(E::TooMany { what: "remembered destructions", count: state.destroyed.len(), max: DESTROYED_KEPT });
        }
        for &(id, _) in &state.destroyed {
            let id = EntityId(id);
            if id.0 == 0 {
                return Err(E::ZeroId);
            }
            if id.0 >= state.next {
                return Err(E::PastCounter { id, next: state.next });
            }
            if live.contains_key(&id) {
                return Err(E::DestroyedIsLive { id });
            }
        }
        let recent = state.destroyed.into_iter().map(|(id, tick)| (EntityId(id), tick)).collect();
        Ok(Self {
            live,
            next: state.next,
            version: state.version,
            capacity,
            destroyed: Destroyed { recent, forgotten_through: state.forgotten_through },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_monotonic_and_zero_padded() {
        let mut t = EntityTable::<u32>::default();
        let a = t.insert(10).unwrap();
        let b = t.insert(11).unwrap();
        assert_eq!(a.to_string(), "ent_0001");
        assert_eq!(b.to_string(), "ent_0002");
        assert_eq!(EntityId(12345).to_string(), "ent_12345");
    }

    #[test]
    fn destroyed_id_never_resolves_again() {
        let mut t = EntityTable::<u32>::default();
        let a = t.insert(7).unwrap();
        assert_eq!(t.remove(a, 3), Some(7));
        // The same internal handle is reused by a new entity: the old id must still be dead.
        let b = t.insert(7).unwrap();
        assert_ne!(a, b);
        assert_eq!(t.resolve("ent_0001"), None);
        assert_eq!(t.resolve("ent_0002"), Some((b, 7)));
        assert_eq!(t.remove(a, 4), None);
    }

    #[test]
    fn only_canonical_ids_parse() {
        assert_eq!(EntityId::parse("ent_0001"), Some(EntityId(1)));
        assert_eq!(EntityId::parse("ent_12345"), Some(EntityId(12345)));
        for bad in ["ent_1", "ent_00001", "ent_0000", "ent_-001", "ent_00a1", "ENT_0001", "", "ent_", "ent_ 001", "ent_+001", "ent_099999"]
        {
            assert_eq!(EntityId::parse(bad), None, "{bad:?} must not parse");
        }
        // Parsing accepts exactly the texts ids are written as.
        for n in [1, 9, 10, 999, 1000, 9999, 10_000, 123_456, u64::from(u32::MAX), 9_999_999_999_999_999_999] {
            let text = EntityId(n).to_string();
            assert_eq!(EntityId::parse(&text), Some(EntityId(n)), "{text}");
            assert_eq!(EntityId::parse(&format!("ent_0{}", &text[4..])), None, "a padded {text} is not canonical");
        }
    }

    #[test]
    fn capacity_is_enforced_without_consuming_an_id() {
        let mut t = EntityTable::<u32>::with_capacity(2);
        t.insert(1).unwrap();
        t.insert(2).unwrap();
        let version = t.version();
        assert_eq!(t.insert(3), Err(EntityTableError::CapacityExceeded { live: 2, max: 2 }));
        assert_eq!(t.version(), version);
        assert_eq!(t.peek_next(), EntityId(3));
        t.remove(EntityId(1), 0);
        assert_eq!(t.insert(3).unwrap(), EntityId(3));
    }

    #[test]
    fn default_capacity_is_65536() {
        let mut t = EntityTable::<u32>::default();
        for i in 0..65_536 {
            t.insert(i).unwrap();
        }
        assert_eq!(t.insert(0), Err(EntityTableError::CapacityExceeded { live: 65_536, max: 65_536 }));
        assert_eq!(t.len(), 65_536);
    }

    #[test]
    fn restore_issues_the_same_next_ids() {
        let mut t = EntityTable::<u32>::default();
        for i in 0..5 {
            t.insert(i).unwrap();
        }
        t.remove(EntityId(2), 5);
        let snap = t.snapshot();
        let mut restored = EntityTable::restore(&snap, DEFAULT_ENTITY_CAPACITY);
        assert_eq!(restored.snapshot(), snap);
        assert_eq!(restored.insert(9).unwrap(), t.insert(9).unwrap());
        assert_eq!(restored.version(), t.version());
        assert_eq!(restored.resolve("ent_0002"), None);
        assert_eq!(restored.lookup("ent_0002"), t.lookup("ent_0002"));
        assert_eq!(restored.lookup("ent_0002").unwrap_err().to_string(), "ent_0002 was destroyed at tick 5");
    }

    #[test]
    fn a_snapshot_counter_that_could_wrap_or_start_at_zero_is_refused() {
        use super::super::state::WorldStateError as E;
        let state = |next| TableState { next, version: 0, destroyed: Vec::new(), forgotten_through: None };
        for next in [0, u64::MAX, MAX_COUNTER + 1] {
            let e = EntityTable::<u32>::from_state(state(next), BTreeMap::new(), 8).unwrap_err();
            assert!(matches!(e, E::BadCounter { next: n, .. } if n == next), "{next}: {e}");
        }
        let mut t = EntityTable::<u32>::from_state(state(MAX_COUNTER), BTreeMap::new(), 8).unwrap();
        assert_eq!(t.insert(1).unwrap(), EntityId(MAX_COUNTER));
        assert_eq!(
            EntityTable::<u32>::from_state(state(u64::MAX), BTreeMap::new(), 8).unwrap_err().to_string(),
            "the id counter 18446744073709551615 is outside 1..=9223372036854775808 (an engine counts up from 1, one id per entity created)"
        );
    }

    #[test]
    fn a_failed_lookup_says_malformed_never_existed_or_destroyed_when() {
        let mut t = EntityTable::<u32>::default();
        assert_eq!(t.lookup("ent_0001").unwrap_err().to_string(), "ent_0001 never existed (no entity has been created yet)");
        for i in 0..42 {
            t.insert(i).unwrap();
        }
        t.remove(EntityId(3), 12);
        let err = |text: &str| t.lookup(text).unwrap_err();
        assert_eq!(err("ent_0003").to_string(), "ent_0003 was destroyed at tick 12");
        assert_eq!(err("ent_0043").to_string(), "ent_0043 never existed (ids so far go up to ent_0042)");
        assert_eq!(err("box1").to_string(), "'box1' is not an entity id (expected the form ent_0001: ent_ then 4 or more digits)");
        assert!(err("ent_1").is_malformed() && err("ent_x").is_malformed() && !err("ent_0003").is_malformed());
        assert!(err("ent_99999999999999999999999").to_string().contains("larger than any entity id"));
        assert!(err("ent_00042").to_string().contains("padded to 4 digits"));
        assert!(err("ent_0000").to_string().contains("start at ent_0001"));
        assert_eq!(t.lookup("ent_0004"), Ok((EntityId(4), 3)));
    }

    #[test]
    fn destruction_ticks_are_kept_for_a_bounded_window_then_bounded_by_the_newest_forgotten() {
        let mut t = EntityTable::<u64>::with_capacity(usize::MAX);
        let total = DESTROYED_KEPT as u64 + 100;
        for i in 0..total {
            t.insert(i).unwrap();
        }
        // Destroyed in id order, one per tick: entity n goes at tick 1000 + n.
        for n in 1..=total {
            t.remove(EntityId(n), 1000 + n);
        }
        assert_eq!(t.destroyed.recent.len(), DESTROYED_KEPT, "the window holds a fixed number");
        // The first 100 left the window; the newest of them went at tick 1100.
        let at = |n: u64| match t.lookup(&EntityId(n).to_string()) {
            Err(EntityRefError::Destroyed { at, .. }) => at,
            other => panic!("{other:?}"),
        };
        assert_eq!(at(1), DestroyedAt::AtOrBefore(1100));
        assert_eq!(at(100), DestroyedAt::AtOrBefore(1100));
        assert_eq!(at(101), DestroyedAt::Tick(1101));
        assert_eq!(at(total), DestroyedAt::Tick(1000 + total));
        assert_eq!(t.lookup("ent_0001").unwrap_err().to_string(), "ent_0001 was destroyed at or before tick 1100");
    }
}
