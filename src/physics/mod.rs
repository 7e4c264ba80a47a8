//! Rapier, behind small `Copy` handles and plain arrays: the rest of the engine never sees a
//! rapier or glam type.
//!
//! Owns the rigid bodies and colliders of one world and steps them at the fixed dt. Each collider
//! carries its entity's public id and ECS entity bits in `user_data`, so transform sync and
//! collision events map back to entities without a lookup table. Hot: `step` and `for_each_moved`.
//!
//! A panic inside rapier or parry during a step is caught here; see `step` for what happens next.

mod events;
mod state;

use rapier3d::glamx::Quat;
use rapier3d::prelude::*;

pub use events::ContactEvent;
use events::EventCollector;
pub(crate) use state::LoadError as PhysicsLoadError;
pub use state::PhysicsStateError;

/// Opaque handle of a rigid body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub(crate) struct BodyHandle {
    index: u32,
    generation: u32,
}

impl BodyHandle {
    fn from_rapier(h: RigidBodyHandle) -> Self {
        let (index, generation) = h.into_raw_parts();
        Self { index, generation }
    }

    fn to_rapier(self) -> RigidBodyHandle {
        RigidBodyHandle::from_raw_parts(self.index, self.generation)
    }

    /// The body's slot index (what collision events report as `bodyA`/`bodyB`).
    pub fn index(self) -> u32 {
        self.index
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyKind {
    Dynamic,
    Fixed,
}

/// Collider geometry before scaling.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) enum ColliderShape {
    Box {
        half_extents: [f32; 3],
    },
    Ball {
        radius: f32,
    },
    /// Along Y; total height is `2 * (half_height + radius)`.
    Capsule {
        half_height: f32,
        radius: f32,
    },
}

impl ColliderShape {
    /// The shape stretched by a transform scale. Rapier balls and capsules stay round, so they
    /// take the largest of the relevant axes.
    pub fn scaled(self, s: [f32; 3]) -> Self {
        let s = s.map(f32::abs);
        match self {
            ColliderShape::Box { half_extents: h } => ColliderShape::Box { half_extents: [h[0] * s[0], h[1] * s[1], h[2] * s[2]] },
            ColliderShape::Ball { radius } => ColliderShape::Ball { radius: radius * s[0].max(s[1]).max(s[2]) },
            ColliderShape::Capsule { half_height, radius } => {
                ColliderShape::Capsule { half_height: half_height * s[1], radius: radius * s[0].max(s[2]) }
            }
        }
    }

    fn to_shared(self) -> SharedShape {
        // Rapier rejects degenerate shapes in places; keep every dimension strictly positive.
        const MIN: f32 = 1e-4;
        match self {
            ColliderShape::Box { half_extents: h } => SharedShape::cuboid(h[0].max(MIN), h[1].max(MIN), h[2].max(MIN)),
            ColliderShape::Ball { radius } => SharedShape::ball(radius.max(MIN)),
            ColliderShape::Capsule { half_height, radius } => SharedShape::capsule_y(half_height.max(MIN), radius.max(MIN)),
        }
    }
}

/// Everything needed to create a body with one collider.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BodySpec {
    pub kind: BodyKind,
    pub shape: ColliderShape,
    pub position: [f32; 3],
    pub rotation: [f32; 4],
    pub friction: f32,
    pub restitution: f32,
    /// Opaque owner tag returned by ray hits, events and sync (the world packs entity ids here).
    pub user: u128,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct RayHit {
    pub user: u128,
    pub distance: f32,
    pub point: [f32; 3],
}

/// Why a physics step did not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum PhysicsFault {
    /// Rapier panicked in this step; the physics is halted from now on.
    #[error("the physics step panicked ({0}); physics is halted for this world")]
    Panicked(String),
}

/// The physics of one world.
pub(crate) struct PhysicsWorld {
    world: rapier3d::prelude::PhysicsWorld,
    events: EventCollector,
    /// Bodies added, moved or reshaped by hand since the last step. Rapier's query tree only
    /// catches up at the next step, so queries test these bodies directly: a ray cast right after
    /// a create or a teleport sees the world as it is now.
    changed: Vec<RigidBodyHandle>,
    /// Set when a step panicked: the message. The world is no longer stepped.
    fault: Option<String>,
    #[cfg(test)]
    fail_next_step: bool,
}

