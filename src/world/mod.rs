//! The world: a standalone bevy_ecs `World` for entity data, the `EntityTable` for public ids,
//! and the physics bodies those entities own.
//!
//! This is the only place that creates, destroys or moves entities, and it is reached only
//! through the native ops behind core skills. It keeps ECS and physics consistent (a moved
//! entity's body is teleported, a rescaled entity's collider is rescaled) and computes the
//! world hash. Everything it stores from a caller is first held to the ranges in `bounds`, so no
//! value a skill can send reaches rapier out of range. Hot per tick: `step_physics`
//! (previous-transform copy, rapier step, sync) and `query_near_batch` (every due agent's
//! perception in one `spatial` grid query).

pub mod bounds;
mod components;
mod entity_table;
mod hash;
mod scene;
pub mod sharing;
pub mod sound;
pub mod spatial;
pub(crate) mod state;
pub mod touched;
pub mod ui;
pub(crate) mod viewed;

pub use bounds::BoundsError;
pub use components::{Material, PreviousTransform, PublicId, RenderShape, Renderable, Tags, Transform};
pub use entity_table::{
    DEFAULT_ENTITY_CAPACITY, DESTROYED_KEPT, DestroyedAt, EntityId, EntityRefError, EntityTable, EntityTableError, EntityTableSnapshot,
};
pub use scene::{Camera, Lighting};
pub use sharing::{Lease, LeaseError, Leases, Revision};
pub use spatial::{NearHit, NearQuery, SpatialError, SpatialIndex};
pub use state::{WorldSaveError, WorldStateError};
pub use touched::{Stamp, Touch, TouchJournal};

use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity;
use bevy_ecs::query::QueryState;

use crate::physics::{BodyHandle, BodyKind, BodySpec, ColliderShape, ContactEvent, PhysicsFault, PhysicsWorld};

/// Collider geometry a skill may ask for; sized from the entity's `size`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColliderKind {
    Box,
    Sphere,
    Capsule,
}

impl ColliderKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Box => "box",
            Self::Sphere => "sphere",
            Self::Capsule => "capsule",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "box" => Some(Self::Box),
            "sphere" => Some(Self::Sphere),
            "capsule" => Some(Self::Capsule),
            _ => None,
        }
    }

    /// A box is a cube of edge `size`, a sphere has diameter `size`, a capsule is `size` tall
    /// and `size / 2` wide.
    fn shape(self, size: f32) -> ColliderShape {
        match self {
            ColliderKind::Box => ColliderShape::Box { half_extents: [size / 2.0; 3] },
            ColliderKind::Sphere => ColliderShape::Ball { radius: size / 2.0 },
            ColliderKind::Capsule => ColliderShape::Capsule { half_height: size / 4.0, radius: size / 4.0 },
        }
    }
}

/// What `scene.createEntity` asks for, already validated.
#[derive(Debug, Clone, Copy)]
pub struct EntitySpec {
    pub shape: RenderShape,
    pub collider: Option<ColliderKind>,
    pub size: f32,
    pub color: u32,
    pub position: [f32; 3],
    pub body: Option<BodyKind>,
    pub friction: f32,
    pub restitution: f32,
}

/// The physics side of an entity: its body and unscaled collider.
#[derive(Component, Debug, Clone, Copy, serde::Serialize, serde::Deserialize)]
pub(crate) struct PhysicsBinding {
    pub body: BodyHandle,
    pub shape: ColliderShape,
}

/// Tags one entity may carry (`ecs.addComponent`).
pub const MAX_TAGS: usize = 32;

/// An entity already carries `MAX_TAGS` tags.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{entity} already carries {max} tags, the limit; remove one first")]
pub struct TagsFull {
    pub entity: EntityId,
    pub max: usize,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum WorldError {
    #[error(transparent)]
    Capacity(#[from] EntityTableError),
    #[error(transparent)]
    OutOfBounds(#[from] BoundsError),
}

impl EntitySpec {
    /// The spec's values within their documented ranges (`bounds`).
    fn check(&self) -> Result<(), BoundsError> {
        bounds::position("position", self.position.map(f64::from))?;
        bounds::size("size", f64::from(self.size))?;
        bounds::friction("friction", f64::from(self.friction))?;
        bounds::restitution("restitution", f64::from(self.restitution))?;
        Ok(())
    }
}

/// One entry of a query result.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryHit {
    pub id: EntityId,
    pub position: [f32; 3],
    pub distance: f64,
}

/// A collision event with entities resolved.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Collision {
    pub event: ContactEvent,
    pub entity_a: Option<EntityId>,
    pub entity_b: Option<EntityId>,
}

/// What the inspector shows of one entity.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct EntityView {
    pub id: EntityId,
    pub eid: u32,
    pub generation: u32,
    pub transform: Transform,
    pub tags: Vec<String>,
    pub body: Option<u32>,
}

/// One entity's plain data, as `World::for_each_entity` shows it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct EntityState<'a> {
    pub id: EntityId,
    pub transform: &'a Transform,
    pub renderable: Option<&'a Renderable>,
    pub material: Option<&'a Material>,
    pub tags: Option<&'a Tags>,
}

/// An entity's rigid body as it was made: what `scene.createEntity` was asked for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct BodyState {
    pub kind: BodyKind,
    pub collider: ColliderKind,
    pub friction: f32,
    pub restitution: f32,
}

