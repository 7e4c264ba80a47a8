//! The physics of one world as snapshot data: rapier's own serde form of the whole
//! `PhysicsWorld` (bodies, colliders, joints, islands, the broad phase's tree, the narrow phase
//! with its contact manifolds and their warm-start impulses, the integration parameters), plus
//! what this wrapper keeps beside it (bodies changed since the last step, a halted step's fault).
//!
//! Only the pipelines' scratch space is left out (rapier skips it in serde, as `duplicate` does
//! by building new pipelines), so a restored world steps bit for bit like the one saved. No
//! rapier type leaves this module: callers get `PhysicsWorld` back, or an error.

use rapier3d::prelude::RigidBodyHandle;
use serde::{Deserialize, Serialize};

use super::{BodyHandle, PhysicsWorld};

/// What is written: borrowed, so saving copies nothing.
#[derive(Serialize)]
struct Saved<'a> {
    world: &'a rapier3d::prelude::PhysicsWorld,
    changed: Vec<(u32, u32)>,
    fault: Option<&'a str>,
}

/// What is read back (the same fields, owned).
#[derive(Deserialize)]
struct Loaded {
    world: rapier3d::prelude::PhysicsWorld,
    changed: Vec<(u32, u32)>,
    fault: Option<String>,
}

/// A physics state that decoded but does not hold together.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PhysicsStateError {
    #[error("collider {collider} is attached to body {body}, which does not exist")]
    OrphanCollider { collider: u32, body: u32 },
    #[error("the integration step is {dt} s; a saved world steps at a positive, finite dt")]
    BadStep { dt: f32 },
}

impl PhysicsWorld {
    /// Appends this physics world to `out` (postcard).
    pub(crate) fn save(&self, out: Vec<u8>) -> Result<Vec<u8>, postcard::Error> {
        let changed = self.changed.iter().map(|h| h.into_raw_parts()).collect();
        postcard::to_extend(&Saved { world: &self.world, changed, fault: self.fault.as_deref() }, out)
    }

    /// Reads a physics world written by `save` from the front of `bytes`; returns it and the
    /// bytes after it. `remap` rewrites each body's and collider's owner tag (the entities of the
    /// restored ECS are new).
    pub(crate) fn load(bytes: &[u8], remap: impl Fn(u128) -> u128) -> Result<(Self, &[u8]), LoadError> {
        let (loaded, rest): (Loaded, &[u8]) = postcard::take_from_bytes(bytes).map_err(LoadError::Decode)?;
        let Loaded { mut world, changed, fault } = loaded;
        let dt = world.integration_parameters.dt;
        if !(dt.is_finite() && dt > 0.0) {
            return Err(LoadError::Invalid(PhysicsStateError::BadStep { dt }));
        }
        for (handle, collider) in world.colliders.iter() {
            if let Some(body) = collider.parent()
                && world.bodies.get(body).is_none()
            {
                let collider = handle.into_raw_parts().0;
                return Err(LoadError::Invalid(PhysicsStateError::OrphanCollider { collider, body: body.into_raw_parts().0 }));
            }
        }
        for (_, body) in world.bodies.iter_mut() {
            body.user_data = remap(body.user_data);
        }
        for (_, collider) in world.colliders.iter_mut() {
            collider.user_data = remap(collider.user_data);
        }
        let changed = changed.into_iter().map(|(i, g)| RigidBodyHandle::from_raw_parts(i, g)).collect();
        Ok((
            Self {
                world,
                events: Default::default(),
                changed,
                fault,
                #[cfg(test)]
                fail_next_step: false,
            },
            rest,
        ))
    }

    /// Whether `handle` names a body of this world.
    pub(crate) fn has_body(&self, handle: BodyHandle) -> bool {
        self.world.bodies.get(handle.to_rapier()).is_some()
    }
}