impl std::fmt::Debug for PhysicsWorld {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PhysicsWorld").field("bodies", &self.world.bodies.len()).finish()
    }
}

impl Default for PhysicsWorld {
    fn default() -> Self {
        Self::new(1.0 / 60.0)
    }
}

fn quat(r: [f32; 4]) -> Quat {
    let q = Quat::from_xyzw(r[0], r[1], r[2], r[3]);
    if q.length_squared() > 1e-12 { q.normalize() } else { Quat::IDENTITY }
}

fn vec(v: [f32; 3]) -> Vector {
    Vector::new(v[0], v[1], v[2])
}

impl PhysicsWorld {
    pub fn new(dt: f32) -> Self {
        let mut world = rapier3d::prelude::PhysicsWorld::new();
        world.integration_parameters.dt = dt;
        Self {
            world,
            events: EventCollector::default(),
            changed: Vec::new(),
            fault: None,
            #[cfg(test)]
            fail_next_step: false,
        }
    }

    /// An exact copy that steps exactly like this world (bodies, colliders, islands, the
    /// broad and narrow phases with their contact caches, joints): only the pipelines' scratch
    /// space is new. `remap` rewrites each body's and collider's owner tag for the copy.
    pub(crate) fn duplicate(&self, remap: impl Fn(u128) -> u128) -> Self {
        let w = &self.world;
        let mut world = rapier3d::prelude::PhysicsWorld {
            gravity: w.gravity,
            integration_parameters: w.integration_parameters,
            physics_pipeline: rapier3d::prelude::PhysicsPipeline::new(),
            collision_pipeline: rapier3d::prelude::CollisionPipeline::new(),
            islands: w.islands.clone(),
            broad_phase: w.broad_phase.clone(),
            narrow_phase: w.narrow_phase.clone(),
            bodies: w.bodies.clone(),
            colliders: w.colliders.clone(),
            impulse_joints: w.impulse_joints.clone(),
            multibody_joints: w.multibody_joints.clone(),
            soft_bodies: w.soft_bodies.clone(),
            ccd_solver: w.ccd_solver.clone(),
        };
        for (_, body) in world.bodies.iter_mut() {
            body.user_data = remap(body.user_data);
        }
        for (_, collider) in world.colliders.iter_mut() {
            collider.user_data = remap(collider.user_data);
        }
        Self {
            world,
            events: EventCollector::default(),
            changed: self.changed.clone(),
            fault: self.fault.clone(),
            #[cfg(test)]
            fail_next_step: false,
        }
    }

    /// Dynamic bodies awake after the last step (the ones the solver actually works on).
    pub(crate) fn awake_count(&self) -> usize {
        self.world.islands.active_bodies().count()
    }

    pub(crate) fn body_count(&self) -> usize {
        self.world.bodies.len()
    }

    /// Whether every dynamic body sleeps (true when there are none). Read from the bodies, not
    /// the islands: a body added since the last step is awake though no island lists it yet.
    pub(crate) fn all_dynamic_asleep(&self) -> bool {
        self.world.bodies.iter().all(|(_, b)| !b.is_dynamic() || b.is_sleeping())
    }

    pub(crate) fn add_body(&mut self, spec: BodySpec) -> BodyHandle {
        let builder = match spec.kind {
            BodyKind::Dynamic => RigidBodyBuilder::dynamic(),
            BodyKind::Fixed => RigidBodyBuilder::fixed(),
        };
        let pose = Pose::from_parts(vec(spec.position), quat(spec.rotation));
        let body = builder.pose(pose).user_data(spec.user);
        let collider = ColliderBuilder::new(spec.shape.to_shared())
            .friction(spec.friction)
            .restitution(spec.restitution)
            .active_events(ActiveEvents::COLLISION_EVENTS)
            .user_data(spec.user);
        let (handle, _) = self.world.insert(body, collider);
        self.changed.push(handle);
        BodyHandle::from_rapier(handle)
    }