/// What render-sync reads of one renderable entity.
#[derive(Debug, Clone, Copy)]
pub struct RenderableState<'a> {
    pub id: EntityId,
    pub transform: &'a Transform,
    /// The transform at the start of the step (interpolation), when recorded.
    pub previous: Option<&'a Transform>,
    pub renderable: &'a Renderable,
    /// The entity's own material; None renders with the defaults (or a model's own).
    pub material: Option<&'a Material>,
}

/// A ray hit with its entity resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct RaycastHit {
    pub entity: Option<EntityId>,
    pub distance: f32,
    pub point: [f32; 3],
}

pub struct World {
    /// Asset ids of the models `three.loadGLTF` placed, indexed by `RenderShape::Asset`.
    models: Vec<String>,
    /// Scene lighting and the view (plain data render-sync reads; set through skills).
    pub lighting: Lighting,
    pub camera: Camera,
    ecs: bevy_ecs::world::World,
    entities: EntityTable<Entity>,
    physics: PhysicsWorld,
    remember_previous: QueryState<(&'static Transform, &'static mut PreviousTransform)>,
    /// Everything render-sync reads, walked in storage order (no per-entity lookups).
    render_query: std::cell::RefCell<RenderQuery>,
    /// The radius-query grid and its gathered points, kept so a tick's rebuild reuses them.
    near: std::cell::RefCell<NearScratch>,
    /// In-world UI elements (world state; the `ui.*` skills change them).
    pub ui: ui::UiTable,
    /// What plays (world state; the `audio.*` skills change it).
    pub sounds: sound::SoundTable,
    /// Who holds which entities until when (`sharing`; `scene.lease` changes it).
    pub(crate) leases: Leases,
    /// Which entities changed what a viewer sees (`touched`): not world state, never hashed or
    /// saved; a cell so a reader holding `&World` can seal it.
    pub(crate) touched: std::cell::RefCell<TouchJournal>,
}

#[derive(Debug)]
struct NearScratch {
    index: SpatialIndex,
    points: Vec<(EntityId, [f64; 3])>,
    /// Every entity's id, position and tags, walked in storage order (no per-entity lookups).
    query: QueryState<(&'static PublicId, &'static Transform, &'static Tags)>,
}

impl std::fmt::Debug for World {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("World").field("entities", &self.entities.len()).field("physics", &self.physics).finish()
    }
}

impl Default for World {
    fn default() -> Self {
        Self::with_capacity(DEFAULT_ENTITY_CAPACITY)
    }
}

