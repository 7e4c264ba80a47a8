//! The sky: what the renderer derives from `Lighting` beyond its ambient and directional lights.
//! A hemisphere light (three.js `HemisphereLight` semantics: sky colour from above, ground colour
//! from below, blended by the normal's up component) and the background gradient. Both come from
//! the existing fields, so worlds, snapshots and the world hash are unchanged: the sky colour is
//! the clear colour, the ground a fixed earth tone, the intensity the ambient intensity scaled.
//! A browser viewer reproduces them from these constants (docs/presentation.md).

use super::scene::linear_rgb;
use crate::world::Lighting;

/// The hemisphere light's ground colour (sRGB).
pub const GROUND_COLOR: u32 = 0x6b5e4f;

/// The hemisphere light's intensity per unit of `ambientIntensity` (so 0 turns both off).
pub const HEMISPHERE_PER_AMBIENT: f32 = 2.5;

/// The zenith as a factor of the horizon (the clear colour), per linear channel: a deeper blue
/// overhead.
pub const ZENITH_FACTOR: [f32; 3] = [0.45, 0.62, 0.95];

/// How far the background below the horizon goes from the horizon colour to the ground colour
/// (linear mix): a hazy ground, not a wall of earth where a scene's floor ends.
pub const BELOW_HORIZON_MIX: f32 = 0.5;

/// The linear colours and intensity the shader's sky and hemisphere read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sky {
    /// The horizon, and the hemisphere light's sky colour: the clear colour.
    pub horizon: [f32; 3],
    pub zenith: [f32; 3],
    pub ground: [f32; 3],
    /// The background below the horizon.
    pub below: [f32; 3],
    /// The hemisphere light's intensity.
    pub intensity: f32,
}

impl Sky {
    pub fn of(l: &Lighting) -> Self {
        let horizon = linear_rgb(l.clear_color);
        let ground = linear_rgb(GROUND_COLOR);
        Self {
            horizon,
            zenith: std::array::from_fn(|i| horizon[i] * ZENITH_FACTOR[i]),
            ground,
            below: std::array::from_fn(|i| horizon[i] + (ground[i] - horizon[i]) * BELOW_HORIZON_MIX),
            intensity: l.ambient_intensity * HEMISPHERE_PER_AMBIENT,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_ambient_means_no_sky_light_and_the_horizon_is_the_clear_colour() {
        let mut l = Lighting::default();
        assert_eq!(Sky::of(&l).horizon, linear_rgb(l.clear_color));
        assert!(Sky::of(&l).intensity > 0.0);
        l.ambient_intensity = 0.0;
        assert_eq!(Sky::of(&l).intensity, 0.0);
    }
}
