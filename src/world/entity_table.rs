//! `EntityTable`: the only map from the opaque `ent_0001` ids the outside world sees to the
//! engine's internal handles.
//!
//! Ids are monotonic and never reused, so a destroyed id resolves to nothing forever, even when
//! bevy recycles the underlying `Entity` index. The table can snapshot and restore its identity
//! state (live entries in creation order, the counter, the version) so a restored world issues the
//! same next ids. It owns no components; the ECS and physics hold the data.

use std::collections::BTreeMap;
use std::fmt;

/// Live entities a world holds at most unless built with another capacity (`World::with_capacity`,
/// `EngineConfig::entity_capacity`). Four times the reference's `MAX_ENTITIES` (16384), for
/// worlds with in-world agents; the table is a map, so an unused capacity costs no memory.
pub const DEFAULT_ENTITY_CAPACITY: usize = 65_536;

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
}

/// Maps ids to handles `H` (the world stores a bundle of ECS entity + physics body there).
#[derive(Debug, Clone)]
pub struct EntityTable<H: Copy> {
    live: BTreeMap<EntityId, H>,
    next: u64,
    version: u64,
    capacity: usize,
}

impl<H: Copy> Default for EntityTable<H> {
    fn default() -> Self {
        Self::with_capacity(DEFAULT_ENTITY_CAPACITY)
    }
}

impl<H: Copy> EntityTable<H> {
    pub fn with_capacity(capacity: usize) -> Self {
        Self { live: BTreeMap::new(), next: 1, version: 0, capacity }
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
        let id = EntityId::parse(text)?;
        self.get(id).map(|h| (id, h))
    }

    pub fn remove(&mut self, id: EntityId) -> Option<H> {
        let removed = self.live.remove(&id);
        if removed.is_some() {
            self.version += 1;
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
        }
    }

    pub fn restore(snapshot: &EntityTableSnapshot<H>, capacity: usize) -> Self {
        Self { live: snapshot.live.iter().map(|r| (r.id, r.handle)).collect(), next: snapshot.next, version: snapshot.version, capacity }
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
        assert_eq!(t.remove(a), Some(7));
        // The same internal handle is reused by a new entity: the old id must still be dead.
        let b = t.insert(7).unwrap();
        assert_ne!(a, b);
        assert_eq!(t.resolve("ent_0001"), None);
        assert_eq!(t.resolve("ent_0002"), Some((b, 7)));
        assert_eq!(t.remove(a), None);
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
        t.remove(EntityId(1));
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
        t.remove(EntityId(2));
        let snap = t.snapshot();
        let mut restored = EntityTable::restore(&snap, DEFAULT_ENTITY_CAPACITY);
        assert_eq!(restored.snapshot(), snap);
        assert_eq!(restored.insert(9).unwrap(), t.insert(9).unwrap());
        assert_eq!(restored.version(), t.version());
        assert_eq!(restored.resolve("ent_0002"), None);
    }
}
