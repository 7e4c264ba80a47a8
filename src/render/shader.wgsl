// limina forward renderer: metallic-roughness PBR; an ambient, a hemisphere (sky above, ground
// below) and one directional light with a shadow map; three.js's ACES filmic tone mapping. One
// pipeline draws every instanced mesh (per-instance data carries the model matrix and the
// material); a second draws the sky gradient behind them. The light maths follow three.js's
// MeshStandardMaterial so a browser viewer with the same lights matches (docs/presentation.md).

struct Globals {
    view_proj: mat4x4<f32>,
    light_view_proj: mat4x4<f32>,
    camera_pos: vec4<f32>,
    // xyz = direction the light travels, w = shadows on (1) / off (0)
    light_dir: vec4<f32>,
    // rgb = colour * intensity
    light_color: vec4<f32>,
    ambient: vec4<f32>,
    // x = depth bias, y = 1 / shadow map size
    shadow: vec4<f32>,
    // rgb = the sky at the horizon (the clear colour, linear)
    sky: vec4<f32>,
    // rgb = the sky at the zenith (linear)
    zenith: vec4<f32>,
    // rgb = the hemisphere light's ground colour (linear)
    ground: vec4<f32>,
    // rgb = the background below the horizon (linear)
    below: vec4<f32>,
    // x = hemisphere light intensity (its colours are `sky` above and `ground` below);
    // y = 1: a mask, every instance its flat colour, no sky (render::mask)
    hemi: vec4<f32>,
    // The sky pass's view rays: forward + ndc.x * right + ndc.y * up (math::view_rays)
    view_forward: vec4<f32>,
    view_right: vec4<f32>,
    view_up: vec4<f32>,
};

@group(0) @binding(0) var<uniform> globals: Globals;
@group(0) @binding(1) var shadow_map: texture_depth_2d;
@group(0) @binding(2) var shadow_sampler: sampler_comparison;
@group(1) @binding(0) var base_color_texture: texture_2d<f32>;
@group(1) @binding(1) var base_color_sampler: sampler;

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
};

struct InstanceIn {
    // Rows of the affine model matrix.
    @location(3) r0: vec4<f32>,
    @location(4) r1: vec4<f32>,
    @location(5) r2: vec4<f32>,
    // rgb = base colour (sRGB), a = receives shadows (1/0)
    @location(6) color: vec4<f32>,
    // x = roughness, y = metalness, z = casts shadows (1/0)
    @location(7) material: vec4<f32>,
};

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world_pos: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    @location(3) color: vec4<f32>,
    @location(4) material: vec4<f32>,
};

fn world_of(i: InstanceIn, p: vec3<f32>) -> vec4<f32> {
    let h = vec4<f32>(p, 1.0);
    return vec4<f32>(dot(i.r0, h), dot(i.r1, h), dot(i.r2, h), 1.0);
}

fn srgb_to_linear(c: vec3<f32>) -> vec3<f32> {
    return select(pow((c + 0.055) / 1.055, vec3<f32>(2.4)), c / 12.92, c <= vec3<f32>(0.04045));
}

@vertex
fn vs_main(v: VertexIn, i: InstanceIn) -> VertexOut {
    let world = world_of(i, v.position);
    var out: VertexOut;
    out.clip = globals.view_proj * world;
    out.world_pos = world.xyz;
    // Non-uniform scale: the normal matrix is the inverse transpose; for our transforms
    // (rotation * scale) dividing each axis (matrix column) by its squared length is
    // equivalent and cheap.
    let basis = transpose(mat3x3<f32>(i.r0.xyz, i.r1.xyz, i.r2.xyz));
    let n = mat3x3<f32>(basis[0] / dot(basis[0], basis[0]), basis[1] / dot(basis[1], basis[1]), basis[2] / dot(basis[2], basis[2])) * v.normal;
    out.normal = normalize(n);
    out.uv = v.uv;
    out.color = vec4<f32>(srgb_to_linear(i.color.rgb), i.color.a);
    out.material = i.material;
    return out;
}

