//! The little matrix math the renderer needs (column-major, wgpu's 0..1 depth range).

pub(crate) type Mat4 = [[f32; 4]; 4];

pub(crate) const IDENTITY: Mat4 = [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]];

pub(crate) fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut out = [[0.0; 4]; 4];
    for (c, col) in out.iter_mut().enumerate() {
        for (r, cell) in col.iter_mut().enumerate() {
            *cell = (0..4).map(|k| a[k][r] * b[c][k]).sum();
        }
    }
    out
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(crate) fn normalize(a: [f32; 3]) -> [f32; 3] {
    let len = dot(a, a).sqrt();
    if len > 1e-9 { [a[0] / len, a[1] / len, a[2] / len] } else { [0.0, -1.0, 0.0] }
}

/// Right-handed view matrix.
pub(crate) fn look_at(eye: [f32; 3], target: [f32; 3], up: [f32; 3]) -> Mat4 {
    let f = normalize(sub(target, eye));
    let mut s = cross(f, up);
    if dot(s, s) < 1e-10 {
        s = cross(f, [1.0, 0.0, 0.0]);
    }
    let s = normalize(s);
    let u = cross(s, f);
    [[s[0], u[0], -f[0], 0.0], [s[1], u[1], -f[1], 0.0], [s[2], u[2], -f[2], 0.0], [-dot(s, eye), -dot(u, eye), dot(f, eye), 1.0]]
}

pub(crate) fn perspective(fov_y_rad: f32, aspect: f32, near: f32, far: f32) -> Mat4 {
    let f = 1.0 / (fov_y_rad / 2.0).tan();
    let r = far / (near - far);
    [[f / aspect, 0.0, 0.0, 0.0], [0.0, f, 0.0, 0.0], [0.0, 0.0, r, -1.0], [0.0, 0.0, r * near, 0.0]]
}

pub(crate) fn orthographic(half: f32, near: f32, far: f32) -> Mat4 {
    let r = 1.0 / (near - far);
    [[1.0 / half, 0.0, 0.0, 0.0], [0.0, 1.0 / half, 0.0, 0.0], [0.0, 0.0, r, 0.0], [0.0, 0.0, near * r, 1.0]]
}

/// Near and far planes of every view the renderer draws (the frame, UI anchors, capture labels).
pub(crate) const NEAR: f32 = 0.1;
pub(crate) const FAR: f32 = 1000.0;

/// The view-projection of a camera at `position` looking at `target` with a vertical field of
/// view of `fov_deg`, for a frame `aspect` wide per unit of height. The renderer, the UI overlay
/// and capture labels all project with this one matrix, so a label lands on its pixel.
pub(crate) fn view_projection(position: [f32; 3], target: [f32; 3], fov_deg: f32, aspect: f32) -> Mat4 {
    mul(&perspective(fov_deg.clamp(1.0, 170.0).to_radians(), aspect, NEAR, FAR), &look_at(position, target, [0.0, 1.0, 0.0]))
}

/// The camera's view rays as three vectors: forward, and right and up scaled so that
/// `forward + x * right + y * up` points through NDC (x, y) of the frame `view_projection` makes.
/// The sky pass turns a pixel into a view direction with them (no matrix inverse needed).
pub(crate) fn view_rays(position: [f32; 3], target: [f32; 3], fov_deg: f32, aspect: f32) -> [[f32; 4]; 3] {
    let view = look_at(position, target, [0.0, 1.0, 0.0]);
    let half = (fov_deg.clamp(1.0, 170.0).to_radians() / 2.0).tan();
    let column = |i: usize, k: f32| [view[0][i] * k, view[1][i] * k, view[2][i] * k, 0.0];
    let back = column(2, 1.0);
    [[-back[0], -back[1], -back[2], 0.0], column(0, half * aspect), column(1, half)]
}

/// Screen pixel (origin top left) and view depth of world point `p` in a `width` x `height`
/// frame; None when it is behind (or at) the near plane.
pub(crate) fn project_to_pixel(view_proj: &Mat4, p: [f32; 3], width: f32, height: f32) -> Option<(f32, f32, f32)> {
    let m = view_proj;
    let clip: [f32; 4] = std::array::from_fn(|r| m[0][r] * p[0] + m[1][r] * p[1] + m[2][r] * p[2] + m[3][r]);
    if clip[3] <= NEAR {
        return None;
    }
    let (x, y) = (clip[0] / clip[3], clip[1] / clip[3]);
    Some(((x * 0.5 + 0.5) * width, (0.5 - y * 0.5) * height, clip[3]))
}

