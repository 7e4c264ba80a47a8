//! glTF / glb models from the project's `assets/` folder, addressed by asset id.
//!
//! An asset id is a path inside `assets/` (`models/crate.glb`); anything that could leave the
//! folder is refused before the file system is touched. Loading flattens the default scene into
//! parts (a mesh, its node transform, its base colour and texture), which the renderer uploads
//! once and draws instanced.

use std::path::{Component, Path, PathBuf};

use super::math::{self, Mat4};
use super::mesh::{MeshData, Vertex};

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum AssetError {
    #[error("assetId '{0}' is not a path inside assets/ (no '..', no absolute paths, no backslashes)")]
    BadId(String),
    #[error("assetId '{0}': no such asset in assets/")]
    Missing(String),
    #[error("assetId '{0}': not a valid glTF model: {1}")]
    Malformed(String, String),
}

/// RGBA8 (sRGB) pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct Image {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AssetPart {
    pub mesh: MeshData,
    pub transform: Mat4,
    /// Linear RGBA factor.
    pub base_color: [f32; 4],
    pub roughness: f32,
    pub metalness: f32,
    pub texture: Option<Image>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct LoadedAsset {
    pub id: String,
    /// Path relative to the project (`assets/models/crate.glb`).
    pub source: String,
    pub bytes: u64,
    pub root_name: Option<String>,
    pub object_count: usize,
    pub mesh_count: usize,
    pub material_count: usize,
    pub texture_count: usize,
    pub parts: Vec<AssetPart>,
}

/// Resolves an asset id to a file inside `root`.
pub fn resolve(root: &Path, id: &str) -> Result<PathBuf, AssetError> {
    let bad = || AssetError::BadId(id.to_string());
    if id.is_empty() || id.contains('\\') || Path::new(id).is_absolute() || id.starts_with('/') {
        return Err(bad());
    }
    if Path::new(id).components().any(|c| !matches!(c, Component::Normal(_))) {
        return Err(bad());
    }
    let candidates = [root.join(id), root.join(format!("{id}.glb")), root.join(format!("{id}.gltf"))];
    let found = candidates.iter().find(|p| p.is_file()).ok_or_else(|| AssetError::Missing(id.to_string()))?;
    // Symlinks must not lead out of the folder either.
    let (canonical, base) = (
        found.canonicalize().map_err(|_| AssetError::Missing(id.to_string()))?,
        root.canonicalize().map_err(|_| AssetError::Missing(id.to_string()))?,
    );
    if !canonical.starts_with(&base) {
        return Err(bad());
    }
    Ok(canonical)
}

fn to_rgba(data: &gltf::image::Data) -> Option<Image> {
    use gltf::image::Format;
    let rgba = match data.format {
        Format::R8G8B8A8 => data.pixels.clone(),
        Format::R8G8B8 => data.pixels.chunks(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect(),
        Format::R8 => data.pixels.iter().flat_map(|v| [*v, *v, *v, 255]).collect(),
        _ => return None,
    };
    Some(Image { width: data.width, height: data.height, rgba })
}

/// Loads a model by asset id from `root` (the project's `assets/` folder).
pub fn load_gltf(root: &Path, project: &Path, id: &str) -> Result<LoadedAsset, AssetError> {
    let path = resolve(root, id)?;
    let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let (doc, buffers, images) = gltf::import(&path).map_err(|e| AssetError::Malformed(id.to_string(), e.to_string()))?;
    let scene = doc
        .default_scene()
        .or_else(|| doc.scenes().next())
        .ok_or_else(|| AssetError::Malformed(id.to_string(), "it has no scene".into()))?;
    let mut parts = Vec::new();
    let mut stack: Vec<(gltf::Node, Mat4)> = scene.nodes().map(|n| (n, math::IDENTITY)).collect();
    while let Some((node, parent)) = stack.pop() {
        let world = math::mul(&parent, &node.transform().matrix());
        if let Some(mesh) = node.mesh() {
            for prim in mesh.primitives() {
                let reader = prim.reader(|b| buffers.get(b.index()).map(|d| &d.0[..]));
                let Some(positions) = reader.read_positions() else { continue };
                let positions: Vec<[f32; 3]> = positions.collect();
                let normals: Vec<[f32; 3]> =
                    reader.read_normals().map(|n| n.collect()).unwrap_or_else(|| vec![[0.0, 1.0, 0.0]; positions.len()]);
                let uvs: Vec<[f32; 2]> =
                    reader.read_tex_coords(0).map(|t| t.into_f32().collect()).unwrap_or_else(|| vec![[0.0, 0.0]; positions.len()]);
                let indices: Vec<u32> =
                    reader.read_indices().map(|i| i.into_u32().collect()).unwrap_or_else(|| (0..positions.len() as u32).collect());
                if indices.iter().any(|i| *i as usize >= positions.len()) {
                    return Err(AssetError::Malformed(
                        id.to_string(),
                        format!("mesh '{}' has an index out of range", mesh.name().unwrap_or("?")),
                    ));
                }
                let vertices = positions
                    .iter()
                    .enumerate()
                    .map(|(i, p)| Vertex {
                        position: *p,
                        normal: normals.get(i).copied().unwrap_or([0.0, 1.0, 0.0]),
                        uv: uvs.get(i).copied().unwrap_or([0.0, 0.0]),
                    })
                    .collect();
                let material = prim.material();
                let pbr = material.pbr_metallic_roughness();
                let texture = pbr.base_color_texture().and_then(|t| images.get(t.texture().source().index())).and_then(to_rgba);
                parts.push(AssetPart {
                    mesh: MeshData { vertices, indices },
                    transform: world,
                    base_color: pbr.base_color_factor(),
                    roughness: pbr.roughness_factor(),
                    metalness: pbr.metallic_factor(),
                    texture,
                });
            }
        }
        stack.extend(node.children().map(|c| (c, world)));
    }
    let source = path.strip_prefix(project.canonicalize().unwrap_or_else(|_| project.to_path_buf())).unwrap_or(&path).display().to_string();
    Ok(LoadedAsset {
        id: id.to_string(),
        source,
        bytes,
        root_name: scene.nodes().next().and_then(|n| n.name().map(str::to_string)),
        object_count: doc.nodes().count(),
        mesh_count: doc.meshes().count(),
        material_count: doc.materials().count(),
        texture_count: doc.textures().count(),
        parts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_cannot_leave_the_assets_folder() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
        for bad in ["../Cargo.toml", "/etc/passwd", "models/../../Cargo.toml", "a\\b", ""] {
            assert_eq!(resolve(&root, bad), Err(AssetError::BadId(bad.into())), "{bad}");
        }
        assert_eq!(resolve(&root, "models/nope.glb"), Err(AssetError::Missing("models/nope.glb".into())));
        assert!(resolve(&root, "models/crate").is_ok());
    }

    #[test]
    fn the_crate_loads_with_its_metadata() {
        let project = Path::new(env!("CARGO_MANIFEST_DIR"));
        let a = load_gltf(&project.join("assets"), project, "models/crate.glb").unwrap();
        assert_eq!((a.object_count, a.mesh_count, a.material_count, a.texture_count), (3, 2, 2, 1));
        assert_eq!(a.root_name.as_deref(), Some("CrateWithRoof"));
        assert_eq!(a.parts.len(), 2);
        assert!(a.parts.iter().any(|p| p.texture.as_ref().is_some_and(|t| t.width == 64)));
        assert_eq!(a.source, "assets/models/crate.glb");
    }
}
