//! The world as snapshot data, and a world rebuilt from it.
//!
//! `World::save` appends six postcard sections: the scene (models, lighting, camera, the entity
//! table's counter, version and destroyed window), every live entity in id order with each
//! component it carries (the list `duplicate` copies) and its revision, the physics
//! (`physics::state`), the UI, the sounds and the leases (`sharing`). `World::load` reads them back into a new world and checks that it holds together
//! (ids ascend below the counter, every body and model an entity names exists, tags are sorted,
//! UI specs pass the `ui.*` checks, revisions and leases keep `sharing`'s bounds) before anyone can see it, so a bad snapshot leaves nothing
//! half-made.
//!
//! ECS entities are spawned anew in id order (as `duplicate` does): their internal index and
//! generation differ from the saved world's, so the owner tags on bodies and colliders are
//! rewritten to the new ones. Public ids, components and physics are exactly as saved.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize, Serializer};

use super::entity_table::TableState;
use super::sharing::{Lease, Leases, MAX_REVISION, Revision, SharingStateError};
use super::sound::{SoundTable, SoundTableState};
use super::ui::{UiError, UiTable, UiTableState};
use super::{
    Camera, EntityId, EntityTable, Lighting, MAX_TAGS, Material, NearScratch, PhysicsBinding, PreviousTransform, PublicId, RenderShape,
    Renderable, SpatialIndex, Tags, Transform, World, pack, unpack,
};
use crate::physics::{PhysicsLoadError, PhysicsStateError, PhysicsWorld};

