//! Sharing one world between sessions: every entity's revision, and leases on entities.
//!
//! A **revision** counts the writes an entity has taken: 1 when it is made, one more for each
//! write that changed it (a transform, a tag, a material, an impulse, a walk step). The
//! simulation's own motion (gravity, contacts) is not a write: a falling crate keeps its
//! revision, so a client can still say "only if nobody else touched it" about a moving body.
//! Revisions are deterministic (the same calls give the same counts) and snapshot with the
//! world; they stay out of the world hash, leases go in (`World::sharing_hash` says why).
//!
//! A **lease** reserves an entity for one session until a tick: while it lasts, a write by any
//! other session is refused (`leased`) before its handler runs. Leases are held by a session
//! id; an in-world agent acting for the holder (its spawner chain names the holder's session)
//! writes as the holder's delegate. The operator (a caller holding `policy.govern`: the host
//! script, or a token the operator granted it) is never refused, and its writes over a lease
//! are traced. Every bound is data here: entities per call, ticks per lease, leases per session
//! and in all. Leases leave at the tick boundary their expiry names (`expire`), so the table a
//! snapshot or the hash sees holds live leases only.

use std::collections::BTreeMap;

use bevy_ecs::component::Component;
use serde::{Deserialize, Serialize};

use super::EntityId;

/// The largest revision (and `ifRevision`) there is: the largest integer a JSON number carries
/// exactly. A counter bumped once per write never gets there; `bump` saturates.
pub const MAX_REVISION: u64 = (1 << 53) - 1;
/// The longest lease, in ticks (one minute at 60 Hz); a holder renews by leasing again.
pub const MAX_LEASE_TICKS: u64 = 3600;
/// Entities one `scene.lease` call names at most.
pub const MAX_LEASE_ENTITIES: usize = 64;
/// Leases one session holds at once at most.
pub const MAX_LEASES_PER_SESSION: usize = 256;
/// Leases the world holds at once at most (all sessions).
pub const MAX_LEASES: usize = 4096;
/// The longest session or agent id a lease records (bytes).
pub const MAX_HOLDER_LEN: usize = 128;

/// How many writes changed an entity (1 when it is made).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Revision(pub u64);

impl Revision {
    pub(crate) fn bump(&mut self) {
        self.0 = (self.0 + 1).min(MAX_REVISION);
    }
}

/// One entity's lease: who holds it and the tick it lapses at (live while `tick < expires`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lease {
    /// The session holding it.
    pub holder: String,
    /// The agent that took it (for messages and the trace).
    pub agent: String,
    pub expires: u64,
}

/// Why a lease could not be granted. Nothing was granted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LeaseError {
    #[error("{entity} is leased by session {holder} until tick {expires}")]
    Held { entity: EntityId, holder: String, expires: u64 },
    #[error("session {holder} would hold {count} leases, more than the {max} one session may hold; release some first")]
    SessionFull { holder: String, count: usize, max: usize },
    #[error("the world would hold {count} leases, more than the {max} it holds at once; try again when some expire")]
    WorldFull { count: usize, max: usize },
    #[error("ticks {ticks} is outside 1..={MAX_LEASE_TICKS}")]
    BadTicks { ticks: u64 },
    #[error("{count} entities is outside 1..={MAX_LEASE_ENTITIES} for one lease")]
    BadCount { count: usize },
}

/// The live leases, by entity.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Leases {
    by_entity: BTreeMap<EntityId, Lease>,
    /// The earliest expiry among them (u64::MAX when there are none): `expire` is one compare
    /// on every tick that lets nothing lapse.
    earliest: u64,
}

impl Leases {
    pub(crate) fn new() -> Self {
        Leases { by_entity: BTreeMap::new(), earliest: u64::MAX }
    }

    pub fn is_empty(&self) -> bool {
        self.by_entity.is_empty()
    }

    pub fn len(&self) -> usize {
        self.by_entity.len()
    }

