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
    #[error("its {what} differ from the engine's ({detail})")]
    Tuned { what: &'static str, detail: String },
    #[error("its broad-phase tree is malformed: {0}")]
    BadTree(String),
    #[error("collider {collider} is a {shape}; limina makes boxes, balls and capsules of finite, positive size")]
    ForeignShape { collider: u32, shape: String },
    #[error("body {body} has a non-finite {what}")]
    NonFinite { body: u32, what: &'static str },
    #[error("{trial} panicked ({message}); its parts do not agree with one another")]
    TrialPanics { trial: &'static str, message: String },
    #[error("its {set} do not hold together: {problem}")]
    BadArena { set: &'static str, problem: String },
}

/// Deepest nesting the physics section may have. rapier's own state is a few levels deep (a
/// few tens of levels at most); this stops a crafted file from nesting compound shapes until
/// decoding overflows the stack.
const MAX_DEPTH: usize = 128;

/// Deepest broad-phase tree a restored world may have. rapier's own trees of 65,536 leaves are
/// far shallower; parry walks them recursively, and a 300,000-node chain overflowed the stack
/// on the first step (a 20,000-node one took 25 s and 7 GB).
const MAX_TREE_DEPTH: usize = 1024;

/// One node of parry's BVH as postcard writes it (`mins`, `children`, `maxs`, `data`): read
/// back from the broad phase's own bytes, since the tree's nodes are private to parry.
#[derive(Deserialize, Serialize)]
struct TreeNode {
    mins: [f32; 3],
    children: u32,
    maxs: [f32; 3],
    data: u32,
}

#[derive(Deserialize, Serialize)]
struct WideNode {
    left: TreeNode,
    right: TreeNode,
}

impl TreeNode {
    /// Leaves under it (parry keeps flags in the top two bits).
    fn leaf_count(&self) -> u32 {
        self.data & 0x3fff_ffff
    }
}

/// The broad phase's tree is a tree: every inner node reached once, by an index inside the node
/// list, at most `MAX_TREE_DEPTH` deep. Walked without recursion.
fn check_broad_phase_tree(world: &rapier3d::prelude::PhysicsWorld) -> Result<(), PhysicsStateError> {
    let bad = PhysicsStateError::BadTree;
    let bytes = postcard::to_allocvec(&world.broad_phase).map_err(|e| bad(format!("it does not encode: {e}")))?;
    // The tree's node list is the first thing the broad phase writes.
    let (nodes, _): (Vec<WideNode>, _) = postcard::take_from_bytes(&bytes).map_err(|e| bad(format!("its nodes do not decode: {e}")))?;
    if nodes.is_empty() {
        return Ok(());
    }
    let mut seen = vec![false; nodes.len()];
    let mut stack = vec![(0usize, 1usize)];
    while let Some((index, depth)) = stack.pop() {
        if depth > MAX_TREE_DEPTH {
            return Err(bad(format!("deeper than {MAX_TREE_DEPTH} levels (the engine's trees are far shallower)")));
        }
        let Some(node) = nodes.get(index) else {
            return Err(bad(format!("a node points at {index}, past its {} nodes", nodes.len())));
        };
        if std::mem::replace(&mut seen[index], true) {
            return Err(bad(format!("node {index} is reached twice (a cycle or a shared subtree)")));
        }
        for child in [&node.left, &node.right] {
            if child.leaf_count() > 1 {
                stack.push((child.children as usize, depth + 1));
            }
        }
    }
    Ok(())
}

/// A rapier `Arena` as serde writes it (`items`, `generation`, `free_list_head`, `len`), read
/// back from a set's own bytes (its arena is the set's first field), since its fields are
/// private to rapier. `T` is the value type, decoded only to step over it.
#[derive(Deserialize)]
struct ArenaForm<T> {
    items: Vec<EntryForm<T>>,
    generation: u32,
    free_list_head: Option<u32>,
    len: usize,
}

#[derive(Deserialize)]
enum EntryForm<T> {
    Free {
        next_free: Option<u32>,
    },
    Occupied {
        generation: u32,
        #[allow(dead_code, reason = "decoded only to step over it")]
        value: T,
    },
}

/// The arena at the front of `set`'s bytes holds together: `len` counts its occupied slots, the
/// free list runs through every free slot once and through nothing else (rapier panics on an
/// insert that meets an occupied slot there, and loops on a cycle), and no slot's generation is
/// ahead of the arena's.
fn check_arena<S: Serialize, T: serde::de::DeserializeOwned>(set: &S, name: &'static str) -> Result<(), PhysicsStateError> {
    let bad = |problem: String| PhysicsStateError::BadArena { set: name, problem };
    let bytes = postcard::to_allocvec(set).map_err(|e| bad(format!("they do not encode: {e}")))?;
    let (arena, _): (ArenaForm<T>, _) = postcard::take_from_bytes(&bytes).map_err(|e| bad(format!("they do not decode: {e}")))?;
    let mut occupied = 0usize;
    for (i, item) in arena.items.iter().enumerate() {
        if let EntryForm::Occupied { generation, value: _ } = item {
            occupied += 1;
            if *generation > arena.generation {
                return Err(bad(format!("slot {i} is of generation {generation}, past the arena's {}", arena.generation)));
            }
        }
    }
    if arena.len != occupied {
        return Err(bad(format!("the count says {} where {occupied} slots are taken", arena.len)));
    }
    let mut seen = vec![false; arena.items.len()];
    let mut next = arena.free_list_head;
    let mut free = 0usize;
    while let Some(i) = next {
        match arena.items.get(i as usize) {
            Some(EntryForm::Free { next_free }) if !std::mem::replace(&mut seen[i as usize], true) => {
                free += 1;
                next = *next_free;
            }
            Some(EntryForm::Free { .. }) => return Err(bad(format!("the free list meets slot {i} twice"))),
            Some(EntryForm::Occupied { .. }) => return Err(bad(format!("the free list leads to slot {i}, which is taken"))),
            None => return Err(bad(format!("the free list leads to slot {i}, past its {} slots", arena.items.len()))),
        }
    }
    if free + occupied != arena.items.len() {
        return Err(bad(format!("{} free slots are not on the free list", arena.items.len() - occupied - free)));
    }
    Ok(())
}

/// Bodies and colliders point at each other: a collider's parent lists it among its colliders,
/// and every collider a body lists exists and has that body for parent (rapier indexes them
/// without a check when a body moves, wakes or is removed).
fn check_links(world: &rapier3d::prelude::PhysicsWorld) -> Result<(), PhysicsStateError> {
    for (handle, body) in world.bodies.iter() {
        for &c in body.colliders() {
            if world.colliders.get(c).and_then(|collider| collider.parent()) != Some(handle) {
                return Err(PhysicsStateError::BadArena {
                    set: "bodies",
                    problem: format!(
                        "body {} lists collider {}, which is not attached to it",
                        handle.into_raw_parts().0,
                        c.into_raw_parts().0
                    ),
                });
            }
        }
    }
    for (handle, collider) in world.colliders.iter() {
        if let Some(parent) = collider.parent()
            && world.bodies.get(parent).is_some_and(|b| !b.colliders().contains(&handle))
        {
            return Err(PhysicsStateError::BadArena {
                set: "colliders",
                problem: format!(
                    "collider {} names body {} as parent, which does not list it",
                    handle.into_raw_parts().0,
                    parent.into_raw_parts().0
                ),
            });
        }
    }
    Ok(())
}

/// The first field whose value differs, as `saved: engine`, read off the two values' debug
/// forms (rapier's parameters have dozens of fields; naming the one that differs is enough).
fn first_difference<T: std::fmt::Debug>(saved: &T, engine: &T) -> String {
    let (saved, engine) = (format!("{saved:?}"), format!("{engine:?}"));
    let differing = saved.split(", ").zip(engine.split(", ")).find(|(a, b)| a != b);
    match differing {
        Some((a, b)) => format!("the file has `{}` where the engine has `{}`", crate::clip::shown(a), crate::clip::shown(b)),
        None => "they differ".into(),
    }
}

/// What rapier's world holds that only a crafted file could set otherwise: the parameters
/// limina never changes (all but dt, e.g. solver iterations: 2^40 of them hung a step), the
/// shapes it never makes (a compound of compounds), and non-finite body state. Checked before
/// the state is anyone's.
fn check(world: &rapier3d::prelude::PhysicsWorld) -> Result<(), PhysicsStateError> {
    let dt = world.integration_parameters.dt;
    if !(dt.is_finite() && dt > 0.0) {
        return Err(PhysicsStateError::BadStep { dt });
    }
    let fresh = rapier3d::prelude::PhysicsWorld::new();
    let expected = rapier3d::prelude::IntegrationParameters { dt, ..fresh.integration_parameters };
    if world.integration_parameters != expected {
        let detail = format!("{}; limina sets only the step, dt", first_difference(&world.integration_parameters, &expected));
        return Err(PhysicsStateError::Tuned { what: "integration parameters", detail });
    }
    if world.gravity != fresh.gravity {
        return Err(PhysicsStateError::Tuned { what: "gravity", detail: first_difference(&world.gravity, &fresh.gravity) });
    }
    for (handle, collider) in world.colliders.iter() {
        use rapier3d::prelude::TypedShape;
        let collider_id = handle.into_raw_parts().0;
        let positive = |v: f32| v.is_finite() && v > 0.0;
        let ours = match collider.shape().as_typed_shape() {
            TypedShape::Cuboid(c) => c.half_extents.to_array().iter().all(|&h| positive(h)),
            TypedShape::Ball(b) => positive(b.radius),
            TypedShape::Capsule(c) => positive(c.radius) && c.segment.a.is_finite() && c.segment.b.is_finite(),
            _ => false,
        };
        if !ours {
            let shape = format!("{:?}", collider.shape().shape_type());
            return Err(PhysicsStateError::ForeignShape { collider: collider_id, shape: crate::clip::shown(&shape) });
        }
    }
    check_broad_phase_tree(world)?;
    check_arena::<_, rapier3d::prelude::RigidBody>(&world.bodies, "bodies")?;
    check_arena::<_, rapier3d::prelude::Collider>(&world.colliders, "colliders")?;
    // Joints limina never makes (each adds solver work and graph state of its own).
    if !world.impulse_joints.is_empty() {
        return Err(PhysicsStateError::Tuned {
            what: "joints",
            detail: format!("the file has {} impulse joints; limina makes none", world.impulse_joints.len()),
        });
    }
    if world.multibody_joints.iter().next().is_some() {
        return Err(PhysicsStateError::Tuned { what: "joints", detail: "the file has multibody joints; limina makes none".into() });
    }
    // Per-body settings limina leaves at rapier's defaults: extra solver passes (65535 of each
    // per body hung a step), damping, gravity scale, dominance, CCD.
    let plain = rapier3d::prelude::RigidBodyBuilder::dynamic().build();
    for (handle, body) in world.bodies.iter() {
        let body_id = handle.into_raw_parts().0;
        let settings = |b: &rapier3d::prelude::RigidBody| {
            (
                b.additional_solver_iterations(),
                b.additional_pgs_iterations(),
                b.linear_damping().to_bits(),
                b.angular_damping().to_bits(),
                b.gravity_scale().to_bits(),
                b.dominance_group(),
                b.is_ccd_enabled(),
            )
        };
        if settings(body) != settings(&plain) {
            return Err(PhysicsStateError::Tuned {
                what: "body settings",
                detail: format!(
                    "body {body_id} has (extra solver iterations, extra PGS iterations, damping bits, gravity scale bits, dominance, ccd) = {:?}; limina leaves rapier's {:?}",
                    settings(body),
                    settings(&plain)
                ),
            });
        }
        let t = body.translation();
        let r = body.rotation();
        let (v, w) = (body.linvel(), body.angvel());
        for (what, values) in [
            ("position", [t.x, t.y, t.z, 0.0]),
            ("rotation", [r.x, r.y, r.z, r.w]),
            ("linear velocity", [v.x, v.y, v.z, 0.0]),
            ("angular velocity", [w.x, w.y, w.z, 0.0]),
        ] {
            if !values.iter().all(|x| x.is_finite()) {
                return Err(PhysicsStateError::NonFinite { body: body_id, what });
            }
        }
    }
    Ok(())
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
        let (loaded, rest): (Loaded, &[u8]) = crate::depth_limit::take_from_bytes(bytes, MAX_DEPTH).map_err(LoadError::Decode)?;
        let Loaded { mut world, changed, fault } = loaded;
        check(&world).map_err(LoadError::Invalid)?;
        for (handle, collider) in world.colliders.iter() {
            if let Some(body) = collider.parent()
                && world.bodies.get(body).is_none()
            {
                let collider = handle.into_raw_parts().0;
                return Err(LoadError::Invalid(PhysicsStateError::OrphanCollider { collider, body: body.into_raw_parts().0 }));
            }
        }
        check_links(&world).map_err(LoadError::Invalid)?;
        for (_, body) in world.bodies.iter_mut() {
            body.user_data = remap(body.user_data);
        }
        for (_, collider) in world.colliders.iter_mut() {
            collider.user_data = remap(collider.user_data);
        }
        let changed = changed.into_iter().map(|(i, g)| RigidBodyHandle::from_raw_parts(i, g)).collect();
        let loaded = Self {
            world,
            events: Default::default(),
            changed,
            fault,
            #[cfg(test)]
            fail_next_step: false,
        };
        loaded.trials()?;
        Ok((loaded, rest))
    }

    /// Runs copies through what the engine will ask of the world, inside the panic boundary.
    /// The checks above hold each value to what limina makes and the arenas and body-collider
    /// links together, but rapier's parts also point into one another in ways no check here
    /// covers whole (island and active-set indices, broad-phase proxies, narrow-phase graph
    /// indices, contact pairs), and a bit-flipped file that passed every check used to panic
    /// inside rapier at its first step, halting the restored world's physics for good. So a
    /// copy steps as saved; another with every body awake (a sleeping island wakes later); and
    /// another after every body is removed (what destroying entities does). A world saved
    /// halted stays halted and is not tried.
    fn trials(&self) -> Result<(), LoadError> {
        if self.fault.is_some() {
            return Ok(());
        }
        let panicked = |trial: &'static str| {
            move |message: String| {
                LoadError::Invalid(PhysicsStateError::TrialPanics { trial, message: crate::clip::to_bytes(&message, 300).to_string() })
            }
        };
        let mut copy = self.duplicate(|user| user);
        copy.step().map_err(|super::PhysicsFault::Panicked(m)| m).map_err(panicked("a step of it"))?;
        let mut copy = self.duplicate(|user| user);
        crate::isolate::catch(|| copy.world.wake_up_all(true)).map_err(|p| p.message).map_err(panicked("waking its bodies"))?;
        copy.step().map_err(|super::PhysicsFault::Panicked(m)| m).map_err(panicked("a step of it with every body awake"))?;
        let mut copy = self.duplicate(|user| user);
        let handles: Vec<RigidBodyHandle> = copy.world.bodies.iter().map(|(h, _)| h).collect();
        crate::isolate::catch(|| {
            for handle in handles {
                copy.world.remove_body(handle);
            }
        })
        .map_err(|p| p.message)
        .map_err(panicked("removing its bodies"))?;
        copy.step().map_err(|super::PhysicsFault::Panicked(m)| m).map_err(panicked("a step of it with its bodies removed"))
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
    Decode(crate::depth_limit::DepthError),
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

    /// What only a crafted file holds is refused by name, however well it decodes.
    #[test]
    fn tuned_parameters_foreign_shapes_and_non_finite_bodies_are_refused() {
        use rapier3d::prelude::SharedShape;
        let refused = |alter: &dyn Fn(&mut PhysicsWorld)| {
            let mut p = settling_stack();
            alter(&mut p);
            let bytes = p.save(Vec::new()).unwrap();
            match PhysicsWorld::load(&bytes, |u| u) {
                Err(LoadError::Invalid(e)) => e.to_string(),
                Err(e) => panic!("refused for the wrong reason: {e}"),
                Ok(_) => panic!("a crafted physics state was accepted"),
            }
        };
        let e = refused(&|p| p.world.integration_parameters.num_solver_iterations = 1 << 20);
        assert!(
            e.starts_with("its integration parameters differ from the engine's (the file has `num_solver_iterations: 1048576` where the engine has `num_solver_iterations: "),
            "{e}"
        );
        let e = refused(&|p| p.world.gravity.y = f32::NAN);
        assert!(e.starts_with("its gravity differ from the engine's (the file has `NaN` where the engine has `-9.81`)"), "{e}");
        fn first_collider(p: &mut PhysicsWorld) -> &mut rapier3d::prelude::Collider {
            p.world.colliders.iter_mut().next().map(|(_, c)| c).unwrap()
        }
        let e = refused(&|p| first_collider(p).set_shape(SharedShape::compound(vec![(Default::default(), SharedShape::ball(1.0))])));
        assert!(e.contains("is a Compound; limina makes boxes, balls and capsules"), "{e}");
        let e = refused(&|p| first_collider(p).set_shape(SharedShape::ball(f32::INFINITY)));
        assert!(e.contains("is a Ball"), "{e}");
        let e = refused(&|p| {
            let body = p.world.bodies.iter_mut().find(|(_, b)| b.is_dynamic()).map(|(_, b)| b).unwrap();
            body.set_linvel(rapier3d::math::Vector::new(f32::NAN, 0.0, 0.0), false);
        });
        assert!(e.ends_with("has a non-finite linear velocity"), "{e}");
        let e = refused(&|p| {
            let body = p.world.bodies.iter_mut().find(|(_, b)| b.is_dynamic()).map(|(_, b)| b).unwrap();
            body.set_additional_solver_iterations(65535);
        });
        assert!(e.starts_with("its body settings differ from the engine's (body "), "{e}");
        // A broad-phase tree whose root points back at itself (as deep as a crafted chain).
        let e = refused(&|p| {
            let bytes = postcard::to_allocvec(&p.world.broad_phase).unwrap();
            let (mut nodes, rest): (Vec<WideNode>, _) = postcard::take_from_bytes(&bytes).unwrap();
            nodes[0].left.children = 0;
            nodes[0].left.data = (nodes[0].left.data & !0x3fff_ffff) | 2;
            let mut crafted = postcard::to_allocvec(&nodes).unwrap();
            crafted.extend_from_slice(rest);
            p.world.broad_phase = postcard::from_bytes(&crafted).unwrap();
        });
        assert_eq!(e, "its broad-phase tree is malformed: node 0 is reached twice (a cycle or a shared subtree)");
        // The step itself is still the one thing a world may choose.
        let mut p = settling_stack();
        p.world.integration_parameters.dt = 1.0 / 120.0;
        assert!(PhysicsWorld::load(&p.save(Vec::new()).unwrap(), |u| u).is_ok());
    }

    /// Bytes throughout a saved physics state flipped (about 3,000 variants, every region hit,
    /// each position with its own mask): each variant is refused, or loads and steps on without
    /// a panic (so the physics never halts).
    #[test]
    fn flipped_bytes_are_refused_or_step_without_a_halt() {
        let p = settling_stack();
        let bytes = p.save(Vec::new()).unwrap();
        let mut halted = Vec::new();
        let (mut refused, mut loaded) = (0, 0);
        for at in (0..bytes.len()).step_by((bytes.len() / 3000).max(1)) {
            let mask = [0x01u8, 0x80, 0xff, 0x10, 0x04][at % 5];
            let mut flipped = bytes.clone();
            flipped[at] ^= mask;
            // As `snapshot::restore` decodes: a panic while loading is a refusal.
            let Ok(Ok((mut q, _))) = crate::isolate::catch(|| PhysicsWorld::load(&flipped, |u| u)) else {
                refused += 1;
                continue;
            };
            loaded += 1;
            if q.fault().is_some() {
                halted.push(format!("byte {at} ^ {mask:#04x}: loaded halted"));
                continue;
            }
            for step in 0..10 {
                if let Err(e) = q.step() {
                    halted.push(format!("byte {at} ^ {mask:#04x}, step {step}: {e}"));
                    break;
                }
            }
        }
        assert!(halted.is_empty(), "{} of {loaded} loaded variants halted (refused {refused}):\n{}", halted.len(), halted.join("\n"));
        assert!(refused > 0 && loaded > 0, "of {} bytes: refused {refused}, loaded {loaded}", bytes.len());
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