    pub(crate) fn remove_body(&mut self, handle: BodyHandle) -> bool {
        // A removed body's stale tree entry resolves to no collider, so queries skip it.
        self.world.remove_body(handle.to_rapier()).is_some()
    }

    /// Teleports a body (and stops it, so a moved ball does not keep its old momentum).
    pub(crate) fn set_pose(&mut self, handle: BodyHandle, position: [f32; 3], rotation: [f32; 4]) {
        if let Some(body) = self.world.bodies.get_mut(handle.to_rapier()) {
            body.set_position(Pose::from_parts(vec(position), quat(rotation)), true);
            if body.is_dynamic() {
                body.set_linvel(Vector::ZERO, true);
                body.set_angvel(Vector::ZERO, true);
            }
            self.changed.push(handle.to_rapier());
        }
    }

    pub(crate) fn set_shape(&mut self, handle: BodyHandle, shape: ColliderShape) {
        let Some(body) = self.world.bodies.get(handle.to_rapier()) else {
            return;
        };
        let colliders: Vec<ColliderHandle> = body.colliders().to_vec();
        for c in colliders {
            if let Some(collider) = self.world.colliders.get_mut(c) {
                collider.set_shape(shape.to_shared());
            }
        }
        self.world.wake_up(handle.to_rapier(), true);
        self.changed.push(handle.to_rapier());
    }

    /// Applies an impulse to a dynamic body and wakes it. False for fixed or missing bodies.
    pub(crate) fn apply_impulse(&mut self, handle: BodyHandle, impulse: [f32; 3]) -> bool {
        match self.world.bodies.get_mut(handle.to_rapier()) {
            Some(body) if body.is_dynamic() => {
                body.apply_impulse(vec(impulse), true);
                true
            }
            _ => false,
        }
    }

    /// A body's kind and its collider's friction and restitution, as they were made (what a
    /// saved scene records); None for a missing body.
    pub(crate) fn body_material(&self, handle: BodyHandle) -> Option<(BodyKind, f32, f32)> {
        let body = self.world.bodies.get(handle.to_rapier())?;
        let kind = if body.is_dynamic() { BodyKind::Dynamic } else { BodyKind::Fixed };
        let collider = body.colliders().first().and_then(|c| self.world.colliders.get(*c))?;
        Some((kind, collider.friction(), collider.restitution()))
    }

    pub(crate) fn is_dynamic(&self, handle: BodyHandle) -> bool {
        self.world.bodies.get(handle.to_rapier()).is_some_and(|b| b.is_dynamic())
    }

    /// Sets a dynamic body's horizontal velocity (x, z), keeping its vertical one; false for a
    /// body that is not dynamic.
    /// Keeps a dynamic body upright: it may turn about the vertical axis but never tips over or
    /// rolls (an agent's body walks; rapier locks the other two rotations in the solver, and the
    /// lock is part of the body, so snapshots and replays keep it). False for a body that is
    /// not dynamic or not there.
    pub(crate) fn keep_upright(&mut self, handle: BodyHandle) -> bool {
        match self.world.bodies.get_mut(handle.to_rapier()) {
            Some(body) if body.is_dynamic() => {
                body.set_enabled_rotations(false, true, false, true);
                let w = body.angvel();
                body.set_angvel(Vector::new(0.0, w.y, 0.0), true);
                true
            }
            _ => false,
        }
    }

    pub(crate) fn set_planar_velocity(&mut self, handle: BodyHandle, velocity: [f32; 2]) -> bool {
        match self.world.bodies.get_mut(handle.to_rapier()) {
            Some(body) if body.is_dynamic() => {
                let v = body.linvel();
                body.set_linvel(Vector::new(velocity[0], v.y, velocity[1]), true);
                true
            }
            _ => false,
        }
    }

    #[cfg(test)]
    pub(crate) fn linear_velocity(&self, handle: BodyHandle) -> Option<[f32; 3]> {
        self.world.bodies.get(handle.to_rapier()).map(|b| b.linvel().to_array())
    }