    /// The lease on `id` that is live at `tick`.
    pub fn live(&self, id: EntityId, tick: u64) -> Option<&Lease> {
        self.by_entity.get(&id).filter(|l| tick < l.expires)
    }

    /// Every lease in entity order.
    pub fn iter(&self) -> impl Iterator<Item = (EntityId, &Lease)> + '_ {
        self.by_entity.iter().map(|(id, l)| (*id, l))
    }

    /// Leases `holder` has (live or not yet expired by the step).
    pub fn held_by(&self, holder: &str) -> usize {
        self.by_entity.values().filter(|l| l.holder == holder).count()
    }

    /// Grants (or renews) leases on `ids` to `holder` for `ticks` from `tick`, all or none: an
    /// entity another session holds, a bound passed, and nothing changes. Returns the expiry.
    /// The ids must be live entities (the caller resolved them); repeats count once.
    pub(crate) fn grant(&mut self, ids: &[EntityId], holder: &str, agent: &str, tick: u64, ticks: u64) -> Result<u64, LeaseError> {
        if ids.is_empty() || ids.len() > MAX_LEASE_ENTITIES {
            return Err(LeaseError::BadCount { count: ids.len() });
        }
        if ticks == 0 || ticks > MAX_LEASE_TICKS {
            return Err(LeaseError::BadTicks { ticks });
        }
        let mut fresh = 0;
        let mut seen = std::collections::BTreeSet::new();
        for &id in ids {
            if !seen.insert(id) {
                continue;
            }
            match self.live(id, tick) {
                Some(l) if l.holder != holder => return Err(LeaseError::Held { entity: id, holder: l.holder.clone(), expires: l.expires }),
                Some(_) => {}
                None => fresh += 1,
            }
        }
        let count = self.held_by(holder) + fresh;
        if count > MAX_LEASES_PER_SESSION {
            return Err(LeaseError::SessionFull { holder: holder.to_string(), count, max: MAX_LEASES_PER_SESSION });
        }
        let total = self.by_entity.len() + fresh;
        if total > MAX_LEASES {
            return Err(LeaseError::WorldFull { count: total, max: MAX_LEASES });
        }
        // `ticks` is at most MAX_LEASE_TICKS, so only a tick near u64::MAX could overflow.
        let expires = tick.saturating_add(ticks);
        for id in seen {
            self.by_entity.insert(id, Lease { holder: holder.to_string(), agent: agent.to_string(), expires });
        }
        self.earliest = self.earliest.min(expires);
        Ok(expires)
    }

    /// Removes the leases on `ids` (every lease of `holder` when `ids` is None) that `may_release`
    /// allows, returning them in entity order.
    pub(crate) fn release(&mut self, ids: Option<&[EntityId]>, may_release: impl Fn(&Lease) -> bool) -> Vec<(EntityId, Lease)> {
        let chosen: Vec<EntityId> = match ids {
            Some(ids) => ids.iter().copied().filter(|id| self.by_entity.get(id).is_some_and(&may_release)).collect(),
            None => self.by_entity.iter().filter(|(_, l)| may_release(l)).map(|(id, _)| *id).collect(),
        };
        chosen.into_iter().filter_map(|id| self.by_entity.remove(&id).map(|l| (id, l))).collect()
    }

    /// The lease on a destroyed entity goes with it.
    pub(crate) fn remove(&mut self, id: EntityId) {
        self.by_entity.remove(&id);
    }

    /// Removes the leases that lapse at or before `tick`, returning them in entity order.
    pub(crate) fn expire(&mut self, tick: u64) -> Vec<(EntityId, Lease)> {
        if tick < self.earliest {
            return Vec::new();
        }
        let gone: Vec<EntityId> = self.by_entity.iter().filter(|(_, l)| l.expires <= tick).map(|(id, _)| *id).collect();
        let out = gone.into_iter().filter_map(|id| self.by_entity.remove(&id).map(|l| (id, l))).collect();
        self.earliest = self.by_entity.values().map(|l| l.expires).min().unwrap_or(u64::MAX);
        out
    }

    /// Leases as a snapshot stores them.
    pub(crate) fn state(&self) -> Vec<(u64, Lease)> {
        self.by_entity.iter().map(|(id, l)| (id.0, l.clone())).collect()
    }

    /// Leases read back from a snapshot, checked as crafted input: ascending live entities, ids
    /// of a sane length, and the bounds a running world keeps. The expiry against the restored
    /// tick is checked by the host, which knows the tick (`check_expiries`).
    pub(crate) fn from_state(saved: Vec<(u64, Lease)>, is_live: impl Fn(EntityId) -> bool) -> Result<Leases, SharingStateError> {
        if saved.len() > MAX_LEASES {
            return Err(SharingStateError::TooMany { count: saved.len(), max: MAX_LEASES });
        }
        let mut leases = Leases::new();
        let mut per_holder: BTreeMap<&str, usize> = BTreeMap::new();
        let mut previous: Option<EntityId> = None;
        for (id, lease) in &saved {
            let id = EntityId(*id);
            if previous.is_some_and(|p| id <= p) {
                return Err(SharingStateError::OutOfOrder { id });
            }
            previous = Some(id);
            if !is_live(id) {
                return Err(SharingStateError::NotLive { id });
            }
            for (what, text) in [("holder", &lease.holder), ("agent", &lease.agent)] {
                if text.is_empty() || text.len() > MAX_HOLDER_LEN || text.chars().any(char::is_control) {
                    return Err(SharingStateError::BadName { id, what, len: text.len() });
                }
            }
            let held = per_holder.entry(lease.holder.as_str()).or_default();
            *held += 1;
            if *held > MAX_LEASES_PER_SESSION {
                return Err(SharingStateError::SessionFull { holder: crate::clip::shown(&lease.holder), max: MAX_LEASES_PER_SESSION });
            }
        }
        for (id, lease) in saved {
            leases.earliest = leases.earliest.min(lease.expires);
            leases.by_entity.insert(EntityId(id), lease);
        }
        Ok(leases)
    }

    /// Every lease lapses after `tick` and within `MAX_LEASE_TICKS` of it (a snapshot's lease
    /// cannot outlast what `scene.lease` could have granted at that tick).
    pub(crate) fn check_expiries(&self, tick: u64) -> Result<(), SharingStateError> {
        for (id, l) in self.iter() {
            if l.expires <= tick || l.expires - tick > MAX_LEASE_TICKS {
                return Err(SharingStateError::BadExpiry { id, expires: l.expires, tick });
            }
        }
        Ok(())
    }
}

