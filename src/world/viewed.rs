//! How a viewer sees the world: the JSON of an entity (its pose and its look), the lighting and
//! the camera, in one spelling for both places that send it — the state stream (`mcp::sync`) and
//! the `world.view` skill an MCP App polls — so a viewer renders either without telling them
//! apart.

use serde_json::{Map, Value, json};

use super::{Camera, EntityState, Lighting, RenderShape, World};

fn shape_name(shape: RenderShape) -> &'static str {
    match shape {
        RenderShape::Box => "box",
        RenderShape::Sphere => "sphere",
        RenderShape::Capsule => "capsule",
        RenderShape::Asset(_) => "gltf",
    }
}

/// The pose fields: position, rotation (quaternion xyzw), scale.
pub(crate) fn put_pose(v: &mut Map<String, Value>, e: &EntityState<'_>) {
    v.insert("position".into(), json!(e.transform.position));
    v.insert("rotation".into(), json!(e.transform.rotation));
    v.insert("scale".into(), json!(e.transform.scale));
}

/// The look fields: shape, size, colour, material (when it has its own), asset, tags.
pub(crate) fn put_look(v: &mut Map<String, Value>, world: &World, e: &EntityState<'_>) {
    if let Some(r) = e.renderable {
        v.insert("shape".into(), json!(shape_name(r.shape)));
        v.insert("size".into(), json!(r.size));
        v.insert("color".into(), json!(r.color));
        if let RenderShape::Asset(handle) = r.shape
            && let Some(asset) = world.model_asset(handle)
        {
            v.insert("asset".into(), json!(asset));
        }
    }
    if let Some(m) = e.material {
        v.insert(
            "material".into(),
            json!({"roughness": m.roughness, "metalness": m.metalness, "castShadow": m.cast_shadow, "receiveShadow": m.receive_shadow}),
        );
    }
    if let Some(t) = e.tags {
        v.insert("tags".into(), json!(t.0));
    }
}

/// An entity in full: its id, pose and look.
pub(crate) fn entity_json(world: &World, e: &EntityState<'_>) -> Value {
    let mut v = Map::new();
    v.insert("entity".into(), json!(e.id.to_string()));
    put_pose(&mut v, e);
    put_look(&mut v, world, e);
    Value::Object(v)
}

pub(crate) fn lighting_json(l: &Lighting) -> Value {
    json!({
        "ambientColor": l.ambient_color,
        "ambientIntensity": l.ambient_intensity,
        "directionalColor": l.directional_color,
        "directionalIntensity": l.directional_intensity,
        "direction": l.direction,
        "castShadow": l.cast_shadow,
        "shadowMapSize": l.shadow_map_size,
        "shadowCameraExtent": l.shadow_camera_extent,
        "shadowCameraNear": l.shadow_camera_near,
        "shadowCameraFar": l.shadow_camera_far,
        "shadowBias": l.shadow_bias,
        "clearColor": l.clear_color,
    })
}

pub(crate) fn camera_json(c: &Camera) -> Value {
    json!({"position": c.position, "target": c.target, "fov": c.fov_deg})
}
