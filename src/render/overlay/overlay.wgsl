// UI shapes: rounded boxes shaded by their signed distance (anti-aliased edges, borders, soft
// shadows) and plain triangles (tails, leader lines), all in one draw. Colours arrive as sRGB
// bytes and leave premultiplied in linear space (the target is an sRGB format).

struct Screen { size: vec2f, _pad: vec2f }
@group(0) @binding(0) var<uniform> screen: Screen;

struct In {
    @location(0) px: vec2f,
    @location(1) center: vec2f,
    @location(2) half: vec2f,
    @location(3) params: vec4f,
    @location(4) fill: vec4f,
    @location(5) stroke: vec4f,
}

struct Out {
    @builtin(position) clip: vec4f,
    @location(0) px: vec2f,
    @location(1) center: vec2f,
    @location(2) half: vec2f,
    @location(3) params: vec4f,
    @location(4) fill: vec4f,
    @location(5) stroke: vec4f,
}

@vertex
fn vs(v: In) -> Out {
    var o: Out;
    let ndc = vec2f(v.px.x / screen.size.x * 2.0 - 1.0, 1.0 - v.px.y / screen.size.y * 2.0);
    o.clip = vec4f(ndc, 0.0, 1.0);
    o.px = v.px;
    o.center = v.center;
    o.half = v.half;
    o.params = v.params;
    o.fill = v.fill;
    o.stroke = v.stroke;
    return o;
}

fn rounded_box(p: vec2f, half: vec2f, r: f32) -> f32 {
    let q = abs(p) - half + vec2f(r);
    return length(max(q, vec2f(0.0))) + min(max(q.x, q.y), 0.0) - r;
}

fn linear(c: vec3f) -> vec3f {
    return select(pow((c + 0.055) / 1.055, vec3f(2.4)), c / 12.92, c <= vec3f(0.04045));
}

@fragment
fn fs(i: Out) -> @location(0) vec4f {
    let d = rounded_box(i.px - i.center, i.half, i.params.x);
    let soft = max(i.params.z, 1.0);
    let coverage = clamp(0.5 - d / soft, 0.0, 1.0);
    var c = i.fill;
    if (i.params.y > 0.0) {
        // Inside the border band the stroke shows; the fill starts `border` pixels in.
        let inner = clamp(0.5 - (d + i.params.y), 0.0, 1.0);
        c = mix(i.stroke, i.fill, inner);
    }
    let a = c.a * coverage;
    return vec4f(linear(c.rgb) * a, a);
}
