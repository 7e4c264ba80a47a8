//! Where a sound is heard from: distance attenuation and left/right panning relative to the
//! listener (the camera), computed here rather than by rodio, whose spatial source pans the wrong
//! way (rodio issue 884).
//!
//! Attenuation is the inverse-distance model three.js's PositionalAudio uses by default
//! (reference distance 1 m, rolloff 1): amplitude `ref / (ref + rolloff·(d − ref))` for d ≥ ref,
//! so doubling the distance halves the amplitude and quarters the power (1/d²). Panning is
//! equal-power: left and right gains are cos and sin of an angle set by how far to the
//! listener's right the sound is, so the total power does not change as a sound moves across.

/// Distance within which a sound is at full level, metres.
pub const REF_DISTANCE: f64 = 1.0;
/// How fast the level falls beyond it.
pub const ROLLOFF: f64 = 1.0;

/// The listener: the camera's position and its right-hand direction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Listener {
    pub position: [f64; 3],
    /// Unit vector to the listener's right (forward × up).
    pub right: [f64; 3],
}

impl Listener {
    /// The listener at a camera looking from `position` at `target` (up is +y).
    pub fn camera(position: [f32; 3], target: [f32; 3]) -> Self {
        let p = position.map(f64::from);
        let f = [f64::from(target[0]) - p[0], f64::from(target[1]) - p[1], f64::from(target[2]) - p[2]];
        // forward × up, with up = (0, 1, 0): (-f.z, 0, f.x)
        let r = [-f[2], 0.0, f[0]];
        let len = (r[0] * r[0] + r[2] * r[2]).sqrt();
        let right = if len > 1e-9 { [r[0] / len, 0.0, r[2] / len] } else { [1.0, 0.0, 0.0] };
        Listener { position: p, right }
    }
}

/// Amplitude gain at `distance` (1 within the reference distance).
pub fn attenuation(distance: f64) -> f64 {
    if distance <= REF_DISTANCE { 1.0 } else { REF_DISTANCE / (REF_DISTANCE + ROLLOFF * (distance - REF_DISTANCE)) }
}

/// Left and right gains of a sound at `position`, or None when it is beyond `max_distance`. A
/// sound without a position plays centred at full level (1, 1) — the same as a positional one
/// straight ahead at the reference distance.
pub fn gains(listener: &Listener, position: Option<[f64; 3]>, max_distance: Option<f64>) -> Option<(f64, f64)> {
    let Some(p) = position else { return Some((1.0, 1.0)) };
    let d = [p[0] - listener.position[0], p[1] - listener.position[1], p[2] - listener.position[2]];
    let distance = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
    if max_distance.is_some_and(|max| distance > max) {
        return None;
    }
    // How far right of the listener, in -1..1 (0 straight ahead, behind, above or at the listener).
    let pan =
        if distance > 1e-9 { (d[0] * listener.right[0] + d[1] * listener.right[1] + d[2] * listener.right[2]) / distance } else { 0.0 };
    let angle = (pan.clamp(-1.0, 1.0) + 1.0) * std::f64::consts::FRAC_PI_4;
    let gain = attenuation(distance) * std::f64::consts::SQRT_2;
    Some((angle.cos() * gain, angle.sin() * gain))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listener() -> Listener {
        Listener::camera([0.0, 0.0, 0.0], [0.0, 0.0, -1.0])
    }

    #[test]
    fn right_is_louder_on_the_right_and_ahead_is_centred() {
        let l = listener();
        assert!((l.right[0] - 1.0).abs() < 1e-12, "looking down -z, right is +x: {:?}", l.right);
        let (left, right) = gains(&l, Some([3.0, 0.0, 0.0]), None).unwrap();
        assert!(right > 0.3 && left.abs() < 1e-9);
        let (left, right) = gains(&l, Some([-3.0, 0.0, 0.0]), None).unwrap();
        assert!(left > 0.3 && right.abs() < 1e-9);
        let (left, right) = gains(&l, Some([0.0, 0.0, -3.0]), None).unwrap();
        assert!((left - right).abs() < 1e-12);
    }

    #[test]
    fn doubling_the_distance_quarters_the_power_and_max_distance_silences() {
        let l = listener();
        let power = |d: f64| {
            let (a, b) = gains(&l, Some([0.0, 0.0, -d]), None).unwrap();
            a * a + b * b
        };
        assert!((power(4.0) / power(8.0) - 4.0).abs() < 1e-9);
        assert!(gains(&l, Some([0.0, 0.0, -20.0]), Some(10.0)).is_none());
    }
}
