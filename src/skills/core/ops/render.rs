//! The `render` ops behind `three.setMaterial`, `three.setLighting`, `render.setCamera`,
//! `three.loadGLTF` and `render.capture`. Materials, lighting and the camera are plain world
//! data; models and pictures need the renderer, which is created on first capture (worlds that
//! never draw never need a GPU) and absent from builds without the `render` feature.
//!
//! `render.capture` reads its inputs here (a `SizePreset` or explicit pixels, never both; the
//! entity to frame, resolved with an error naming the id) and leaves framing and id labels to
//! `render::capture`; it never writes the world. It prepares the picture on the engine thread (a
//! render list of the world at this tick) and, when its call may wait (`skills::deferred`), parks
//! the drawing, the PNG and its base64 for the heavy-work thread; otherwise (scripts) it draws
//! here, as before.
//!
//! Every number is checked against `world::bounds` before it is stored (a camera at 1e300 would
//! be infinite as f32 and poison every matrix); a refused call leaves the camera, the lighting
//! and the material as they were.

use std::cell::RefCell;
use std::rc::Rc;

use mlua::{Lua, Table};

use super::world::{numbers, out_of_bounds};
use crate::skills::{ErrorCode, HandlerFailure};
use crate::world::World;
use crate::world::bounds;

/// The engine's render state, or nothing in a build without the `render` feature.
#[cfg(feature = "render")]
pub type RenderState = crate::render::RenderState;
#[cfg(not(feature = "render"))]
#[derive(Debug, Default)]
pub struct RenderState;

#[cfg(not(feature = "render"))]
fn no_renderer(skill: &str) -> mlua::Error {
    HandlerFailure::new(ErrorCode::HandlerError, format!("{skill}: this limina was built without the `render` feature")).into_lua()
}

/// `render.capture`'s size presets, all 16:9. The default (`small`) is what a capture was
/// before presets: enough pixels to read id labels, at about a quarter of `medium`'s image
/// tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SizePreset {
    Thumbnail,
    Small,
    Medium,
    Large,
}

impl SizePreset {
    pub(crate) const ALL: [SizePreset; 4] = [SizePreset::Thumbnail, SizePreset::Small, SizePreset::Medium, SizePreset::Large];
    pub(crate) const DEFAULT: SizePreset = SizePreset::Small;

    pub(crate) fn name(self) -> &'static str {
        match self {
            SizePreset::Thumbnail => "thumbnail",
            SizePreset::Small => "small",
            SizePreset::Medium => "medium",
            SizePreset::Large => "large",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == text)
    }

    /// "thumbnail 320x180, small 640x360 (the default), ...", for the schema's description.
    pub(crate) fn summary() -> String {
        let each = Self::ALL.iter().map(|p| {
            let (w, h) = p.pixels();
            let default = if *p == Self::DEFAULT { " (the default)" } else { "" };
            format!("{} {w}x{h}{default}", p.name())
        });
        each.collect::<Vec<_>>().join(", ")
    }

    /// Width and height in pixels.
    pub(crate) fn pixels(self) -> (u32, u32) {
        match self {
            SizePreset::Thumbnail => (320, 180),
            SizePreset::Small => (640, 360),
            SizePreset::Medium => (1280, 720),
            SizePreset::Large => (1920, 1080),
        }
    }
}

/// A capture's pixels: a `size` preset, or `width`/`height` (each defaulting to the default
/// preset's), never both: a preset with explicit pixels is refused rather than one silently
/// winning.
#[cfg_attr(not(feature = "render"), allow(dead_code, reason = "render.capture refuses before reading its input without the renderer"))]
fn capture_size(input: &Table) -> mlua::Result<(u32, u32)> {
    let width: Option<u32> = input.get("width")?;
    let height: Option<u32> = input.get("height")?;
    match input.get::<Option<String>>("size")? {
        None => {
            let (w, h) = SizePreset::DEFAULT.pixels();
            Ok((width.unwrap_or(w), height.unwrap_or(h)))
        }
        Some(name) => {
            let preset = SizePreset::parse(&name).ok_or_else(|| {
                let known: Vec<&str> = SizePreset::ALL.iter().map(|p| p.name()).collect();
                HandlerFailure::new(ErrorCode::InvalidInput, format!("size: unknown preset \"{name}\" (one of {})", known.join(", ")))
                    .into_lua()
            })?;
            if width.is_some() || height.is_some() {
                let given =
                    [width.map(|w| format!("width {w}")), height.map(|h| format!("height {h}"))].into_iter().flatten().collect::<Vec<_>>();
                return Err(HandlerFailure::new(
                    ErrorCode::InvalidInput,
                    format!("size: preset \"{name}\" and {} given together; give a preset or width/height, not both", given.join(" and ")),
                )
                .into_lua());
            }
            Ok(preset.pixels())
        }
    }
}

