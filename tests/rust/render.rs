//! Image tests: small scenes rendered headless (Mesa lavapipe in CI) and compared with committed
//! reference PNGs.
//!
//! Tolerance: a pixel matches when every channel is within 16/255 of the reference; a scene
//! passes when at least 99.5% of pixels match and the mean absolute channel difference is
//! under 1.5/255. That absorbs rasterizer and float differences between drivers while a moved,
//! recoloured or unshadowed object fails (checked below). To accept an intended change, run with
//! `LIMINA_BLESS=1`, look at the new PNGs, and commit them.
//!
//! Without any Vulkan driver the tests say so and skip; where Mesa's CPU driver is installed
//! (as CI installs it) a missing adapter is a failure.

use limina::host::{Engine, EngineConfig, Output};
use serde_json::{Value, json};

const W: u32 = 192;
const H: u32 = 128;

fn gpu_expected() -> bool {
    std::path::Path::new("/usr/share/vulkan/icd.d/lvp_icd.x86_64.json").exists() || std::env::var_os("LIMINA_REQUIRE_GPU").is_some()
}

fn engine() -> Engine {
    let dir = std::env::temp_dir();
    Engine::new(EngineConfig { output: Output::Silent, scripts: Some(dir.join("limina-no-mods")), ..EngineConfig::new(crate::root()) })
        .unwrap()
}

/// Builds a scene from Luau (through skills) and renders it; None when no GPU is available here.
fn render(scene: &str) -> Option<Vec<u8>> {
    render_sized(scene, W, H)
}

fn render_sized(scene: &str, w: u32, h: u32) -> Option<Vec<u8>> {
    let e = engine();
    e.run_source(scene, "tests/render_scene.lua").unwrap();
    match e.capture_png(w, h) {
        Ok(png) => Some(png),
        Err(err) if !gpu_expected() => {
            eprintln!("skipping image test: {err}");
            None
        }
        Err(err) => panic!("rendering failed on a machine with a Vulkan driver: {err}"),
    }
}