/// Why saved world data was refused.
#[derive(Debug, thiserror::Error)]
pub enum WorldStateError {
    #[error("the {section} section does not decode: {error}")]
    Decode { section: &'static str, error: postcard::Error },
    #[error("{what} does not decode: {error}")]
    Json { what: String, error: String },
    #[error("{count} {what} is more than the {max} allowed")]
    TooMany { what: &'static str, count: usize, max: usize },
    #[error("{what} key {key} is outside 1..={next} or repeated")]
    BadHandle { what: &'static str, key: u64, next: u64 },
    #[error("UI element {handle}: {error}")]
    Ui { handle: String, error: UiError },
    #[error("entity id 0 is not an id (ids start at ent_0001)")]
    ZeroId,
    #[error("entity ids must ascend: {id} comes after {previous}")]
    OutOfOrder { id: EntityId, previous: EntityId },
    #[error("{id} is at or past the id counter ({next})")]
    PastCounter { id: EntityId, next: u64 },
    #[error("the id counter {next} is outside 1..={max} (an engine counts up from 1, one id per entity created)")]
    BadCounter { next: u64, max: u64 },
    #[error("{id} is both live and destroyed")]
    DestroyedIsLive { id: EntityId },
    #[error("{id} has no transform")]
    NoTransform { id: EntityId },
    #[error("{id} has a transform no skill or step could give it: {transform}")]
    BadTransform { id: EntityId, transform: String },
    #[error("{id} carries the public id {found}")]
    WrongPublicId { id: EntityId, found: EntityId },
    #[error("{id} names body {body}, which the physics does not hold")]
    UnknownBody { id: EntityId, body: u32 },
    #[error("{id} shows model {handle}, but the world has {models} models")]
    UnknownModel { id: EntityId, handle: u32, models: usize },
    #[error("{id} carries {count} tags, not sorted and unique within the limit of {MAX_TAGS}")]
    BadTags { id: EntityId, count: usize },
    #[error("the physics: {0}")]
    Physics(#[from] PhysicsStateError),
    #[error("the {what}: {error}")]
    Scene { what: &'static str, error: super::bounds::BoundsError },
    #[error("sharing: {0}")]
    Sharing(#[from] SharingStateError),
}

/// Why a world could not be written (a bug: every value the world holds encodes).
#[derive(Debug, thiserror::Error)]
#[error("cannot encode the world's {section}: {message}")]
pub struct WorldSaveError {
    pub section: &'static str,
    pub message: String,
}

#[derive(Serialize)]
struct SavedScene<'a> {
    models: &'a [String],
    lighting: &'a Lighting,
    camera: &'a Camera,
    table: TableState,
}

#[derive(Deserialize)]
struct LoadedScene {
    models: Vec<String>,
    lighting: Lighting,
    camera: Camera,
    table: TableState,
}

/// One entity and every component it carries (None: it does not carry it).
#[derive(Serialize)]
struct SavedEntity<'a> {
    id: u64,
    transform: Option<&'a Transform>,
    previous: Option<&'a PreviousTransform>,
    tags: Option<&'a Tags>,
    renderable: Option<&'a Renderable>,
    public_id: Option<u64>,
    material: Option<&'a Material>,
    physics: Option<&'a PhysicsBinding>,
    revision: u64,
}

#[derive(Deserialize)]
struct LoadedEntity {
    id: u64,
    transform: Option<Transform>,
    previous: Option<PreviousTransform>,
    tags: Option<Tags>,
    renderable: Option<Renderable>,
    public_id: Option<u64>,
    material: Option<Material>,
    physics: Option<PhysicsBinding>,
    revision: u64,
}

/// The live entities, streamed from the table in id order (nothing is collected first).
struct Entities<'a>(&'a World);

impl Serialize for Entities<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let w = self.0;
        s.collect_seq(w.entities.iter().map(|(id, e)| SavedEntity {
            id: id.0,
            transform: w.ecs.get(e),
            previous: w.ecs.get(e),
            tags: w.ecs.get(e),
            renderable: w.ecs.get(e),
            public_id: w.ecs.get::<PublicId>(e).map(|p| p.0.0),
            material: w.ecs.get(e),
            physics: w.ecs.get(e),
            revision: w.ecs.get::<Revision>(e).map_or(1, |r| r.0),
        }))
    }
}

fn encode(section: &'static str) -> impl Fn(postcard::Error) -> WorldSaveError {
    move |e| WorldSaveError { section, message: e.to_string() }
}

fn decode(section: &'static str) -> impl Fn(postcard::Error) -> WorldStateError {
    move |error| WorldStateError::Decode { section, error }
}

impl World {
    /// Appends this world to `out`.
    pub(crate) fn save(&self, out: Vec<u8>) -> Result<Vec<u8>, WorldSaveError> {
        let scene = SavedScene { models: &self.models, lighting: &self.lighting, camera: &self.camera, table: self.entities.state() };
        let out = postcard::to_extend(&scene, out).map_err(encode("scene"))?;
        let out = postcard::to_extend(&Entities(self), out).map_err(encode("entities"))?;
        let out = self.physics.save(out).map_err(encode("physics"))?;
        let ui = self.ui.state().map_err(|e| WorldSaveError { section: "UI", message: e.to_string() })?;
        let out = postcard::to_extend(&ui, out).map_err(encode("UI"))?;
        let out = postcard::to_extend(&self.sounds.state(), out).map_err(encode("sounds"))?;
        postcard::to_extend(&self.leases.state(), out).map_err(encode("leases"))
    }