/// The entity a capture frames: a malformed id is invalid input, an unknown or destroyed one is
/// not found; both name the id.
#[cfg(feature = "render")]
fn framed_entity(world: &World, text: &str) -> mlua::Result<crate::world::EntityId> {
    if crate::world::EntityId::parse(text).is_none() {
        return Err(HandlerFailure::new(
            ErrorCode::InvalidInput,
            format!("entity: \"{text}\" is not an entity id (ent_0001, ent_0002, ...)"),
        )
        .into_lua());
    }
    world.resolve(text).ok_or_else(|| {
        HandlerFailure::new(ErrorCode::NotFound, format!("entity: no entity {text} (never created or destroyed)")).into_lua()
    })
}

#[cfg(feature = "render")]
fn round2(v: f32) -> f64 {
    (f64::from(v) * 100.0).round() / 100.0
}

/// An optional point field (`position`, `target`), within the world's bounds.
fn point(t: &Table, key: &str) -> mlua::Result<Option<[f32; 3]>> {
    let Some(v) = t.get::<Option<Table>>(key)? else { return Ok(None) };
    bounds::position(key, numbers(&v, key)?).map(Some).map_err(out_of_bounds)
}

/// A required number field within [min, max], as f32.
fn number(t: &Table, key: &str, min: f64, max: f64) -> mlua::Result<f32> {
    bounds::in_range(key, t.get::<f64>(key)?, min, max).map_err(out_of_bounds)
}

/// `base` with the camera fields `input` gives, checked as a whole (position apart from target).
fn camera_from(input: &Table, base: crate::world::Camera) -> mlua::Result<crate::world::Camera> {
    let camera = crate::world::Camera {
        position: point(input, "position")?.unwrap_or(base.position),
        target: point(input, "target")?.unwrap_or(base.target),
        fov_deg: match input.get::<Option<f64>>("fov")? {
            Some(f) => bounds::in_range("fov", f, 1.0, 170.0).map_err(out_of_bounds)?,
            None => base.fov_deg,
        },
    };
    camera.check().map_err(out_of_bounds)?;
    Ok(camera)
}

/// `render.capture`'s result for a capture `width` x `height` (labels listed when asked).
#[cfg(feature = "render")]
fn capture_result(capture: &crate::render::Capture, width: u32, height: u32, labels: bool, mask: bool) -> serde_json::Value {
    use base64::Engine as _;
    use serde_json::json;
    let c = capture.camera;
    let mut out = json!({
        "width": width,
        "height": height,
        "mimeType": "image/png",
        "bytes": capture.png.len(),
        "drawCalls": capture.stats.draw_calls,
        "camera": {"position": c.position, "target": c.target, "fov": c.fov_deg},
        "data": base64::engine::general_purpose::STANDARD.encode(&capture.png),
    });
    if labels {
        out["labels"] = capture
            .labels
            .iter()
            .map(|l| json!({"entity": l.entity.to_string(), "x": l.x.round() as i64, "y": l.y.round() as i64, "distance": round2(l.distance), "drawn": l.drawn}))
            .collect();
        out["labelsOmitted"] = json!(capture.labels_omitted);
    }
    if mask {
        out["masks"] = capture
            .masks
            .iter()
            .take(MAX_MASKS)
            .map(|m| json!({"entity": m.entity.to_string(), "color": format!("#{:06x}", m.color), "pixels": m.pixels, "box": m.bounds}))
            .collect();
        out["masksOmitted"] = json!(capture.masks.len().saturating_sub(MAX_MASKS));
    }
    out
}