/// Translation * rotation (unit quaternion x,y,z,w) * scale.
pub(crate) fn trs(t: [f32; 3], q: [f32; 4], s: [f32; 3]) -> Mat4 {
    let [x, y, z, w] = q;
    let (x2, y2, z2) = (x + x, y + y, z + z);
    let (xx, xy, xz) = (x * x2, x * y2, x * z2);
    let (yy, yz, zz) = (y * y2, y * z2, z * z2);
    let (wx, wy, wz) = (w * x2, w * y2, w * z2);
    [
        [(1.0 - (yy + zz)) * s[0], (xy + wz) * s[0], (xz - wy) * s[0], 0.0],
        [(xy - wz) * s[1], (1.0 - (xx + zz)) * s[1], (yz + wx) * s[1], 0.0],
        [(xz + wy) * s[2], (yz - wx) * s[2], (1.0 - (xx + yy)) * s[2], 0.0],
        [t[0], t[1], t[2], 1.0],
    ]
}

/// The top three rows of an affine (column-major) matrix.
pub(crate) fn affine_rows(m: &Mat4) -> [[f32; 4]; 3] {
    std::array::from_fn(|r| [m[0][r], m[1][r], m[2][r], m[3][r]])
}

/// Normalized linear interpolation of quaternions (shortest way), for render interpolation.
pub(crate) fn nlerp(a: [f32; 4], b: [f32; 4], t: f32) -> [f32; 4] {
    let sign = if a.iter().zip(&b).map(|(x, y)| x * y).sum::<f32>() < 0.0 { -1.0 } else { 1.0 };
    let q: [f32; 4] = std::array::from_fn(|i| a[i] + (sign * b[i] - a[i]) * t);
    let len = q.iter().map(|c| c * c).sum::<f32>().sqrt();
    if len > 1e-9 { q.map(|c| c / len) } else { b }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(m: &Mat4, p: [f32; 3]) -> [f32; 4] {
        std::array::from_fn(|r| m[0][r] * p[0] + m[1][r] * p[1] + m[2][r] * p[2] + m[3][r])
    }

    #[test]
    fn a_point_in_front_of_the_camera_projects_into_the_depth_range() {
        let vp = mul(&perspective(1.0, 1.0, 0.1, 100.0), &look_at([0.0, 0.0, 10.0], [0.0; 3], [0.0, 1.0, 0.0]));
        let c = apply(&vp, [0.0, 0.0, 0.0]);
        let z = c[2] / c[3];
        assert!(c[3] > 0.0 && (0.0..1.0).contains(&z), "{c:?}");
        assert!((c[0] / c[3]).abs() < 1e-5);
    }

    #[test]
    fn view_rays_point_through_the_frame_corners_view_projection_makes() {
        let (eye, target, fov, aspect) = ([1.0, 4.0, 9.0], [0.5, 0.0, -2.0], 50.0, 16.0 / 9.0);
        let vp = view_projection(eye, target, fov, aspect);
        let [f, r, u] = view_rays(eye, target, fov, aspect);
        for (x, y) in [(1.0f32, 1.0f32), (-1.0, 0.5), (0.0, 0.0), (0.3, -1.0)] {
            let d: [f32; 3] = std::array::from_fn(|i| f[i] + x * r[i] + y * u[i]);
            let p = apply(&vp, std::array::from_fn(|i| eye[i] + d[i] * 3.0));
            assert!((p[0] / p[3] - x).abs() < 1e-4 && (p[1] / p[3] - y).abs() < 1e-4, "{x},{y} -> {p:?}");
        }
    }

    #[test]
    fn trs_matches_translation_and_scale() {
        let m = trs([1.0, 2.0, 3.0], [0.0, 0.0, 0.0, 1.0], [2.0, 2.0, 2.0]);
        assert_eq!(apply(&m, [1.0, 0.0, 0.0]), [3.0, 2.0, 3.0, 1.0]);
    }
}
