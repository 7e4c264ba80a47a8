//! glTF / glb models from the project's `assets/` folder, addressed by asset id.
//!
//! An asset id is a path inside `assets/` (`models/crate.glb`); anything that could leave the
//! folder is refused before the file system is touched. Loading flattens the default scene into
//! parts (a mesh, its node transform, its base colour and texture), which the renderer uploads
//! once and draws instanced. A `.gltf` file's external buffers and images resolve only inside
//! `assets/`; textures are PNG.

use std::path::{Path, PathBuf};

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
    use crate::paths::{PathError, resolve_under};
    resolve_under(root, id, &[".glb", ".gltf"]).map_err(|e| match e {
        PathError::Missing(..) => AssetError::Missing(id.to_string()),
        PathError::NotPlain(..) | PathError::Escapes(..) => AssetError::BadId(id.to_string()),
    })
}

/// Where a buffer's or image's bytes live: the glb blob, a `data:` URI, or a file next to the
/// model. A file URI resolves only inside `assets/` (`root`): a model cannot make the engine
/// read `../../secret` or an absolute path.
fn uri_bytes(root: &Path, model: &Path, id: &str, uri: &str) -> Result<Vec<u8>, AssetError> {
    use base64::Engine as _;
    let malformed = |why: String| AssetError::Malformed(id.to_string(), why);
    if let Some(rest) = uri.strip_prefix("data:") {
        let (_, data) =
            rest.split_once(";base64,").ok_or_else(|| malformed(format!("data URI '{}…' is not base64", &uri[..uri.len().min(40)])))?;
        return base64::engine::general_purpose::STANDARD.decode(data).map_err(|e| malformed(format!("data URI: {e}")));
    }
    let relative = uri.replace("%20", " ");
    if relative.contains(':') || relative.contains('\\') || relative.starts_with('/') || relative.contains('%') {
        return Err(malformed(format!("URI '{uri}' is not a relative path inside assets/")));
    }
    let dir = model.parent().unwrap_or(root);
    let joined = dir.join(&relative);
    if !joined.exists() {
        return Err(malformed(format!("URI '{uri}': no such file")));
    }
    // A model may point at `../textures/x.png`, but never out of assets/ (symlinks followed).
    let canonical = crate::paths::contained(root, &joined).map_err(|_| malformed(format!("URI '{uri}' leads outside assets/")))?;
    std::fs::read(&canonical).map_err(|e| malformed(format!("URI '{uri}': {e}")))
}

/// Decodes a PNG texture to RGBA8 (glTF's other image format, JPEG, is refused by name).
fn decode_png(id: &str, bytes: &[u8]) -> Result<Image, AssetError> {
    let malformed = |why: String| AssetError::Malformed(id.to_string(), why);
    if !bytes.starts_with(b"\x89PNG") {
        return Err(malformed("a texture is not a PNG (limina loads PNG textures only; convert JPEG textures to PNG)".into()));
    }
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().map_err(|e| malformed(format!("texture: {e}")))?;
    let size = reader.output_buffer_size().ok_or_else(|| malformed("texture: too large".into()))?;
    let mut buf = vec![0; size];
    let info = reader.next_frame(&mut buf).map_err(|e| malformed(format!("texture: {e}")))?;
    let pixels = &buf[..info.buffer_size()];
    let rgba = match info.color_type {
        png::ColorType::Rgba => pixels.to_vec(),
        png::ColorType::Rgb => pixels.chunks(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect(),
        png::ColorType::Grayscale => pixels.iter().flat_map(|v| [*v, *v, *v, 255]).collect(),
        png::ColorType::GrayscaleAlpha => pixels.chunks(2).flat_map(|p| [p[0], p[0], p[0], p[1]]).collect(),
        png::ColorType::Indexed => return Err(malformed("texture: indexed PNG was not expanded".into())),
    };
    Ok(Image { width: info.width, height: info.height, rgba })
}

/// Loads a model by asset id from `root` (the project's `assets/` folder).
pub(crate) fn load_gltf(root: &Path, project: &Path, id: &str) -> Result<LoadedAsset, AssetError> {
    let path = resolve(root, id)?;
    let file = std::fs::read(&path).map_err(|e| AssetError::Malformed(id.to_string(), e.to_string()))?;
    let bytes = file.len() as u64;
    let gltf::Gltf { document: doc, blob } =
        gltf::Gltf::from_slice(&file).map_err(|e| AssetError::Malformed(id.to_string(), e.to_string()))?;
    let mut buffers: Vec<Vec<u8>> = Vec::new();
    for buffer in doc.buffers() {
        let data = match buffer.source() {
            gltf::buffer::Source::Bin => {
                blob.clone().ok_or_else(|| AssetError::Malformed(id.to_string(), "the glb has no binary chunk".into()))?
            }
            gltf::buffer::Source::Uri(uri) => uri_bytes(root, &path, id, uri)?,
        };
        if data.len() < buffer.length() {
            return Err(AssetError::Malformed(
                id.to_string(),
                format!("buffer {} holds {} bytes, fewer than the {} it declares", buffer.index(), data.len(), buffer.length()),
            ));
        }
        buffers.push(data);
    }
    let mut images: Vec<Image> = Vec::new();
    for image in doc.images() {
        let encoded = match image.source() {
            gltf::image::Source::View { view, .. } => {
                let buffer = buffers
                    .get(view.buffer().index())
                    .ok_or_else(|| AssetError::Malformed(id.to_string(), "an image names a missing buffer".into()))?;
                buffer
                    .get(view.offset()..view.offset() + view.length())
                    .ok_or_else(|| AssetError::Malformed(id.to_string(), "an image's buffer view is out of range".into()))?
                    .to_vec()
            }
            gltf::image::Source::Uri { uri, .. } => uri_bytes(root, &path, id, uri)?,
        };
        images.push(decode_png(id, &encoded)?);
    }
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
                let reader = prim.reader(|b| buffers.get(b.index()).map(|d| &d[..]));
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
                let texture = pbr.base_color_texture().and_then(|t| images.get(t.texture().source().index())).cloned();
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

    #[test]
    fn a_gltf_cannot_read_files_outside_assets() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path();
        std::fs::create_dir_all(project.join("assets/models")).unwrap();
        std::fs::write(project.join("secret.bin"), [0u8; 64]).unwrap();
        for uri in ["../../secret.bin", "/etc/passwd", "file:///etc/passwd", "..%2F..%2Fsecret.bin"] {
            let gltf = format!(
                r#"{{"asset":{{"version":"2.0"}},"buffers":[{{"uri":"{uri}","byteLength":12}}],"scenes":[{{"nodes":[]}}],"scene":0}}"#
            );
            std::fs::write(project.join("assets/models/evil.gltf"), gltf).unwrap();
            let err = load_gltf(&project.join("assets"), project, "models/evil.gltf").unwrap_err();
            assert!(
                matches!(&err, AssetError::Malformed(_, why) if why.contains("assets/") || why.contains("no such file")),
                "{uri}: {err}"
            );
        }
        // Inside assets/ is fine.
        std::fs::write(project.join("assets/models/ok.bin"), [0u8; 12]).unwrap();
        let gltf = r#"{"asset":{"version":"2.0"},"buffers":[{"uri":"ok.bin","byteLength":12}],"scenes":[{"nodes":[]}],"scene":0}"#;
        std::fs::write(project.join("assets/models/fine.gltf"), gltf).unwrap();
        assert!(load_gltf(&project.join("assets"), project, "models/fine.gltf").is_ok());
    }
}
