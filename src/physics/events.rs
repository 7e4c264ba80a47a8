//! Collects Rapier collision events during a step and maps them to plain data.

use std::collections::VecDeque;
use std::sync::Mutex;

use rapier3d::prelude::*;

/// Pending events kept when nobody drains them; older ones are dropped first.
pub(crate) const MAX_PENDING_EVENTS: usize = 4096;

/// A collision start or stop between two colliders.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactEvent {
    pub started: bool,
    pub body_a: u32,
    pub body_b: u32,
    /// Owner tags of the two colliders (None when a collider was removed).
    pub user_a: Option<u128>,
    pub user_b: Option<u128>,
    /// World-space contact point and normal (A towards B), when a contact exists.
    pub point: Option<[f32; 3]>,
    pub normal: Option<[f32; 3]>,
}

#[derive(Default)]
pub(super) struct EventCollector {
    // Rapier requires event handlers to be Sync; the lock is uncontended.
    inner: Mutex<Pending>,
}

#[derive(Default)]
struct Pending {
    events: VecDeque<ContactEvent>,
    dropped: u64,
}

impl EventCollector {
    pub(super) fn drain(&mut self) -> Vec<ContactEvent> {
        let pending = self.inner.get_mut().unwrap_or_else(|poison| poison.into_inner());
        pending.events.drain(..).collect()
    }
}

impl EventHandler for EventCollector {
    fn handle_collision_event(&self, _bodies: &RigidBodySet, colliders: &ColliderSet, event: CollisionEvent, pair: Option<&ContactPair>) {
        let (c1, c2) = (event.collider1(), event.collider2());
        let body_index = |c: ColliderHandle| colliders.get(c).and_then(|c| c.parent()).map(|b| b.into_raw_parts().0).unwrap_or(u32::MAX);
        let user = |c: ColliderHandle| colliders.get(c).map(|c| c.user_data);
        let mut point = None;
        let mut normal = None;
        if let (true, Some(pair)) = (event.started(), pair)
            && let Some((p, mut n)) = contact_point(pair, colliders)
        {
            // Rapier's normal points from pair.collider1 to pair.collider2; report it A to B.
            if pair.collider1 != c1 {
                n = -n;
            }
            point = Some(p.to_array());
            normal = Some(n.to_array());
        }
        let event = ContactEvent {
            started: event.started(),
            body_a: body_index(c1),
            body_b: body_index(c2),
            user_a: user(c1),
            user_b: user(c2),
            point,
            normal,
        };
        let mut pending = self.inner.lock().unwrap_or_else(|poison| poison.into_inner());
        if pending.events.len() >= MAX_PENDING_EVENTS {
            pending.events.pop_front();
            pending.dropped += 1;
        }
        pending.events.push_back(event);
    }

    fn handle_contact_force_event(
        &self,
        _dt: Real,
        _bodies: &RigidBodySet,
        _colliders: &ColliderSet,
        _pair: &ContactPair,
        _magnitude: Real,
    ) {
    }

    fn handle_soft_body_tear_event(&self, _soft_bodies: &SoftBodySet, _event: &SoftBodyTearEvent) {}
}

fn contact_point(pair: &ContactPair, colliders: &ColliderSet) -> Option<(Vector, Vector)> {
    let (manifold, contact) = pair.find_deepest_contact()?;
    let c1 = colliders.get(pair.collider1)?;
    let pose = match manifold.subshape_pos1() {
        Some(sub) => *c1.position() * *sub,
        None => *c1.position(),
    };
    Some((pose * contact.local_p1, manifold.data.normal))
}
