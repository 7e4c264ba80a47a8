#!/usr/bin/env python3
"""Generates the models in assets/models/ as binary glTF 2.0 files, made from scratch for
limina and released under CC0 (see assets/LICENSE.md):

- crate.glb: a wooden crate (textured cube) with a green pyramid on top;
- ball.glb: a sphere of diameter 1 with a white texture crossed by two dark rings, so a rolling
  ball visibly turns; `three.setMaterial` colour tints it.

Standard library only, so anyone can regenerate them:

    python3 assets/tools/make_models.py
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

def ball_rings(x, y, w=256, h=128):
    # Equirectangular: x is longitude, y latitude. An equator ring and a meridian ring (longitude
    # 0 and 180 degrees), anti-aliased over a pixel, so turning about any axis shows.
    lat = (y + 0.5) / h * math.pi - math.pi / 2
    lon = (x + 0.5) / w * 2 * math.pi
    half_width = 0.07
    d_equator = abs(lat)
    d_meridian = abs(math.asin(max(-1.0, min(1.0, math.cos(lat) * math.sin(lon)))))
    d = min(d_equator, d_meridian)
    t = max(0.0, min(1.0, (d - half_width) / (math.pi / h)))
    v = int(round(40 + (255 - 40) * t))
    return (v, v, v, 255)

def uv_sphere(segments=48, rings=24):
    pos, nor, uv, idx = [], [], [], []
    for r in range(rings + 1):
        theta = math.pi * r / rings
        for sgm in range(segments + 1):
            phi = 2 * math.pi * sgm / segments
            n = (math.sin(theta) * math.cos(phi), math.cos(theta), -math.sin(theta) * math.sin(phi))
            pos.append(tuple(0.5 * c for c in n)); nor.append(n); uv.append((sgm / segments, r / rings))
    for r in range(rings):
        for sgm in range(segments):
            a = r * (segments + 1) + sgm; b = a + segments + 1
            idx += [a, b, a + 1, a + 1, b, b + 1]
    return pos, nor, uv, idx

def write_glb(name, root, parts, image, material_defs):
    """parts: [(node name, geometry, material index, translation)]; image: PNG bytes or None."""
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
    meshes, nodes = [], [{"name": root, "children": list(range(1, len(parts) + 1))}]
    for node_name, (pos, nor, uv, idx), material, translation in parts:
        prim = {"attributes": {"POSITION": accessor(pos, "VEC3", 5126), "NORMAL": accessor(nor, "VEC3", 5126),
                "TEXCOORD_0": accessor(uv, "VEC2", 5126)}, "indices": accessor(idx, "SCALAR", 5125), "material": material}
        meshes.append({"name": node_name.lower(), "primitives": [prim]})
        nodes.append({"name": node_name, "mesh": len(meshes) - 1, "translation": translation})
    doc = {
        "asset": {"version": "2.0", "generator": "limina make_models.py"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": nodes,
        "meshes": meshes,
        "materials": material_defs,
        "accessors": accessors,
        "bufferViews": views,
        "buffers": [{"byteLength": 0}],
    }
    if image is not None:
        doc["textures"] = [{"source": 0, "sampler": 0}]
        doc["samplers"] = [{"magFilter": 9729, "minFilter": 9729}]
        doc["images"] = [{"bufferView": add(image), "mimeType": "image/png"}]
    while len(bin_data) % 4: bin_data.append(0)
    doc["buffers"][0]["byteLength"] = len(bin_data)
    js = json.dumps(doc, separators=(",", ":")).encode()
    js += b" " * ((4 - len(js) % 4) % 4)
    glb = struct.pack("<III", 0x46546C67, 2, 12 + 8 + len(js) + 8 + len(bin_data))
    glb += struct.pack("<II", len(js), 0x4E4F534A) + js + struct.pack("<II", len(bin_data), 0x004E4942) + bytes(bin_data)
    out = os.path.join(os.path.dirname(__file__), "..", "models", name)
    open(out, "wb").write(glb)
    print(f"wrote {out} ({len(glb)} bytes)")

write_glb("crate.glb", "CrateWithRoof",
          [("Crate", cube(), 0, [0, 0.5, 0]), ("Roof", pyramid(), 1, [0, 1.0, 0])],
          png_rgba(64, 64, wood),
          [{"name": "Wood", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}, "metallicFactor": 0.0, "roughnessFactor": 0.8}},
           {"name": "Moss", "pbrMetallicRoughness": {"baseColorFactor": [0.25, 0.6, 0.2, 1.0], "metallicFactor": 0.0, "roughnessFactor": 0.6}}])
write_glb("ball.glb", "Ball",
          [("Sphere", uv_sphere(), 0, [0, 0, 0])],
          png_rgba(256, 128, ball_rings),
          [{"name": "Rings", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}, "metallicFactor": 0.0, "roughnessFactor": 0.25}}])