/// Entities a mask lists at most (the largest); the rest are counted in `masksOmitted`.
#[cfg(feature = "render")]
const MAX_MASKS: usize = 64;

pub(crate) fn create(
    lua: &Lua,
    world: Rc<RefCell<World>>,
    state: Rc<RefCell<RenderState>>,
    project: std::path::PathBuf,
    heavy: Rc<crate::skills::HeavyWork>,
) -> mlua::Result<Table> {
    let ops = lua.create_table()?;

    #[cfg(not(feature = "render"))]
    let _ = (&state, &project, &heavy);
    #[cfg(not(feature = "render"))]
    ops.set("load_gltf", lua.create_function(|_, _: Table| -> mlua::Result<()> { Err(no_renderer("three.loadGLTF")) })?)?;
    #[cfg(feature = "render")]
    let (w, st) = (Rc::clone(&world), Rc::clone(&state));
    #[cfg(feature = "render")]
    ops.set(
        "load_gltf",
        lua.create_function(move |lua, input: Table| {
            use crate::render::asset::{AssetError, load_gltf};
            use crate::script::convert::blob;
            use serde_json::json;
            let id: String = input.get("assetId")?;
            let spec = super::world::entity_spec(&input, crate::world::RenderShape::Box)?;
            let asset = load_gltf(&project.join("assets"), &project, &id).map_err(|e| {
                let code = if matches!(e, AssetError::Malformed(..)) { ErrorCode::HandlerError } else { ErrorCode::InvalidInput };
                HandlerFailure::new(code, e.to_string()).into_lua()
            })?;
            let resource = json!({
                "kind": "gltf",
                "assetId": asset.id,
                "source": asset.source,
                "bytes": asset.bytes,
                "rootName": asset.root_name,
                "objectCount": asset.object_count,
                "meshCount": asset.mesh_count,
                "materialCount": asset.material_count,
                "textureCount": asset.texture_count,
            });
            let entity = w.borrow_mut().spawn_model(&asset.id, &spec).map_err(super::world::world_failure)?;
            st.borrow_mut().models.entry(asset.id.clone()).or_insert_with(|| std::sync::Arc::new(asset));
            blob(lua, json!({"entity": entity.to_string(), "resource": resource}))
        })?,
    )?;

    let w = Rc::clone(&world);
    ops.set(
        "set_material",
        lua.create_function(move |_, (id, input): (String, Table)| {
            let color: Option<u32> = input.get("color")?;
            let unit = |key: &str| -> mlua::Result<Option<f32>> {
                let Some(v) = input.get::<Option<f64>>(key)? else { return Ok(None) };
                bounds::in_range(key, v, 0.0, 1.0).map(Some).map_err(out_of_bounds)
            };
            let roughness = unit("roughness")?;
            let metalness = unit("metalness")?;
            let cast: Option<bool> = input.get("castShadow")?;
            let receive: Option<bool> = input.get("receiveShadow")?;
            let mut world = w.borrow_mut();
            let id = super::world::entity_arg(&world, "entity", &id)?;
            Ok(world.edit_material(id, |m, c| {
                if let Some(v) = color {
                    *c = v;
                }
                if let Some(v) = roughness {
                    m.roughness = v;
                }
                if let Some(v) = metalness {
                    m.metalness = v;
                }
                if let Some(v) = cast {
                    m.cast_shadow = v;
                }
                if let Some(v) = receive {
                    m.receive_shadow = v;
                }
            }))
        })?,
    )?;

    let w = Rc::clone(&world);
    ops.set(
        "set_lighting",
        lua.create_function(move |_, input: Table| {
            let mut world = w.borrow_mut();
            // Built aside and checked whole, so a refused call leaves the lighting as it was.
            let mut l = world.lighting;
            l.ambient_color = input.get("ambientColor")?;
            l.ambient_intensity = number(&input, "ambientIntensity", 0.0, 10.0)?;
            l.directional_color = input.get("directionalColor")?;
            l.directional_intensity = number(&input, "directionalIntensity", 0.0, 10.0)?;
            if let Some(d) = input.get::<Option<Table>>("direction")? {
                l.direction = bounds::direction("direction", numbers(&d, "direction")?).map_err(out_of_bounds)?;
            }
            l.cast_shadow = input.get("castShadow")?;
            l.shadow_map_size = input.get("shadowMapSize")?;
            l.shadow_camera_extent = number(&input, "shadowCameraExtent", 0.0, 500.0)?;
            l.shadow_camera_near = bounds::distance("shadowCameraNear", input.get("shadowCameraNear")?).map_err(out_of_bounds)?;
            l.shadow_camera_far = bounds::distance("shadowCameraFar", input.get("shadowCameraFar")?).map_err(out_of_bounds)?;
            l.shadow_bias = number(&input, "shadowBias", -0.01, 0.01)?;
            if let Some(c) = input.get::<Option<u32>>("clearColor")? {
                l.clear_color = c;
            }
            l.check().map_err(out_of_bounds)?;
            world.lighting = l;
            Ok(true)
        })?,
    )?;

    let w = Rc::clone(&world);
    ops.set(
        "set_camera",
        lua.create_function(move |_, input: Table| {
            let mut world = w.borrow_mut();
            world.camera = camera_from(&input, world.camera)?;
            Ok(true)
        })?,
    )?;

    // The schema's vocabulary and its description come from `SizePreset`, so they cannot drift.
    let sizes = lua.create_table()?;
    sizes.set("names", lua.create_sequence_from(SizePreset::ALL.iter().map(|p| p.name()))?)?;
    sizes.set("summary", SizePreset::summary())?;
    let (w, h) = SizePreset::DEFAULT.pixels();
    sizes.set("default_width", w)?;
    sizes.set("default_height", h)?;
    sizes.set_readonly(true);
    ops.set("sizes", sizes)?;

    #[cfg(not(feature = "render"))]
    ops.set("capture", lua.create_function(|_, _: mlua::MultiValue| -> mlua::Result<()> { Err(no_renderer("render.capture")) })?)?;
    #[cfg(feature = "render")]
    ops.set(
        "capture",
        lua.create_function(move |lua, input: Table| {
            use crate::render::CaptureRequest;
            use crate::script::convert::blob;
            let (width, height) = capture_size(&input)?;
            let base = match input.get::<Option<Table>>("camera")? {
                Some(c) => Some(camera_from(&c, world.borrow().camera)?),
                None => None,
            };
            let world = world.borrow();
            let camera = match input.get::<Option<String>>("entity")? {
                Some(text) => {
                    let id = framed_entity(&world, &text)?;
                    let view = base.unwrap_or(world.camera);
                    let framed = state.borrow().framing(&world, id, view, width as f32 / height as f32).ok_or_else(|| {
                        HandlerFailure::new(ErrorCode::NotFound, format!("entity: no entity {text} (never created or destroyed)"))
                            .into_lua()
                    })?;
                    framed.check().map_err(|e| {
                        HandlerFailure::new(ErrorCode::InvalidInput, format!("entity: framing {text} needs a camera out of bounds ({e})"))
                            .into_lua()
                    })?;
                    Some(framed)
                }
                None => base,
            };
            let labels = input.get::<Option<bool>>("labelEntities")?.unwrap_or(false);
            let mask = input.get::<Option<bool>>("mask")?.unwrap_or(false);
            let request = CaptureRequest { width, height, camera, labels, mask };
            let failed =
                |e: crate::render::RenderError| crate::skills::SkillFailure { code: ErrorCode::HandlerError, message: e.to_string() };
            if heavy.may_defer("render.capture").map_err(HandlerFailure::into_lua)? {
                // The world at this tick, read now; drawn and encoded off the engine thread.
                let mut prepared = state.borrow().prepare_capture(&world, &request, crate::render::RenderList::default());
                let renderer = state.borrow().shared_renderer();
                heavy.park(move || {
                    let capture = prepared.render(&renderer).map_err(failed)?;
                    Ok(capture_result(&capture, width, height, labels, mask))
                });
                return Ok(mlua::Value::Nil);
            }
            let capture = state
                .borrow_mut()
                .capture_view(&world, &request)
                .map_err(|e| HandlerFailure::new(ErrorCode::HandlerError, e.to_string()).into_lua())?;
            blob(lua, capture_result(&capture, width, height, labels, mask)).map(mlua::Value::UserData)
        })?,
    )?;

    ops.set_readonly(true);
    Ok(ops)
}
