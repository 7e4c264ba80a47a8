//! Writing a scene: capture a world as a `Scene`, print a `Scene` as readable Luau.
//!
//! The text is stable (entities in id order, fields in one fixed order, fields at their
//! defaults left out) and its numbers read back bit for bit: each f32 is printed as the shortest
//! decimal that parses back (through Luau's f64) to the same f32, falling back to the f32's exact
//! f64 value in the rare case the short form would round differently. So a position, rotation or
//! scale saved and loaded again is the same value, and the world hash with it.

use super::{FORMAT, Look, Rotation, Scene, SceneBody, SceneEntity};
use crate::world::{Camera, Lighting, Material, RenderShape, World};

/// The world's entities (in id order), lighting and camera as a scene. What a scene does not
/// hold is left behind: agents, UI elements, sounds, velocities.
pub fn capture(world: &World) -> Scene {
    let mut entities = Vec::with_capacity(world.entity_count());
    world.for_each_entity(|state| {
        let renderable = state.renderable.copied();
        let look = match renderable.map(|r| r.shape) {
            Some(RenderShape::Sphere) => Look::Sphere,
            Some(RenderShape::Capsule) => Look::Capsule,
            // A model whose asset id is gone cannot happen (the table only grows); an empty id
            // would be refused when the scene is read, never silently become a box.
            Some(RenderShape::Asset(handle)) => Look::Model(world.model_asset(handle).unwrap_or_default().to_string()),
            Some(RenderShape::Box) | None => Look::Box,
        };
        let t = state.transform;
        entities.push(SceneEntity {
            id: Some(state.id),
            look,
            size: renderable.map_or(1.0, |r| r.size),
            color: renderable.map_or(0xffffff, |r| r.color),
            position: t.position,
            rotation: (t.rotation != [0.0, 0.0, 0.0, 1.0]).then_some(Rotation::Quaternion(t.rotation)),
            scale: (t.scale != [1.0; 3]).then_some(t.scale),
            material: world.material(state.id).filter(|m| *m != Material::default()),
            tags: state.tags.map(|t| t.0.clone()).unwrap_or_default(),
            body: world.body_state(state.id).map(|b| SceneBody {
                kind: b.kind,
                collider: Some(b.collider),
                friction: b.friction,
                restitution: b.restitution,
            }),
        });
    });
    Scene { description: None, entities, lighting: Some(world.lighting), camera: Some(world.camera) }
}

/// The scene as a Luau file returning its table.
pub fn to_luau(scene: &Scene) -> String {
    let mut out = String::with_capacity(128 + scene.entities.len() * 160);
    out.push_str("-- A limina scene: a Luau module returning a data table (format described in scenes/README.md).\n");
    out.push_str("-- Load it with `limina run <this file>` or the scene.load skill; scene.save writes files like it.\n");
    out.push_str("return {\n");
    out.push_str(&format!("\tformat = {FORMAT},\n"));
    if let Some(d) = &scene.description {
        out.push_str(&format!("\tdescription = {},\n", string(d)));
    }
    out.push_str("\tentities = {\n");
    for e in &scene.entities {
        out.push_str("\t\t");
        out.push_str(&entity(e));
        out.push_str(",\n");
    }
    out.push_str("\t},\n");
    if let Some(l) = &scene.lighting {
        out.push_str(&lighting(l));
    }
    if let Some(c) = &scene.camera {
        out.push_str(&camera(c));
    }
    out.push_str("}\n");
    out
}