    /// Advances one fixed step, collecting collision events.
    ///
    /// A panic inside the step (a bug in rapier or parry, or a value that got past the bounds) is
    /// caught and reported once as `PhysicsFault::Panicked`. Rapier may have been interrupted
    /// between updating its island, broad-phase, narrow-phase and body sets, so they may no longer
    /// agree with one another, and stepping them again could panic again or move bodies from
    /// garbage. So the physics halts: later steps return `Ok` without simulating (bodies stay
    /// where they are, no events), while the rest of the engine (the clock, scripts, skills,
    /// every client) carries on. We halt rather than refuse every later step so one fault does
    /// not become an error per tick in every server loop; the fault stays readable (`fault`),
    /// it is traced by the engine when it happens, and a restart or a new world clears it.
    pub fn step(&mut self) -> Result<(), PhysicsFault> {
        if self.fault.is_some() {
            return Ok(());
        }
        #[cfg(test)]
        let fail = std::mem::take(&mut self.fail_next_step);
        let outcome = crate::isolate::catch(|| {
            #[cfg(test)]
            if fail {
                panic!("injected physics panic (test)");
            }
            self.world.step_with_events(&(), &self.events);
        });
        self.changed.clear();
        outcome.map_err(|p| {
            self.fault = Some(p.message.clone());
            PhysicsFault::Panicked(p.message)
        })
    }

    /// Why the physics halted, if a step panicked.
    #[cfg(test)]
    pub fn fault(&self) -> Option<&str> {
        self.fault.as_deref()
    }

    #[cfg(test)]
    pub(crate) fn fail_next_step(&mut self) {
        self.fail_next_step = true;
    }

    /// Calls `f(user, position, rotation)` for every awake dynamic body: the bodies whose
    /// transforms can have changed this step.
    pub(crate) fn for_each_moved(&self, mut f: impl FnMut(u128, [f32; 3], [f32; 4])) {
        if self.fault.is_some() {
            return;
        }
        for handle in self.world.islands.active_bodies() {
            if let Some(body) = self.world.bodies.get(handle)
                && body.is_dynamic()
            {
                let r = body.rotation();
                f(body.user_data, body.translation().to_array(), [r.x, r.y, r.z, r.w]);
            }
        }
    }

    /// First hit along a ray; `direction` need not be normalized (it must not be zero).
    pub fn raycast(&self, origin: [f32; 3], direction: [f32; 3], max_distance: f32) -> Option<RayHit> {
        let dir = vec(direction);
        let len = dir.length();
        let finite = origin.iter().all(|c| c.is_finite()) && max_distance.is_finite();
        if !(finite && len.is_finite() && len > 0.0) {
            return None;
        }
        let ray = Ray::new(vec(origin), dir / len);
        let is_changed = |_: ColliderHandle, c: &Collider| c.parent().is_some_and(|b| self.changed.contains(&b));
        let skip_changed = |h: ColliderHandle, c: &Collider| !is_changed(h, c);
        let filter = QueryFilter::default().predicate(&skip_changed);
        let mut best: Option<(ColliderHandle, f32)> = self.world.cast_ray(&ray, max_distance, true, filter);
        // Bodies changed since the last step are tested against their current pose and shape.
        for &handle in &self.changed {
            let Some(body) = self.world.bodies.get(handle) else {
                continue;
            };
            for &c in body.colliders() {
                let Some(collider) = self.world.colliders.get(c) else {
                    continue;
                };
                let pose = *body.position() * *collider.position_wrt_parent().unwrap_or(&Pose::IDENTITY);
                let limit = best.map_or(max_distance, |(_, toi)| toi);
                if let Some(toi) = collider.shape().cast_ray(&pose, &ray, limit, true)
                    && best.is_none_or(|(_, t)| toi < t)
                {
                    best = Some((c, toi));
                }
            }
        }
        let (collider, toi) = best?;
        let user = self.world.colliders.get(collider)?.user_data;
        Some(RayHit { user, distance: toi, point: ray.point_at(toi).to_array() })
    }