/// Why a saved physics world could not be read.
#[derive(Debug, thiserror::Error)]
pub(crate) enum LoadError {
    #[error("{0}")]
    Decode(postcard::Error),
    #[error(transparent)]
    Invalid(PhysicsStateError),
}

#[cfg(test)]
mod tests {
    use super::super::{BodyKind, BodySpec, ColliderShape};
    use super::*;

    fn boxed(position: [f32; 3], kind: BodyKind, user: u128) -> BodySpec {
        BodySpec {
            kind,
            shape: ColliderShape::Box { half_extents: [0.5; 3] },
            position,
            rotation: [0.0, 0.0, 0.0, 1.0],
            friction: 0.7,
            restitution: 0.1,
            user,
        }
    }

    /// Every dynamic body's pose, bit for bit.
    fn poses(p: &PhysicsWorld) -> Vec<(u128, [u32; 7])> {
        let mut out = Vec::new();
        for (_, b) in p.world.bodies.iter() {
            let (t, r) = (b.translation(), b.rotation());
            out.push((b.user_data, [t.x, t.y, t.z, r.x, r.y, r.z, r.w].map(f32::to_bits)));
        }
        out
    }

    /// A floor and a stack of boxes still settling (40 steps in): contacts everywhere.
    fn settling_stack() -> PhysicsWorld {
        let mut p = PhysicsWorld::default();
        p.add_body(BodySpec { shape: ColliderShape::Box { half_extents: [20.0, 0.5, 20.0] }, ..boxed([0.0; 3], BodyKind::Fixed, 1) });
        for i in 0..12u8 {
            let x = f32::from(i % 3) * 0.3 - 0.3;
            p.add_body(boxed([x, 1.0 + f32::from(i), 0.1 * f32::from(i % 2)], BodyKind::Dynamic, u128::from(i) + 2));
        }
        for _ in 0..40 {
            p.step().unwrap();
        }
        p
    }

    #[test]
    fn a_loaded_stack_steps_exactly_like_the_saved_one() {
        let mut p = settling_stack();
        assert!(p.awake_count() > 6, "the stack is still settling: its contacts and their impulses matter");
        let bytes = p.save(Vec::new()).unwrap();
        let (mut q, rest) = PhysicsWorld::load(&bytes, |u| u).unwrap();
        assert!(rest.is_empty());
        assert_eq!(poses(&q), poses(&p));
        for _ in 0..120 {
            p.step().unwrap();
            q.step().unwrap();
        }
        assert_eq!(poses(&q), poses(&p));
    }

    /// Why the snapshot carries rapier whole: the same bodies at the same poses and velocities,
    /// without the contact state (manifolds, warm-start impulses, islands), step differently.
    #[test]
    fn the_same_poses_and_velocities_without_the_contact_state_step_differently() {
        let mut p = settling_stack();
        let mut q = PhysicsWorld::default();
        for (_, b) in p.world.bodies.iter() {
            let kind = if b.is_dynamic() { BodyKind::Dynamic } else { BodyKind::Fixed };
            let shape = if b.user_data == 1 {
                ColliderShape::Box { half_extents: [20.0, 0.5, 20.0] }
            } else {
                ColliderShape::Box { half_extents: [0.5; 3] }
            };
            let (t, r) = (b.translation(), b.rotation());
            let h = q.add_body(BodySpec {
                shape,
                position: [t.x, t.y, t.z],
                rotation: [r.x, r.y, r.z, r.w],
                ..boxed([0.0; 3], kind, b.user_data)
            });
            let (v, w) = (b.linvel(), b.angvel());
            if let Some(copy) = q.world.bodies.get_mut(h.to_rapier()) {
                copy.set_linvel(v, true);
                copy.set_angvel(w, true);
            }
        }
        assert_eq!(poses(&q), poses(&p));
        for _ in 0..60 {
            p.step().unwrap();
            q.step().unwrap();
        }
        assert_ne!(poses(&q), poses(&p));
    }
}
