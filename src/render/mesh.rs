//! CPU-side meshes: the built-in shapes (unit cube, sphere of diameter 1, capsule 1 tall) and
//! glTF primitives, as plain vertex and index arrays.

use bytemuck::{Pod, Zeroable};

#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct Vertex {
    pub position: [f32; 3],
    pub normal: [f32; 3],
    pub uv: [f32; 2],
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct MeshData {
    pub vertices: Vec<Vertex>,
    pub indices: Vec<u32>,
}

/// A cube of edge 1 centred on the origin, with per-face normals.
pub fn cube() -> MeshData {
    let mut m = MeshData::default();
    let faces: [([f32; 3], [f32; 3], [f32; 3]); 6] = [
        ([1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]),
        ([-1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]),
        ([0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0]),
        ([0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]),
        ([0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
        ([0.0, 0.0, -1.0], [-1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
    ];
    for (n, u, v) in faces {
        let base = m.vertices.len() as u32;
        for (su, sv) in [(-1.0f32, -1.0f32), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            let p = [0.5 * (n[0] + su * u[0] + sv * v[0]), 0.5 * (n[1] + su * u[1] + sv * v[1]), 0.5 * (n[2] + su * u[2] + sv * v[2])];
            m.vertices.push(Vertex { position: p, normal: n, uv: [(su + 1.0) / 2.0, (1.0 - sv) / 2.0] });
        }
        m.indices.extend_from_slice(&[base, base + 1, base + 2, base, base + 2, base + 3]);
    }
    m
}

/// A UV sphere of diameter 1.
pub fn sphere(segments: u32, rings: u32) -> MeshData {
    lathe(rings, segments, |t| {
        let phi = t * std::f32::consts::PI;
        (0.5 * phi.sin(), -0.5 * phi.cos(), phi.sin(), -phi.cos())
    })
}

/// A capsule 1 tall and 0.5 wide (radius 0.25, straight part 0.5), along Y.
pub fn capsule(segments: u32, rings: u32) -> MeshData {
    // Half the rings for each cap; the cylinder joins them.
    lathe(rings, segments, |t| {
        let phi = t * std::f32::consts::PI;
        let (r, y) = (0.25 * phi.sin(), -0.25 * phi.cos());
        let offset = if t < 0.5 { -0.25 } else { 0.25 };
        (r, y + offset, phi.sin(), -phi.cos())
    })
}

/// Revolves a profile `t -> (radius, y, normal_r, normal_y)` for t in 0..=1 around Y.
fn lathe(rings: u32, segments: u32, profile: impl Fn(f32) -> (f32, f32, f32, f32)) -> MeshData {
    let mut m = MeshData::default();
    for ring in 0..=rings {
        let t = ring as f32 / rings as f32;
        let (r, y, nr, ny) = profile(t);
        for seg in 0..=segments {
            let s = seg as f32 / segments as f32;
            let theta = s * std::f32::consts::TAU;
            let (sin, cos) = theta.sin_cos();
            m.vertices.push(Vertex { position: [r * cos, y, r * sin], normal: [nr * cos, ny, nr * sin], uv: [s, 1.0 - t] });
        }
    }
    let stride = segments + 1;
    for ring in 0..rings {
        for seg in 0..segments {
            let a = ring * stride + seg;
            let b = a + stride;
            m.indices.extend_from_slice(&[a, b, a + 1, a + 1, b, b + 1]);
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    fn extent(m: &MeshData) -> [f32; 3] {
        let mut max = [0.0f32; 3];
        for v in &m.vertices {
            for (m, p) in max.iter_mut().zip(v.position) {
                *m = m.max(p.abs());
            }
        }
        max
    }

    #[test]
    fn shapes_have_the_documented_sizes_and_unit_normals() {
        assert_eq!(extent(&cube()), [0.5, 0.5, 0.5]);
        let s = extent(&sphere(16, 8));
        assert!((s[1] - 0.5).abs() < 1e-5 && (s[0] - 0.5).abs() < 0.01);
        let c = extent(&capsule(16, 8));
        assert!((c[1] - 0.5).abs() < 1e-5 && (c[0] - 0.25).abs() < 0.01, "{c:?}");
        for m in [cube(), sphere(16, 8), capsule(16, 8)] {
            assert!(m.indices.iter().all(|i| (*i as usize) < m.vertices.len()));
            for v in &m.vertices {
                let len = v.normal.iter().map(|c| c * c).sum::<f32>().sqrt();
                assert!((len - 1.0).abs() < 1e-4, "{v:?}");
            }
        }
    }
}