    /// Takes the collision events gathered since the last drain, oldest first.
    pub(crate) fn drain_events(&mut self) -> Vec<ContactEvent> {
        self.events.drain()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ball(y: f32, user: u128) -> BodySpec {
        BodySpec {
            kind: BodyKind::Dynamic,
            shape: ColliderShape::Ball { radius: 0.5 },
            position: [0.0, y, 0.0],
            rotation: [0.0, 0.0, 0.0, 1.0],
            friction: 0.5,
            restitution: 0.0,
            user,
        }
    }

    fn floor() -> BodySpec {
        BodySpec {
            kind: BodyKind::Fixed,
            shape: ColliderShape::Box { half_extents: [10.0, 0.5, 10.0] },
            position: [0.0; 3],
            ..ball(0.0, 99)
        }
    }

    #[test]
    fn a_ball_falls_onto_a_floor_and_reports_the_contact() {
        let mut p = PhysicsWorld::default();
        p.add_body(floor());
        p.add_body(ball(3.0, 7));
        let mut last_y = 3.0;
        for _ in 0..120 {
            p.step().unwrap();
            p.for_each_moved(|_, pos, _| last_y = pos[1]);
        }
        assert!((last_y - 1.0).abs() < 0.05, "ball rests on the floor, y = {last_y}");
        let events = p.drain_events();
        let started = events.iter().find(|e| e.started).expect("a start event");
        let users = [started.user_a, started.user_b];
        assert!(users.contains(&Some(7)) && users.contains(&Some(99)), "{started:?}");
        assert!(started.point.is_some());
    }

    #[test]
    fn raycast_sees_a_body_added_this_tick() {
        let mut p = PhysicsWorld::default();
        p.add_body(ball(5.0, 42));
        let hit = p.raycast([0.0, 0.0, 0.0], [0.0, 2.0, 0.0], 100.0).expect("hit");
        assert_eq!(hit.user, 42);
        assert!((hit.distance - 4.5).abs() < 1e-3, "{hit:?}");
        assert!(p.raycast([0.0, 0.0, 0.0], [0.0, -1.0, 0.0], 100.0).is_none());
        assert!(p.raycast([0.0, 0.0, 0.0], [0.0, 1.0, 0.0], 4.0).is_none(), "max distance is respected");
    }

    #[test]
    fn impulses_only_move_dynamic_bodies() {
        let mut p = PhysicsWorld::default();
        let fixed = p.add_body(floor());
        let b = p.add_body(ball(5.0, 1));
        assert!(!p.apply_impulse(fixed, [1.0, 0.0, 0.0]));
        assert!(p.apply_impulse(b, [1.0, 0.0, 0.0]));
        p.step().unwrap();
        assert!(p.linear_velocity(b).unwrap()[0] > 0.0);
    }

    #[test]
    fn a_panicking_step_is_reported_once_and_halts_the_physics() {
        let mut p = PhysicsWorld::default();
        p.add_body(ball(5.0, 1));
        p.step().unwrap();
        p.fail_next_step();
        let fault = p.step().unwrap_err();
        assert!(fault.to_string().contains("injected physics panic (test)"), "{fault}");
        assert_eq!(p.fault(), Some("injected physics panic (test)"));
        // Halted: later steps succeed without simulating, and nothing reports a move.
        let mut moved = 0;
        for _ in 0..10 {
            p.step().unwrap();
            p.for_each_moved(|_, _, _| moved += 1);
        }
        assert_eq!(moved, 0);
        // Queries still answer from the last consistent state.
        assert!(p.raycast([0.0; 3], [0.0, 1.0, 0.0], 100.0).is_some());
    }

    #[test]
    fn raycasts_with_non_finite_inputs_hit_nothing() {
        let mut p = PhysicsWorld::default();
        p.add_body(ball(5.0, 1));
        assert!(p.raycast([f32::NAN, 0.0, 0.0], [0.0, 1.0, 0.0], 100.0).is_none());
        assert!(p.raycast([0.0; 3], [0.0, 1.0, 0.0], f32::INFINITY).is_none());
    }
}