@vertex
fn vs_shadow(v: VertexIn, i: InstanceIn) -> @builtin(position) vec4<f32> {
    if (i.material.z < 0.5) {
        // castShadow = false: put the vertex beyond the far plane so nothing is rasterized.
        return vec4<f32>(0.0, 0.0, 2.0, 1.0);
    }
    return globals.light_view_proj * world_of(i, v.position);
}

const PI: f32 = 3.14159265;

fn distribution_ggx(n_dot_h: f32, roughness: f32) -> f32 {
    let a = roughness * roughness;
    let a2 = a * a;
    let d = n_dot_h * n_dot_h * (a2 - 1.0) + 1.0;
    return a2 / (PI * d * d);
}

fn geometry_smith(n_dot_v: f32, n_dot_l: f32, roughness: f32) -> f32 {
    let r = roughness + 1.0;
    let k = r * r / 8.0;
    let gv = n_dot_v / (n_dot_v * (1.0 - k) + k);
    let gl = n_dot_l / (n_dot_l * (1.0 - k) + k);
    return gv * gl;
}

fn fresnel_schlick(cos_theta: f32, f0: vec3<f32>) -> vec3<f32> {
    return f0 + (vec3<f32>(1.0) - f0) * pow(clamp(1.0 - cos_theta, 0.0, 1.0), 5.0);
}

// three.js's ACESFilmicToneMapping (tonemapping_pars_fragment), exposure 1: Stephen Hill's
// RRT+ODT fit between the sRGB -> AP1 and AP1 -> sRGB matrices (columns as in three's GLSL),
// after three's 1/0.6 brightening.
fn rrt_and_odt_fit(v: vec3<f32>) -> vec3<f32> {
    let a = v * (v + 0.0245786) - 0.000090537;
    let b = v * (0.983729 * v + 0.4329510) + 0.238081;
    return a / b;
}

fn aces(x: vec3<f32>) -> vec3<f32> {
    let input_mat = mat3x3<f32>(
        vec3<f32>(0.59719, 0.07600, 0.02840),
        vec3<f32>(0.35458, 0.90834, 0.13383),
        vec3<f32>(0.04823, 0.01566, 0.83777),
    );
    let output_mat = mat3x3<f32>(
        vec3<f32>(1.60475, -0.10208, -0.00327),
        vec3<f32>(-0.53108, 1.10813, -0.07276),
        vec3<f32>(-0.07367, -0.00605, 1.07602),
    );
    let c = output_mat * rrt_and_odt_fit(input_mat * (x / 0.6));
    return clamp(c, vec3<f32>(0.0), vec3<f32>(1.0));
}

// The sky seen along direction `d` (unit): horizon to zenith above the horizon, a hazy ground
// below it. The background draws it; metals reflect it.
fn sky_color(d: vec3<f32>) -> vec3<f32> {
    let up = mix(globals.sky.rgb, globals.zenith.rgb, sqrt(clamp(d.y, 0.0, 1.0)));
    return mix(up, globals.below.rgb, smoothstep(0.0, -0.15, d.y));
}

