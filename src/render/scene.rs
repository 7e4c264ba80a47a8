//! What the renderer draws, as plain data: camera, lighting, and instances grouped by mesh.
//! The engine fills a `RenderList` from the world each frame; the renderer never sees the world.

use bytemuck::{Pod, Zeroable};

pub use crate::world::{Camera, Lighting};

/// The built-in meshes (glTF meshes would extend this set).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MeshKey {
    Cube,
    Sphere,
    Capsule,
}

pub(crate) const MESHES: [MeshKey; 3] = [MeshKey::Cube, MeshKey::Sphere, MeshKey::Capsule];

/// Per-instance GPU data, 56 bytes: render-sync writes and uploads one per entity per frame, so
/// it is kept compact (an affine 3x4 matrix and two packed bytes-quads).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct Instance {
    /// Rows of the affine model matrix; the implied fourth row is 0 0 0 1.
    pub rows: [[f32; 4]; 3],
    /// sRGB base colour (the shader linearizes it); a = 255 when the instance receives shadows.
    pub color: [u8; 4],
    /// Roughness and metalness in 0..=255; casts shadows (255/0); the entity has its own
    /// material (255/0), which overrides a model's.
    pub material: [u8; 4],
}

impl Instance {
    pub fn new(model: &super::math::Mat4, color: u32, material: [f32; 2], receive_shadow: bool, cast_shadow: bool) -> Self {
        let unit = unit_byte;
        let flag = |b: bool| if b { 255 } else { 0 };
        Instance {
            rows: super::math::affine_rows(model),
            color: [(color >> 16) as u8, (color >> 8) as u8, color as u8, flag(receive_shadow)],
            material: [unit(material[0]), unit(material[1]), flag(cast_shadow), 0],
        }
    }

    pub fn model(&self) -> super::math::Mat4 {
        let r = &self.rows;
        [
            [r[0][0], r[1][0], r[2][0], 0.0],
            [r[0][1], r[1][1], r[2][1], 0.0],
            [r[0][2], r[1][2], r[2][2], 0.0],
            [r[0][3], r[1][3], r[2][3], 1.0],
        ]
    }
}

/// Where a UI element is drawn from this frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum UiAt {
    /// Pinned to the screen (its anchor's corner and margin).
    Screen,
    /// A world position (the followed entity's interpolated position plus the offset).
    World([f32; 3]),
    /// A world anchor already projected to this frame's pixel `at` (origin top left), drawn at
    /// `scale` whatever its distance: capture labels, whose reported positions must be exactly
    /// where they are drawn.
    Pixel { at: [f32; 2], scale: f32 },
}

/// A UI element as render-sync resolved it for one frame: where it is drawn from, how opaque it
/// is, and the tick its lifecycle is read at. The element itself is shared with the world, not
/// copied.
#[derive(Debug, Clone)]
pub struct UiItem {
    pub element: std::sync::Arc<crate::world::ui::UiElement>,
    pub at: UiAt,
    pub opacity: f32,
    pub tick: u64,
}

#[derive(Debug, Clone, Default)]
pub struct RenderList {
    pub camera: Camera,
    pub lighting: Lighting,
    /// Instances per mesh, in `MESHES` order.
    pub batches: [Vec<Instance>; 3],
    /// Loaded models and their instances, by asset handle.
    pub assets: Vec<(Option<std::sync::Arc<super::asset::LoadedAsset>>, Vec<Instance>)>,
    /// UI elements, in draw order (render order, then handle).
    pub ui: Vec<UiItem>,
    /// Draw every instance in its flat colour, unlit, on black, with no sky (an entity mask,
    /// `render::mask`).
    pub flat: bool,
}

impl RenderList {
    pub fn clear(&mut self) {
        self.ui.clear();
        self.flat = false;
        for b in &mut self.batches {
            b.clear();
        }
        for (asset, instances) in &mut self.assets {
            *asset = None;
            instances.clear();
        }
    }

    pub(crate) fn push_asset(&mut self, handle: u32, asset: &std::sync::Arc<super::asset::LoadedAsset>, instance: Instance) {
        let at = handle as usize;
        if self.assets.len() <= at {
            self.assets.resize_with(at + 1, Default::default);
        }
        let slot = &mut self.assets[at];
        if slot.0.is_none() {
            slot.0 = Some(std::sync::Arc::clone(asset));
        }
        slot.1.push(instance);
    }

    pub fn push(&mut self, mesh: MeshKey, instance: Instance) {
        let at = MESHES.iter().position(|m| *m == mesh).unwrap_or(0);
        self.batches[at].push(instance);
    }

    pub fn instances(&self) -> usize {
        self.batches.iter().map(Vec::len).sum::<usize>() + self.assets.iter().map(|a| a.1.len()).sum::<usize>()
    }
}

/// An sRGB 0xRRGGBB colour as linear RGB. Render-sync converts every entity's colour every
/// frame, so the 256 possible channel values are converted once, into a table.
pub fn linear_rgb(color: u32) -> [f32; 3] {
    static TABLE: std::sync::OnceLock<[f32; 256]> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        std::array::from_fn(|i| {
            let c = i as f32 / 255.0;
            if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
        })
    });
    [table[(color >> 16) as usize & 0xff], table[(color >> 8) as usize & 0xff], table[color as usize & 0xff]]
}

/// A 0..1 value as a byte (0..=255), for packed instance fields.
pub(crate) fn unit_byte(v: f32) -> u8 {
    (v.clamp(0.0, 1.0) * 255.0 + 0.5) as u8
}

/// A linear channel value as an sRGB byte (the inverse of `linear_rgb`, per channel).
pub(crate) fn srgb_byte(linear: f32) -> u8 {
    let c = linear.clamp(0.0, 1.0);
    let s = if c <= 0.003_130_8 { c * 12.92 } else { 1.055 * c.powf(1.0 / 2.4) - 0.055 };
    (s * 255.0 + 0.5) as u8
}

/// Counts from the last frame the renderer encoded.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RenderStats {
    pub draw_calls: u32,
    pub instances: u32,
}
