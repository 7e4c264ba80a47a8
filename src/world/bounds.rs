//! The documented range of every geometric value a caller can put into the world, and the checks
//! that hold them there. One source: core skill schemas read these numbers (through the `world`
//! ops' `limits` table) to publish them, the ops check them again with the caller's field names,
//! and `World` re-checks what it stores, so a value outside these ranges never reaches rapier,
//! parry or the renderer whoever asks.
//!
//! Why these numbers (the catalog is silent on most of them):
//! - The world is a cube of ±1e6 units (`POSITION_LIMIT`). f32 still resolves ~0.06 units at its
//!   edge, and no product of two coordinates overflows f32 (1e12 ≪ 3.4e38).
//! - A scale component lies in [1e-3, 1e3] and the product of the three in [1e-6, 1e6]: a
//!   collider's edge stays within 25,000 units (size ≤ 50), its volume (and so its mass and
//!   inertia) changes by at most 10^6 either way, so mass ratios and inertia stay far from f32
//!   overflow. A negative or zero scale is refused (colliders cannot mirror; zero is degenerate).
//! - An entity's `size` lies in [1e-3, 50] (the catalog's maximum; its `> 0` tightened, since
//!   parry clamps anything thinner than 1e-4 anyway).
//! - An impulse component lies within ±1e6 (`IMPULSE_LIMIT`): enough to send a unit box at 1e6
//!   units/s in one call.
//! - A rotation quaternion's components lie within ±1e6 and its length is at least 1e-6; it is
//!   stored normalised. Euler angles lie within ±1e6 radians.
//! - A direction (ray, light) lies within ±1e6 per component and is at least 1e-6 long; a
//!   distance (ray length, shadow camera near/far) lies in [1e-6, 1e7], enough to cross the
//!   world's diagonal (3.5e6).
//!
//! JSON cannot carry NaN or infinity and the Lua→JSON conversion refuses them, but every check
//! here refuses them again (and any f64 that would overflow f32), so no op relies on that.

use std::fmt;

use super::Transform;

/// Each position coordinate lies within ±this (world units).
pub(crate) const POSITION_LIMIT: f64 = 1e6;
pub(crate) const SCALE_MIN: f64 = 1e-3;
pub(crate) const SCALE_MAX: f64 = 1e3;
/// Bounds on `scale[0] * scale[1] * scale[2]`.
pub(crate) const SCALE_PRODUCT_MIN: f64 = 1e-6;
pub(crate) const SCALE_PRODUCT_MAX: f64 = 1e6;
pub(crate) const SIZE_MIN: f64 = 1e-3;
pub(crate) const SIZE_MAX: f64 = 50.0;
/// Each impulse component lies within ±this.
pub(crate) const IMPULSE_LIMIT: f64 = 1e6;
/// Each Euler angle lies within ±this (radians).
pub(crate) const ANGLE_LIMIT: f64 = 1e6;
/// Shortest quaternion or direction that still has a direction.
pub(crate) const MIN_LENGTH: f64 = 1e-6;
/// Longest ray, farthest shadow camera plane.
pub(crate) const DISTANCE_MAX: f64 = 1e7;
/// How far a stored rotation may drift from unit length (f32 round-off) and still be accepted.
const UNIT_TOLERANCE: f64 = 1e-3;
/// A quaternion this close to unit length is unit as far as f32 can tell, and is stored as given.
const UNIT_EXACT: f64 = 1e-6;

/// A number as people read it: `1e20`, `1e-30`, `0.5`, never 300 digits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Num(pub f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        if v == 0.0 || !v.is_finite() || (1e-4..1e15).contains(&v.abs()) { write!(f, "{v}") } else { write!(f, "{v:e}") }
    }
}

/// A geometric value outside its documented range. `field` is the caller's path (`scale[2]`).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BoundsError {
    #[error("{field} = {value} is not a finite number")]
    NotFinite { field: String, value: Num },
    #[error("{field} = {value} is outside [{min}, {max}]")]
    OutOfRange { field: String, value: Num, min: Num, max: Num },
    #[error(
        "{field}: the scale product {product} is outside [{}, {}] (a body's volume may change at most 10^6-fold)",
        Num(SCALE_PRODUCT_MIN),
        Num(SCALE_PRODUCT_MAX)
    )]
    ScaleProduct { field: String, product: Num },
    #[error(
        "{field}: the rotation quaternion has length {length}, too close to zero to give a rotation (it must be at least {})",
        Num(MIN_LENGTH)
    )]
    ZeroQuaternion { field: String, length: Num },
    #[error("{field}: the stored rotation has length {length}; rotations are unit quaternions")]
    NotUnit { field: String, length: Num },
    #[error("{field}: the direction has length {length}, too close to zero to point anywhere (it must be at least {})", Num(MIN_LENGTH))]
    ZeroDirection { field: String, length: Num },
}

