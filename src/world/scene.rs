//! Scene data that is not per entity: the camera and the lighting. Plain values set through
//! skills (`render.setCamera`, `three.setLighting`) and read by render-sync; the world knows
//! nothing of how they are drawn.

/// The view: where the camera is, what it looks at, its vertical field of view.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Camera {
    pub position: [f32; 3],
    pub target: [f32; 3],
    pub fov_deg: f32,
}

impl Default for Camera {
    fn default() -> Self {
        Self { position: [0.0, 12.0, 22.0], target: [0.0, 0.0, 0.0], fov_deg: 50.0 }
    }
}

/// `three.setLighting`'s fields, with its defaults.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lighting {
    pub ambient_color: u32,
    pub ambient_intensity: f32,
    pub directional_color: u32,
    pub directional_intensity: f32,
    /// Where the light comes from (three.js directional light position; it shines at the origin).
    pub direction: [f32; 3],
    pub cast_shadow: bool,
    pub shadow_map_size: u32,
    pub shadow_camera_extent: f32,
    pub shadow_camera_near: f32,
    pub shadow_camera_far: f32,
    pub shadow_bias: f32,
    pub clear_color: u32,
}

impl Default for Lighting {
    fn default() -> Self {
        Self {
            ambient_color: 0x404060,
            ambient_intensity: 1.2,
            directional_color: 0xffffff,
            directional_intensity: 3.0,
            direction: [5.0, 9.0, 6.0],
            cast_shadow: false,
            shadow_map_size: 2048,
            shadow_camera_extent: 20.0,
            shadow_camera_near: 0.5,
            shadow_camera_far: 120.0,
            shadow_bias: -0.0008,
            clear_color: 0x9fb8d0,
        }
    }
}
