//! Scene data that is not per entity: the camera and the lighting. Plain values set through
//! skills (`render.setCamera`, `three.setLighting`) and read by render-sync; the world knows
//! nothing of how they are drawn. `check` holds each to the ranges the renderer's matrices stay
//! finite in (`bounds`): the skills call it before storing a new value.

use super::bounds::{self, BoundsError, Num};

/// The view: where the camera is, what it looks at, its vertical field of view.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Camera {
    pub position: [f32; 3],
    pub target: [f32; 3],
    pub fov_deg: f32,
}

impl Camera {
    /// Within the world's bounds, a field of view in [1, 170] degrees, and a target apart from
    /// the position (a camera looking at itself has no direction).
    pub fn check(&self) -> Result<(), BoundsError> {
        bounds::position("position", self.position.map(f64::from))?;
        bounds::position("target", self.target.map(f64::from))?;
        bounds::in_range("fov", f64::from(self.fov_deg), 1.0, 170.0)?;
        let towards: [f64; 3] = std::array::from_fn(|i| f64::from(self.target[i]) - f64::from(self.position[i]));
        let length = towards.iter().map(|c| c * c).sum::<f64>().sqrt();
        if length < bounds::MIN_LENGTH {
            return Err(BoundsError::ZeroDirection { field: "target (from position)".into(), length: Num(length) });
        }
        Ok(())
    }
}

impl Default for Camera {
    fn default() -> Self {
        Self { position: [0.0, 12.0, 22.0], target: [0.0, 0.0, 0.0], fov_deg: 50.0 }
    }
}

/// `three.setLighting`'s fields, with its defaults.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
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

impl Lighting {
    /// `three.setLighting`'s bounds, the light's direction non-zero and near below far.
    pub fn check(&self) -> Result<(), BoundsError> {
        bounds::in_range("ambientIntensity", f64::from(self.ambient_intensity), 0.0, 10.0)?;
        bounds::in_range("directionalIntensity", f64::from(self.directional_intensity), 0.0, 10.0)?;
        bounds::direction("direction", self.direction.map(f64::from))?;
        bounds::in_range("shadowMapSize", f64::from(self.shadow_map_size), 256.0, 4096.0)?;
        bounds::in_range("shadowCameraExtent", f64::from(self.shadow_camera_extent), 0.0, 500.0)?;
        let near = bounds::distance("shadowCameraNear", f64::from(self.shadow_camera_near))?;
        let far = bounds::distance("shadowCameraFar", f64::from(self.shadow_camera_far))?;
        if near >= far {
            return Err(BoundsError::OutOfRange {
                field: "shadowCameraNear".into(),
                value: Num(near.into()),
                min: Num(0.0),
                max: Num(far.into()),
            });
        }
        bounds::in_range("shadowBias", f64::from(self.shadow_bias), -0.01, 0.01)?;
        Ok(())
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_pass_their_own_checks() {
        Camera::default().check().unwrap();
        Lighting::default().check().unwrap();
    }

    #[test]
    fn a_camera_looking_at_itself_or_beyond_the_world_is_refused() {
        let c = Camera::default();
        assert!(Camera { target: c.position, ..c }.check().is_err());
        assert!(Camera { position: [f32::INFINITY, 0.0, 0.0], ..c }.check().is_err());
        assert!(Camera { fov_deg: f32::NAN, ..c }.check().is_err());
        let l = Lighting::default();
        assert!(Lighting { direction: [0.0; 3], ..l }.check().is_err());
        assert!(Lighting { shadow_camera_far: f32::INFINITY, ..l }.check().is_err());
        assert!(Lighting { shadow_camera_near: 200.0, ..l }.check().is_err(), "near beyond far");
    }
}