impl BoundsError {
    /// The same error for the field named `field`.
    fn at(mut self, field: &str) -> Self {
        match &mut self {
            BoundsError::NotFinite { field: f, .. }
            | BoundsError::OutOfRange { field: f, .. }
            | BoundsError::ScaleProduct { field: f, .. }
            | BoundsError::ZeroQuaternion { field: f, .. }
            | BoundsError::NotUnit { field: f, .. }
            | BoundsError::ZeroDirection { field: f, .. } => *f = field.to_string(),
        }
        self
    }
}

fn indexed(field: &str, i: usize) -> String {
    format!("{field}[{i}]")
}

/// `value` as f32 if it lies in [min, max] (and is finite).
pub(crate) fn in_range(field: &str, value: f64, min: f64, max: f64) -> Result<f32, BoundsError> {
    if !value.is_finite() {
        return Err(BoundsError::NotFinite { field: field.to_string(), value: Num(value) });
    }
    if !(min..=max).contains(&value) {
        return Err(BoundsError::OutOfRange { field: field.to_string(), value: Num(value), min: Num(min), max: Num(max) });
    }
    Ok(value as f32)
}

fn each<const N: usize>(field: &str, v: [f64; N], min: f64, max: f64) -> Result<[f32; N], BoundsError> {
    let mut out = [0.0; N];
    for (i, (slot, value)) in out.iter_mut().zip(v).enumerate() {
        // The indexed name is built only for an error: this runs on every transform edit.
        *slot = in_range("", value, min, max).map_err(|e| e.at(&indexed(field, i)))?;
    }
    Ok(out)
}

fn length(v: &[f64]) -> f64 {
    v.iter().map(|c| c * c).sum::<f64>().sqrt()
}

/// A point in the world.
pub fn position(field: &str, v: [f64; 3]) -> Result<[f32; 3], BoundsError> {
    each(field, v, -POSITION_LIMIT, POSITION_LIMIT)
}

/// A transform scale: each component and their product bounded.
pub fn scale(field: &str, v: [f64; 3]) -> Result<[f32; 3], BoundsError> {
    let s = each(field, v, SCALE_MIN, SCALE_MAX)?;
    let product = v[0] * v[1] * v[2];
    if !(SCALE_PRODUCT_MIN..=SCALE_PRODUCT_MAX).contains(&product) {
        return Err(BoundsError::ScaleProduct { field: field.to_string(), product: Num(product) });
    }
    Ok(s)
}

/// A rotation quaternion `[x, y, z, w]`, returned normalised (in f64, then stored as f32). One
/// already unit to f32 precision (within `UNIT_EXACT`: a rotation read back from the world, as a
/// saved scene holds) is returned as given: dividing by a length of 0.99999994 would move its
/// last bits, and a saved world would not load back bit for bit.
pub fn rotation(field: &str, q: [f64; 4]) -> Result<[f32; 4], BoundsError> {
    each(field, q, -POSITION_LIMIT, POSITION_LIMIT)?;
    let len = length(&q);
    if len < MIN_LENGTH {
        return Err(BoundsError::ZeroQuaternion { field: field.to_string(), length: Num(len) });
    }
    if (len - 1.0).abs() <= UNIT_EXACT {
        return Ok(q.map(|c| c as f32));
    }
    Ok(q.map(|c| (c / len) as f32))
}

/// XYZ Euler angles in radians.
pub(crate) fn euler(field: &str, v: [f64; 3]) -> Result<[f32; 3], BoundsError> {
    each(field, v, -ANGLE_LIMIT, ANGLE_LIMIT)
}

pub fn impulse(field: &str, v: [f64; 3]) -> Result<[f32; 3], BoundsError> {
    each(field, v, -IMPULSE_LIMIT, IMPULSE_LIMIT)
}

/// A direction (need not be normalised, must not be zero once stored as f32).
pub fn direction(field: &str, v: [f64; 3]) -> Result<[f32; 3], BoundsError> {
    let d = each(field, v, -POSITION_LIMIT, POSITION_LIMIT)?;
    let len = length(&d.map(f64::from));
    if len < MIN_LENGTH {
        return Err(BoundsError::ZeroDirection { field: field.to_string(), length: Num(length(&v)) });
    }
    Ok(d)
}

/// An entity's `size`.
pub fn size(field: &str, v: f64) -> Result<f32, BoundsError> {
    in_range(field, v, SIZE_MIN, SIZE_MAX)
}

/// A collider's friction, [0, 10] as the catalog bounds it.
pub fn friction(field: &str, v: f64) -> Result<f32, BoundsError> {
    in_range(field, v, 0.0, 10.0)
}

/// A collider's restitution, [0, 2] as the catalog bounds it.
pub fn restitution(field: &str, v: f64) -> Result<f32, BoundsError> {
    in_range(field, v, 0.0, 2.0)
}

