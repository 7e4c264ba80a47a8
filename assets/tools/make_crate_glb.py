#!/usr/bin/env python3
"""Generates assets/models/crate.glb: a wooden crate (textured cube) with a green pyramid on
top, as a binary glTF 2.0 file. Made from scratch for limina; released under CC0 (see
assets/LICENSE.md). Standard library only, so anyone can regenerate it:

    python3 assets/tools/make_crate_glb.py
"""
import json, struct, zlib, os, math

def png_rgba(w, h, pixel):
    raw = b"".join(b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(w)) for y in range(h))
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))

def wood(x, y):
    # Planks: vertical bands with grain and a dark frame around the face.
    frame = x < 5 or y < 5 or x > 58 or y > 58
    plank = (x // 18) % 2
    grain = int(12 * math.sin(y * 0.35 + plank * 2.0 + (x % 18) * 0.15))
    base = (150 + grain, 100 + grain, 52 + grain // 2) if not frame else (92, 58, 30)
    if plank and not frame:
        base = (base[0] - 14, base[1] - 10, base[2] - 6)
    return (max(0, min(255, base[0])), max(0, min(255, base[1])), max(0, min(255, base[2])), 255)

def cube():
    faces = [((1,0,0),(0,0,-1),(0,1,0)), ((-1,0,0),(0,0,1),(0,1,0)), ((0,1,0),(1,0,0),(0,0,-1)),
             ((0,-1,0),(1,0,0),(0,0,1)), ((0,0,1),(1,0,0),(0,1,0)), ((0,0,-1),(-1,0,0),(0,1,0))]
    pos, nor, uv, idx = [], [], [], []
    for n, u, v in faces:
        base = len(pos)
        for su, sv in [(-1,-1),(1,-1),(1,1),(-1,1)]:
            pos.append(tuple(0.5 * (n[i] + su * u[i] + sv * v[i]) for i in range(3)))
            nor.append(n); uv.append(((su + 1) / 2, (1 - sv) / 2))
        idx += [base, base + 1, base + 2, base, base + 2, base + 3]
    return pos, nor, uv, idx

def pyramid():
    apex, h = (0.0, 0.5, 0.0), 0.5
    corners = [(-0.35, 0, -0.35), (0.35, 0, -0.35), (0.35, 0, 0.35), (-0.35, 0, 0.35)]
    pos, nor, uv, idx = [], [], [], []
    for i in range(4):
        a, b = corners[i], corners[(i + 1) % 4]
        # Outward normal of the triangle (b, a, apex) wound counter-clockwise from outside.
        e1 = [b[k] - a[k] for k in range(3)]; e2 = [apex[k] - a[k] for k in range(3)]
        n = [e1[1]*e2[2]-e1[2]*e2[1], e1[2]*e2[0]-e1[0]*e2[2], e1[0]*e2[1]-e1[1]*e2[0]]
        l = math.sqrt(sum(c*c for c in n)); n = tuple(-c / l for c in n)
        base = len(pos)
        for p in (b, a, apex):
            pos.append(p); nor.append(n); uv.append((0.5, 0.5))
        idx += [base, base + 1, base + 2]
    return pos, nor, uv, idx

bin_data = bytearray()
views, accessors = [], []
def add(data, target=None):
    while len(bin_data) % 4: bin_data.append(0)
    views.append({"buffer": 0, "byteOffset": len(bin_data), "byteLength": len(data), **({"target": target} if target else {})})
    bin_data.extend(data)
    return len(views) - 1
def accessor(values, kind, comp):
    flat = [c for v in values for c in (v if isinstance(v, tuple) else (v,))]
    fmt = "f" if comp == 5126 else "I"
    view = add(struct.pack("<%d%s" % (len(flat), fmt), *flat), 34962 if comp == 5126 else 34963)
    acc = {"bufferView": view, "componentType": comp, "count": len(values), "type": kind}
    if kind == "VEC3":
        acc["min"] = [min(v[i] for v in values) for i in range(3)]; acc["max"] = [max(v[i] for v in values) for i in range(3)]
    accessors.append(acc)
    return len(accessors) - 1

meshes = []
for name, (pos, nor, uv, idx), material in [("crate", cube(), 0), ("roof", pyramid(), 1)]:
    prim = {"attributes": {"POSITION": accessor(pos, "VEC3", 5126), "NORMAL": accessor(nor, "VEC3", 5126),
            "TEXCOORD_0": accessor(uv, "VEC2", 5126)}, "indices": accessor(idx, "SCALAR", 5125), "material": material}
    meshes.append({"name": name, "primitives": [prim]})
image_view = add(png_rgba(64, 64, wood))
doc = {
    "asset": {"version": "2.0", "generator": "limina make_crate_glb.py"},
    "scene": 0,
    "scenes": [{"nodes": [0]}],
    "nodes": [{"name": "CrateWithRoof", "children": [1, 2]},
              {"name": "Crate", "mesh": 0, "translation": [0, 0.5, 0]},
              {"name": "Roof", "mesh": 1, "translation": [0, 1.0, 0]}],
    "meshes": meshes,
    "materials": [{"name": "Wood", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}, "metallicFactor": 0.0, "roughnessFactor": 0.8}},
                  {"name": "Moss", "pbrMetallicRoughness": {"baseColorFactor": [0.25, 0.6, 0.2, 1.0], "metallicFactor": 0.0, "roughnessFactor": 0.6}}],
    "textures": [{"source": 0, "sampler": 0}],
    "samplers": [{"magFilter": 9729, "minFilter": 9729}],
    "images": [{"bufferView": image_view, "mimeType": "image/png"}],
    "accessors": accessors,
    "bufferViews": views,
    "buffers": [{"byteLength": len(bin_data)}],
}
js = json.dumps(doc, separators=(",", ":")).encode()
js += b" " * ((4 - len(js) % 4) % 4)
while len(bin_data) % 4: bin_data.append(0)
glb = struct.pack("<III", 0x46546C67, 2, 12 + 8 + len(js) + 8 + len(bin_data))
glb += struct.pack("<II", len(js), 0x4E4F534A) + js + struct.pack("<II", len(bin_data), 0x004E4942) + bytes(bin_data)
out = os.path.join(os.path.dirname(__file__), "..", "models", "crate.glb")
open(out, "wb").write(glb)
print(f"wrote {out} ({len(glb)} bytes)")
