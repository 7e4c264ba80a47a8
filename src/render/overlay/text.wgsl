// UI text: one instance per glyph, placed by its block's record (origin, scale ratio, opacity,
// clip, the typewriter's hidden characters), sampling coverage from the glyph atlas. Colours
// arrive as sRGB bytes and are blended straight-alpha into the sRGB target, as glyphon did, so
// text looks the same as before the per-block layout.

struct Screen { size: vec2f, _pad: vec2f }

struct Block {
    origin: vec2f,
    ratio: f32,
    opacity: f32,
    clip: vec4f,
    hidden: vec2u,
    _pad: vec2u,
}

@group(0) @binding(0) var<uniform> screen: Screen;
@group(0) @binding(1) var<storage, read> blocks: array<Block>;
@group(0) @binding(2) var atlas: texture_2d<f32>;
@group(0) @binding(3) var atlas_sampler: sampler;

struct In {
    @builtin(vertex_index) corner: u32,
    @location(0) rel: vec2<i32>,
    // width, height, atlas x, atlas y
    @location(1) size_uv: vec4<u32>,
    @location(2) color: vec4f,
    @location(3) block: u32,
    @location(4) char_index: u32,
}

struct Out {
    @builtin(position) clip: vec4f,
    @location(0) color: vec4f,
    @location(1) uv: vec2f,
}

fn linear(c: vec3f) -> vec3f {
    return select(pow((c + 0.055) / 1.055, vec3f(2.4)), c / 12.92, c <= vec3f(0.04045));
}

@vertex
fn vs(v: In) -> Out {
    var o: Out;
    // Every corner at one point: a glyph not drawn covers no pixel.
    o.clip = vec4f(-2.0, -2.0, 0.0, 1.0);
    o.color = vec4f(0.0);
    o.uv = vec2f(0.0);
    let b = blocks[v.block];
    let hidden = v.char_index >= b.hidden.x && v.char_index < b.hidden.y;
    if (b.opacity <= 0.0 || hidden) {
        return o;
    }
    let size = vec2f(v.size_uv.xy);
    let p0 = b.origin + vec2f(v.rel) * b.ratio;
    let p1 = p0 + size * b.ratio;
    // Clipped to the block's panel by moving the quad's edges (and the texels with them).
    let q0 = max(p0, b.clip.xy);
    let q1 = min(p1, b.clip.zw);
    if (any(q1 <= q0)) {
        return o;
    }
    let corner = vec2f(f32(v.corner & 1u), f32((v.corner >> 1u) & 1u));
    let p = mix(q0, q1, corner);
    let texel = vec2f(v.size_uv.zw) + (p - p0) / b.ratio;
    o.uv = texel / vec2f(textureDimensions(atlas));
    o.clip = vec4f(p.x / screen.size.x * 2.0 - 1.0, 1.0 - p.y / screen.size.y * 2.0, 0.0, 1.0);
    o.color = vec4f(linear(v.color.rgb), v.color.a * b.opacity);
    return o;
}

@fragment
fn fs(i: Out) -> @location(0) vec4f {
    let coverage = textureSampleLevel(atlas, atlas_sampler, i.uv, 0.0).r;
    return vec4f(i.color.rgb, i.color.a * coverage);
}