/// A ray length or a camera plane distance.
pub(crate) fn distance(field: &str, v: f64) -> Result<f32, BoundsError> {
    if v <= 0.0 {
        return Err(BoundsError::OutOfRange { field: field.to_string(), value: Num(v), min: Num(MIN_LENGTH), max: Num(DISTANCE_MAX) });
    }
    in_range(field, v, MIN_LENGTH, DISTANCE_MAX)
}

/// The backstop `World` runs on an edit before storing it: the parts of `after` that differ
/// from `before` must lie in the same ranges (on f32 values). Unchanged parts are not judged: the
/// simulation may carry a body past the ±1e6 a caller may place it at.
pub(crate) fn check_edit(before: &Transform, after: &Transform) -> Result<(), BoundsError> {
    if after.position != before.position {
        position("position", after.position.map(f64::from))?;
    }
    if after.scale != before.scale {
        scale("scale", after.scale.map(f64::from))?;
    }
    if after.rotation != before.rotation {
        let q = after.rotation.map(f64::from);
        rotation("rotation", q)?;
        let len = length(&q);
        if (len - 1.0).abs() > UNIT_TOLERANCE {
            return Err(BoundsError::NotUnit { field: "rotation".into(), length: Num(len) });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_short_in_messages() {
        assert_eq!(Num(1e20).to_string(), "1e20");
        assert_eq!(Num(1e-30).to_string(), "1e-30");
        assert_eq!(Num(1000.0).to_string(), "1000");
        assert_eq!(Num(0.001).to_string(), "0.001");
        assert_eq!(Num(-3.4e38).to_string(), "-3.4e38");
        assert_eq!(Num(f64::NAN).to_string(), "NaN");
    }

    #[test]
    fn errors_name_the_field_the_value_and_the_range() {
        let e = scale("scale", [1.0, 1.0, 1e20]).unwrap_err();
        assert_eq!(e.to_string(), "scale[2] = 1e20 is outside [0.001, 1000]");
        let e = position("position", [f64::NAN, 0.0, 0.0]).unwrap_err();
        assert_eq!(e.to_string(), "position[0] = NaN is not a finite number");
        let e = scale("value", [1000.0, 1000.0, 2.0]).unwrap_err();
        assert!(e.to_string().starts_with("value: the scale product 2000000 is outside [1e-6, 1000000]"), "{e}");
    }

    #[test]
    fn quaternions_are_normalised_and_near_zero_ones_refused() {
        assert_eq!(rotation("q", [0.0, 0.0, 0.0, 2.0]).unwrap(), [0.0, 0.0, 0.0, 1.0]);
        for tiny in [[0.0; 4], [1e-40, 0.0, 0.0, 1e-41], [1e-7, 0.0, 0.0, 0.0]] {
            assert!(matches!(rotation("q", tiny), Err(BoundsError::ZeroQuaternion { .. })), "{tiny:?}");
        }
        let big = rotation("q", [1e6, 1e6, 1e6, 1e6]).unwrap();
        assert!(big.iter().all(|c| (c - 0.5).abs() < 1e-6), "{big:?}");
    }

    #[test]
    fn a_rotation_unit_to_f32_precision_is_stored_bit_for_bit() {
        // Unit as f32 can tell (length 0.99999994 in f64), as a body's rotation read back is.
        let q = [-0.363_171_f32, -0.530_395_1, 0.580_757, -0.499_508_83];
        let len = q.iter().map(|c| f64::from(*c).powi(2)).sum::<f64>().sqrt();
        assert!(len != 1.0 && (len - 1.0).abs() < 1e-6, "{len}");
        assert_eq!(rotation("q", q.map(f64::from)).unwrap(), q);
    }

    #[test]
    fn directions_must_survive_the_f32_conversion() {
        assert!(matches!(direction("d", [1e-300, 0.0, 0.0]), Err(BoundsError::ZeroDirection { .. })));
        assert!(direction("d", [0.0, -1e-3, 0.0]).is_ok());
        assert!(distance("maxDistance", 0.0).is_err());
        assert!(distance("maxDistance", 1e300).is_err());
        assert_eq!(distance("maxDistance", 1000.0).unwrap(), 1000.0);
    }

    #[test]
    fn the_backstop_refuses_what_the_skills_refuse_in_what_changed() {
        let ok = Transform::default();
        assert!(check_edit(&ok, &ok).is_ok());
        assert!(check_edit(&ok, &Transform { scale: [1e20; 3], ..ok }).is_err());
        assert!(check_edit(&ok, &Transform { position: [f32::INFINITY, 0.0, 0.0], ..ok }).is_err());
        assert!(check_edit(&ok, &Transform { rotation: [0.0, 0.0, 0.0, 0.5], ..ok }).is_err(), "not unit");
        // A body the simulation carried far away can still be rescaled.
        let far = Transform { position: [0.0, -5e6, 0.0], ..ok };
        assert!(check_edit(&far, &Transform { scale: [2.0; 3], ..far }).is_ok());
    }
}
