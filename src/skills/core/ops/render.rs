//! The `render` ops behind `three.setMaterial`, `three.setLighting`, `render.setCamera`,
//! `three.loadGLTF` and `render.capture`. Materials, lighting and the camera are plain world
//! data; models and pictures need the renderer, which is created on first capture (worlds that
//! never draw never need a GPU) and absent from builds without the `render` feature.

use std::cell::RefCell;
use std::rc::Rc;

use mlua::{Lua, Table};

use crate::skills::{ErrorCode, HandlerFailure};
use crate::world::World;

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

fn vec3(t: &Table, key: &str) -> mlua::Result<Option<[f32; 3]>> {
    let Some(v) = t.get::<Option<Table>>(key)? else { return Ok(None) };
    Ok(Some([v.raw_get::<f64>(1)? as f32, v.raw_get::<f64>(2)? as f32, v.raw_get::<f64>(3)? as f32]))
}

pub(crate) fn create(
    lua: &Lua,
    world: Rc<RefCell<World>>,
    state: Rc<RefCell<RenderState>>,
    project: std::path::PathBuf,
) -> mlua::Result<Table> {
    let ops = lua.create_table()?;

    #[cfg(not(feature = "render"))]
    let _ = (&state, &project);
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
            let entity = w
                .borrow_mut()
                .spawn_model(&asset.id, &spec)
                .map_err(|e| HandlerFailure::new(ErrorCode::CapacityExceeded, e.to_string()).into_lua())?;
            st.borrow_mut().models.entry(asset.id.clone()).or_insert_with(|| std::sync::Arc::new(asset));
            blob(lua, json!({"entity": entity.to_string(), "resource": resource}))
        })?,
    )?;

    let w = Rc::clone(&world);
    ops.set(
        "set_material",
        lua.create_function(move |_, (id, input): (String, Table)| {
            let color: Option<u32> = input.get("color")?;
            let roughness: Option<f64> = input.get("roughness")?;
            let metalness: Option<f64> = input.get("metalness")?;
            let cast: Option<bool> = input.get("castShadow")?;
            let receive: Option<bool> = input.get("receiveShadow")?;
            let mut world = w.borrow_mut();
            let Some(id) = world.resolve(&id) else { return Ok(false) };
            Ok(world.edit_material(id, |m, c| {
                if let Some(v) = color {
                    *c = v;
                }
                if let Some(v) = roughness {
                    m.roughness = v as f32;
                }
                if let Some(v) = metalness {
                    m.metalness = v as f32;
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
            let l = &mut world.lighting;
            l.ambient_color = input.get("ambientColor")?;
            l.ambient_intensity = input.get::<f64>("ambientIntensity")? as f32;
            l.directional_color = input.get("directionalColor")?;
            l.directional_intensity = input.get::<f64>("directionalIntensity")? as f32;
            l.direction = vec3(&input, "direction")?.unwrap_or(l.direction);
            l.cast_shadow = input.get("castShadow")?;
            l.shadow_map_size = input.get("shadowMapSize")?;
            l.shadow_camera_extent = input.get::<f64>("shadowCameraExtent")? as f32;
            l.shadow_camera_near = input.get::<f64>("shadowCameraNear")? as f32;
            l.shadow_camera_far = input.get::<f64>("shadowCameraFar")? as f32;
            l.shadow_bias = input.get::<f64>("shadowBias")? as f32;
            if let Some(c) = input.get::<Option<u32>>("clearColor")? {
                l.clear_color = c;
            }
            Ok(true)
        })?,
    )?;

    let w = Rc::clone(&world);
    ops.set(
        "set_camera",
        lua.create_function(move |_, input: Table| {
            let mut world = w.borrow_mut();
            let c = &mut world.camera;
            c.position = vec3(&input, "position")?.unwrap_or(c.position);
            c.target = vec3(&input, "target")?.unwrap_or(c.target);
            if let Some(f) = input.get::<Option<f64>>("fov")? {
                c.fov_deg = f as f32;
            }
            Ok(true)
        })?,
    )?;

    #[cfg(not(feature = "render"))]
    ops.set("capture", lua.create_function(|_, _: mlua::MultiValue| -> mlua::Result<()> { Err(no_renderer("render.capture")) })?)?;
    #[cfg(feature = "render")]
    ops.set(
        "capture",
        lua.create_function(move |lua, (width, height, camera): (u32, u32, Option<Table>)| {
            use crate::script::convert::blob;
            use base64::Engine as _;
            use serde_json::json;
            let view = match &camera {
                Some(c) => {
                    let base = world.borrow().camera;
                    Some(crate::world::Camera {
                        position: vec3(c, "position")?.unwrap_or(base.position),
                        target: vec3(c, "target")?.unwrap_or(base.target),
                        fov_deg: c.get::<Option<f64>>("fov")?.map(|f| f as f32).unwrap_or(base.fov_deg),
                    })
                }
                None => None,
            };
            let world = world.borrow();
            let (png, stats) = state
                .borrow_mut()
                .capture(&world, width, height, view)
                .map_err(|e| HandlerFailure::new(ErrorCode::HandlerError, e.to_string()).into_lua())?;
            blob(
                lua,
                json!({
                    "width": width,
                    "height": height,
                    "mimeType": "image/png",
                    "bytes": png.len(),
                    "drawCalls": stats.draw_calls,
                    "data": base64::engine::general_purpose::STANDARD.encode(&png),
                }),
            )
        })?,
    )?;

    ops.set_readonly(true);
    Ok(ops)
}