/// Why saved revisions or leases were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SharingStateError {
    #[error("{count} leases is more than the {max} a world holds")]
    TooMany { count: usize, max: usize },
    #[error("leases must name ascending entities: {id} is out of order or repeated")]
    OutOfOrder { id: EntityId },
    #[error("a lease names {id}, which is not a live entity")]
    NotLive { id: EntityId },
    #[error("the lease on {id} names a {what} of {len} bytes (1..={MAX_HOLDER_LEN}, no control characters)")]
    BadName { id: EntityId, what: &'static str, len: usize },
    #[error("session {holder} holds more than the {max} leases one session may hold")]
    SessionFull { holder: String, max: usize },
    #[error("the lease on {id} lapses at tick {expires}, not within 1..={MAX_LEASE_TICKS} ticks after the snapshot's tick {tick}")]
    BadExpiry { id: EntityId, expires: u64, tick: u64 },
    #[error("{id} has revision {revision}, outside 1..={MAX_REVISION}")]
    BadRevision { id: EntityId, revision: u64 },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(n: &[u64]) -> Vec<EntityId> {
        n.iter().map(|&i| EntityId(i)).collect()
    }

    #[test]
    fn a_lease_is_all_or_nothing_and_names_the_holder() {
        let mut l = Leases::new();
        assert_eq!(l.grant(&ids(&[1, 2]), "ses_a", "agt_a", 10, 30), Ok(40));
        let err = l.grant(&ids(&[3, 2]), "ses_b", "agt_b", 11, 30).unwrap_err();
        assert_eq!(err.to_string(), "ent_0002 is leased by session ses_a until tick 40");
        assert!(l.live(EntityId(3), 11).is_none(), "nothing of a refused lease was granted");
        assert_eq!(l.grant(&ids(&[2]), "ses_a", "agt_a", 20, 100), Ok(120), "the holder renews");
        assert!(l.live(EntityId(1), 39).is_some() && l.live(EntityId(1), 40).is_none());
    }

    #[test]
    fn leases_lapse_at_their_tick_and_not_before() {
        let mut l = Leases::new();
        l.grant(&ids(&[1]), "s", "a", 0, 5).unwrap();
        l.grant(&ids(&[2]), "s", "a", 0, 9).unwrap();
        assert!(l.expire(4).is_empty());
        assert_eq!(l.expire(5).iter().map(|(id, _)| *id).collect::<Vec<_>>(), ids(&[1]));
        assert_eq!(l.earliest, 9);
        assert_eq!(l.expire(100).len(), 1);
        assert_eq!(l.earliest, u64::MAX);
    }

    #[test]
    fn bounds_refuse_the_whole_world_forever() {
        let mut l = Leases::new();
        assert_eq!(l.grant(&ids(&[1]), "s", "a", 0, u64::MAX), Err(LeaseError::BadTicks { ticks: u64::MAX }));
        assert_eq!(l.grant(&ids(&[1]), "s", "a", 0, 0), Err(LeaseError::BadTicks { ticks: 0 }));
        let many: Vec<EntityId> = (1..=65).map(EntityId).collect();
        assert_eq!(l.grant(&many, "s", "a", 0, 10), Err(LeaseError::BadCount { count: 65 }));
        for chunk in 0..4 {
            let batch: Vec<EntityId> = (1..=64).map(|i| EntityId(chunk * 64 + i)).collect();
            l.grant(&batch, "s", "a", 0, 10).unwrap();
        }
        assert!(matches!(l.grant(&ids(&[1000]), "s", "a", 0, 10), Err(LeaseError::SessionFull { count: 257, .. })));
        assert_eq!(l.len(), 256);
        // Near the end of time the expiry saturates instead of wrapping into the past.
        let mut l = Leases::new();
        assert_eq!(l.grant(&ids(&[1]), "s", "a", u64::MAX - 1, 10), Ok(u64::MAX));
    }

    #[test]
    fn a_crafted_lease_table_is_refused() {
        let lease = |holder: &str, expires| Lease { holder: holder.into(), agent: "agt".into(), expires };
        let live = |id: EntityId| id.0 <= 3;
        assert!(Leases::from_state(vec![(1, lease("s", 5)), (2, lease("s", 5))], live).is_ok());
        assert!(matches!(
            Leases::from_state(vec![(2, lease("s", 5)), (1, lease("s", 5))], live),
            Err(SharingStateError::OutOfOrder { .. })
        ));
        assert!(matches!(Leases::from_state(vec![(9, lease("s", 5))], live), Err(SharingStateError::NotLive { .. })));
        assert!(matches!(Leases::from_state(vec![(1, lease("", 5))], live), Err(SharingStateError::BadName { .. })));
        let ok = Leases::from_state(vec![(1, lease("s", 5000))], live).unwrap();
        assert!(matches!(ok.check_expiries(10), Err(SharingStateError::BadExpiry { .. })));
        assert!(matches!(ok.check_expiries(5000), Err(SharingStateError::BadExpiry { .. })));
        assert!(ok.check_expiries(4999).is_ok());
    }
}
