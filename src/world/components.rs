//! ECS components of the world. Plain data only: no physics or render types cross in here. Their
//! serde form is what snapshots store (postcard: field order matters; see `snapshot::FORMAT_VERSION`).

use bevy_ecs::component::Component;
use serde::{Deserialize, Serialize};

use super::EntityId;

/// Position, rotation (unit quaternion x,y,z,w) and scale.
#[derive(Component, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Transform {
    pub position: [f32; 3],
    pub rotation: [f32; 4],
    pub scale: [f32; 3],
}

impl Default for Transform {
    fn default() -> Self {
        Self { position: [0.0; 3], rotation: [0.0, 0.0, 0.0, 1.0], scale: [1.0; 3] }
    }
}

impl Transform {
    pub fn at(position: [f32; 3]) -> Self {
        Self { position, ..Self::default() }
    }
}

/// The transform at the start of the current step, for render interpolation with `alpha`.
#[derive(Component, Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct PreviousTransform(pub Transform);

/// Named component tags (`target`, `hostile`), sorted and unique.
#[derive(Component, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Tags(pub Vec<String>);

impl Tags {
    pub fn contains(&self, tag: &str) -> bool {
        self.0.binary_search_by(|t| t.as_str().cmp(tag)).is_ok()
    }

    /// Returns false if the tag was already there.
    pub fn insert(&mut self, tag: &str) -> bool {
        match self.0.binary_search_by(|t| t.as_str().cmp(tag)) {
            Ok(_) => false,
            Err(at) => {
                self.0.insert(at, tag.to_string());
                true
            }
        }
    }

    /// Returns false if the tag was not there.
    pub fn remove(&mut self, tag: &str) -> bool {
        match self.0.binary_search_by(|t| t.as_str().cmp(tag)) {
            Ok(at) => {
                self.0.remove(at);
                true
            }
            Err(_) => false,
        }
    }
}

/// What the entity looks like; the renderer reads this through a sync step.
#[derive(Component, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Renderable {
    pub shape: RenderShape,
    pub size: f32,
    pub color: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RenderShape {
    Box,
    Sphere,
    /// `size` tall and `size / 2` wide, along Y.
    Capsule,
    /// A loaded model: an index into the world's asset table.
    Asset(u32),
}

impl RenderShape {
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "box" => Some(Self::Box),
            "sphere" => Some(Self::Sphere),
            "capsule" => Some(Self::Capsule),
            _ => None,
        }
    }
}

/// Back-reference from an ECS entity to its public id.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PublicId(pub EntityId);

/// PBR material and shadow participation (`three.setMaterial`); entities without one render
/// with the defaults.
#[derive(Component, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Material {
    pub roughness: f32,
    pub metalness: f32,
    pub cast_shadow: bool,
    pub receive_shadow: bool,
}

impl Default for Material {
    fn default() -> Self {
        Self { roughness: 0.5, metalness: 0.0, cast_shadow: true, receive_shadow: true }
    }
}