fn decode(png_bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// (fraction of matching pixels, mean absolute difference in 0..255).
fn compare(a: &[u8], b: &[u8]) -> (f64, f64) {
    assert_eq!(a.len(), b.len());
    let pixels = a.len() / 4;
    let mut matching = 0;
    let mut total = 0u64;
    for (pa, pb) in a.chunks(4).zip(b.chunks(4)) {
        let diffs: Vec<u8> = pa.iter().zip(pb).take(3).map(|(x, y)| x.abs_diff(*y)).collect();
        total += diffs.iter().map(|d| u64::from(*d)).sum::<u64>();
        if diffs.iter().all(|d| *d <= 16) {
            matching += 1;
        }
    }
    (matching as f64 / pixels as f64, total as f64 / (pixels * 3) as f64)
}

fn close_enough(a: &[u8], b: &[u8]) -> bool {
    let (matching, mean) = compare(a, b);
    matching >= 0.995 && mean < 1.5
}

fn check_golden(name: &str, scene: &str) {
    check_golden_sized(name, scene, W, H);
}

fn check_golden_sized(name: &str, scene: &str, w: u32, h: u32) {
    let Some(png_bytes) = render_sized(scene, w, h) else { return };
    check_png(name, &png_bytes);
}

/// Compares a rendered PNG with the committed reference `name` (writing it under LIMINA_BLESS).
fn check_png(name: &str, png_bytes: &[u8]) {
    let path = crate::root().join(format!("tests/rust/golden/render/{name}.png"));
    if std::env::var_os("LIMINA_BLESS").is_some() {
        std::fs::write(&path, png_bytes).unwrap();
    }
    let reference = std::fs::read(&path).unwrap_or_else(|_| panic!("missing {} (run with LIMINA_BLESS=1)", path.display()));
    let (w, h, actual) = decode(png_bytes);
    let (rw, rh, expected) = decode(&reference);
    assert_eq!((w, h), (rw, rh));
    let (matching, mean) = compare(&actual, &expected);
    if !(matching >= 0.995 && mean < 1.5) {
        let out = std::env::temp_dir().join(format!("limina-{name}-actual.png"));
        std::fs::write(&out, png_bytes).unwrap();
        panic!(
            "{name}: {:.2}% of pixels match (need 99.5%), mean difference {mean:.2}; actual image at {}",
            matching * 100.0,
            out.display()
        );
    }
}

const LIT_CUBE: &str = r#"
limina.call("three.setLighting", { castShadow = true, direction = { 4, 8, 3 }, shadowCameraExtent = 6 })
limina.call("render.setCamera", { position = { 0, 4, 7 }, target = { 0, 0.5, 0 }, fov = 45 })
local floor = limina.call("scene.createEntity", { shape = "box", position = { 0, -0.5, 0 }, color = 0xbbbbbb }).result.entity
limina.call("ecs.updateComponent", { entity = floor, component = "scale", value = { 8, 1, 8 } })
local cube = limina.call("scene.createEntity", { shape = "box", position = { CUBE_X, 0.75, 0 }, size = 1.5, color = 0xd04030 }).result.entity
limina.call("three.setTransform", { entity = cube, rotationEuler = { 0, 0.6, 0 } })
"#;

fn lit_cube(x: f32) -> String {
    LIT_CUBE.replace("CUBE_X", &x.to_string())
}

const SPHERES: &str = r#"
limina.call("three.setLighting", { direction = { -3, 6, 8 }, directionalIntensity = 3.5 })
limina.call("render.setCamera", { position = { 0, 0, 9 }, target = { 0, 0, 0 }, fov = 40 })
for row = 0, 1 do
    for col = 0, 3 do
        local id = limina.call("scene.createEntity", { shape = "sphere", size = 1.4, position = { -2.4 + col * 1.6, 0.8 - row * 1.6, 0 }, color = 0xc8a040 }).result.entity
        limina.call("three.setMaterial", { entity = id, roughness = 0.1 + col * 0.28, metalness = row })
    end
end
"#;

const GRID: &str = r#"
limina.call("three.setLighting", { castShadow = true, direction = { 3, 10, 5 }, shadowCameraExtent = 14 })
limina.call("render.setCamera", { position = { 0, 14, 16 }, target = { 0, 0, 0 }, fov = 50 })
for x = -10, 10 do
    for z = -10, 10 do
        local shape = if (x + z) % 2 == 0 then "box" else "sphere"
        local color = if x % 3 == 0 then 0x3070e0 else 0xe0e0e0
        limina.call("scene.createEntity", { shape = shape, size = 0.7, position = { x, 0.35, z }, color = color })
    end
end
"#;

const GLTF: &str = r#"
limina.call("three.setLighting", { castShadow = true, direction = { 4, 8, 3 }, shadowCameraExtent = 6 })
limina.call("render.setCamera", { position = { 2.5, 2.5, 4 }, target = { 0, 0.8, 0 }, fov = 45 })
local floor = limina.call("scene.createEntity", { shape = "box", position = { 0, -0.5, 0 }, color = 0xbbbbbb }).result.entity
limina.call("ecs.updateComponent", { entity = floor, component = "scale", value = { 8, 1, 8 } })
assert(limina.call("three.loadGLTF", { assetId = "models/crate.glb" }).success)
"#;

#[test]
fn a_textured_gltf_model() {
    check_golden("gltf_crate", GLTF);
}

const PRIMITIVES: &str = r#"
limina.call("three.setLighting", { castShadow = true, direction = { 3, 8, 5 }, shadowCameraExtent = 6 })
limina.call("render.setCamera", { position = { 0, 2.5, 6 }, target = { 0, 0.6, 0 }, fov = 45 })
local floor = limina.call("scene.createEntity", { shape = "box", position = { 0, -0.5, 0 }, color = 0xbbbbbb }).result.entity
limina.call("ecs.updateComponent", { entity = floor, component = "scale", value = { 10, 1, 6 } })
limina.call("scene.createEntity", { shape = "box", position = { -2.4, 0.5, 0 }, color = 0x3070e0 })
limina.call("scene.createEntity", { shape = "sphere", position = { -0.8, 0.5, 0 }, color = 0xe0c030 })
limina.call("scene.createEntity", { shape = "capsule", size = 1.6, position = { 0.8, 0.8, 0 }, color = 0x30b050 })
local ball = limina.call("three.loadGLTF", { assetId = "models/ball.glb", position = { 2.4, 0.5, 0 } }).result.entity
limina.call("three.setMaterial", { entity = ball, color = 0xd04030 })
limina.call("three.setTransform", { entity = ball, rotationEuler = { 0.5, 0.6, 0 } })
"#;

#[test]
fn box_sphere_capsule_and_a_tinted_ringed_ball_model() {
    check_golden("primitives", PRIMITIVES);
}

#[test]
#[ignore = "slow: runs with the full suite (cargo test -- --include-ignored)"]
fn the_billiards_demo_runs_in_a_window_under_xvfb() {
    let has_xvfb = std::process::Command::new("xvfb-run").arg("--help").output().is_ok();
    if !has_xvfb || !gpu_expected() {
        eprintln!("skipping: xvfb-run or a Vulkan driver is not installed");
        return;
    }
    let o = std::process::Command::new("xvfb-run")
        .args([
            "-a",
            env!("CARGO_BIN_EXE_limina"),
            "run",
            "demos/billiards.lua",
            "--window",
            "--frames",
            "120",
            "--width",
            "320",
            "--height",
            "200",
        ])
        .current_dir(crate::root())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{}{}", out, String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("summary: ticks="), "{out}");
}

#[test]
fn a_lit_cube_casts_its_shadow_on_the_floor() {
    check_golden("lit_cube", &lit_cube(0.0));
}

#[test]
fn pbr_spheres_of_varying_roughness_and_metalness() {
    check_golden("pbr_spheres", SPHERES);
}

#[test]
fn an_instanced_grid() {
    check_golden("instanced_grid", GRID);
}

#[test]
fn a_wrong_scene_fails_the_comparison() {
    let (Some(good), Some(moved)) = (render(&lit_cube(0.0)), render(&lit_cube(0.6))) else { return };
    let (_, _, a) = decode(&good);
    let (_, _, b) = decode(&moved);
    assert!(!close_enough(&a, &b), "a cube moved by 0.6 must not pass the tolerance: {:?}", compare(&a, &b));
    let unshadowed = render(&lit_cube(0.0).replace("castShadow = true", "castShadow = false")).unwrap();
    let (_, _, c) = decode(&unshadowed);
    assert!(!close_enough(&a, &c), "losing the shadow must not pass: {:?}", compare(&a, &c));
    // And the same scene twice passes (the comparison is not simply always failing).
    let again = render(&lit_cube(0.0)).unwrap();
    assert!(close_enough(&a, &decode(&again).2));
}

#[test]
#[ignore = "slow: runs with the full suite (cargo test -- --include-ignored)"]
fn ten_thousand_entities_of_two_shapes_and_two_materials_take_at_most_8_draw_calls() {
    let e = engine();
    e.run_source(
        r#"
        limina.call("three.setLighting", { castShadow = true })
        for i = 0, 9999 do
            local shape = if i % 2 == 0 then "box" else "sphere"
            local id = limina.call("scene.createEntity", { shape = shape, size = 0.2, position = { i % 100 - 50, 0.1, i // 100 - 50 } }).result.entity
            if i % 4 < 2 then limina.call("three.setMaterial", { entity = id, metalness = 1, roughness = 0.2 }) end
        end
        "#,
        "tests/draw_calls.lua",
    )
    .unwrap();
    if e.capture_png(64, 64).is_err() && !gpu_expected() {
        return;
    }
    let stats = e.render_stats();
    assert_eq!(stats.instances, 10_000);
    assert!(stats.draw_calls <= 8, "{} draw calls", stats.draw_calls);
}

#[test]
fn render_capture_returns_a_png_of_the_requested_size() {
    let e = engine();
    let caller = e.script_caller().clone();
    e.call(&caller, "scene.createEntity", json!({"shape": "sphere"}));
    let r = e.call(&caller, "render.capture", json!({"width": 100, "height": 50}));
    let Some(result) = r.result else {
        assert!(!gpu_expected(), "render.capture failed: {:?}", r.error);
        return;
    };
    assert_eq!(
        (result["width"].clone(), result["height"].clone(), result["mimeType"].clone()),
        (json!(100), json!(50), json!("image/png"))
    );
    use base64::Engine as _;
    let png_bytes = base64::engine::general_purpose::STANDARD.decode(result["data"].as_str().unwrap()).unwrap();
    let (w, h, _) = decode(&png_bytes);
    assert_eq!((w, h), (100, 50));
    let bad = e.call(&caller, "render.capture", json!({"width": 5000}));
    assert!(bad.error.unwrap().message.contains("width"));
}

#[test]
fn render_capture_over_mcp_is_an_image_block() {
    if !gpu_expected() {
        return;
    }
    let mut s = crate::mcp::StdioServer::start(&[]);
    s.request(1, "initialize", json!({"protocolVersion": "2025-11-25"}));
    let r = s.request(2, "tools/call", json!({"name": "render.capture", "arguments": {"width": 64, "height": 48}}));
    let content = r["result"]["content"].as_array().unwrap();
    let image: &Value = content.iter().find(|c| c["type"] == "image").expect("an image block");
    assert_eq!(image["mimeType"], "image/png");
    use base64::Engine as _;
    let (w, h, _) = decode(&base64::engine::general_purpose::STANDARD.decode(image["data"].as_str().unwrap()).unwrap());
    assert_eq!((w, h), (64, 48));
    assert_eq!(r["result"]["structuredContent"]["width"], 64);
    s.finish();
}

#[test]
fn render_capture_over_mcp_sends_the_png_once() {
    if !gpu_expected() {
        return;
    }
    let mut s = crate::mcp::StdioServer::start(&[]);
    s.request(1, "initialize", json!({"protocolVersion": "2025-11-25"}));
    let r = s.request(2, "tools/call", json!({"name": "render.capture", "arguments": {"size": "thumbnail"}}));
    let result = &r["result"];
    let images: Vec<&Value> = result["content"].as_array().unwrap().iter().filter(|c| c["type"] == "image").collect();
    assert_eq!(images.len(), 1, "one image block");
    let data = images[0]["data"].as_str().unwrap();
    use base64::Engine as _;
    let (w, h, _) = decode(&base64::engine::general_purpose::STANDARD.decode(data).unwrap());
    assert_eq!((w, h), (320, 180), "the image block carries the PNG");
    assert!(result["structuredContent"].get("data").is_none(), "structuredContent carries no PNG: {}", result["structuredContent"]);
    assert_eq!(result["structuredContent"]["width"], 320);
    assert_eq!(r.to_string().matches(data).count(), 1, "the PNG appears once in the whole response");
    // The outputSchema allows its absence (validating clients such as the TypeScript SDK check it).
    let tools = s.request(3, "tools/list", json!({}));
    let tool = tools["result"]["tools"].as_array().unwrap().iter().find(|t| t["name"] == "render.capture").unwrap().clone();
    let required = tool["outputSchema"]["required"].as_array().cloned().unwrap_or_default();
    assert!(!required.contains(&json!("data")), "data must be optional in the outputSchema: {required:?}");
    s.finish();
}

#[test]
fn the_window_opens_under_a_virtual_display() {
    // CI runs this under xvfb-run via the CLI test below; here only the no-display error path,
    // which must be a clear message, never a panic.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_limina"))
        .args(["run", "demos/billiards.lua", "--window", "--frames", "3"])
        .current_dir(crate::root())
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("error: ") && err.contains("window"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

mod capture {
    //! `render.capture`'s own inputs: framing an entity, size presets and entity id labels, and
    //! that a capture changes nothing in the world.

    use super::*;
    use base64::Engine as _;

    struct Shot {
        result: Value,
        png: Vec<u8>,
        width: u32,
        height: u32,
        rgba: Vec<u8>,
    }

    impl Shot {
        fn pixel(&self, x: i64, y: i64) -> [u8; 3] {
            let (x, y) = (x.clamp(0, i64::from(self.width) - 1) as usize, y.clamp(0, i64::from(self.height) - 1) as usize);
            let i = (y * self.width as usize + x) * 4;
            [self.rgba[i], self.rgba[i + 1], self.rgba[i + 2]]
        }

        /// The box around every pixel `keep` accepts: [x0, y0, x1, y1].
        fn bbox(&self, keep: impl Fn([u8; 3]) -> bool) -> Option<[i64; 4]> {
            let mut r: Option<[i64; 4]> = None;
            for y in 0..i64::from(self.height) {
                for x in 0..i64::from(self.width) {
                    if keep(self.pixel(x, y)) {
                        r = Some(r.map_or([x, y, x, y], |[x0, y0, x1, y1]| [x0.min(x), y0.min(y), x1.max(x), y1.max(y)]));
                    }
                }
            }
            r
        }
    }

    fn world(scene: &str) -> Engine {
        let e = engine();
        e.run_source(scene, "tests/capture_scene.lua").unwrap();
        e
    }

    /// Calls `render.capture` as a script does; None when this machine has no GPU. The picture
    /// is also written to the temp dir as `limina-capture-{name}.png` to look at.
    fn shoot(e: &Engine, name: &str, args: Value) -> Option<Shot> {
        let caller = e.script_caller().clone();
        let r = e.call(&caller, "render.capture", args);
        let Some(result) = r.result else {
            let err = r.error.unwrap();
            assert!(!gpu_expected(), "render.capture failed: {} {}", err.code.as_str(), err.message);
            return None;
        };
        let png = base64::engine::general_purpose::STANDARD.decode(result["data"].as_str().unwrap()).unwrap();
        let _ = std::fs::write(std::env::temp_dir().join(format!("limina-capture-{name}.png")), &png);
        let (width, height, rgba) = decode(&png);
        assert_eq!(
            (json!(width), json!(height), json!(png.len())),
            (result["width"].clone(), result["height"].clone(), result["bytes"].clone())
        );
        Some(Shot { result, png, width, height, rgba })
    }

    fn reddish(p: [u8; 3]) -> bool {
        i32::from(p[0]) > i32::from(p[1]) + 40 && i32::from(p[0]) > i32::from(p[2]) + 40
    }

    /// A small red sphere off to the side of a far camera, and a box elsewhere.
    const SMALL_SPHERE: &str = r#"
limina.call("three.setLighting", { direction = { 4, 8, 3 } })
limina.call("render.setCamera", { position = { 0, 6, 14 }, target = { 0, 0, 0 }, fov = 50 })
limina.call("scene.createEntity", { shape = "sphere", size = 0.6, position = { 4, 1, -3 }, color = 0xd04030 })
limina.call("scene.createEntity", { shape = "box", position = { -3, 0.5, 0 }, color = 0x3070e0 })
"#;

    #[test]
    fn framing_an_entity_centres_it_and_fills_most_of_the_frame() {
        let e = world(SMALL_SPHERE);
        let Some(plain) = shoot(&e, "plain", json!({"size": "thumbnail"})) else { return };
        let [_, y0, _, y1] = plain.bbox(reddish).expect("the sphere is in the plain view");
        assert!(y1 - y0 < 30, "small in the plain view: {} px tall", y1 - y0);

        let framed = shoot(&e, "framed", json!({"size": "thumbnail", "entity": "ent_0001"})).unwrap();
        let [x0, y0, x1, y1] = framed.bbox(reddish).expect("the framed sphere is drawn");
        let (cx, cy) = ((x0 + x1) as f64 / 2.0, (y0 + y1) as f64 / 2.0);
        assert!((cx - 160.0).abs() <= 4.0 && (cy - 90.0).abs() <= 4.0, "centred: bbox {:?}", [x0, y0, x1, y1]);
        let share = (y1 - y0 + 1) as f64 / 180.0;
        assert!((0.6..=0.8).contains(&share), "the sphere spans {:.0}% of the height", share * 100.0);
        assert_eq!(framed.result["camera"]["target"], json!([4.0, 1.0, -3.0]));
        // Seen from the scene camera's direction: the framing camera is up and behind, as it is.
        let p = &framed.result["camera"]["position"];
        assert!(p[1].as_f64().unwrap() > 1.0 && p[2].as_f64().unwrap() > -3.0, "{p}");
    }

    #[test]
    fn a_capture_changes_nothing_in_the_world() {
        let e = world(SMALL_SPHERE);
        let before = e.world_hash();
        let Some(plain) = shoot(&e, "before", json!({"size": "thumbnail"})) else { return };
        shoot(&e, "framed", json!({"size": "thumbnail", "entity": "ent_0001", "labelEntities": true})).unwrap();
        shoot(&e, "moved", json!({"size": "thumbnail", "camera": {"position": [9, 9, 9]}})).unwrap();
        assert_eq!(e.world_hash(), before, "the world hash moved");
        // The scene camera was not moved by framing: the plain view is the same picture.
        let again = shoot(&e, "after", json!({"size": "thumbnail"})).unwrap();
        assert_eq!(again.result["camera"], plain.result["camera"]);
        assert!(close_enough(&again.rgba, &plain.rgba), "the plain view changed: {:?}", compare(&again.rgba, &plain.rgba));
    }

    /// Three spheres of three colours in view, one behind the camera and one far off to the side.
    const THREE: &str = r#"
limina.call("three.setLighting", { direction = { 2, 8, 6 }, ambientIntensity = 0.8 })
limina.call("render.setCamera", { position = { 0, 4, 10 }, target = { 0, 0.5, 0 }, fov = 45 })
limina.call("scene.createEntity", { shape = "sphere", position = { -3, 0.5, 0 }, color = 0xe02020 })
limina.call("scene.createEntity", { shape = "sphere", position = { 0, 0.5, -2 }, color = 0x20c020 })
limina.call("scene.createEntity", { shape = "sphere", position = { 3, 0.5, 1 }, color = 0x2040e0 })
limina.call("scene.createEntity", { shape = "sphere", position = { 0, 4, 20 }, color = 0xffffff })
limina.call("scene.createEntity", { shape = "sphere", position = { 60, 0.5, 0 }, color = 0xffffff })
"#;

    #[test]
    fn labels_mark_each_visible_entity_at_the_pixels_the_result_gives() {
        let e = world(THREE);
        let Some(plain) = shoot(&e, "unlabelled", json!({})) else { return };
        let labelled = shoot(&e, "labelled", json!({"labelEntities": true})).unwrap();
        assert!(plain.result.get("labels").is_none(), "no labels unless asked");
        let labels = labelled.result["labels"].as_array().unwrap();
        let ids: Vec<&str> = labels.iter().map(|l| l["entity"].as_str().unwrap()).collect();
        let mut sorted = ids.clone();
        sorted.sort();
        assert_eq!(sorted, ["ent_0001", "ent_0002", "ent_0003"], "behind the camera and off to the side: not labelled");
        assert_eq!(labelled.result["labelsOmitted"], 0);
        assert!(labels.iter().all(|l| l["drawn"] == true), "three apart: every tag drawn");
        let distances: Vec<f64> = labels.iter().map(|l| l["distance"].as_f64().unwrap()).collect();
        assert!(distances.windows(2).all(|d| d[0] <= d[1]), "nearest first: {distances:?}");
        for label in labels {
            let (x, y) = (label["x"].as_i64().unwrap(), label["y"].as_i64().unwrap());
            // The position is the entity's own pixel in the unlabelled picture.
            let channel = match label["entity"].as_str().unwrap() {
                "ent_0001" => 0,
                "ent_0002" => 1,
                _ => 2,
            };
            let p = plain.pixel(x, y);
            assert!((0..3).all(|c| c == channel || p[channel] > p[c] + 40), "{label}: pixel {p:?} is not the entity's colour");
            // And the label is drawn there: its dot on the point, its tag just above.
            let changed = |x0: i64, y0: i64, x1: i64, y1: i64| {
                let mut n = 0;
                for yy in y0..=y1 {
                    for xx in x0..=x1 {
                        if plain.pixel(xx, yy).iter().zip(labelled.pixel(xx, yy)).any(|(a, b)| a.abs_diff(b) > 40) {
                            n += 1;
                        }
                    }
                }
                n
            };
            assert!(changed(x - 2, y - 2, x + 2, y + 2) >= 5, "{label}: no dot on the entity");
            assert!(changed(x - 40, y - 40, x + 40, y - 8) >= 150, "{label}: no tag above the entity");
        }
        // Away from every label the picture is untouched.
        assert_eq!(labelled.pixel(5, 355), plain.pixel(5, 355));
        let draws = |s: &Shot| s.result["drawCalls"].as_u64().unwrap();
        assert!(draws(&labelled) <= draws(&plain) + 2, "labels cost at most two draw calls");
        check_png("capture_labels", &labelled.png);
    }

    #[test]
    fn a_mask_paints_each_visible_entity_its_own_colour_and_counts_its_pixels() {
        // THREE, and a small sphere hidden behind the red one (ent_0006).
        let e = world(&format!(
            "{THREE}\nlimina.call(\"scene.createEntity\", {{ shape = \"sphere\", size = 0.3, position = {{ -3.3, 0.15, -1 }} }})"
        ));
        let before = e.world_hash();
        let Some(plain) = shoot(&e, "plain", json!({})) else { return };
        let mask = shoot(&e, "mask", json!({"mask": true, "labelEntities": true})).unwrap();
        assert_eq!(e.world_hash(), before, "a mask moved the world hash");
        let masks = mask.result["masks"].as_array().unwrap();
        let listed: Vec<&str> = masks.iter().map(|m| m["entity"].as_str().unwrap()).collect();
        let mut sorted = listed.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, ["ent_0001", "ent_0002", "ent_0003"], "behind the camera, far off and hidden entities are not listed");
        assert_eq!(mask.result["masksOmitted"], json!(0));
        let pixels: Vec<u64> = masks.iter().map(|m| m["pixels"].as_u64().unwrap()).collect();
        assert!(pixels.windows(2).all(|w| w[0] >= w[1]), "largest first: {pixels:?}");
        // Each entity's centre (as labels report it) is its colour, exactly; the background is black.
        for label in mask.result["labels"].as_array().unwrap() {
            let id = label["entity"].as_str().unwrap();
            let Some(m) = masks.iter().find(|m| m["entity"] == id) else { continue };
            let hex = u32::from_str_radix(&m["color"].as_str().unwrap()[1..], 16).unwrap();
            let at = mask.pixel(label["x"].as_i64().unwrap(), label["y"].as_i64().unwrap());
            assert_eq!(at, [(hex >> 16) as u8, (hex >> 8) as u8, hex as u8], "{id} at its centre");
        }
        assert_eq!(mask.pixel(2, 2), [0, 0, 0]);
        // The red sphere's mask covers what the picture shows of it, give or take its edge.
        let red = masks.iter().find(|m| m["entity"] == "ent_0001").unwrap();
        let shown = (0..360).flat_map(|y| (0..640).map(move |x| (x, y))).filter(|&(x, y)| reddish(plain.pixel(x, y))).count() as f64;
        let counted = red["pixels"].as_f64().unwrap();
        assert!((counted / shown - 1.0).abs() < 0.08, "mask {counted} px against {shown} red px in the picture");
        let b = &red["box"];
        let [x0, y0, x1, y1] = plain.bbox(reddish).unwrap();
        assert!(
            (b[0].as_i64().unwrap() - x0).abs() <= 2 && (b[3].as_i64().unwrap() - y1).abs() <= 2,
            "box {b} against {:?}",
            [x0, y0, x1, y1]
        );
    }

    #[test]
    fn labels_stop_at_the_limit_and_count_the_rest() {
        let e = world(
            r#"
limina.call("render.setCamera", { position = { 0, 30, 30 }, target = { 0, 0, 0 }, fov = 60 })
for i = 0, 39 do
    limina.call("scene.createEntity", { shape = "box", size = 0.5, position = { (i % 8) * 2 - 7, 0, (i // 8) * 2 - 4 } })
end
"#,
        );
        let Some(shot) = shoot(&e, "limit", json!({"labelEntities": true, "size": "thumbnail"})) else { return };
        let labels = shot.result["labels"].as_array().unwrap();
        assert_eq!((labels.len(), shot.result["labelsOmitted"].as_u64().unwrap()), (32, 8));
        let distances: Vec<f64> = labels.iter().map(|l| l["distance"].as_f64().unwrap()).collect();
        assert!(distances.windows(2).all(|d| d[0] <= d[1]), "the nearest are kept: {distances:?}");
        // Crowded at this size: the nearest tag is drawn, tags that would cover it are not.
        let drawn: Vec<bool> = labels.iter().map(|l| l["drawn"].as_bool().unwrap()).collect();
        assert!(drawn[0] && drawn.iter().any(|d| !d), "{drawn:?}");
    }

    #[test]
    fn size_presets_give_their_dimensions_and_refuse_explicit_pixels_too() {
        let e = world(SMALL_SPHERE);
        for (preset, w, h) in [("thumbnail", 320, 180), ("small", 640, 360), ("medium", 1280, 720), ("large", 1920, 1080)] {
            let Some(shot) = shoot(&e, preset, json!({"size": preset})) else { return };
            assert_eq!((shot.width, shot.height), (w, h), "{preset}");
        }
        let Some(default) = shoot(&e, "default", json!({})) else { return };
        assert_eq!((default.width, default.height), (640, 360), "the default is small");
        let caller = e.script_caller().clone();
        let both = e.call(&caller, "render.capture", json!({"size": "medium", "width": 800}));
        let err = both.error.expect("a preset with explicit pixels is refused");
        assert_eq!(err.code.as_str(), "invalid_input");
        assert!(err.message.contains("medium") && err.message.contains("width 800"), "{}", err.message);
        let unknown = e.call(&caller, "render.capture", json!({"size": "huge"})).error.unwrap();
        assert!(unknown.message.contains("huge"), "{}", unknown.message);
    }

    #[test]
    fn bad_entity_ids_are_refused_naming_the_id() {
        let e = world(SMALL_SPHERE);
        let caller = e.script_caller().clone();
        e.call(&caller, "scene.destroyEntity", json!({"entity": "ent_0002"}));
        for (id, code) in [("ent_0099", "not_found"), ("ent_0002", "not_found"), ("crate", "invalid_input"), ("ent_2", "invalid_input")] {
            let err = e.call(&caller, "render.capture", json!({"entity": id})).error.unwrap_or_else(|| panic!("{id} was accepted"));
            assert_eq!(err.code.as_str(), code, "{id}: {}", err.message);
            assert!(err.message.contains(id), "{id}: {}", err.message);
        }
    }
}

mod ui {
    //! Text and panels over the scene (the `ui.*` skills), compared with reviewed references.
    //! A scene with different text must not pass the comparison.

    use super::*;

    const UW: u32 = 320;
    const UH: u32 = 200;

    const STAGE: &str = r#"
limina.call("three.setLighting", { direction = { 4, 8, 3 } })
limina.call("render.setCamera", { position = { 0, 2, 6 }, target = { 0, 1, 0 }, fov = 45 })
local floor = limina.call("scene.createEntity", { shape = "box", position = { 0, -0.5, 0 }, color = 0x88aa88 }).result.entity
limina.call("ecs.updateComponent", { entity = floor, component = "scale", value = { 10, 1, 6 } })
local thing = limina.call("scene.createEntity", { shape = "box", position = { 0, 0.5, 0 }, color = 0xb07030 }).result.entity
local function ok(r) assert(r.success, r.error and r.error.message) return r end
"#;

    fn scene(ui: &str) -> String {
        format!("{STAGE}\n{ui}")
    }

    fn label(text: &str) -> String {
        scene(&format!(
            r#"ok(limina.call("ui.label", {{ anchor = {{ kind = "world", entity = thing, offset = {{ 0, 0.8, 0 }} }}, text = "{text}", style = {{ text = {{ scale = 2 }} }} }}))"#
        ))
    }

    /// The box around every pixel where `with_ui` differs from the bare scene: where the UI is.
    fn ui_region(with_ui: &[u8], bare: &[u8]) -> Option<[usize; 4]> {
        let mut r: Option<[usize; 4]> = None;
        for (i, (a, b)) in with_ui.chunks(4).zip(bare.chunks(4)).enumerate() {
            if a.iter().zip(b).take(3).any(|(x, y)| x.abs_diff(*y) > 16) {
                let (x, y) = (i % UW as usize, i / UW as usize);
                r = Some(match r {
                    None => [x, y, x, y],
                    Some([x0, y0, x1, y1]) => [x0.min(x), y0.min(y), x1.max(x), y1.max(y)],
                });
            }
        }
        r
    }

    fn crop(img: &[u8], [x0, y0, x1, y1]: [usize; 4]) -> Vec<u8> {
        let mut out = Vec::new();
        for y in y0..=y1 {
            out.extend_from_slice(&img[(y * UW as usize + x0) * 4..(y * UW as usize + x1 + 1) * 4]);
        }
        out
    }

    /// The whole image must match as any render test's does, and the UI's own region must too
    /// (text is a small part of a frame: judged alone, a changed word cannot hide in the rest).
    fn check_ui(name: &str, ui: &str) {
        check_golden_sized(name, &scene(ui), UW, UH);
        let (Some(actual), Some(bare)) = (render_sized(&scene(ui), UW, UH), render_sized(&scene(""), UW, UH)) else { return };
        let reference = std::fs::read(crate::root().join(format!("tests/rust/golden/render/{name}.png"))).unwrap();
        let (actual, bare, reference) = (decode(&actual).2, decode(&bare).2, decode(&reference).2);
        let region = ui_region(&reference, &bare).expect("the reference shows UI over the bare scene");
        assert!(close_enough(&crop(&actual, region), &crop(&reference, region)), "{name}: the UI region differs from the reference");
    }

    #[test]
    fn a_label_over_an_entity() {
        check_ui("ui_label", &label("Crate 17")[STAGE.len() + 1..]);
    }

    #[test]
    fn a_label_with_other_text_fails_the_comparison() {
        let (Some(wrong), Some(right), Some(bare)) =
            (render_sized(&label("Crate 71"), UW, UH), render_sized(&label("Crate 17"), UW, UH), render_sized(&scene(""), UW, UH))
        else {
            return;
        };
        let (wrong, right, bare) = (decode(&wrong).2, decode(&right).2, decode(&bare).2);
        let region = ui_region(&right, &bare).expect("the label is drawn");
        let (matching, mean) = compare(&crop(&wrong, region), &crop(&right, region));
        assert!(
            !close_enough(&crop(&wrong, region), &crop(&right, region)),
            "different text passed: {:.3}% match, mean {mean:.2}",
            matching * 100.0
        );
        // The same text passes, so the check is not failing everything.
        let Some(again) = render_sized(&label("Crate 17"), UW, UH) else { return };
        assert!(close_enough(&crop(&decode(&again).2, region), &crop(&right, region)));
    }

    /// `scene` rendered after `ticks` more ticks; None without a GPU.
    fn render_after(scene: &str, ticks: u64) -> Option<Vec<u8>> {
        let e = engine();
        e.run_source(scene, "tests/render_scene.lua").unwrap();
        e.step(ticks).unwrap();
        match e.capture_png(UW, UH) {
            Ok(png) => Some(decode(&png).2),
            Err(err) if !gpu_expected() => {
                eprintln!("skipping image test: {err}");
                None
            }
            Err(err) => panic!("rendering failed on a machine with a Vulkan driver: {err}"),
        }
    }

    fn styled_label(text: &str, extra: &str, text_style: &str) -> String {
        scene(&format!(
            r#"ok(limina.call("ui.label", {{ anchor = {{ kind = "world", entity = thing, offset = {{ 0, 0.8, 0 }} }}, text = "{text}", style = {{ text = {{ scale = 2{text_style} }}{extra} }} }}))"#
        ))
    }

    #[test]
    fn a_typewriter_draws_only_the_revealed_characters() {
        // 6 characters a second: none at first, "Crat" after 40 ticks (60 a second), all after 120.
        let typed = |ticks| {
            render_after(
                &styled_label("Crate 17", "", "")
                    .replace("text = \"Crate 17\",", "text = \"Crate 17\", lifecycle = { typewriter = { cps = 6 } },"),
                ticks,
            )
        };
        let invisible = |ticks| render_after(&styled_label("Crate 17", "", ", color = { r = 255, g = 255, b = 255, a = 0 }"), ticks);
        let plain = |ticks| render_after(&label("Crate 17"), ticks);
        let (Some(none), Some(empty)) = (typed(0), invisible(0)) else { return };
        assert_eq!(compare(&none, &empty), (1.0, 0.0), "nothing revealed: the panel without its text");
        let (Some(all), Some(full)) = (typed(120), plain(120)) else { return };
        assert!(close_enough(&all, &full), "all revealed: the plain label");
        let (Some(part), Some(empty), Some(full)) = (typed(40), invisible(40), plain(40)) else { return };
        let text = ui_region(&full, &empty).expect("the label's text");
        let shown = ui_region(&part, &empty).expect("some text is revealed");
        // Left to right: the revealed glyphs start where the text does and stop well short of its end.
        assert!(shown[0] <= text[0] + 1 && shown[2] + 8 < text[2], "revealed {shown:?} of {text:?}");
    }

    #[test]
    fn a_faded_label_draws_its_text_and_panel_at_the_fade() {
        // Half faded: the panel's 150 alpha at 75, white text at half alpha.
        let faded = styled_label("Crate 17", "", "")
            .replace("text = \"Crate 17\",", "text = \"Crate 17\", lifecycle = { fade = { durationMs = 1000, from = 0.5, to = 0.5 } },");
        let styled = styled_label(
            "Crate 17",
            ", background = { color = 0x000000, opacity = 75 / 255 }",
            ", color = { r = 255, g = 255, b = 255, a = 128 }",
        );
        let (Some(faded), Some(styled), Some(bare), Some(plain)) =
            (render_after(&faded, 0), render_after(&styled, 0), render_after(&scene(""), 0), render_after(&label("Crate 17"), 0))
        else {
            return;
        };
        let region = ui_region(&plain, &bare).expect("the label is drawn");
        assert!(
            close_enough(&crop(&faded, region), &crop(&styled, region)),
            "{:?}",
            compare(&crop(&faded, region), &crop(&styled, region))
        );
        assert!(!close_enough(&crop(&faded, region), &crop(&plain, region)), "the fade shows");
    }

    #[test]
    fn a_speech_bubble_with_a_non_ascii_line() {
        check_ui(
            "ui_speech_bubble",
            r#"ok(limina.call("ui.speechBubble", { anchor = { kind = "world", entity = thing, offset = { 0, 0.6, 0 } }, pixelScale = 0.025, text = "Grüß dich — Ωμέγα, Привет!" }))"#,
        );
    }

    #[test]
    fn a_hud_panel_in_a_corner() {
        check_ui(
            "ui_hud_panel",
            r#"ok(limina.call("ui.hudPanel", { anchor = { kind = "screen", corner = "top-right", marginPx = { 8, 8 } }, title = "Agents", lines = { "walking: 2", "talking: 1" } }))"#,
        );
    }

    #[test]
    fn a_wrapped_text_box() {
        check_ui(
            "ui_text_box",
            r#"ok(limina.call("ui.textBox", { anchor = { kind = "screen", corner = "bottom-left", marginPx = { 8, 8 } }, title = "Notes", text = "This body is long enough that it has to wrap onto several lines.", maxWidth = 170 }))"#,
        );
    }

    /// How many pixels of `img` inside `region` are near white: the label's text ink.
    fn ink(img: &[u8], region: [usize; 4]) -> usize {
        crop(img, region).chunks(4).filter(|p| p[..3].iter().all(|c| *c > 180)).count()
    }

    #[test]
    fn japanese_text_draws_with_the_system_cjk_font() {
        // fonts-noto-cjk is a dependency (.ci/deps installs it): no skipping without it.
        let (Some(japanese), Some(replaced), Some(bare)) = (
            render_sized(&label("日本語"), UW, UH),
            render_sized(&label("\u{FFFD}\u{FFFD}\u{FFFD}"), UW, UH),
            render_sized(&scene(""), UW, UH),
        ) else {
            return;
        };
        let (japanese, replaced, bare) = (decode(&japanese).2, decode(&replaced).2, decode(&bare).2);
        let region = ui_region(&japanese, &bare).expect("the label is drawn");
        let strokes = ink(&japanese, region);
        assert!(strokes > 60, "the ideographs have ink: {strokes} white pixels");
        assert!(!close_enough(&crop(&japanese, region), &crop(&replaced, region)), "real glyphs, not the replacement glyph");
    }

    /// A label's screenshot from the `limina` binary with `LIMINA_CJK_FONT` set; its PNG and stderr.
    fn shot_with_cjk_font(font: &str, text: &str) -> (Vec<u8>, String) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("s.lua"), format!("{}\nreturn {{ frames = 1 }}\n", label(text))).unwrap();
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_limina"))
            .args(["run", "s.lua", "--screenshot", "s.png", "--width", &UW.to_string(), "--height", &UH.to_string()])
            .env("LIMINA_CJK_FONT", font)
            .current_dir(dir.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(0), "{err}");
        (decode(&std::fs::read(dir.path().join("s.png")).unwrap()).2, err)
    }

    #[test]
    fn without_a_cjk_font_japanese_draws_as_replacement_glyphs_and_names_the_package() {
        if !gpu_expected() {
            return;
        }
        let (missing, warning) = shot_with_cjk_font("none", "日本語");
        let (replaced, _) = shot_with_cjk_font("none", "\u{FFFD}\u{FFFD}\u{FFFD}");
        assert_eq!(compare(&missing, &replaced), (1.0, 0.0), "each missing character is U+FFFD, not an empty box");
        assert_eq!(warning.matches("no CJK font found").count(), 1, "one warning: {warning}");
        assert!(warning.contains("install fonts-noto-cjk"), "the warning names the package: {warning}");
        // With the font the same text draws differently (so the comparison above can fail).
        let (found, quiet) = shot_with_cjk_font("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", "日本語");
        assert!(!close_enough(&found, &replaced), "the font draws the ideographs");
        assert!(!quiet.contains("fonts-noto-cjk"), "{quiet}");
    }
}

/// The sky: faces turned from the sun get the hemisphere light, the background is a gradient.
mod sky {
    use super::*;

    /// Mean Rec. 709 luma (0..255) of the pixels in `[x0, y0, x1, y1)`.
    fn luma(img: &[u8], [x0, y0, x1, y1]: [usize; 4]) -> f64 {
        let mut sum = 0.0;
        for y in y0..y1 {
            for x in x0..x1 {
                let p = &img[(y * W as usize + x) * 4..];
                sum += 0.2126 * f64::from(p[0]) + 0.7152 * f64::from(p[1]) + 0.0722 * f64::from(p[2]);
            }
        }
        sum / ((x1 - x0) * (y1 - y0)) as f64
    }

    #[test]
    fn a_face_turned_from_the_sun_is_lit_by_the_sky() {
        // The sun behind a light grey box, the camera in front: the face we see gets no direct
        // light. The flat ambient term alone left it at luma 28 (near black); the sky lifts it.
        let scene = r#"
limina.call("three.setLighting", { direction = { 0, 5, -8 } })
limina.call("render.setCamera", { position = { 0, 1, 6 }, target = { 0, 1, 0 }, fov = 40 })
limina.call("scene.createEntity", { shape = "box", position = { 0, 1, 0 }, size = 2, color = 0xbbbbbb })
"#;
        let Some(png) = render(scene) else { return };
        let face = luma(&decode(&png).2, [81, 54, 111, 74]);
        assert!(face > 70.0, "the shaded face's mean luma is {face:.1}");
        // No ambient intensity: no sky light either, the face goes dark (the light is the sky's).
        let Some(png) = render(&scene.replace("direction = { 0, 5, -8 }", "direction = { 0, 5, -8 }, ambientIntensity = 0")) else {
            return;
        };
        let dark = luma(&decode(&png).2, [81, 54, 111, 74]);
        assert!(dark + 40.0 < face, "without ambient light the face is dark: {dark:.1} (lit by the sky: {face:.1})");
    }

    #[test]
    fn the_background_is_a_gradient_from_the_horizon_up() {
        // An empty world, the camera looking level: the horizon row is the clear colour
        // (0x9fb8d0), the top of the frame a deeper blue.
        let Some(png) = render(r#"limina.call("render.setCamera", { position = { 0, 1, 0 }, target = { 0, 1, -5 }, fov = 90 })"#) else {
            return;
        };
        let img = decode(&png).2;
        let at = |y: usize| &img[(y * W as usize + W as usize / 2) * 4..][..3];
        let horizon = at(H as usize / 2);
        assert!(horizon.iter().zip([0x9f, 0xb8, 0xd0]).all(|(a, b)| a.abs_diff(b) <= 3), "horizon {horizon:?}");
        let top = at(0);
        assert!(top[0] + 20 < horizon[0] && top[2] + 2 >= top[0] + 40, "a deeper blue overhead: {top:?} vs {horizon:?}");
    }
}