fn entity(e: &SceneEntity) -> String {
    let mut fields = Vec::with_capacity(10);
    if let Some(id) = e.id {
        fields.push(format!("id = \"{id}\""));
    }
    match &e.look {
        Look::Model(asset) => fields.push(format!("model = {}", string(asset))),
        look => fields.push(format!("shape = \"{}\"", look.shape_name().unwrap_or("box"))),
    }
    if e.size != 1.0 {
        fields.push(format!("size = {}", number(e.size)));
    }
    if e.color != 0xffffff {
        fields.push(format!("color = {}", color(e.color)));
    }
    fields.push(format!("position = {}", vector(&e.position)));
    match e.rotation {
        Some(Rotation::Quaternion(q)) => fields.push(format!("rotation = {}", vector(&q))),
        Some(Rotation::Euler(a)) => fields.push(format!("rotationEuler = {}", vector(&a))),
        None => {}
    }
    if let Some(s) = e.scale {
        fields.push(format!("scale = {}", vector(&s)));
    }
    if let Some(m) = e.material {
        fields.push(format!(
            "material = {{ roughness = {}, metalness = {}, castShadow = {}, receiveShadow = {} }}",
            number(m.roughness),
            number(m.metalness),
            m.cast_shadow,
            m.receive_shadow
        ));
    }
    if !e.tags.is_empty() {
        fields.push(format!("tags = {{ {} }}", e.tags.iter().map(|t| string(t)).collect::<Vec<_>>().join(", ")));
    }
    if let Some(b) = e.body {
        let collider = b.collider.map(|c| format!("collider = \"{}\", ", c.as_str())).unwrap_or_default();
        fields.push(format!(
            "body = {{ kind = \"{}\", {collider}friction = {}, restitution = {} }}",
            SceneBody::kind_name(b.kind),
            number(b.friction),
            number(b.restitution)
        ));
    }
    format!("{{ {} }}", fields.join(", "))
}

fn lighting(l: &Lighting) -> String {
    let fields = [
        format!("ambientColor = {}", color(l.ambient_color)),
        format!("ambientIntensity = {}", number(l.ambient_intensity)),
        format!("directionalColor = {}", color(l.directional_color)),
        format!("directionalIntensity = {}", number(l.directional_intensity)),
        format!("direction = {}", vector(&l.direction)),
        format!("castShadow = {}", l.cast_shadow),
        format!("shadowMapSize = {}", l.shadow_map_size),
        format!("shadowCameraExtent = {}", number(l.shadow_camera_extent)),
        format!("shadowCameraNear = {}", number(l.shadow_camera_near)),
        format!("shadowCameraFar = {}", number(l.shadow_camera_far)),
        format!("shadowBias = {}", number(l.shadow_bias)),
    ];
    let mut out = String::from("\tlighting = {\n");
    for f in fields {
        out.push_str(&format!("\t\t{f},\n"));
    }
    out.push_str("\t},\n");
    out
}

fn camera(c: &Camera) -> String {
    format!("\tcamera = {{ position = {}, target = {}, fov = {} }},\n", vector(&c.position), vector(&c.target), number(c.fov_deg))
}

fn vector(v: &[f32]) -> String {
    format!("{{ {} }}", v.iter().map(|c| number(*c)).collect::<Vec<_>>().join(", "))
}

fn color(c: u32) -> String {
    format!("0x{c:06x}")
}

/// An f32 as Luau source that evaluates to exactly it.
fn number(v: f32) -> String {
    if v.is_nan() {
        return "0/0".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "1/0".into() } else { "-1/0".into() };
    }
    let short = v.to_string();
    if short.parse::<f64>().is_ok_and(|d| (d as f32).to_bits() == v.to_bits()) { short } else { f64::from(v).to_string() }
}

/// A string as a Luau literal: quotes, backslashes and control bytes escaped, the rest as is.
fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => out.push_str(&format!("\\{:03}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_f32_prints_as_luau_that_reads_back_bit_for_bit() {
        let lua = mlua::Lua::new();
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut values: Vec<f32> = vec![0.0, -0.0, 0.1, 1.0 / 3.0, 1e-7, 3.4e38, -1e6, f32::MIN_POSITIVE, 16_777_217.0];
        for _ in 0..2000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let v = f32::from_bits(state as u32);
            if v.is_finite() {
                values.push(v);
            }
        }
        for v in values {
            let text = number(v);
            let back: f64 = lua.load(format!("return {text}")).eval().unwrap();
            assert_eq!((back as f32).to_bits(), v.to_bits(), "{v:e} printed as {text}");
        }
    }

    #[test]
    fn strings_print_as_literals_that_read_back() {
        let lua = mlua::Lua::new();
        for s in ["plain", "quote \" and \\ back", "line\nbreak\ttab\u{1}", "üñí ✓"] {
            let back: String = lua.load(format!("return {}", string(s))).eval().unwrap();
            assert_eq!(back, s);
        }
    }
}