    /// Reads a world written by `save` from the front of `bytes` into a new world holding at most
    /// `capacity` live entities; returns it and the bytes after it.
    pub(crate) fn load(bytes: &[u8], capacity: usize) -> Result<(World, &[u8]), WorldStateError> {
        let (scene, rest): (LoadedScene, _) = postcard::take_from_bytes(bytes).map_err(decode("scene"))?;
        // The bounds `three.setLighting` and `render.setCamera` hold them to (a crafted file's
        // infinite camera or NaN field of view would reach the renderer's matrices).
        scene.lighting.check().map_err(|error| WorldStateError::Scene { what: "lighting", error })?;
        scene.camera.check().map_err(|error| WorldStateError::Scene { what: "camera", error })?;
        let (saved, rest): (Vec<LoadedEntity>, _) = postcard::take_from_bytes(rest).map_err(decode("entities"))?;
        let mut ecs = bevy_ecs::world::World::new();
        let mut live = BTreeMap::new();
        let mut previous_id: Option<EntityId> = None;
        let mut bindings = Vec::new();
        for e in saved {
            let id = EntityId(e.id);
            if let Some(previous) = previous_id
                && id <= previous
            {
                return Err(WorldStateError::OutOfOrder { id, previous });
            }
            previous_id = Some(id);
            check_entity(id, &e, scene.models.len())?;
            let mut spawned = ecs.spawn_empty();
            macro_rules! carry {
                ($($field:ident),*) => {$(
                    if let Some(c) = e.$field {
                        spawned.insert(c);
                    }
                )*};
            }
            carry!(transform, previous, tags, renderable, material, physics);
            if e.public_id.is_some() {
                spawned.insert(PublicId(id));
            }
            spawned.insert(Revision(e.revision));
            if let Some(binding) = e.physics {
                bindings.push((id, binding));
            }
            live.insert(id, spawned.id());
        }
        let entities = EntityTable::from_state(scene.table, live, capacity)?;
        let (physics, rest) = PhysicsWorld::load(rest, |user| {
            let (id, _) = unpack(user);
            match entities.get(id) {
                Some(entity) => pack(id, entity),
                None => user,
            }
        })
        .map_err(|e| match e {
            PhysicsLoadError::Decode(crate::depth_limit::DepthError::Decode(error)) => {
                WorldStateError::Decode { section: "physics", error }
            }
            PhysicsLoadError::Decode(too_deep) => WorldStateError::Json { what: "the physics section".into(), error: too_deep.to_string() },
            PhysicsLoadError::Invalid(e) => WorldStateError::Physics(e),
        })?;
        if let Some((id, binding)) = bindings.iter().find(|(_, b)| !physics.has_body(b.body)) {
            return Err(WorldStateError::UnknownBody { id: *id, body: binding.body.index() });
        }
        let (ui, rest): (UiTableState, _) = postcard::take_from_bytes(rest).map_err(decode("UI"))?;
        let ui = UiTable::from_state(ui)?;
        let (sounds, rest): (SoundTableState, _) = postcard::take_from_bytes(rest).map_err(decode("sounds"))?;
        let sounds = SoundTable::from_state(sounds)?;
        let (leases, rest): (Vec<(u64, Lease)>, _) = postcard::take_from_bytes(rest).map_err(decode("leases"))?;
        let leases = Leases::from_state(leases, |id| entities.get(id).is_some())?;
        let remember_previous = ecs.query();
        let render_query = std::cell::RefCell::new(ecs.query());
        let near = std::cell::RefCell::new(NearScratch { index: SpatialIndex::default(), points: Vec::new(), query: ecs.query() });
        let world = World {
            models: scene.models,
            lighting: scene.lighting,
            camera: scene.camera,
            ecs,
            entities,
            physics,
            remember_previous,
            render_query,
            near,
            ui,
            sounds,
            leases,
            touched: Default::default(),
        };
        Ok((world, rest))
    }
}

/// What one saved entity must satisfy on its own.
fn check_entity(id: EntityId, e: &LoadedEntity, models: usize) -> Result<(), WorldStateError> {
    if id.0 == 0 {
        return Err(WorldStateError::ZeroId);
    }
    let Some(t) = &e.transform else {
        return Err(WorldStateError::NoTransform { id });
    };
    // Finite numbers, and a scale the skills could have set (physics moves and turns bodies,
    // never scales them; a body may have fallen past the skills' position bounds, so those
    // are not held here).
    let finite = t.position.iter().chain(&t.rotation).all(|v| v.is_finite());
    let scale = super::bounds::scale("scale", t.scale.map(f64::from));
    if !finite || scale.is_err() {
        return Err(WorldStateError::BadTransform { id, transform: format!("{t:?}") });
    }
    if e.revision == 0 || e.revision > MAX_REVISION {
        return Err(SharingStateError::BadRevision { id, revision: e.revision }.into());
    }
    if let Some(found) = e.public_id.map(EntityId)
        && found != id
    {
        return Err(WorldStateError::WrongPublicId { id, found });
    }
    if let Some(Renderable { shape: RenderShape::Asset(handle), .. }) = e.renderable
        && handle as usize >= models
    {
        return Err(WorldStateError::UnknownModel { id, handle, models });
    }
    if let Some(Tags(tags)) = &e.tags
        && (tags.len() > MAX_TAGS || tags.windows(2).any(|w| w[0] >= w[1]))
    {
        return Err(WorldStateError::BadTags { id, count: tags.len() });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{ColliderKind, EntitySpec};
    use super::*;
    use crate::physics::BodyKind;

    fn spec(position: [f32; 3], body: Option<BodyKind>) -> EntitySpec {
        EntitySpec {
            shape: RenderShape::Box,
            collider: Some(ColliderKind::Box),
            size: 1.0,
            color: 0x336699,
            position,
            body,
            friction: 0.6,
            restitution: 0.0,
        }
    }

    fn pile() -> World {
        let mut w = World::default();
        w.create_entity(&EntitySpec { size: 40.0, ..spec([0.0, -20.0, 0.0], Some(BodyKind::Fixed)) }).unwrap();
        for i in 0..30 {
            let id = w
                .create_entity(&spec([(i % 5) as f32 * 0.4, 1.0 + i as f32 * 1.05, (i % 3) as f32 * 0.3], Some(BodyKind::Dynamic)))
                .unwrap();
            if i % 4 == 0 {
                w.add_tag(id, "crate").unwrap().unwrap();
                w.add_tag(id, "blue").unwrap().unwrap();
            }
        }
        let gone = w.create_entity(&spec([9.0, 0.0, 9.0], None)).unwrap();
        w.destroy_entity(gone, 3);
        w.edit_material(EntityId(2), |m, color| {
            m.roughness = 0.9;
            *color = 0xff0000;
        });
        w.lighting.ambient_intensity = 0.7;
        w.camera.fov_deg = 60.0;
        w
    }

    fn step(w: &mut World, n: usize) {
        for _ in 0..n {
            w.begin_step();
            w.step_physics().unwrap();
        }
    }

    #[test]
    fn a_crafted_camera_or_lighting_is_refused_by_the_skills_bounds() {
        for (what, alter) in [
            ("camera", Box::new(|w: &mut World| w.camera.fov_deg = f32::NAN) as Box<dyn Fn(&mut World)>),
            ("camera", Box::new(|w: &mut World| w.camera.position = [f32::INFINITY, 0.0, 0.0])),
            ("lighting", Box::new(|w: &mut World| w.lighting.ambient_intensity = -1e30)),
        ] {
            let mut w = World::with_capacity(8);
            alter(&mut w);
            let bytes = w.save(Vec::new()).unwrap();
            match World::load(&bytes, 8) {
                Err(WorldStateError::Scene { what: got, .. }) => assert_eq!(got, what),
                Err(e) => panic!("refused for another reason: {e}"),
                Ok(_) => panic!("a crafted {what} was accepted"),
            }
        }
        let w = World::with_capacity(8);
        assert!(World::load(&w.save(Vec::new()).unwrap(), 8).is_ok(), "the defaults are within bounds");
        // An entity's transform: finite, and a scale within the skills' bounds.
        for bad in [
            Transform { position: [f32::NAN, 0.0, 0.0], ..Transform::default() },
            Transform { rotation: [0.0, f32::INFINITY, 0.0, 1.0], ..Transform::default() },
            Transform { scale: [3e38, 1.0, 1.0], ..Transform::default() },
        ] {
            let mut w = World::with_capacity(8);
            let id = w.create_entity(&spec([0.0; 3], None)).unwrap();
            let entity = w.entities.get(id).unwrap();
            *w.ecs.get_mut::<Transform>(entity).unwrap() = bad;
            match World::load(&w.save(Vec::new()).unwrap(), 8) {
                Err(WorldStateError::BadTransform { id: got, .. }) => assert_eq!(got, id),
                other => panic!("{bad:?}: {:?}", other.map(|_| ())),
            }
        }
    }

    #[test]
    fn a_loaded_world_is_the_saved_world_and_steps_like_it() {
        let mut a = pile();
        step(&mut a, 45);
        assert!(a.awake_body_count() > 10, "the pile is still settling");
        let bytes = a.save(Vec::new()).unwrap();
        let (mut b, rest) = World::load(&bytes, a.capacity()).unwrap();
        assert!(rest.is_empty());
        assert_eq!(b.hash(), a.hash());
        assert_eq!(b.lookup("ent_0032").unwrap_err().to_string(), "ent_0032 was destroyed at tick 3");
        step(&mut a, 120);
        step(&mut b, 120);
        assert_eq!(b.hash(), a.hash());
        let (ia, ib) = (a.create_entity(&spec([0.0; 3], None)).unwrap(), b.create_entity(&spec([0.0; 3], None)).unwrap());
        assert_eq!((ia, ib), (EntityId(33), EntityId(33)));
    }

    #[test]
    fn every_byte_of_a_truncated_world_is_refused_not_half_loaded() {
        let mut a = pile();
        step(&mut a, 10);
        let bytes = a.save(Vec::new()).unwrap();
        for cut in (0..bytes.len()).step_by(97) {
            assert!(World::load(&bytes[..cut], a.capacity()).is_err(), "cut at {cut} of {}", bytes.len());
        }
    }

    #[test]
    fn revisions_and_leases_load_as_saved_and_crafted_ones_are_refused() {
        let mut a = pile();
        a.edit_transform(EntityId(3), |t| t.position[0] += 1.0);
        a.leases_mut().grant(&[EntityId(3), EntityId(5)], "ses_a", "agt_a", 0, 100).unwrap();
        let (b, _) = World::load(&a.save(Vec::new()).unwrap(), a.capacity()).unwrap();
        assert_eq!(b.hash(), a.hash());
        assert_eq!(b.revision(EntityId(3)), Some(2));
        assert_eq!(b.leases().live(EntityId(5), 99).map(|l| l.holder.as_str()), Some("ses_a"));
        // A revision of 0 or past 2^53 - 1 is no revision a world could reach.
        for bad in [0, MAX_REVISION + 1, u64::MAX] {
            let mut w = pile();
            let entity = w.entities.get(EntityId(4)).unwrap();
            w.ecs.get_mut::<Revision>(entity).unwrap().0 = bad;
            match World::load(&w.save(Vec::new()).unwrap(), w.capacity()) {
                Err(WorldStateError::Sharing(SharingStateError::BadRevision { id, revision })) => {
                    assert_eq!((id, revision), (EntityId(4), bad))
                }
                other => panic!("revision {bad}: {:?}", other.map(|_| ())),
            }
        }
        // A lease on an entity that is not live (here: the destroyed ent_0032).
        let mut w = pile();
        w.leases.grant(&[EntityId(32)], "ses_a", "agt_a", 0, 10).unwrap();
        assert!(matches!(
            World::load(&w.save(Vec::new()).unwrap(), w.capacity()),
            Err(WorldStateError::Sharing(SharingStateError::NotLive { .. }))
        ));
    }

    #[test]
    fn leases_enter_the_hash_and_revisions_do_not() {
        let (mut a, b) = (pile(), pile());
        let plain = a.hash();
        assert_eq!(plain, b.hash());
        // Moved and moved back: the same transforms, but written twice.
        let x = a.transform(EntityId(3)).unwrap().position[0];
        a.edit_transform(EntityId(3), |t| t.position[0] = x + 1.0);
        a.edit_transform(EntityId(3), |t| t.position[0] = x);
        assert_eq!(a.revision(EntityId(3)), Some(3));
        assert_eq!(a.hash(), plain, "the same state reached by more writes is the same world");
        let written = a.hash();
        a.leases_mut().grant(&[EntityId(3)], "ses_a", "agt_a", 0, 10).unwrap();
        assert_ne!(a.hash(), written);
        a.leases_mut().expire(10);
        assert_eq!(a.hash(), written, "a lapsed lease leaves the hash as it was");
        // The simulation's own motion is no write.
        let mut c = pile();
        let before: Vec<Option<u64>> = (1..=31).map(|i| c.revision(EntityId(i))).collect();
        step(&mut c, 30);
        assert_eq!((1..=31).map(|i| c.revision(EntityId(i))).collect::<Vec<_>>(), before);
        assert_eq!(c.revision(EntityId(2)), Some(4), "two tags and a material: three writes");
    }

    #[test]
    fn a_world_past_the_capacity_is_refused() {
        let a = pile();
        let bytes = a.save(Vec::new()).unwrap();
        let err = World::load(&bytes, 5).unwrap_err();
        assert_eq!(err.to_string(), "31 live entities is more than the 5 allowed");
    }
}
