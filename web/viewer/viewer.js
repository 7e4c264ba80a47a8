// limina's live web viewer: watches the server's world through the MCP Streamable HTTP transport
// (`/mcp`) and draws it with three.js (the vendored bundle's `LIMINA_THREE` global).
//
// A plain classic script (no module imports), so the page can be inlined into one HTML document.
// The token comes from the URL fragment (`#token=…`, never sent to any server) or the form, is
// kept in memory only, leaves the address bar at once, and goes out only as `Authorization:
// Bearer` on this page's own requests: `initialize`, `state/subscribe` (an event stream of
// `state/snapshot` and `state/delta`), `tools/call trace.tail` for the trace panel, and the
// model files at `/assets/<asset id>`. Stream messages are docs/viewer.md's format: v1 fields are
// enough, v2 fields (material, asset, scene lighting and camera, agents) are used when present.
(function () {
  'use strict';

  const { THREE, GLTFLoader, OrbitControls } = window.LIMINA_THREE;
  const PROTOCOL = '2025-11-25';
  const TICKS_PER_MS = 60 / 1000;
  /** How far behind the newest tick the picture is drawn, so there is a next pose to move to. */
  const DELAY_TICKS = 2;
  const TRACE_POLL_MS = 1000;
  const TRACE_KEEP = 200;
  // The world this page watches: `/w/NAME/` serves world NAME, `/` the server's default world.
  const WORLD_BASE = (/^\/w\/[a-z0-9][a-z0-9_-]{0,62}\//.exec(location.pathname) ?? ['/'])[0];

  const $ = (id) => document.getElementById(id);
  const statusEl = $('status');
  const countsEl = $('counts');
  const overlay = $('overlay');
  const modeSelect = $('camera-mode');

  // ---------------------------------------------------------------- token
  let token = '';
  function takeTokenFromFragment() {
    const params = new URLSearchParams(location.hash.slice(1));
    const found = params.get('token');
    if (location.hash) history.replaceState(null, '', location.pathname + location.search);
    return found;
  }

  // ---------------------------------------------------------------- three.js scene
  const renderer = new THREE.WebGLRenderer({ antialias: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  renderer.outputColorSpace = THREE.SRGBColorSpace;
  renderer.toneMapping = THREE.ACESFilmicToneMapping;
  renderer.toneMappingExposure = 1.0;
  renderer.shadowMap.enabled = true;
  renderer.shadowMap.type = THREE.PCFShadowMap;
  // The sun's shadow map does not depend on the view: it is drawn again only when something that
  // casts moved or changed (`shadowsDirty`), not every frame (see `frame`).
  renderer.shadowMap.autoUpdate = false;
  let shadowsDirty = true;
  $('stage').appendChild(renderer.domElement);

  const scene = new THREE.Scene();
  // Near and far planes as the native renderer's (src/render/math.rs).
  const camera = new THREE.PerspectiveCamera(60, 1, 0.1, 1000);
  camera.position.set(8, 6, 10);
  const controls = new OrbitControls(camera, renderer.domElement);
  controls.enableDamping = true;

  // The sky and its lights, as the native renderer draws them (src/render/sky.rs,
  // src/render/shader.wgsl, docs/presentation.md): the horizon is the clear colour, the zenith
  // a deeper blue, a hazy ground below; a hemisphere light from the clear colour above and an
  // earth tone below at 2.5 x the ambient intensity; metals reflect the sky gradient. Colours
  // here are linear.
  const SKY = { ground: 0x6b5e4f, hemispherePerAmbient: 2.5, zenithFactor: [0.45, 0.62, 0.95], belowMix: 0.5 };
  const skyUniforms = {
    liminaHorizon: { value: new THREE.Color() },
    liminaZenith: { value: new THREE.Color() },
    liminaBelow: { value: new THREE.Color() },
  };
  const SKY_GLSL = `
    uniform vec3 liminaHorizon;
    uniform vec3 liminaZenith;
    uniform vec3 liminaBelow;
    vec3 liminaSky(vec3 d) {
      vec3 up = mix(liminaHorizon, liminaZenith, sqrt(clamp(d.y, 0.0, 1.0)));
      return mix(up, liminaBelow, smoothstep(0.0, -0.15, d.y));
    }`;
  const sky = new THREE.Mesh(
    new THREE.SphereGeometry(1000, 48, 24),
    new THREE.ShaderMaterial({
      uniforms: skyUniforms,
      side: THREE.BackSide,
      depthWrite: false,
      toneMapped: false,
      vertexShader: 'varying vec3 vDir; void main() { vDir = normalize(position); gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0); }',
      fragmentShader: `${SKY_GLSL}
        varying vec3 vDir;
        void main() {
          gl_FragColor = vec4(liminaSky(normalize(vDir)), 1.0);
          #include <colorspace_fragment>
        }`,
    }),
  );
  sky.frustumCulled = false;
  sky.renderOrder = -1;
  scene.add(sky);

  /** Gives a standard material the native renderer's indirect specular: the sky gradient seen
   * along the reflection (three has none without an environment map, so metals went black). */
  function reflectSky(material) {
    material.onBeforeCompile = (shader) => {
      Object.assign(shader.uniforms, skyUniforms);
      shader.fragmentShader = shader.fragmentShader
        .replace('void main() {', `${SKY_GLSL}\nvoid main() {`)
        .replace('#include <lights_fragment_end>', `#include <lights_fragment_end>
          {
            vec3 liminaR = inverseTransformDirection(reflect(-geometryViewDir, normal), viewMatrix);
            float liminaNV = max(dot(normal, geometryViewDir), 0.0001);
            vec3 liminaF0 = material.specularColorBlended;
            float liminaRough = material.roughness;
            vec3 liminaFA = liminaF0 + (max(vec3(1.0 - liminaRough), liminaF0) - liminaF0) * pow(1.0 - liminaNV, 5.0);
            reflectedLight.indirectSpecular += liminaSky(liminaR) * liminaFA * (1.0 - 0.6 * liminaRough);
          }`);
    };
    material.customProgramCacheKey = () => 'limina-sky';
    return material;
  }

  const ambient = new THREE.AmbientLight(0x404060, 1.2);
  const hemisphere = new THREE.HemisphereLight(0x9fb8d0, SKY.ground, 3.0);
  const sun = new THREE.DirectionalLight(0xffffff, 3.0);
  sun.castShadow = false;
  scene.add(ambient, hemisphere, sun, sun.target);
  applyLighting({});

  function hex(v, fallback) {
    return typeof v === 'number' ? v : typeof v === 'string' ? parseInt(v.replace('#', ''), 16) : fallback;
  }

  /** Scene lighting (stream v2 `scene.lighting`; defaults are the default world's, `Lighting::default`). */
  function applyLighting(l) {
    ambient.color.setHex(hex(l.ambientColor, 0x404060));
    ambient.intensity = l.ambientIntensity ?? 1.2;
    sun.color.setHex(hex(l.directionalColor, 0xffffff));
    sun.intensity = l.directionalIntensity ?? 3.0;
    const d = l.direction ?? [5, 9, 6];
    const v = new THREE.Vector3(d[0], d[1], d[2]);
    if (v.lengthSq() === 0) v.set(0, 1, 0);
    // The shadow camera where the native one is: half its far plane out, looking at the origin.
    const far = l.shadowCameraFar ?? 120;
    v.normalize().multiplyScalar(far * 0.5);
    sun.position.copy(v);
    sun.target.position.set(0, 0, 0);
    sun.castShadow = l.castShadow ?? false;
    const size = l.shadowMapSize ?? 2048;
    shadowsDirty = true;
    if (sun.shadow.mapSize.x !== size) {
      sun.shadow.mapSize.set(size, size);
      if (sun.shadow.map) { sun.shadow.map.dispose(); sun.shadow.map = null; }
    }
    const extent = l.shadowCameraExtent ?? 20;
    Object.assign(sun.shadow.camera, { left: -extent, right: extent, top: extent, bottom: -extent, near: l.shadowCameraNear ?? 0.5, far });
    sun.shadow.camera.updateProjectionMatrix();
    sun.shadow.bias = l.shadowBias ?? -0.0008;
    const clear = hex(l.clearColor, 0x9fb8d0);
    hemisphere.color.setHex(clear);
    hemisphere.intensity = SKY.hemispherePerAmbient * ambient.intensity;
    const horizon = skyUniforms.liminaHorizon.value.setHex(clear);
    skyUniforms.liminaZenith.value.setRGB(horizon.r * SKY.zenithFactor[0], horizon.g * SKY.zenithFactor[1], horizon.b * SKY.zenithFactor[2]);
    skyUniforms.liminaBelow.value.copy(horizon).lerp(new THREE.Color(SKY.ground), SKY.belowMix);
  }

  let worldCamera = { position: [8, 6, 10], target: [0, 0, 0], fov: 60 };
  function applyWorldCamera() {
    const c = worldCamera;
    camera.position.set(c.position[0], c.position[1], c.position[2]);
    controls.target.set(c.target[0], c.target[1], c.target[2]);
    camera.fov = c.fov ?? 60;
    camera.updateProjectionMatrix();
    controls.update();
  }
  applyWorldCamera();
  controls.addEventListener('start', () => {
    if (modeSelect.value === 'world') modeSelect.value = 'orbit';
  });
  modeSelect.addEventListener('change', () => {
    if (modeSelect.value === 'world') applyWorldCamera();
  });

  // Shapes share one unit geometry each; size and scale go on the mesh (RenderShape docs: box
  // edge = size, sphere diameter = size, capsule size tall and size/2 wide), tessellated as the
  // native meshes are (src/render/gpu.rs) so silhouettes agree.
  const geometries = {
    box: new THREE.BoxGeometry(1, 1, 1),
    sphere: new THREE.SphereGeometry(0.5, 48, 24),
    capsule: new THREE.CapsuleGeometry(0.25, 0.5, 8, 32),
  };
  const materials = new Map();
  function material(color, m) {
    const roughness = m?.roughness ?? 0.5;
    const metalness = m?.metalness ?? 0;
    const key = `${color}|${roughness}|${metalness}`;
    let found = materials.get(key);
    if (!found) {
      found = reflectSky(new THREE.MeshStandardMaterial({ color: new THREE.Color().setHex(color), roughness, metalness }));
      materials.set(key, found);
    }
    return found;
  }

  // ---------------------------------------------------------------- glTF models
  const models = new Map(); // asset id -> Promise<THREE.Object3D | null>
  let modelsLoading = 0;
  function loadModel(asset) {
    let p = models.get(asset);
    if (!p) {
      const loader = new GLTFLoader();
      if (token) loader.setRequestHeader({ Authorization: `Bearer ${token}` });
      const url = WORLD_BASE + 'assets/' + asset.split('/').map(encodeURIComponent).join('/');
      const withSky = (root) => {
        root.traverse((o) => { if (o.isMesh && o.material?.isMeshStandardMaterial) reflectSky(o.material); });
        return root;
      };
      const failed = (resolve) => (e) => {
        console.warn(`limina viewer: model ${asset} did not load: ${e?.message ?? e}`);
        resolve(null);
      };
      modelsLoading++;
      // A page without network (the MCP App view) gets the bytes from its source instead.
      const fromSource = window.LIMINA_VIEW_SOURCE?.loadModel;
      p = new Promise((resolve) => {
        const done = (gltf) => resolve(withSky(gltf.scene));
        if (fromSource) {
          window.LIMINA_VIEW_SOURCE.prepareLoader?.(loader);
          fromSource(asset).then((bytes) => loader.parse(bytes, '', done, failed(resolve)), failed(resolve));
        }
        else loader.load(url, done, undefined, failed(resolve));
      }).finally(() => { modelsLoading--; });
      models.set(asset, p);
    }
    return p;
  }

  // ---------------------------------------------------------------- instanced batches
  // Built-in shapes are drawn instanced: one InstancedMesh per shape and material (roughness,
  // metalness, shadows), each entity a slot with its own matrix and colour, so 20,000 entities
  // are a handful of draw calls. An entity's pose lives in a transform holder (an Object3D kept
  // out of the scene) and is copied into its slot whenever it changes.
  //
  // Draw calls are not what a big world costs, vertices are: a batch draws every vertex of its
  // shape once per instance, twice with shadows. 10,000 spheres of the full 425 vertices are
  // 8.5 million vertices a frame, which a software GL (SwiftShader, as in headless chromium) takes
  // seconds over — no frame came out at 20,000 entities. So a batch's shape has as much detail as
  // its population allows under `BATCH_VERTICES` (levels of detail by count, chosen when it
  // grows), and while more than `SHADOW_VERTICES` cast shadows the shadow map is redrawn only
  // every few frames (it follows moving casters a few frames late). The coarsest levels are flat
  // shaded (normals from screen derivatives), so their corners share one vertex: a box is 8
  // vertices instead of 24 and looks the same.
  const BATCH_VERTICES = 250000;
  const SHADOW_VERTICES = 400000;
  const SHADOW_EVERY_MAX = 8;
  const detail = {
    box: [{ geometry: geometries.box }, { geometry: shared(geometries.box), flat: true }],
    sphere: [{ geometry: geometries.sphere }, { geometry: new THREE.SphereGeometry(0.5, 12, 8) }, { geometry: new THREE.SphereGeometry(0.5, 8, 6) },
      { geometry: shared(new THREE.SphereGeometry(0.5, 8, 6)), flat: true }, { geometry: shared(new THREE.SphereGeometry(0.5, 6, 4)), flat: true }],
    capsule: [{ geometry: geometries.capsule }, { geometry: new THREE.CapsuleGeometry(0.25, 0.5, 3, 10) },
      { geometry: shared(new THREE.CapsuleGeometry(0.25, 0.5, 2, 8)), flat: true }, { geometry: shared(new THREE.CapsuleGeometry(0.25, 0.5, 1, 6)), flat: true }],
  };

  /** `g` with each corner one vertex shared by every face that meets there (for flat shading). */
  function shared(g) {
    const pos = g.attributes.position;
    const index = new Map();
    const points = [];
    const remap = new Uint32Array(pos.count);
    for (let i = 0; i < pos.count; i++) {
      const key = `${Math.round(pos.getX(i) * 1e5)},${Math.round(pos.getY(i) * 1e5)},${Math.round(pos.getZ(i) * 1e5)}`;
      let k = index.get(key);
      if (k === undefined) {
        k = points.length / 3;
        index.set(key, k);
        points.push(pos.getX(i), pos.getY(i), pos.getZ(i));
      }
      remap[i] = k;
    }
    const source = g.index ? g.index.array : Array.from({ length: pos.count }, (_, i) => i);
    const triangles = [];
    for (let i = 0; i < source.length; i += 3) {
      const [a, b, c] = [remap[source[i]], remap[source[i + 1]], remap[source[i + 2]]];
      if (a !== b && b !== c && a !== c) triangles.push(a, b, c); // the poles' slivers collapse
    }
    const out = new THREE.BufferGeometry();
    out.setAttribute('position', new THREE.Float32BufferAttribute(points, 3));
    // Flat shading takes its normals from the screen; these (out from the centre) are for the
    // vertex stage's shadow bias, which would read a missing normal as zero and divide by it.
    const normals = points.slice();
    for (let i = 0; i < normals.length; i += 3) {
      const l = Math.hypot(normals[i], normals[i + 1], normals[i + 2]) || 1;
      normals[i] /= l; normals[i + 1] /= l; normals[i + 2] /= l;
    }
    out.setAttribute('normal', new THREE.Float32BufferAttribute(normals, 3));
    out.setIndex(triangles);
    return out;
  }

  /** The most detailed level of `shape` whose `capacity` instances stay under `BATCH_VERTICES`. */
  function levelFor(shape, capacity) {
    const levels = detail[shape] ?? detail.box;
    return levels.find((l) => l.geometry.attributes.position.count * capacity <= BATCH_VERTICES) ?? levels[levels.length - 1];
  }
  const batches = new Map();
  const dirtyBatches = new Set();
  const tint = new THREE.Color();

  function batchFor(e) {
    const m = e.material;
    const cast = m?.castShadow ?? true;
    const receive = m?.receiveShadow ?? true;
    const key = `${e.shape}|${m?.roughness ?? 0.5}|${m?.metalness ?? 0}|${cast}|${receive}`;
    let b = batches.get(key);
    if (!b) {
      const mat = reflectSky(new THREE.MeshStandardMaterial({ color: 0xffffff, roughness: m?.roughness ?? 0.5, metalness: m?.metalness ?? 0 }));
      b = { shape: e.shape, geometry: null, material: mat, cast, receive, entities: [], mesh: null };
      grow(b, 64);
      batches.set(key, b);
    }
    return b;
  }

  /** Gives `b` a mesh of `capacity` slots, keeping what its old one held. */
  function grow(b, capacity) {
    const level = levelFor(b.shape, capacity);
    b.geometry = level.geometry;
    if (b.material.flatShading !== !!level.flat) {
      b.material.flatShading = !!level.flat;
      b.material.needsUpdate = true;
    }
    const mesh = new THREE.InstancedMesh(b.geometry, b.material, capacity);
    mesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
    mesh.setColorAt(0, tint.setRGB(1, 1, 1));
    mesh.castShadow = b.cast;
    mesh.receiveShadow = b.receive;
    // Instances spread over the whole world: culling one bounding sphere would be wrong or moot.
    mesh.frustumCulled = false;
    if (b.mesh) {
      mesh.instanceMatrix.array.set(b.mesh.instanceMatrix.array);
      mesh.instanceColor.array.set(b.mesh.instanceColor.array);
      scene.remove(b.mesh);
      b.mesh.dispose();
    }
    mesh.count = b.entities.length;
    b.mesh = mesh;
    scene.add(mesh);
    shadowsDirty = true;
  }

  function addToBatch(e) {
    const b = batchFor(e);
    if (b.entities.length === b.mesh.instanceMatrix.count) grow(b, b.entities.length * 2);
    e.batch = b;
    e.slot = b.entities.length;
    b.entities.push(e);
    b.mesh.count = b.entities.length;
    b.mesh.setColorAt(e.slot, tint.setHex(e.color));
    b.mesh.instanceColor.needsUpdate = true;
    writeMatrix(e);
  }

  function removeFromBatch(e) {
    const b = e.batch;
    const last = b.entities.pop();
    if (last !== e) {
      // The last slot moves into the freed one.
      b.entities[e.slot] = last;
      last.slot = e.slot;
      writeMatrix(last);
      b.mesh.setColorAt(last.slot, tint.setHex(last.color));
      b.mesh.instanceColor.needsUpdate = true;
    }
    b.mesh.count = b.entities.length;
    e.batch = null;
    dirtyBatches.add(b);
  }

  function writeMatrix(e) {
    e.object.updateMatrix();
    e.batch.mesh.setMatrixAt(e.slot, e.object.matrix);
    dirtyBatches.add(e.batch);
  }

  function flushBatches() {
    for (const b of dirtyBatches) {
      b.mesh.instanceMatrix.needsUpdate = true;
      if (b.cast) shadowsDirty = true;
    }
    dirtyBatches.clear();
  }

  /** Vertices the batches cast into the shadow map (each frame it is redrawn). */
  function casterVertices() {
    let n = 0;
    for (const b of batches.values()) if (b.cast) n += b.entities.length * b.geometry.attributes.position.count;
    return n;
  }

  /** Redraws the shadow map this frame if a caster changed, at most every few frames for big worlds. */
  let shadowFrame = 0;
  function planShadows(frame) {
    if (!shadowsDirty || !sun.castShadow) return;
    const every = Math.min(SHADOW_EVERY_MAX, Math.max(1, Math.ceil(casterVertices() / SHADOW_VERTICES)));
    if (frame - shadowFrame < every) return;
    renderer.shadowMap.needsUpdate = true;
    shadowsDirty = false;
    shadowFrame = frame;
  }

  // ---------------------------------------------------------------- entities
  /** id -> {id, object, batch, slot, shape, size, color, material, asset, tags, samples: [{tick, p, q, s}]} */
  const entities = new Map();
  /** Entities with poses still to move through (the only ones the frame loop touches). */
  const moving = new Set();
  let latestTick = 0;
  let previousMessageTick = 0;

  function makeObject(e) {
    let object;
    if (e.shape === 'gltf') {
      object = new THREE.Group();
      const placeholder = new THREE.Mesh(geometries.box, material(0x888888, null));
      object.add(placeholder);
      if (e.asset) {
        loadModel(e.asset).then((model) => {
          if (!model || entities.get(e.id)?.object !== object) return;
          const copy = model.clone(true);
          copy.traverse((o) => {
            if (o.isMesh) {
              o.castShadow = e.material?.castShadow ?? true;
              o.receiveShadow = e.material?.receiveShadow ?? true;
              // The entity's own material overrides the model's (as the native renderer does).
              if (e.material) o.material = material(e.color ?? 0xffffff, e.material);
            }
          });
          object.remove(placeholder);
          object.add(copy);
          object.userData.modelShown = true;
          shadowsDirty = true;
        });
      }
    } else {
      // A transform holder; the entity is drawn in its batch's slot.
      object = new THREE.Object3D();
      object.matrixAutoUpdate = false;
    }
    object.userData.entity = e.id;
    return object;
  }

  function pose(e, p, q, s) {
    const obj = e.object;
    const size = e.renderable ? e.size : 1;
    obj.position.set(p[0], p[1], p[2]);
    obj.quaternion.set(q[0], q[1], q[2], q[3]);
    obj.scale.set(s[0] * size, s[1] * size, s[2] * size);
    if (e.batch) writeMatrix(e);
    else shadowsDirty = true;
  }

  function create(raw, tick) {
    destroy(raw.entity);
    const e = {
      id: raw.entity,
      shape: raw.shape ?? 'box',
      size: raw.size ?? 1,
      color: raw.color ?? 0xcccccc,
      material: raw.material ?? null,
      asset: raw.asset ?? null,
      tags: raw.tags ?? [],
      renderable: raw.shape !== undefined,
      samples: [{ tick, p: raw.position ?? [0, 0, 0], q: raw.rotation ?? [0, 0, 0, 1], s: raw.scale ?? [1, 1, 1] }],
    };
    // An entity without a look (no Renderable) is still tracked: UI may follow it.
    e.object = e.renderable ? makeObject(e) : new THREE.Object3D();
    e.batch = null;
    if (e.renderable && e.shape !== 'gltf') addToBatch(e);
    const first = e.samples[0];
    pose(e, first.p, first.q, first.s);
    entities.set(e.id, e);
    if (e.shape === 'gltf') scene.add(e.object);
    shadowsDirty = true;
  }

  function destroy(id) {
    const e = entities.get(id);
    if (!e) return;
    if (e.batch) removeFromBatch(e);
    else scene.remove(e.object);
    shadowsDirty = true;
    entities.delete(id);
    moving.delete(e);
  }

  function change(c, tick) {
    const e = entities.get(c.entity);
    if (!e) return;
    // Look fields (v2 sends them when they change): rebuild the object.
    const look = ['shape', 'size', 'color', 'material', 'asset'].some((k) => c[k] !== undefined && JSON.stringify(c[k]) !== JSON.stringify(e[k]));
    if (look || c.tags !== undefined) {
      const last = e.samples[e.samples.length - 1];
      create({ entity: e.id, shape: c.shape ?? e.shape, size: c.size ?? e.size, color: c.color ?? e.color, material: c.material ?? e.material,
        asset: c.asset ?? e.asset, tags: c.tags ?? e.tags, position: c.position ?? last.p, rotation: c.rotation ?? last.q, scale: c.scale ?? last.s }, tick);
      return;
    }
    if (c.position === undefined && c.rotation === undefined && c.scale === undefined) return;
    const last = e.samples[e.samples.length - 1];
    const next = { tick, p: c.position ?? last.p, q: c.rotation ?? last.q, s: c.scale ?? last.s };
    if (next.tick <= last.tick) {
      // The same tick again (calls while paused): the newest word wins, at once.
      e.samples[e.samples.length - 1] = next;
      pose(e, next.p, next.q, next.s);
      return;
    }
    // It did not change between its last sample and the previous message: it held still until then.
    if (previousMessageTick > last.tick && previousMessageTick < tick) e.samples.push({ tick: previousMessageTick, p: last.p, q: last.q, s: last.s });
    e.samples.push(next);
    while (e.samples.length > 4) e.samples.shift();
    moving.add(e);
  }

  // The server's tick clock as seen here: ticks arrive at 60 Hz with network jitter.
  let clockOffset = null;
  function observeTick(tick) {
    const sample = tick - performance.now() * TICKS_PER_MS;
    if (clockOffset === null || Math.abs(sample - clockOffset) > 30) clockOffset = sample;
    else clockOffset += (sample - clockOffset) * (sample > clockOffset ? 0.5 : 0.02);
  }
  function renderTick() {
    if (clockOffset === null) return latestTick;
    return Math.min(clockOffset + performance.now() * TICKS_PER_MS - DELAY_TICKS, latestTick);
  }

  const qa = new THREE.Quaternion();
  const qb = new THREE.Quaternion();
  function interpolate(r) {
    for (const e of moving) {
      const s = e.samples;
      const last = s[s.length - 1];
      if (r >= last.tick) {
        pose(e, last.p, last.q, last.s);
        s.splice(0, s.length - 1);
        moving.delete(e);
        continue;
      }
      let i = s.length - 2;
      while (i > 0 && s[i].tick > r) i--;
      const a = s[i];
      const b = s[i + 1];
      const t = Math.max(0, Math.min(1, (r - a.tick) / (b.tick - a.tick)));
      const o = e.object;
      const k = e.renderable ? e.size : 1;
      o.position.set(a.p[0] + (b.p[0] - a.p[0]) * t, a.p[1] + (b.p[1] - a.p[1]) * t, a.p[2] + (b.p[2] - a.p[2]) * t);
      qa.set(a.q[0], a.q[1], a.q[2], a.q[3]);
      qb.set(b.q[0], b.q[1], b.q[2], b.q[3]);
      o.quaternion.slerpQuaternions(qa, qb, t);
      o.scale.set((a.s[0] + (b.s[0] - a.s[0]) * t) * k, (a.s[1] + (b.s[1] - a.s[1]) * t) * k, (a.s[2] + (b.s[2] - a.s[2]) * t) * k);
      if (e.batch) writeMatrix(e);
      else shadowsDirty = true;
    }
  }

  // ---------------------------------------------------------------- UI lifecycle
  // What a UI element shows at a tick, computed as world/ui.rs computes it for the native
  // renderer (`UiElement::present` and `opacity`): the fade in (and out before the ttl), the
  // typewriter's reveal, which queued line shows, the feed's newest lines, and nothing from the
  // tick its ttl removes it. All from the ticks the stream sends (`createdTick`, `contentTick`)
  // and the tick the page draws, in whole ticks as the world steps, so the page and a native frame
  // of the same tick show the same text at the same opacity.
  const UI_TICKS_PER_SECOND = 60;
  const UI_DEFAULT_HOLD_MS = 2500;
  const msBetween = (from, to) => Math.max(0, to - from) * 1000 / UI_TICKS_PER_SECOND;
  /** Characters as Rust counts them (Unicode scalar values, not UTF-16 units). */
  function charCount(text) {
    let n = 0;
    for (const _ of text) n++;
    return n;
  }
  const holdMs = (u) => u.lifecycle?.queue?.defaultHoldMs ?? UI_DEFAULT_HOLD_MS;
  function revealMs(u, text) {
    const t = u.lifecycle?.typewriter;
    return t ? charCount(text) * 1000 / t.cps : 0;
  }

  /** The queued line showing `age` ms after the content changed, and how long it has shown. */
  function queuedLine(u, age) {
    const lines = u.lifecycle?.queue?.lines ?? [];
    let start = 0;
    for (let i = 0; i < lines.length; i++) {
      const span = revealMs(u, lines[i]) + holdMs(u);
      if (age < start + span || i + 1 === lines.length) return { text: lines[i], shown: age - start };
      start += span;
    }
    return null;
  }

  function uiOpacity(u, tick) {
    const lc = u.lifecycle ?? {};
    const f = lc.fade;
    if (!f) return 1;
    const age = msBetween(u.createdTick ?? 0, tick);
    const from = f.from ?? 0;
    const to = f.to ?? 1;
    let opacity = age >= f.durationMs ? to : from + (to - from) * age / f.durationMs;
    if (typeof lc.ttl === 'number') {
      const left = lc.ttl - age;
      if (left < f.durationMs) opacity *= Math.min(1, Math.max(0, left / f.durationMs));
    }
    return Math.min(1, Math.max(0, opacity));
  }

  /** The tick its ttl removes it at (null: no ttl). */
  function expiresAt(u) {
    const ttl = u.lifecycle?.ttl;
    return typeof ttl === 'number' ? (u.createdTick ?? 0) + Math.ceil(ttl * UI_TICKS_PER_SECOND / 1000) : null;
  }

  /** `{opacity, full, hidden: [from, to]}`: the body written out (the panel is sized for it) and the characters of it not revealed yet. */
  function presentUi(u, tick) {
    const lc = u.lifecycle ?? {};
    const contentAge = msBetween(u.contentTick ?? 0, tick);
    let first = queuedLine(u, contentAge);
    if (!first && u.text) first = { text: u.text, shown: contentAge };
    let hidden = [0, 0];
    if (first) {
      const total = charCount(first.text);
      const t = lc.typewriter;
      const n = t ? Math.min(total, Math.max(0, Math.floor(t.cps * first.shown / 1000))) : total;
      hidden = [n, total];
    }
    const lines = Array.isArray(u.lines) ? u.lines : [];
    const skip = lc.feed ? Math.max(0, lines.length - lc.feed.maxLines) : 0;
    const parts = first ? [first.text] : [];
    for (let i = skip; i < lines.length; i++) parts.push(lines[i]);
    const ends = expiresAt(u);
    return { opacity: ends !== null && tick >= ends ? 0 : uiOpacity(u, tick), full: parts.join('\n'), hidden };
  }

  /** Whether what `u` shows changes with time (else it is drawn once). */
  const animated = (u) => { const lc = u.lifecycle ?? {}; return !!(lc.fade || lc.typewriter || lc.queue || typeof lc.ttl === 'number'); };

  /** The tick UI is shown at: the one the page draws. */
  const uiTick = () => Math.floor(renderTick());

  /** Writes what `rec` shows at `tick` into its element, touching the page only where that changed. */
  function showUi(rec, tick) {
    const p = presentUi(rec.raw, tick);
    const [from, to] = p.hidden;
    if (p.full !== rec.full || from !== rec.from || to !== rec.to) {
      const chars = Array.from(p.full);
      const unrevealed = document.createElement('span');
      unrevealed.className = 'ui-unrevealed';
      unrevealed.textContent = chars.slice(from, to).join('');
      rec.body.replaceChildren(chars.slice(0, from).join(''), unrevealed, chars.slice(to).join(''));
      Object.assign(rec, { full: p.full, from, to, text: chars.slice(0, from).concat(chars.slice(to)).join('') });
    }
    if (p.opacity !== rec.opacity) {
      rec.opacity = p.opacity;
      rec.el.style.opacity = String(p.opacity);
      // Fully faded out (or expired): not drawn, as the native renderer skips it.
      rec.el.classList.toggle('ui-gone', p.opacity <= 0);
    }
    rec.tick = tick;
  }

  function animateUi() {
    const tick = uiTick();
    for (const rec of uiElements.values()) if (rec.animated && rec.tick !== tick) showUi(rec, tick);
  }

  // ---------------------------------------------------------------- UI elements and agents
  /** handle -> {raw, el, body, world: bool, animated: bool, and what it shows (showUi)} */
  const uiElements = new Map();
  /** agentId -> handle of the speech bubble `social.say` keeps for it (drawn instead of the agent's own line). */
  const speakerBubbles = new Map();
  /** agentId -> {raw, tag, say} */
  const agents = new Map();

  function cssColor(c) {
    if (typeof c === 'number') return '#' + c.toString(16).padStart(6, '0');
    if (typeof c === 'string' && /^#?[0-9a-fA-F]{6}$/.test(c)) return c.startsWith('#') ? c : '#' + c;
    return null;
  }

  function upsertUi(u) {
    removeUi(u.handle);
    const el = document.createElement('div');
    el.className = `ui ${u.kind}`;
    if (u.title) {
      const t = document.createElement('div');
      t.className = 'ui-title';
      t.textContent = u.title;
      el.appendChild(t);
    }
    const body = document.createElement('div');
    body.className = 'ui-text';
    el.appendChild(body);
    const style = u.style ?? {};
    const bg = cssColor(style.background?.color);
    if (bg) el.style.background = bg;
    const fg = cssColor(style.text?.color);
    if (fg) el.style.color = fg;
    const width = style.width ?? u.width;
    if (typeof width === 'number') el.style.width = `${width}px`;
    const maxWidth = style.maxWidth ?? u.maxWidth;
    if (typeof maxWidth === 'number') el.style.maxWidth = `${maxWidth}px`;
    const anchor = u.anchor ?? {};
    const world = anchor.kind !== 'screen';
    if (world) el.classList.add('world');
    else placeOnScreen(el, anchor);
    overlay.appendChild(el);
    const rec = { raw: u, el, body, world, animated: animated(u) };
    uiElements.set(u.handle, rec);
    if (u.speaker) speakerBubbles.set(u.speaker, u.handle);
    showUi(rec, uiTick());
  }

  /** A screen-anchored element sits at its corner, `marginPx` in from it. */
  function placeOnScreen(el, a) {
    const [mx, my] = a.marginPx ?? [12, 12];
    const corner = a.corner ?? 'top-left';
    const s = el.style;
    s.left = s.right = s.top = s.bottom = 'auto';
    let tx = '0', ty = '0';
    if (corner.includes('left')) s.left = `${mx}px`;
    else if (corner.includes('right')) s.right = `${mx}px`;
    else { s.left = '50%'; tx = '-50%'; }
    if (corner.startsWith('top')) s.top = `${my}px`;
    else if (corner.startsWith('bottom')) s.bottom = `${my}px`;
    else { s.top = '50%'; ty = '-50%'; }
    s.transform = `translate(${tx}, ${ty})`;
  }

  function removeUi(handle) {
    const u = uiElements.get(handle);
    if (!u) return;
    u.el.remove();
    uiElements.delete(handle);
    if (u.raw.speaker && speakerBubbles.get(u.raw.speaker) === handle) speakerBubbles.delete(u.raw.speaker);
  }

  function upsertAgent(a) {
    let rec = agents.get(a.agentId);
    if (!rec) {
      const tag = document.createElement('div');
      tag.className = 'agent-tag';
      const say = document.createElement('div');
      say.className = 'ui speechBubble world agent-say';
      overlay.append(tag, say);
      rec = { tag, say };
      agents.set(a.agentId, rec);
      refreshPicker();
    }
    rec.raw = a;
    rec.tag.textContent = a.agentId;
    rec.say.textContent = a.saying?.text ?? '';
    rec.say.hidden = !a.saying?.text;
  }

  function removeAgent(id) {
    const rec = agents.get(id);
    if (!rec) return;
    rec.tag.remove();
    rec.say.remove();
    agents.delete(id);
    refreshPicker();
  }

  function refreshPicker() {
    const keep = modeSelect.value;
    for (const o of [...modeSelect.options]) if (o.value.startsWith('agent:')) o.remove();
    for (const id of [...agents.keys()].sort()) {
      const o = document.createElement('option');
      o.value = `agent:${id}`;
      o.textContent = `follow ${id}`;
      modeSelect.appendChild(o);
    }
    modeSelect.value = [...modeSelect.options].some((o) => o.value === keep) ? keep : 'orbit';
  }

  const projected = new THREE.Vector3();
  let viewW = 1, viewH = 1;
  /** Puts `el` at the screen point of world point `v` (its bottom centre there); hides it behind the camera. */
  function placeAt(el, v) {
    projected.copy(v).project(camera);
    if (projected.z > 1 || projected.z < -1 || Math.abs(projected.x) > 1.2 || Math.abs(projected.y) > 1.2) {
      if (el.style.visibility !== 'hidden') el.style.visibility = 'hidden';
      return;
    }
    const x = (projected.x * 0.5 + 0.5) * viewW;
    const y = (-projected.y * 0.5 + 0.5) * viewH;
    el.style.visibility = '';
    el.style.transform = `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px) translate(-50%, -100%)`;
  }

  const anchorPoint = new THREE.Vector3();
  function entityTop(e) {
    anchorPoint.copy(e.object.position);
    // Half its height (scale already holds the size) and a little air.
    anchorPoint.y += (e.renderable ? e.object.scale.y : 0) * 0.5 + 0.3;
    return anchorPoint;
  }

  function placeOverlays() {
    for (const u of uiElements.values()) {
      if (!u.world) continue;
      const a = u.raw.anchor ?? {};
      const off = a.offset ?? [0, 0, 0];
      if (a.entity) {
        const e = entities.get(a.entity);
        if (!e) { u.el.style.visibility = 'hidden'; continue; }
        anchorPoint.copy(e.object.position);
        if (!a.offset && (u.raw.kind === 'speechBubble' || u.raw.kind === 'thoughtBubble' || u.raw.kind === 'label')) anchorPoint.copy(entityTop(e));
      } else if (a.point) {
        anchorPoint.set(a.point[0], a.point[1], a.point[2]);
      } else {
        anchorPoint.set(0, 0, 0);
      }
      anchorPoint.x += off[0]; anchorPoint.y += off[1]; anchorPoint.z += off[2];
      placeAt(u.el, anchorPoint);
    }
    for (const rec of agents.values()) {
      const e = rec.raw.entity && entities.get(rec.raw.entity);
      if (!e) { rec.tag.style.visibility = 'hidden'; rec.say.style.visibility = 'hidden'; continue; }
      const top = entityTop(e);
      placeAt(rec.tag, top);
      // Its `social.say` bubble, when it has one, is the UI element above (as natively drawn).
      const own = speakerBubbles.has(rec.raw.agentId);
      if (own !== rec.say.classList.contains('ui-gone')) rec.say.classList.toggle('ui-gone', own);
      if (!rec.say.hidden && !own) {
        top.y += 0.45;
        placeAt(rec.say, top);
      }
    }
  }

  const followOffset = new THREE.Vector3();
  function follow() {
    const mode = modeSelect.value;
    if (!mode.startsWith('agent:')) return;
    const rec = agents.get(mode.slice(6));
    const e = rec?.raw.entity && entities.get(rec.raw.entity);
    if (!e) return;
    followOffset.copy(e.object.position).sub(controls.target);
    controls.target.add(followOffset);
    camera.position.add(followOffset);
  }

  // ---------------------------------------------------------------- stream messages
  let tick = 0;
  function onState(method, m) {
    if (typeof m.tick === 'number') {
      tick = m.tick;
      observeTick(m.tick);
    }
    if (m.kind === 'snapshot' || method === 'state/snapshot') {
      for (const id of [...entities.keys()]) destroy(id);
      for (const h of [...uiElements.keys()]) removeUi(h);
      for (const id of [...agents.keys()]) removeAgent(id);
      latestTick = previousMessageTick = m.tick ?? 0;
      for (const e of m.entities ?? []) create(e, latestTick);
      for (const u of m.ui ?? []) upsertUi(u);
      for (const a of m.agents ?? []) upsertAgent(a);
      applyScene(m.scene);
      return;
    }
    const t = m.tick ?? latestTick;
    for (const e of m.created ?? []) create(e, t);
    for (const c of m.changed ?? []) change(c, t);
    for (const id of m.destroyed ?? []) destroy(id);
    if (m.ui) {
      for (const u of m.ui.upserted ?? []) upsertUi(u);
      for (const h of m.ui.removed ?? []) removeUi(h);
    }
    if (m.agents) {
      for (const a of m.agents.upserted ?? []) upsertAgent(a);
      for (const id of m.agents.removed ?? []) removeAgent(id);
    }
    applyScene(m.scene);
    previousMessageTick = latestTick;
    latestTick = Math.max(latestTick, t);
  }

  function applyScene(s) {
    if (!s) return;
    if (s.lighting) applyLighting(s.lighting);
    if (s.camera) {
      worldCamera = { position: s.camera.position ?? worldCamera.position, target: s.camera.target ?? worldCamera.target, fov: s.camera.fov ?? worldCamera.fov };
      if (modeSelect.value === 'world') applyWorldCamera();
    }
  }

  // Timings for `frameStats()`: the per-frame update (interpolation, overlays, camera), the
  // renderer's call, both (`js`: the page's JavaScript per frame), parsing each stream message's
  // JSON and applying it.
  const FRAME_SAMPLES = 240;
  const updateMs = new Float64Array(FRAME_SAMPLES);
  const renderMs = new Float64Array(FRAME_SAMPLES);
  const jsMs = new Float64Array(FRAME_SAMPLES);
  const messageMs = new Float64Array(FRAME_SAMPLES);
  const parseMs = new Float64Array(FRAME_SAMPLES);
  let messages = 0;
  let lastParseMs = 0;

  // ---------------------------------------------------------------- MCP over HTTP
  let session = null;
  let nextId = 1;
  let generation = 0;

  function headers(accept) {
    const h = { 'Content-Type': 'application/json', Accept: accept };
    if (token) h.Authorization = `Bearer ${token}`;
    if (session) { h['Mcp-Session-Id'] = session; h['MCP-Protocol-Version'] = PROTOCOL; }
    return h;
  }

  /** Events of an event-stream body, as parsed JSON-RPC messages, one at a time. */
  async function* events(response) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    // Where the search for the blank line ending an event resumes: a 2 MB snapshot arrives in
    // many reads, and searching it all again after each one was quadratic.
    let scanned = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffered += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffered.indexOf('\n\n', scanned)) >= 0) {
        const frame = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        scanned = 0;
        const data = frame.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, '')).join('\n');
        if (!data) continue;
        const t0 = performance.now();
        const m = JSON.parse(data);
        lastParseMs = performance.now() - t0;
        yield m;
      }
      scanned = Math.max(0, buffered.length - 1);
    }
  }

  class Refused extends Error {
    constructor(message, { retry = false, askToken = false } = {}) {
      super(message);
      this.retry = retry;
      this.askToken = askToken;
    }
  }

  async function refusal(response) {
    const text = (await response.text()).trim();
    let message = text;
    try { message = JSON.parse(text).error?.message ?? text; } catch (_) { /* plain text */ }
    if (response.status === 401) return new Refused(token ? 'This token was refused: the server does not know it (401).' : 'This server needs a token to watch its world.', { askToken: true });
    if (response.status === 403) return new Refused(`The server refused this page: ${message}`);
    return new Refused(`The server answered ${response.status}: ${message}`, { retry: response.status >= 500 || response.status === 429 });
  }

  /** One JSON-RPC request on the session; resolves with its result, or throws `Refused`. */
  async function call(method, params) {
    const id = nextId++;
    const response = await fetch(WORLD_BASE + 'mcp', { method: 'POST', headers: headers('application/json, text/event-stream'), body: JSON.stringify({ jsonrpc: '2.0', id, method, params }), cache: 'no-store', referrerPolicy: 'no-referrer' });
    if (!response.ok) throw await refusal(response);
    if (method === 'initialize') session = response.headers.get('mcp-session-id');
    let answer = null;
    if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      for await (const m of events(response)) if (m.id === id) { answer = m; break; }
    } else {
      answer = await response.json();
    }
    if (!answer) throw new Refused(`no answer to ${method}`, { retry: true });
    if (answer.error) throw new Refused(answer.error.message ?? JSON.stringify(answer.error));
    return answer.result;
  }

  async function notify(method) {
    await fetch(WORLD_BASE + 'mcp', { method: 'POST', headers: headers('application/json, text/event-stream'), body: JSON.stringify({ jsonrpc: '2.0', method }), cache: 'no-store', referrerPolicy: 'no-referrer' });
  }

  let connected = false;
  let refusedMessage = null;
  let hadSnapshot = false;

  /** Ends the current session (best effort), so reconnecting never piles sessions up against the token's limit. */
  function endSession(keepalive = false) {
    if (!session) return;
    const h = headers('application/json');
    session = null;
    fetch(WORLD_BASE + 'mcp', { method: 'DELETE', headers: h, keepalive, cache: 'no-store', referrerPolicy: 'no-referrer' }).catch(() => {});
  }
  window.addEventListener('pagehide', () => endSession(true));

  async function connect() {
    const mine = ++generation;
    endSession();
    connected = false;
    hadSnapshot = false;
    refusedMessage = null;
    hideMessage();
    setStatus('connecting…');
    try {
      await call('initialize', { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'limina-viewer', version: '1' } });
      await notify('notifications/initialized');
      const id = nextId++;
      const response = await fetch(WORLD_BASE + 'mcp', { method: 'POST', headers: headers('text/event-stream'), body: JSON.stringify({ jsonrpc: '2.0', id, method: 'state/subscribe', params: {} }), cache: 'no-store', referrerPolicy: 'no-referrer' });
      if (!response.ok) throw await refusal(response);
      if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
        const answer = await response.json().catch(() => ({}));
        throw new Refused(`The server refused the state stream: ${answer.error?.message ?? 'no stream'}`);
      }
      startTracePolling(mine);
      for await (const m of events(response)) {
        if (mine !== generation) return;
        if (m.id === id && m.error) throw new Refused(`The server refused the state stream: ${m.error.message}`);
        if (m.method === 'state/snapshot' || m.method === 'state/delta') {
          if (!connected) { connected = true; hideMessage(); }
          if (m.method === 'state/snapshot') hadSnapshot = true;
          const t0 = performance.now();
          onState(m.method, m.params ?? {});
          parseMs[messages % FRAME_SAMPLES] = lastParseMs;
          messageMs[messages++ % FRAME_SAMPLES] = performance.now() - t0;
          // Messages back to back must not starve drawing: let a frame through first. Reading
          // slower is the server's cue to coalesce deltas (it skips, never queues, for a slow reader).
          // (A hidden page draws no frames: it waits at most 200 ms, so it keeps reading.)
          if (performance.now() - lastFrameAt > 100) await new Promise((resolve) => { requestAnimationFrame(resolve); setTimeout(resolve, 200); });
        } else if (m.method === 'notifications/message' && m.params?.level === 'error') {
          throw new Refused(`The state stream ended: ${m.params.data}`);
        }
      }
      if (mine === generation) throw new Refused('The server closed the state stream.', { retry: true });
    } catch (e) {
      if (mine !== generation) return;
      connected = false;
      const refused = e instanceof Refused ? e : new Refused(`Lost the server: ${e.message}`, { retry: true });
      if (refused.askToken) {
        showLogin(refused.message);
        setStatus('not connected', true);
        refusedMessage = refused.message;
      } else if (refused.retry) {
        setStatus('reconnecting…', true);
        setTimeout(() => { if (mine === generation) connect(); }, 2000);
      } else {
        refusedMessage = refused.message;
        showMessage(refused.message);
        setStatus('not connected', true);
      }
    }
  }

  // ---------------------------------------------------------------- trace panel
  const traceState = $('trace-state');
  const traceLines = $('trace-lines');
  function startTracePolling(mine) {
    let cursor = -1;
    traceLines.textContent = '';
    traceState.textContent = '';
    const poll = async () => {
      if (mine !== generation) return;
      try {
        const result = await call('tools/call', { name: 'trace.tail', arguments: { afterSeq: cursor, limit: 100 } });
        if (result.isError) {
          const text = result.content?.[0]?.text ?? 'refused';
          traceState.textContent = /trace\.read|permission|not allowed|denied/i.test(text) ? '— this token may not read the trace (trace.read)' : `— ${text}`;
          return; // a refusal does not change by asking again
        }
        const out = result.structuredContent ?? {};
        for (const ev of out.events ?? []) {
          // Reads of the trace (this panel's own polling among them) are not news.
          if (ev.payload?.skill === 'trace.tail') continue;
          const li = document.createElement('li');
          li.textContent = `#${ev.seq} t${ev.tick} ${ev.type} ${ev.actorId ?? ''} ${ev.payload?.skill ?? ''}`;
          traceLines.appendChild(li);
        }
        while (traceLines.childElementCount > TRACE_KEEP) traceLines.firstElementChild.remove();
        if ((out.events ?? []).length) traceLines.parentElement.scrollTop = traceLines.parentElement.scrollHeight;
        if (typeof out.nextAfterSeq === 'number') cursor = out.nextAfterSeq;
        traceState.textContent = '';
      } catch (e) {
        traceState.textContent = `— ${e.message}`;
        if (e instanceof Refused && !e.retry) return;
      }
      setTimeout(poll, TRACE_POLL_MS);
    };
    poll();
  }

  // ---------------------------------------------------------------- page chrome
  function setStatus(text, bad = false) {
    statusEl.textContent = text;
    statusEl.classList.toggle('bad', bad);
  }
  function showMessage(text) { const m = $('message'); m.textContent = text; m.hidden = false; }
  function hideMessage() { $('message').hidden = true; $('login').hidden = true; }
  function showLogin(why) {
    $('login-why').textContent = why;
    $('login').hidden = false;
    $('login-token').focus();
  }
  $('login').addEventListener('submit', (ev) => {
    ev.preventDefault();
    token = $('login-token').value.trim();
    $('login-token').value = '';
    models.clear();
    connect();
  });
  window.addEventListener('hashchange', () => {
    const found = takeTokenFromFragment();
    if (found !== null) { token = found; models.clear(); connect(); }
  });

  function resize() {
    viewW = window.innerWidth;
    viewH = window.innerHeight;
    renderer.setSize(viewW, viewH, false);
    camera.aspect = viewW / Math.max(1, viewH);
    camera.updateProjectionMatrix();
  }
  window.addEventListener('resize', resize);
  resize();

  // ---------------------------------------------------------------- frame loop
  let frames = 0;
  let lastCounts = 0;
  let lastFrameAt = 0;
  function frame() {
    requestAnimationFrame(frame);
    const t0 = performance.now();
    lastFrameAt = t0;
    interpolate(renderTick());
    follow();
    controls.update();
    sky.position.copy(camera.position);
    animateUi();
    placeOverlays();
    flushBatches();
    planShadows(frames);
    const t1 = performance.now();
    renderer.render(scene, camera);
    const t2 = performance.now();
    updateMs[frames % FRAME_SAMPLES] = t1 - t0;
    renderMs[frames % FRAME_SAMPLES] = t2 - t1;
    jsMs[frames % FRAME_SAMPLES] = t2 - t0;
    frames++;
    if (t2 - lastCounts > 250) {
      lastCounts = t2;
      if (connected) setStatus(`watching · tick ${tick}`);
      countsEl.textContent = `${entities.size} entities · ${agents.size} agents · ${uiElements.size} ui`;
    }
  }
  requestAnimationFrame(frame);

  /** Figures over the samples after the first `since` of `count` (as many of them as the ring still holds). */
  function stats(samples, count, since = 0) {
    const n = Math.max(0, Math.min(count - since, FRAME_SAMPLES));
    const xs = [];
    for (let i = count - n; i < count; i++) xs.push(samples[i % FRAME_SAMPLES]);
    xs.sort((a, b) => a - b);
    const avg = xs.reduce((a, b) => a + b, 0) / Math.max(1, n);
    return { frames: n, avgMs: avg, p50Ms: xs[Math.floor(n * 0.5)] ?? 0, p95Ms: xs[Math.floor(n * 0.95)] ?? 0, maxMs: xs[n - 1] ?? 0 };
  }

  // ---------------------------------------------------------------- pixels
  /** An entity's flat colour in a mask: src/render/mask.rs `color_of`, the same bits. */
  function maskColor(id) {
    const key = (BigInt(id.slice(4)) * 0x2f6b1n) & 0x3ffffn;
    const channel = (shift) => Number((key >> BigInt(shift)) & 63n) * 4 + 2;
    return (channel(12) << 16) | (channel(6) << 8) | channel(0);
  }

  const maskBasic = new THREE.MeshBasicMaterial({ color: 0xffffff, toneMapped: false });
  /** Draws the scene once as it stands (the camera as now) and reads the canvas: the picture,
   * or with `mask` every entity in its flat colour on black (as `render.capture`'s mask). The
   * next frame draws the picture again; nothing the page shows or holds changes. */
  function pixels(mask) {
    const undo = [];
    if (mask) {
      for (const b of batches.values()) {
        const saved = b.mesh.instanceColor.array.slice();
        b.entities.forEach((e, slot) => b.mesh.setColorAt(slot, tint.setHex(maskColor(e.id))));
        b.mesh.instanceColor.needsUpdate = true;
        const material = b.mesh.material;
        b.mesh.material = maskBasic;
        undo.push(() => { b.mesh.material = material; b.mesh.instanceColor.array.set(saved); b.mesh.instanceColor.needsUpdate = true; });
      }
      for (const e of entities.values()) {
        if (e.batch || !e.renderable) continue;
        const flat = new THREE.MeshBasicMaterial({ color: new THREE.Color().setHex(maskColor(e.id)), toneMapped: false });
        e.object.traverse((o) => {
          if (!o.isMesh) return;
          const material = o.material;
          o.material = flat;
          undo.push(() => { o.material = material; });
        });
        undo.push(() => flat.dispose());
      }
      sky.visible = false;
      undo.push(() => { sky.visible = true; });
    }
    flushBatches();
    sky.position.copy(camera.position);
    renderer.render(scene, camera);
    const gl = renderer.getContext();
    const width = gl.drawingBufferWidth;
    const height = gl.drawingBufferHeight;
    const flipped = new Uint8Array(width * height * 4);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, flipped);
    for (const f of undo) f();
    const rgba = new Uint8Array(flipped.length);
    const row = width * 4;
    for (let y = 0; y < height; y++) rgba.set(flipped.subarray((height - 1 - y) * row, (height - y) * row), y * row);
    let binary = '';
    for (let i = 0; i < rgba.length; i += 0x8000) binary += String.fromCharCode.apply(null, rgba.subarray(i, i + 0x8000));
    return { width, height, rgba: btoa(binary) };
  }

  // A read-only hook for tests and tools: what the viewer shows, never a way to change it.
  window.liminaViewer = Object.freeze({
    entityCount: () => entities.size,
    tick: () => tick,
    hasEntity: (id) => entities.has(id),
    position: (id) => { const e = entities.get(id); return e ? e.object.position.toArray() : null; },
    bubbles: () => {
      const out = [];
      for (const u of uiElements.values()) if (u.raw.kind === 'speechBubble' || u.raw.kind === 'thoughtBubble') out.push({ handle: u.raw.handle, text: u.text, entity: u.raw.anchor?.entity ?? null });
      for (const [id, rec] of agents) if (rec.raw.saying?.text && !speakerBubbles.has(id)) out.push({ agent: id, text: rec.raw.saying.text, entity: rec.raw.entity ?? null });
      return out;
    },
    /** What UI element `handle` shows (its lifecycle applied at `tick`, the tick the page draws): the text revealed, the body it is sized for, its opacity. */
    ui: (handle) => {
      const u = uiElements.get(handle);
      return u ? { text: u.text, full: u.full, opacity: u.opacity, drawn: u.opacity > 0, tick: u.tick } : null;
    },
    agents: () => [...agents.keys()],
    connected: () => connected,
    hadSnapshot: () => hadSnapshot,
    refused: () => refusedMessage,
    maskColor: (id) => maskColor(id),
    /** glTF models still being fetched. */
    modelsLoading: () => modelsLoading,
    /** Whether glTF entity `id` shows its model (its placeholder box replaced). */
    modelShown: (id) => entities.get(id)?.object.userData.modelShown === true,
    /** RGBA of the scene drawn now, base64, rows from the top: the picture, or a mask. */
    pixels: ({ mask = false } = {}) => pixels(mask),
    /** Timings of the last frames and messages; given an earlier answer, of those since it. */
    frameStats: (since) => {
      const f = since?.drawn ?? 0;
      const m = since?.messages ?? 0;
      return { update: stats(updateMs, frames, f), render: stats(renderMs, frames, f), js: stats(jsMs, frames, f), message: stats(messageMs, messages, m),
        parse: stats(parseMs, messages, m), moving: moving.size, drawn: frames, messages, at: performance.now() };
    },
    /** What a frame draws: per batch its shape, instances and vertices each; the camera pass's vertices; how often shadows are redrawn. */
    drawStats: () => {
      const list = [...batches.values()].map((b) => ({ shape: b.shape, instances: b.entities.length, vertices: b.geometry.attributes.position.count }));
      const casters = casterVertices();
      return { batches: list, vertices: list.reduce((n, b) => n + b.instances * b.vertices, 0), casterVertices: casters,
        shadowEvery: Math.min(SHADOW_EVERY_MAX, Math.max(1, Math.ceil(casters / SHADOW_VERTICES))), calls: renderer.info.render.calls, triangles: renderer.info.render.triangles };
    },
  });

  // ---------------------------------------------------------------- start
  // A page that embeds the viewer may bring its own source of stream messages instead of the
  // HTTP stream: the MCP App view (src/mcp/apps/bridge.js) sets `LIMINA_VIEW_SOURCE` to an
  // object whose `start(onMessage, setStatus)` feeds snapshots and deltas from its host.
  const source = window.LIMINA_VIEW_SOURCE;
  if (source && typeof source.start === 'function') {
    source.start((m) => { hadSnapshot ||= m.kind === 'snapshot'; onState(m.kind === 'snapshot' ? 'state/snapshot' : 'state/delta', m); }, setStatus);
  } else {
    const fromFragment = takeTokenFromFragment();
    if (fromFragment !== null) token = fromFragment;
    connect();
  }
})();