type RenderQuery =
    QueryState<(&'static PublicId, &'static Transform, Option<&'static PreviousTransform>, &'static Renderable, Option<&'static Material>)>;

/// Packs an entity's public id and ECS entity into a physics owner tag.
fn pack(id: EntityId, entity: Entity) -> u128 {
    (u128::from(id.0) << 64) | u128::from(entity.to_bits())
}

fn unpack(user: u128) -> (EntityId, Option<Entity>) {
    (EntityId((user >> 64) as u64), Entity::try_from_bits(user as u64))
}

impl World {
    /// A world that holds at most `capacity` live entities. Nothing is preallocated per
    /// capacity: the table, the ECS and the query grid grow with the entities actually made.
    pub fn with_capacity(capacity: usize) -> Self {
        let mut ecs = bevy_ecs::world::World::new();
        let remember_previous = ecs.query();
        let render_query = std::cell::RefCell::new(ecs.query());
        let near = std::cell::RefCell::new(NearScratch { index: SpatialIndex::default(), points: Vec::new(), query: ecs.query() });
        Self {
            models: Vec::new(),
            lighting: Lighting::default(),
            camera: Camera::default(),
            ecs,
            entities: EntityTable::with_capacity(capacity),
            physics: PhysicsWorld::default(),
            remember_previous,
            render_query,
            near,
            ui: ui::UiTable::default(),
            sounds: sound::SoundTable::default(),
            leases: Leases::new(),
            touched: Default::default(),
        }
    }

    /// An exact, independent copy: the same entities under the same ids with all their
    /// components, the same physics state (stepping both gives the same hashes), lighting,
    /// camera, models, UI and sounds. Playtests run against one (`test.run`).
    pub(crate) fn duplicate(&self) -> World {
        let mut ecs = bevy_ecs::world::World::new();
        let mut moved: std::collections::HashMap<Entity, Entity> = std::collections::HashMap::with_capacity(self.entities.len());
        for (_, old) in self.entities.iter() {
            let mut copy = ecs.spawn_empty();
            // Every component an entity can carry (components.rs and PhysicsBinding).
            macro_rules! carry {
                ($($t:ty),*) => {$(
                    if let Some(c) = self.ecs.get::<$t>(old) {
                        copy.insert(c.clone());
                    }
                )*};
            }
            carry!(Transform, PreviousTransform, Tags, Renderable, PublicId, Material, PhysicsBinding, Revision);
            moved.insert(old, copy.id());
        }
        let physics = self.physics.duplicate(|user| {
            let (id, entity) = unpack(user);
            match entity.and_then(|e| moved.get(&e)) {
                Some(new) => pack(id, *new),
                None => user,
            }
        });
        let entities = self.entities.remapped(|old| moved.get(&old).copied().unwrap_or(old));
        let remember_previous = ecs.query();
        let render_query = std::cell::RefCell::new(ecs.query());
        let near = std::cell::RefCell::new(NearScratch { index: SpatialIndex::default(), points: Vec::new(), query: ecs.query() });
        World {
            models: self.models.clone(),
            lighting: self.lighting,
            camera: self.camera,
            ecs,
            entities,
            physics,
            remember_previous,
            render_query,
            near,
            ui: self.ui.clone(),
            sounds: self.sounds.clone(),
            leases: self.leases.clone(),
            touched: Default::default(),
        }
    }

    /// Live entities a world may hold at once.
    pub fn capacity(&self) -> usize {
        self.entities.capacity()
    }

    pub fn entity_count(&self) -> usize {
        self.entities.len()
    }

    pub(crate) fn awake_body_count(&self) -> usize {
        self.physics.awake_count()
    }

    /// Whether every dynamic body sleeps (`world.step` until all asleep).
    pub(crate) fn all_dynamic_asleep(&self) -> bool {
        self.physics.all_dynamic_asleep()
    }

    pub(crate) fn body_count(&self) -> usize {
        self.physics.body_count()
    }

    /// Visits every live entity in id order with its plain data.
    pub(crate) fn for_each_entity(&self, mut visit: impl FnMut(EntityState<'_>)) {
        for (id, e) in self.entities.iter() {
            let Some(transform) = self.ecs.get::<Transform>(e) else { continue };
            visit(EntityState {
                id,
                transform,
                renderable: self.ecs.get::<Renderable>(e),
                material: self.ecs.get::<Material>(e),
                tags: self.ecs.get::<Tags>(e),
            });
        }
    }

    /// One live entity's plain data, as `for_each_entity` shows it (None: not live).
    pub(crate) fn entity_state(&self, id: EntityId) -> Option<EntityState<'_>> {
        let e = self.entities.get(id)?;
        Some(EntityState {
            id,
            transform: self.ecs.get::<Transform>(e)?,
            renderable: self.ecs.get::<Renderable>(e),
            material: self.ecs.get::<Material>(e),
            tags: self.ecs.get::<Tags>(e),
        })
    }

    /// The journal of what changed what a viewer sees (`touched`).
    pub(crate) fn touched(&self) -> std::cell::RefMut<'_, TouchJournal> {
        self.touched.borrow_mut()
    }

    /// Visits every renderable entity in storage order (no per-entity lookups: this is the hot
    /// read of render-sync, once per drawn frame).
    pub fn for_each_renderable(&self, mut visit: impl FnMut(RenderableState<'_>)) {
        let mut query = self.render_query.borrow_mut();
        for (id, transform, previous, renderable, material) in query.iter(&self.ecs) {
            visit(RenderableState { id: id.0, transform, previous: previous.map(|p| &p.0), renderable, material });
        }
    }

    /// The models the world has loaded (by asset id, in the order they were first placed), each
    /// with the number of live entities showing it.
    pub fn loaded_models(&self) -> Vec<(&str, usize)> {
        let mut uses = vec![0usize; self.models.len()];
        self.for_each_renderable(|r| {
            if let RenderShape::Asset(handle) = r.renderable.shape
                && let Some(n) = uses.get_mut(handle as usize)
            {
                *n += 1;
            }
        });
        self.models.iter().map(String::as_str).zip(uses).collect()
    }

    /// The asset id of a placed model (`RenderShape::Asset(handle)`).
    pub fn model_asset(&self, handle: u32) -> Option<&str> {
        self.models.get(handle as usize).map(String::as_str)
    }

    /// Creates an entity, with a body when asked. Bounds and capacity are checked first, so a
    /// refused create leaves nothing behind.
    pub(crate) fn create_entity(&mut self, spec: &EntitySpec) -> Result<EntityId, WorldError> {
        spec.check()?;
        self.entities.ensure_room()?;
        let id = self.entities.peek_next();
        let transform = Transform::at(spec.position);
        let renderable = Renderable { shape: spec.shape, size: spec.size, color: spec.color };
        let entity = self.ecs.spawn((transform, PreviousTransform(transform), Tags::default(), renderable, PublicId(id), Revision(1))).id();
        if let Some(kind) = spec.body {
            let collider = spec.collider.unwrap_or(match spec.shape {
                RenderShape::Box | RenderShape::Asset(_) => ColliderKind::Box,
                RenderShape::Sphere => ColliderKind::Sphere,
                RenderShape::Capsule => ColliderKind::Capsule,
            });
            let shape = collider.shape(spec.size);
            let body = self.physics.add_body(BodySpec {
                kind,
                shape,
                position: spec.position,
                rotation: transform.rotation,
                friction: spec.friction,
                restitution: spec.restitution,
                user: pack(id, entity),
            });
            self.ecs.entity_mut(entity).insert(PhysicsBinding { body, shape });
        }
        let inserted = self.entities.insert(entity)?;
        debug_assert_eq!(inserted, id);
        self.touched.get_mut().touch(id, Touch::Created);
        Ok(id)
    }

    /// Places a model (by asset id) as a new entity built from `spec` (whose shape is ignored),
    /// with a body when asked, like any other entity. The same model shares one table entry, and
    /// a refused create leaves the table untouched.
    pub fn spawn_model(&mut self, asset_id: &str, spec: &EntitySpec) -> Result<EntityId, WorldError> {
        spec.check()?;
        self.entities.ensure_room()?;
        let handle = match self.models.iter().position(|a| a == asset_id) {
            Some(h) => h,
            None => {
                self.models.push(asset_id.to_string());
                self.models.len() - 1
            }
        };
        self.create_entity(&EntitySpec { shape: RenderShape::Asset(handle as u32), ..*spec })
    }

    /// Destroys an entity and its body at `tick` (remembered for `lookup`'s answer). False when
    /// the id is unknown or already destroyed.
    pub(crate) fn destroy_entity(&mut self, id: EntityId, tick: u64) -> bool {
        let Some(entity) = self.entities.remove(id, tick) else {
            return false;
        };
        if let Some(binding) = self.ecs.get::<PhysicsBinding>(entity).copied() {
            self.physics.remove_body(binding.body);
        }
        self.ecs.despawn(entity);
        self.leases.remove(id);
        self.touched.get_mut().touch(id, Touch::Destroyed);
        true
    }

    pub fn resolve(&self, text: &str) -> Option<EntityId> {
        self.entities.resolve(text).map(|(id, _)| id)
    }

    /// Resolves an id string, saying why when it names no live entity (malformed, never
    /// existed, or destroyed and when).
    pub fn lookup(&self, text: &str) -> Result<EntityId, EntityRefError> {
        self.entities.lookup(text).map(|(id, _)| id)
    }

    /// How many writes changed an entity (`sharing`); None for an id that names no live entity.
    pub fn revision(&self, id: EntityId) -> Option<u64> {
        self.entities.get(id).and_then(|e| self.ecs.get::<Revision>(e)).map(|r| r.0)
    }

    /// Counts one write to `entity`.
    fn bump(&mut self, entity: Entity) {
        if let Some(mut r) = self.ecs.get_mut::<Revision>(entity) {
            r.bump();
        }
    }

    /// The leases (read side; `scene.lease` and the step change them through `leases_mut`).
    pub fn leases(&self) -> &Leases {
        &self.leases
    }

    pub(crate) fn leases_mut(&mut self) -> &mut Leases {
        &mut self.leases
    }

    pub fn transform(&self, id: EntityId) -> Option<Transform> {
        self.entities.get(id).and_then(|e| self.ecs.get::<Transform>(e).copied())
    }

    /// An entity's tags (None for unknown ids).
    pub(crate) fn tags(&self, id: EntityId) -> Option<&Tags> {
        self.entities.get(id).and_then(|e| self.ecs.get::<Tags>(e))
    }

    /// What an entity looks like (None for unknown ids and entities that are not drawn).
    #[cfg_attr(not(feature = "render"), allow(dead_code, reason = "read by render.capture's framing, which needs the renderer"))]
    pub(crate) fn renderable(&self, id: EntityId) -> Option<Renderable> {
        self.entities.get(id).and_then(|e| self.ecs.get::<Renderable>(e).copied())
    }

    /// Edits an entity's transform and keeps its body in step: moved bodies are teleported,
    /// rescaled bodies get a rescaled collider. False when the id is unknown or the edit would
    /// store a value outside `bounds` (then nothing changes; `try_edit_transform` says why).
    #[cfg(test)]
    pub(crate) fn edit_transform(&mut self, id: EntityId, edit: impl FnOnce(&mut Transform)) -> bool {
        self.try_edit_transform(id, edit).unwrap_or(false)
    }

    /// `edit_transform` that reports an out-of-bounds edit: `Ok(false)` when the id is unknown.
    pub(crate) fn try_edit_transform(&mut self, id: EntityId, edit: impl FnOnce(&mut Transform)) -> Result<bool, WorldError> {
        let Some(entity) = self.entities.get(id) else {
            return Ok(false);
        };
        let Some(before) = self.ecs.get::<Transform>(entity).copied() else {
            return Ok(false);
        };
        let mut after = before;
        edit(&mut after);
        bounds::check_edit(&before, &after)?;
        if after != before {
            self.bump(entity);
            self.touched.get_mut().touch(id, Touch::Pose);
        }
        if let Some(mut t) = self.ecs.get_mut::<Transform>(entity) {
            *t = after;
        }
        if let Some(binding) = self.ecs.get::<PhysicsBinding>(entity).copied() {
            if after.position != before.position || after.rotation != before.rotation {
                self.physics.set_pose(binding.body, after.position, after.rotation);
            }
            if after.scale != before.scale {
                self.physics.set_shape(binding.body, binding.shape.scaled(after.scale));
            }
        }
        Ok(true)
    }

    /// Adds a tag; `None` when the id is unknown, else whether it was newly added.
    /// Adds a tag; `None` when the id is unknown, else whether it was new. An entity carries at
    /// most `MAX_TAGS` tags (a full entity refuses new ones with `Err`).
    pub(crate) fn add_tag(&mut self, id: EntityId, tag: &str) -> Option<Result<bool, TagsFull>> {
        let entity = self.entities.get(id)?;
        let added = self.ecs.get_mut::<Tags>(entity).map(|mut tags| {
            if tags.contains(tag) {
                Ok(false)
            } else if tags.0.len() >= MAX_TAGS {
                Err(TagsFull { entity: id, max: MAX_TAGS })
            } else {
                Ok(tags.insert(tag))
            }
        });
        if added == Some(Ok(true)) {
            self.bump(entity);
            self.touched.get_mut().touch(id, Touch::Look);
        }
        added
    }

    /// Removes a tag; `None` when the id is unknown, else whether it was there.
    pub(crate) fn remove_tag(&mut self, id: EntityId, tag: &str) -> Option<bool> {
        let entity = self.entities.get(id)?;
        let removed = self.ecs.get_mut::<Tags>(entity).map(|mut tags| tags.remove(tag));
        if removed == Some(true) {
            self.bump(entity);
            self.touched.get_mut().touch(id, Touch::Look);
        }
        removed
    }

    fn binding(&self, id: EntityId) -> Option<PhysicsBinding> {
        self.entities.get(id).and_then(|e| self.ecs.get::<PhysicsBinding>(e).copied())
    }

    /// True when the entity has a dynamic body and the impulse was applied.
    pub(crate) fn apply_impulse(&mut self, id: EntityId, impulse: [f32; 3]) -> Result<bool, WorldError> {
        bounds::impulse("impulse", impulse.map(f64::from))?;
        let applied = match self.binding(id) {
            Some(b) => self.physics.apply_impulse(b.body, impulse),
            None => false,
        };
        if applied && let Some(entity) = self.entities.get(id) {
            self.bump(entity);
        }
        Ok(applied)
    }

    /// Whether the entity's body is dynamic (None: no such entity, or it has no body).
    pub(crate) fn has_dynamic_body(&self, id: EntityId) -> Option<bool> {
        self.binding(id).map(|b| self.physics.is_dynamic(b.body))
    }

    /// An entity's position `alpha` of the way from the start of the step to its end (what its
    /// mesh is drawn at).
    pub fn interpolated_position(&self, id: EntityId, alpha: f32) -> Option<[f32; 3]> {
        let entity = self.entities.get(id)?;
        let now = self.ecs.get::<Transform>(entity)?.position;
        let before = self.ecs.get::<PreviousTransform>(entity).map_or(now, |p| p.0.position);
        Some(std::array::from_fn(|i| before[i] + (now[i] - before[i]) * alpha))
    }

    /// Keeps the entity's dynamic body upright (`PhysicsWorld::keep_upright`): it turns about
    /// the vertical axis only. False when it has no dynamic body.
    pub(crate) fn keep_upright(&mut self, id: EntityId) -> bool {
        match self.binding(id) {
            Some(b) => self.physics.keep_upright(b.body),
            None => false,
        }
    }

    /// Walks an entity across the ground at `velocity` (x, z in m/s) for one step: a dynamic body
    /// gets that horizontal velocity (gravity keeps its vertical one); an entity without a body
    /// is moved directly. False when the entity does not exist.
    pub(crate) fn walk(&mut self, id: EntityId, velocity: [f32; 2], dt: f32) -> bool {
        if !velocity.iter().all(|v| v.is_finite()) {
            return false;
        }
        match self.binding(id) {
            Some(b) if self.physics.set_planar_velocity(b.body, velocity) => {
                if let Some(entity) = self.entities.get(id) {
                    self.bump(entity);
                }
                true
            }
            // Past the world's bounds the walk stops (nothing is stored out of bounds).
            _ => self
                .try_edit_transform(id, |t| {
                    t.position[0] += velocity[0] * dt;
                    t.position[2] += velocity[1] * dt;
                })
                .unwrap_or(false),
        }
    }

    pub fn raycast(&self, origin: [f32; 3], direction: [f32; 3], max_distance: f32) -> Option<RaycastHit> {
        let hit = self.physics.raycast(origin, direction, max_distance)?;
        let (id, _) = unpack(hit.user);
        let entity = self.entities.get(id).map(|_| id);
        Some(RaycastHit { entity, distance: hit.distance, point: hit.point })
    }

    pub(crate) fn drain_collisions(&mut self) -> Vec<Collision> {
        let live = |user: Option<u128>| user.map(|u| unpack(u).0).filter(|id| self.entities.get(*id).is_some());
        self.physics
            .drain_events()
            .into_iter()
            .map(|event| Collision { entity_a: live(event.user_a), entity_b: live(event.user_b), event })
            .collect()
    }

    /// Entities in id order, optionally filtered by tag and by distance to `near`; with `near`,
    /// sorted nearest first (ties keep id order, so results are deterministic). With `near` and a
    /// valid radius this is one query of the `spatial` grid, so `scene.queryEntities` and agent
    /// perception see the same set; any other radius takes the plain scan, whose answer for
    /// those (NaN: everything, negative: nothing) is kept as it always was.
    pub fn query(&self, near: Option<[f64; 3]>, radius: Option<f64>, tag: Option<&str>) -> Vec<QueryHit> {
        if let (Some(center), Some(radius)) = (near, radius) {
            let mut out = Vec::new();
            if self.query_near_into(&[NearQuery { center, radius, exclude: None, nearest: None }], tag, &mut out).is_ok() {
                let hits = out.pop().unwrap_or_default();
                return hits
                    .into_iter()
                    .filter_map(|h| Some(QueryHit { id: h.id, position: self.transform(h.id)?.position, distance: h.distance }))
                    .collect();
            }
        }
        self.query_scan(near, radius, tag)
    }

    /// `query` by visiting every entity.
    pub(crate) fn query_scan(&self, near: Option<[f64; 3]>, radius: Option<f64>, tag: Option<&str>) -> Vec<QueryHit> {
        let mut hits = Vec::new();
        for (id, entity) in self.entities.iter() {
            let (Some(t), Some(tags)) = (self.ecs.get::<Transform>(entity), self.ecs.get::<Tags>(entity)) else {
                continue;
            };
            if tag.is_some_and(|tag| !tags.contains(tag)) {
                continue;
            }
            let distance = match near {
                Some(n) => spatial::distance(t.position.map(f64::from), n),
                None => 0.0,
            };
            if radius.is_some_and(|r| distance > r) {
                continue;
            }
            hits.push(QueryHit { id, position: t.position, distance });
        }
        if near.is_some() {
            hits.sort_by(|a, b| a.distance.total_cmp(&b.distance));
        }
        hits
    }

    /// Every query of a batch against every live entity at once (one grid build, queries in
    /// parallel): `result[i]` holds the entities within `queries[i].radius` of its center,
    /// nearest first, exact ties by id, its `exclude` left out. Distances are f64 from the f32
    /// positions, exactly as `query` reports them.
    pub fn query_near_batch(&self, queries: &[NearQuery]) -> Result<Vec<Vec<NearHit>>, SpatialError> {
        let mut out = Vec::new();
        self.query_near_into(queries, None, &mut out)?;
        Ok(out)
    }

    /// `query_near_batch` into `out`, reusing its vectors (a caller keeping `out` across ticks
    /// allocates nothing once warmed up); only entities tagged `tag`, when given.
    pub fn query_near_into(&self, queries: &[NearQuery], tag: Option<&str>, out: &mut Vec<Vec<NearHit>>) -> Result<(), SpatialError> {
        let mut near = self.near.borrow_mut();
        let NearScratch { index, points, query } = &mut *near;
        points.clear();
        // Gathered in ECS storage order, which is cheap; the answer does not depend on it
        // (hits are sorted by distance, then id, with distances computed the same way whatever
        // the order), so the result is the same bytes as a walk in id order.
        for (id, t, tags) in query.iter(&self.ecs) {
            if tag.is_some_and(|tag| !tags.contains(tag)) {
                continue;
            }
            points.push((id.0, t.position.map(f64::from)));
        }
        index.query_batch_into(points, queries, out)
    }

    /// Start of a step: remember every transform, so rendering can interpolate from here to the
    /// end of the step whatever moves the entity (scripts, skills or physics).
    pub(crate) fn begin_step(&mut self) {
        for (current, mut previous) in self.remember_previous.iter_mut(&mut self.ecs) {
            previous.0 = *current;
        }
    }

    /// One physics step, then the poses of moved bodies are copied back into the ECS. A panic
    /// inside rapier halts the physics (see `PhysicsWorld::step`): this step reports it, later
    /// steps leave every body where it is.
    pub(crate) fn step_physics(&mut self) -> Result<(), PhysicsFault> {
        self.physics.step()?;
        let ecs = &mut self.ecs;
        let touched = self.touched.get_mut();
        self.physics.for_each_moved(|user, position, rotation| {
            let (id, entity) = unpack(user);
            if let Some(mut t) = entity.and_then(|e| ecs.get_mut::<Transform>(e))
                && (t.position != position || t.rotation != rotation)
            {
                t.position = position;
                t.rotation = rotation;
                touched.touch(id, Touch::Pose);
            }
        });
        Ok(())
    }

    /// Why the physics halted, if a step panicked.
    #[cfg(test)]
    pub(crate) fn physics_fault(&self) -> Option<&str> {
        self.physics.fault()
    }

    /// Makes the next physics step panic inside its isolation boundary, for tests of what
    /// follows (no production path can reach this).
    #[cfg(test)]
    pub(crate) fn fail_next_physics_step(&mut self) {
        self.physics.fail_next_step();
    }

    /// One page of entities in id order after `after` (exclusive), for inspection; also returns
    /// the total count and the id to continue after, if more remain.
    pub(crate) fn page(&self, after: Option<EntityId>, limit: usize) -> (Vec<EntityView>, usize, Option<EntityId>) {
        let start = after.map_or(std::ops::Bound::Unbounded, std::ops::Bound::Excluded);
        let mut views = Vec::new();
        let mut next = None;
        for (id, entity) in self.entities.range((start, std::ops::Bound::Unbounded)) {
            if views.len() == limit {
                next = views.last().map(|v: &EntityView| v.id).or(after);
                break;
            }
            views.push(EntityView {
                id,
                eid: entity.index_u32(),
                generation: entity.generation().to_bits(),
                transform: self.ecs.get::<Transform>(entity).copied().unwrap_or_default(),
                tags: self.ecs.get::<Tags>(entity).map(|t| t.0.clone()).unwrap_or_default(),
                body: self.ecs.get::<PhysicsBinding>(entity).map(|b| b.body.index()),
            });
        }
        (views, self.entities.len(), next)
    }

    /// An entity's own material, if it was ever given one (`three.setMaterial`).
    pub(crate) fn material(&self, id: EntityId) -> Option<Material> {
        self.entities.get(id).and_then(|e| self.ecs.get::<Material>(e).copied())
    }

    /// An entity's rigid body and collider, if it has one.
    pub(crate) fn body_state(&self, id: EntityId) -> Option<BodyState> {
        let binding = self.binding(id)?;
        let (kind, friction, restitution) = self.physics.body_material(binding.body)?;
        let collider = match binding.shape {
            ColliderShape::Box { .. } => ColliderKind::Box,
            ColliderShape::Ball { .. } => ColliderKind::Sphere,
            ColliderShape::Capsule { .. } => ColliderKind::Capsule,
        };
        Some(BodyState { kind, collider, friction, restitution })
    }

    /// Edits an entity's material (created with defaults on first use). False for unknown ids.
    pub(crate) fn edit_material(&mut self, id: EntityId, edit: impl FnOnce(&mut Material, &mut u32)) -> bool {
        let Some(entity) = self.entities.get(id) else { return false };
        let had = self.ecs.get::<Material>(entity).copied();
        let mut material = had.unwrap_or_default();
        let Some(mut renderable) = self.ecs.get_mut::<Renderable>(entity) else { return false };
        let color = renderable.color;
        edit(&mut material, &mut renderable.color);
        let changed = renderable.color != color || had != Some(material);
        self.ecs.entity_mut(entity).insert(material);
        if changed {
            self.bump(entity);
            self.touched.get_mut().touch(id, Touch::Look);
        }
        true
    }

    /// `sha256:<hex>` over ids and transforms in id order.
    /// The entities' hash, folded with the UI's when there is UI (so a world without UI hashes
    /// exactly as it did before UI existed).
    pub fn hash(&self) -> String {
        let entities = hash::world_hash(self.entities.iter().filter_map(|(id, e)| self.ecs.get::<Transform>(e).map(|t| (id, *t))));
        let with_ui = match self.ui.hash() {
            None => entities,
            Some(ui) => hash::fold(&entities, "ui", &ui),
        };
        let with_sounds = match self.sounds.hash() {
            None => with_ui,
            Some(sounds) => hash::fold(&with_ui, "sounds", &sounds),
        };
        match self.sharing_hash() {
            None => with_sounds,
            Some(sharing) => hash::fold(&with_sounds, "sharing", &sharing),
        }
    }

    /// The live leases, hashed; None when there are none (so a world without leases hashes as
    /// it did before leases existed). A lease is state of the world now: it decides what other
    /// sessions may do next. Revisions are left out on purpose: they count the path to a state,
    /// not the state (a world rebuilt from a saved scene, or the same transforms reached in
    /// fewer writes, is the same world), and a replay that diverged in them is caught sooner and
    /// more precisely than a checkpoint would: the log records every call's outcome, and the
    /// first conditional write they change ends `conflict` where the log says `ok` (or the
    /// reverse), naming the call.
    fn sharing_hash(&self) -> Option<String> {
        use sha2::{Digest, Sha256};
        if self.leases.is_empty() {
            return None;
        }
        let mut hasher = Sha256::new();
        for (id, l) in self.leases.iter() {
            hasher.update(id.0.to_le_bytes());
            hasher.update(l.expires.to_le_bytes());
            for text in [&l.holder, &l.agent] {
                hasher.update((text.len() as u64).to_le_bytes());
                hasher.update(text.as_bytes());
            }
        }
        Some(crate::digest::sha256_text(&hasher.finalize()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(position: [f32; 3], body: Option<BodyKind>) -> EntitySpec {
        EntitySpec {
            shape: RenderShape::Sphere,
            collider: None,
            size: 1.0,
            color: 0xffffff,
            position,
            body,
            friction: 0.5,
            restitution: 0.0,
        }
    }

    #[test]
    fn capacity_exceeded_leaves_nothing_half_made() {
        let mut w = World::with_capacity(2);
        w.create_entity(&spec([0.0; 3], Some(BodyKind::Dynamic))).unwrap();
        w.create_entity(&spec([0.0; 3], None)).unwrap();
        let (entities, bodies, hash) = (w.entity_count(), w.body_count(), w.hash());
        let ecs_count = w.ecs.entities().count_spawned();
        assert!(matches!(w.create_entity(&spec([1.0; 3], Some(BodyKind::Dynamic))), Err(WorldError::Capacity(_))));
        assert_eq!((w.entity_count(), w.body_count(), w.hash()), (entities, bodies, hash));
        assert_eq!(w.ecs.entities().count_spawned(), ecs_count);
    }

    #[test]
    fn bodies_fall_and_sync_back_into_the_ecs() {
        let mut w = World::default();
        let id = w.create_entity(&spec([0.0, 10.0, 0.0], Some(BodyKind::Dynamic))).unwrap();
        for _ in 0..30 {
            w.begin_step();
            w.step_physics().unwrap();
        }
        let t = w.transform(id).unwrap();
        assert!(t.position[1] < 9.0, "fell to {}", t.position[1]);
    }

    #[test]
    fn moving_an_entity_teleports_its_body() {
        let mut w = World::default();
        let id = w.create_entity(&spec([0.0, 0.0, 0.0], Some(BodyKind::Fixed))).unwrap();
        assert!(w.edit_transform(id, |t| t.position = [0.0, 50.0, 0.0]));
        let hit = w.raycast([0.0, 100.0, 0.0], [0.0, -1.0, 0.0], 1000.0).unwrap();
        assert_eq!(hit.entity, Some(id));
        assert!((hit.distance - 49.5).abs() < 1e-3, "{hit:?}");
    }

    #[test]
    fn hash_changes_with_transforms_and_ids() {
        let mut a = World::default();
        let mut b = World::default();
        let ia = a.create_entity(&spec([1.0, 2.0, 3.0], None)).unwrap();
        b.create_entity(&spec([1.0, 2.0, 3.0], None)).unwrap();
        assert_eq!(a.hash(), b.hash());
        a.edit_transform(ia, |t| t.position[0] = 1.0001);
        assert_ne!(a.hash(), b.hash());
        assert!(a.hash().starts_with("sha256:"));
    }

    #[test]
    fn query_filters_by_tag_and_radius_nearest_first() {
        let mut w = World::default();
        let far = w.create_entity(&spec([10.0, 0.0, 0.0], None)).unwrap();
        let near = w.create_entity(&spec([1.0, 0.0, 0.0], None)).unwrap();
        w.add_tag(far, "target");
        let all = w.query(Some([0.0; 3]), None, None);
        assert_eq!(all.iter().map(|h| h.id).collect::<Vec<_>>(), vec![near, far]);
        assert_eq!(w.query(Some([0.0; 3]), Some(5.0), None).len(), 1);
        assert_eq!(w.query(None, None, Some("target"))[0].id, far);
    }

    /// A world of `n` entities on a coarse lattice (many exact distance ties and a stack of
    /// duplicates at (5, 0, 5)), every third one tagged `target`.
    fn crowded_world(n: usize) -> World {
        let mut w = World::default();
        for i in 0..n {
            let p = if i % 10 == 0 { [5.0, 0.0, 5.0] } else { [(i * 7 % 41) as f32 - 20.0, (i % 3) as f32, (i * 13 % 37) as f32 - 18.0] };
            let id = w.create_entity(&spec(p, None)).unwrap();
            if i % 3 == 0 {
                w.add_tag(id, "target");
            }
        }
        w
    }

    #[test]
    fn query_by_grid_answers_exactly_as_the_plain_scan() {
        let w = crowded_world(700);
        for (center, radius) in
            [([5.0, 0.0, 5.0], 0.0), ([0.0; 3], 5.0), ([0.5, 1.0, -0.5], 12.0), ([-20.0, 0.0, -18.0], 3.0), ([1e5, 0.0, 0.0], 1e7)]
        {
            for tag in [None, Some("target"), Some("nothing")] {
                let grid = w.query(Some(center), Some(radius), tag);
                assert_eq!(grid, w.query_scan(Some(center), Some(radius), tag), "{center:?} r {radius} tag {tag:?}");
            }
        }
        assert_eq!(w.query(Some([0.0; 3]), Some(1e7), None).len(), 700);
    }

    #[test]
    fn a_radius_the_grid_refuses_keeps_the_scan_answer() {
        let w = crowded_world(20);
        assert_eq!(w.query(Some([0.0; 3]), Some(f64::NAN), None).len(), 20, "NaN compared false: nothing was ever cut");
        assert!(w.query(Some([0.0; 3]), Some(-1.0), None).is_empty());
        assert_eq!(w.query(Some([0.0; 3]), Some(f64::INFINITY), None).len(), 20);
        let bad = NearQuery { center: [0.0; 3], radius: f64::NAN, exclude: None, nearest: None };
        assert!(matches!(w.query_near_batch(&[bad]), Err(SpatialError::BadRadius { index: 0, .. })));
    }

    #[test]
    fn a_batch_answers_each_agent_as_its_own_query_would_without_itself() {
        let w = crowded_world(500);
        let agents: Vec<EntityId> = w.entities.iter().map(|(id, _)| id).step_by(7).collect();
        let queries: Vec<NearQuery> = agents
            .iter()
            .map(|&id| NearQuery {
                center: w.transform(id).unwrap().position.map(f64::from),
                radius: 6.0,
                exclude: Some(id),
                nearest: None,
            })
            .collect();
        let batch = w.query_near_batch(&queries).unwrap();
        for (q, hits) in queries.iter().zip(&batch) {
            let alone: Vec<(EntityId, f64)> = w
                .query_scan(Some(q.center), Some(q.radius), None)
                .into_iter()
                .filter(|h| Some(h.id) != q.exclude)
                .map(|h| (h.id, h.distance))
                .collect();
            assert_eq!(hits.iter().map(|h| (h.id, h.distance)).collect::<Vec<_>>(), alone);
        }
        assert!(batch.iter().map(Vec::len).sum::<usize>() > 1000, "the agents see each other");
    }

    #[test]
    fn out_of_bounds_creates_and_edits_change_nothing() {
        let mut w = World::default();
        let id = w.create_entity(&spec([0.0, 2.0, 0.0], Some(BodyKind::Dynamic))).unwrap();
        let (hash, bodies) = (w.hash(), w.body_count());
        let huge = EntitySpec { size: 1e20, ..spec([0.0; 3], Some(BodyKind::Dynamic)) };
        assert!(matches!(w.create_entity(&huge), Err(WorldError::OutOfBounds(_))));
        assert!(matches!(w.create_entity(&spec([f32::NAN, 0.0, 0.0], None)), Err(WorldError::OutOfBounds(_))));
        let err = w.try_edit_transform(id, |t| t.scale = [1e20; 3]).unwrap_err();
        assert!(err.to_string().starts_with("scale[0] = 1.00000002") && err.to_string().ends_with("e20 is outside [0.001, 1000]"), "{err}");
        assert!(!w.edit_transform(id, |t| t.rotation = [0.0; 4]));
        assert!(matches!(w.apply_impulse(id, [1e30, 0.0, 0.0]), Err(WorldError::OutOfBounds(_))));
        assert_eq!((w.hash(), w.body_count(), w.entity_count()), (hash, bodies, 1));
        w.begin_step();
        w.step_physics().unwrap();
    }

    #[test]
    fn a_physics_panic_halts_the_bodies_and_keeps_the_ecs() {
        let mut w = World::default();
        let id = w.create_entity(&spec([0.0, 10.0, 0.0], Some(BodyKind::Dynamic))).unwrap();
        w.step_physics().unwrap();
        w.fail_next_physics_step();
        assert!(w.step_physics().is_err());
        assert!(w.physics_fault().is_some());
        let frozen = w.transform(id).unwrap();
        for _ in 0..10 {
            w.begin_step();
            w.step_physics().unwrap();
        }
        assert_eq!(w.transform(id).unwrap(), frozen, "a halted world moves nothing");
        // The ECS side still takes edits.
        assert!(w.edit_transform(id, |t| t.position = [1.0, 1.0, 1.0]));
    }
}