fn shadow_factor(world_pos: vec3<f32>, n_dot_l: f32) -> f32 {
    if (globals.light_dir.w < 0.5) {
        return 1.0;
    }
    let p = globals.light_view_proj * vec4<f32>(world_pos, 1.0);
    let ndc = p.xyz / p.w;
    let uv = vec2<f32>(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5);
    if (uv.x < 0.0 || uv.x > 1.0 || uv.y < 0.0 || uv.y > 1.0 || ndc.z > 1.0) {
        return 1.0;
    }
    // Slope-scaled bias on top of the configured one; 3x3 PCF.
    let bias = max(abs(globals.shadow.x), 0.0005) * (1.0 + 2.0 * (1.0 - n_dot_l));
    let texel = globals.shadow.y;
    var lit = 0.0;
    for (var y = -1; y <= 1; y++) {
        for (var x = -1; x <= 1; x++) {
            lit += textureSampleCompareLevel(shadow_map, shadow_sampler, uv + vec2<f32>(f32(x), f32(y)) * texel, ndc.z - bias);
        }
    }
    return lit / 9.0;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    if (globals.hemi.y > 0.5) {
        return vec4<f32>(in.color.rgb, 1.0);
    }
    let tex = textureSample(base_color_texture, base_color_sampler, in.uv);
    let albedo = in.color.rgb * tex.rgb;
    let roughness = clamp(in.material.x, 0.04, 1.0);
    let metalness = clamp(in.material.y, 0.0, 1.0);
    let n = normalize(in.normal);
    let v = normalize(globals.camera_pos.xyz - in.world_pos);
    let l = normalize(-globals.light_dir.xyz);
    let h = normalize(v + l);
    let n_dot_l = max(dot(n, l), 0.0);
    let n_dot_v = max(dot(n, v), 0.0001);
    let n_dot_h = max(dot(n, h), 0.0);
    let f0 = mix(vec3<f32>(0.04), albedo, metalness);
    let f = fresnel_schlick(max(dot(h, v), 0.0), f0);
    let specular = distribution_ggx(n_dot_h, roughness) * geometry_smith(n_dot_v, n_dot_l, roughness) * f / (4.0 * n_dot_v * max(n_dot_l, 0.0001));
    let kd = (vec3<f32>(1.0) - f) * (1.0 - metalness);
    var shadow = 1.0;
    if (in.color.a > 0.5) {
        shadow = shadow_factor(in.world_pos, n_dot_l);
    }
    let direct = (kd * albedo / PI + specular) * globals.light_color.rgb * n_dot_l * shadow;
    // Indirect diffuse as three.js computes it: irradiance (the ambient light's, plus the
    // hemisphere's: ground to sky by the normal's up component) times Lambert's albedo / PI.
    // Faces turned from the sun get the sky's light instead of going black.
    let hemi = mix(globals.ground.rgb, globals.sky.rgb, 0.5 * n.y + 0.5) * globals.hemi.x;
    let irradiance = globals.ambient.rgb + hemi;
    // Indirect specular (not in three without an environment map): the sky gradient seen
    // along the reflection, so metals reflect something instead of going black.
    let r = reflect(-v, n);
    let env = sky_color(r);
    let f_ambient = f0 + (max(vec3<f32>(1.0 - roughness), f0) - f0) * pow(1.0 - n_dot_v, 5.0);
    let ambient = irradiance * albedo * (1.0 - metalness) / PI + env * f_ambient * (1.0 - 0.6 * roughness);
    let color = aces(direct + ambient);
    // The target is sRGB: the hardware encodes the gamma.
    return vec4<f32>(color, 1.0);
}

// The sky: one triangle covering the screen at the far plane, drawn after the meshes with a
// depth test, so only pixels nothing covers are shaded (on a CPU rasteriser every shaded pixel
// counts). Not tone mapped: the horizon is exactly the clear colour, as three's background is.
struct SkyOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) ndc: vec2<f32>,
};

@vertex
fn vs_sky(@builtin(vertex_index) i: u32) -> SkyOut {
    let xy = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u)) * 2.0 - 1.0;
    var out: SkyOut;
    out.clip = vec4<f32>(xy, 1.0, 1.0);
    out.ndc = xy;
    return out;
}

@fragment
fn fs_sky(in: SkyOut) -> @location(0) vec4<f32> {
    if (globals.hemi.y > 0.5) {
        return vec4<f32>(0.0, 0.0, 0.0, 1.0);
    }
    let d = normalize(globals.view_forward.xyz + in.ndc.x * globals.view_right.xyz + in.ndc.y * globals.view_up.xyz);
    return vec4<f32>(sky_color(d), 1.0);
}
