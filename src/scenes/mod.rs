//! Scene files: a Luau module under the project's `scenes/` folder that returns a plain data
//! table (entities with shapes or models, transforms, materials, tags and bodies; the lighting;
//! the camera), and the typed `Scene` such a file is read into. The format is documented in
//! `scenes/README.md`; every field mirrors a field of the skill that builds it
//! (`scene.createEntity`, `three.loadGLTF`, `ecs.updateComponent`, `three.setTransform`,
//! `three.setMaterial`, `ecs.addComponent`, `three.setLighting`, `render.setCamera`), so a scene is
//! exactly what those skills can build and nothing else.
//!
//! This module reads, checks and writes files; it never changes a world. `read` evaluates a file
//! in a fresh data-only Luau VM (no libraries but a few `math` functions, no `require`, an
//! interrupt budget, a memory limit, a size cap on the file) and converts the table it returns,
//! checking every field against the bounds the skills enforce (`world::bounds`) so that nothing
//! is applied unless the whole scene is valid. `write` captures a world as a `Scene` and prints
//! it as readable Luau whose numbers read back bit for bit. `files` owns scene names and paths:
//! a name is `[A-Za-z0-9_-]{1,64}`, its file never lies outside `scenes/` (symlinks followed),
//! and a save replaces the file atomically. Applying a scene to a world is the skills' business
//! (`skills::core::ops::scenes`): every change goes through the registry as the caller.

pub mod files;
mod read;
mod tokens;
mod write;

pub use read::{Probe, parse, probe, read_file};
pub use write::{capture, to_luau};

use crate::physics::BodyKind;
use crate::world::{Camera, ColliderKind, EntityId, Lighting, Material};

/// The only format version there is (a scene's `format` field).
pub const FORMAT: u32 = 1;

/// Largest scene file read or written, in bytes: a world at the default capacity (65536
/// entities), each a rotated dynamic body, prints to about 14 MiB.
pub const MAX_FILE_BYTES: usize = 32 << 20;
/// Memory the VM that evaluates a scene file may hold (its compiled chunk included).
pub const MEMORY_LIMIT: usize = 256 << 20;
/// Interrupts (calls and loop back-edges) a scene file may run through. A data table needs a
/// handful; a loop that builds one needs one per pass.
pub const INTERRUPT_BUDGET: u64 = 1_000_000;
/// Longest model asset id, tag or description a scene may carry, in bytes.
pub const MAX_ASSET_ID: usize = 256;
pub const MAX_TAG: usize = 64;
pub const MAX_DESCRIPTION: usize = 1024;

/// A scene, every field within the bounds of the skill that applies it.
#[derive(Debug, Clone, PartialEq)]
pub struct Scene {
    pub description: Option<String>,
    /// In the order they are created (a saved scene lists them in id order).
    pub entities: Vec<SceneEntity>,
    /// None: the lighting of a fresh world (`three.setLighting`'s defaults).
    pub lighting: Option<Lighting>,
    /// None: the camera of a fresh world.
    pub camera: Option<Camera>,
}

/// What an entity looks like: a shape `scene.createEntity` draws, or a model
/// `three.loadGLTF` places (by asset id).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Look {
    Box,
    Sphere,
    Capsule,
    Model(String),
}

impl Look {
    pub fn shape_name(&self) -> Option<&'static str> {
        match self {
            Look::Box => Some("box"),
            Look::Sphere => Some("sphere"),
            Look::Capsule => Some("capsule"),
            Look::Model(_) => None,
        }
    }

    fn parse_shape(text: &str) -> Option<Look> {
        match text {
            "box" => Some(Look::Box),
            "sphere" => Some(Look::Sphere),
            "capsule" => Some(Look::Capsule),
            _ => None,
        }
    }
}

/// A rotation as `ecs.updateComponent` takes it (a quaternion `[x, y, z, w]`, what a save
/// writes) or as `three.setTransform` takes it (XYZ Euler angles in radians, easier by hand).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rotation {
    Quaternion([f32; 4]),
    Euler([f32; 3]),
}

/// A rigid body, as `scene.createEntity` makes one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SceneBody {
    pub kind: BodyKind,
    /// None: the shape's own collider (a model's is a box).
    pub collider: Option<ColliderKind>,
    pub friction: f32,
    pub restitution: f32,
}

impl SceneBody {
    /// The name a scene file gives the kind (`scene.createEntity`'s `dynamic` / `static`).
    pub fn kind_name(kind: BodyKind) -> &'static str {
        match kind {
            BodyKind::Dynamic => "dynamic",
            BodyKind::Fixed => "static",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct SceneEntity {
    /// The id the entity had when the scene was saved. Informational: loading creates entities
    /// in list order and reports whether any came out with another id.
    pub id: Option<EntityId>,
    pub look: Look,
    pub size: f32,
    /// 0xRRGGBB (for a model, applied with `three.setMaterial`).
    pub color: u32,
    pub position: [f32; 3],
    pub rotation: Option<Rotation>,
    pub scale: Option<[f32; 3]>,
    pub material: Option<Material>,
    /// Unique, in the order they are added.
    pub tags: Vec<String>,
    pub body: Option<SceneBody>,
}

impl SceneEntity {
    /// A plain box of size 1 at `position`: the defaults every field starts from.
    pub fn at(position: [f32; 3]) -> Self {
        SceneEntity {
            id: None,
            look: Look::Box,
            size: 1.0,
            color: 0xffffff,
            position,
            rotation: None,
            scale: None,
            material: None,
            tags: Vec::new(),
            body: None,
        }
    }
}

/// Why a scene name, file or table was refused. `file` is shown relative to the project
/// (`scenes/courtyard.lua`); `field` is a path into the table (`entities[3].position[2]`,
/// Lua's 1-based indices).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SceneError {
    #[error("name: '{name}' is not a scene name (1 to 64 of letters, digits, '_' and '-'; no '/', '..' or extension)")]
    BadName { name: String },
    #[error("{file}: no such scene file")]
    Missing { file: String },
    #[error("{file} leads outside {folder} (through a symlink); scene files stay inside it")]
    Escapes { file: String, folder: String },
    #[error("{file}: {message}")]
    Io { file: String, message: String },
    #[error("{file} exists; pass overwrite = true to replace it")]
    Exists { file: String },
    #[error("scenes/ holds {limit} scene files already; save over one of them or clear old ones")]
    TooMany { limit: usize },
    #[error("{file} is {bytes} bytes, above the {max}-byte limit of a scene file")]
    TooLarge { file: String, bytes: u64, max: usize },
    #[error("{message}")]
    Script { file: String, message: String },
    #[error(
        "{file}: reading the scene ran past its budget of {budget} interrupts (a scene is a data table; loops that never end are refused)"
    )]
    Budget { file: String, budget: u64 },
    #[error("{file}: reading the scene needed more than its {limit}-byte memory limit")]
    Memory { file: String, limit: usize },
    #[error(
        "{file} has more than {max} tokens, the most a scene for a world of {capacity} entities may have ({per_entity} per entity, plus {base})"
    )]
    TooManyTokens { file: String, max: usize, capacity: usize, per_entity: usize, base: usize },
    #[error("{file}: {}{problem}", if field.is_empty() { String::new() } else { format!("{field}: ") })]
    Invalid { file: String, field: String, problem: String },
    /// A whole-vector rule (a scale product, a zero quaternion or direction), its field named.
    #[error("{file}: {error}")]
    Bounds { file: String, error: crate::world::BoundsError },
}
