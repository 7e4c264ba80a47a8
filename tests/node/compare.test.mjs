// One look in both renderers: the same scene from the same camera, drawn natively
// (`render.capture`) and by the web viewer in the real headless Debian chromium (three.js on
// SwiftShader), compared object by object. Masks come from both renderers' mask pass (every
// entity one flat colour, src/render/mask.rs; the viewer's `liminaViewer.pixels({mask: true})`):
// each object's silhouettes must agree (IoU >= 0.97, tighter than the original engine's 0.9 design gate) and its
// mean colour over the pixels both show must lie within ΔE76 <= COLOUR_TOLERANCE (CIE Lab).
// Anti-aliased edges (pixels that are no mask colour in either picture) count for neither.
//
// Both renderers are also held to committed goldens (tests/node/golden/compare/*.png): IoU >=
// 0.995 and ΔE <= 2 per object against their own golden, so a drift in either shows even when
// they drift together. `LIMINA_BLESS=1` rewrites the goldens (after a deliberate change).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startServer, root, CHROMIUM, CHROMIUM_ARGS } from './common.mjs';

const WAIT = { timeout: 60000, polling: 100 };
const [WIDTH, HEIGHT] = [640, 360];
/** Object mean colours may differ by this much (CIE76 ΔE in Lab; ~2.3 is a just-noticeable
 * difference). Measured: 2.4 at most (the metal sphere), 0.2–1.4 for the rest; a hemisphere light
 * at 40 % of its strength moves them by 4.6–7.1. */
const COLOUR_TOLERANCE = 4;
/** The original engine's design gate is 0.9; both renderers share tessellation and projection,
 * so they measure 1.000 here and a tighter gate catches a drift the design gate would not. */
const IOU_GATE = 0.97;
const GOLDEN = path.join(root, 'tests/node/golden/compare');
const BLESS = process.env.LIMINA_BLESS === '1';

let server, port, browser, client;

before(async () => {
  assert.ok(existsSync(CHROMIUM), `no chromium at ${CHROMIUM}`);
  ({ child: server, port } = await startServer(['--http', '--empty']));
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  client = new Client({ name: 'limina-compare-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
});

after(async () => {
  await client?.close();
  await browser?.close();
  server?.kill();
});

async function call(name, args) {
  const r = await client.callTool({ name, arguments: args });
  assert.equal(r.isError, false, `${name}: ${JSON.stringify(r.content)}`);
  return r;
}

/** A builder's scene: a floor, shapes of every kind, a metal, a matte, a rotated box, a model. */
async function buildScene() {
  await call('three.setLighting', { castShadow: true, direction: [5, 9, 6], shadowCameraExtent: 12 });
  await call('render.setCamera', { position: [4.6, 3.6, 6.2], target: [-0.3, 0.6, 0], fov: 55 });
  const ids = {};
  const make = async (name, args) => { ids[name] = (await call('scene.createEntity', args)).structuredContent.entity; };
  await make('floor', { shape: 'box', position: [0, -0.1, 0], color: 0x7a8a6a });
  await call('ecs.updateComponent', { entity: ids.floor, component: 'scale', value: [12, 0.2, 12] });
  await make('redBox', { shape: 'box', size: 1.4, position: [-2.2, 0.7, 0.5], color: 0xc8402f });
  await call('ecs.updateComponent', { entity: ids.redBox, component: 'rotation', value: [0, 0.3826834, 0, 0.9238795] });
  await make('metalSphere', { shape: 'sphere', size: 1.6, position: [0.6, 0.8, -1], color: 0xb0b8c8 });
  await call('three.setMaterial', { entity: ids.metalSphere, metalness: 0.9, roughness: 0.3 });
  await make('greenCapsule', { shape: 'capsule', size: 2, position: [2.6, 1, 1.2], color: 0x3f9f4f });
  await make('matteBox', { shape: 'box', size: 1, position: [-0.4, 0.5, 2.4], color: 0xe0c040 });
  await call('three.setMaterial', { entity: ids.matteBox, roughness: 1 });
  ids.crate = (await call('three.loadGLTF', { assetId: 'models/crate.glb', position: [-3.2, 0.5, -2.6], size: 1.2 })).structuredContent.entity;
  return ids;
}

/** A native capture's PNG (the image content block) decoded to RGBA. */
async function nativeCapture(extra) {
  const r = await call('render.capture', { width: WIDTH, height: HEIGHT, ...extra });
  const image = r.content.find((c) => c.type === 'image');
  return { rgba: PNG.sync.read(Buffer.from(image.data, 'base64')).data, result: r.structuredContent };
}

async function browserCapture(page, mask) {
  const { width, height, rgba } = await page.evaluate((m) => window.liminaViewer.pixels({ mask: m }), mask);
  assert.deepEqual([width, height], [WIDTH, HEIGHT], 'the canvas is the capture size');
  return Buffer.from(rgba, 'base64');
}

/** Per entity, from a mask image: a Uint8Array marking its pixels (colour within 1 per channel),
 * and a mask of the pixels that are a mask colour or background at all (not a blended edge). */
function masksOf(rgba, colours) {
  const n = WIDTH * HEIGHT;
  const clean = new Uint8Array(n);
  const own = new Map([...colours.keys()].map((id) => [id, new Uint8Array(n)]));
  const entries = [...colours].map(([id, c]) => [own.get(id), (c >> 16) & 255, (c >> 8) & 255, c & 255]);
  for (let i = 0; i < n; i++) {
    const [r, g, b] = [rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2]];
    if (r <= 1 && g <= 1 && b <= 1) { clean[i] = 1; continue; }
    for (const [m, cr, cg, cb] of entries) {
      if (Math.abs(r - cr) <= 1 && Math.abs(g - cg) <= 1 && Math.abs(b - cb) <= 1) { m[i] = 1; clean[i] = 1; break; }
    }
  }
  return { own, clean };
}

function lab([r, g, b]) {
  const lin = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const [R, G, B] = [lin(r), lin(g), lin(b)];
  const xyz = [0.4124 * R + 0.3576 * G + 0.1805 * B, 0.2126 * R + 0.7152 * G + 0.0722 * B, 0.0193 * R + 0.1192 * G + 0.9505 * B];
  const f = (t) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
  const [fx, fy, fz] = [f(xyz[0] / 0.95047), f(xyz[1]), f(xyz[2] / 1.08883)];
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}
const deltaE = (a, b) => Math.hypot(...lab(a).map((v, i) => v - lab(b)[i]));

/** Object by object: IoU of two mask sets, and mean colours of two pictures over the pixels both masks give the object. */
function compare(maskA, maskB, pictureA, pictureB, names) {
  const rows = [];
  for (const [name, id] of Object.entries(names)) {
    const a = maskA.own.get(id), b = maskB.own.get(id);
    let inter = 0, union = 0;
    const sumA = [0, 0, 0], sumB = [0, 0, 0];
    for (let i = 0; i < a.length; i++) {
      if (!maskA.clean[i] || !maskB.clean[i]) continue;
      if (a[i] || b[i]) union++;
      if (a[i] && b[i]) {
        inter++;
        for (let c = 0; c < 3; c++) { sumA[c] += pictureA[4 * i + c]; sumB[c] += pictureB[4 * i + c]; }
      }
    }
    const meanA = sumA.map((v) => v / Math.max(1, inter)), meanB = sumB.map((v) => v / Math.max(1, inter));
    rows.push({ name, id, pixels: union, iou: union ? inter / union : 0, meanA, meanB, deltaE: deltaE(meanA, meanB) });
  }
  return rows;
}

function table(title, rows) {
  const hexOf = (m) => '#' + m.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');
  const lines = rows.map((r) => `  ${r.name.padEnd(13)} ${r.id}  ${String(r.pixels).padStart(6)} px  IoU ${r.iou.toFixed(4)}  ${hexOf(r.meanA)} vs ${hexOf(r.meanB)}  ΔE ${r.deltaE.toFixed(1)}`);
  console.log(`${title}\n${lines.join('\n')}`);
}

function golden(name, rgba) {
  const file = path.join(GOLDEN, `${name}.png`);
  if (BLESS || !existsSync(file)) {
    assert.ok(BLESS, `no golden ${file}: run with LIMINA_BLESS=1 to write it`);
    mkdirSync(GOLDEN, { recursive: true });
    const png = new PNG({ width: WIDTH, height: HEIGHT });
    png.data = Buffer.from(rgba);
    writeFileSync(file, PNG.sync.write(png));
  }
  return PNG.sync.read(readFileSync(file)).data;
}

test('the browser viewer and the native renderer agree object by object', async () => {
  const ids = await buildScene();
  const colours = new Map();
  for (const id of Object.values(ids)) colours.set(id, null);

  const native = await nativeCapture({});
  const nativeMask = await nativeCapture({ mask: true });
  for (const m of nativeMask.result.masks) if (colours.has(m.entity)) colours.set(m.entity, parseInt(m.color.slice(1), 16));
  for (const [id, c] of colours) assert.ok(c !== null, `${id} is not in the native mask: ${JSON.stringify(nativeMask.result.masks)}`);

  const page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT }, deviceScaleFactor: 1 });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.waitForFunction((all) => window.liminaViewer?.entityCount() === all.length && all.every((id) => window.liminaViewer.hasEntity(id)) && window.liminaViewer.modelsLoading() === 0, [...colours.keys()], WAIT);
    for (const [id, c] of colours) assert.equal(await page.evaluate((e) => window.liminaViewer.maskColor(e), id), c, `${id}: the viewer paints the native mask colour`);
    const browserPicture = await browserCapture(page, false);
    const browserMask = await browserCapture(page, true);
    assert.deepEqual(errors, []);

    const masks = {
      native: masksOf(nativeMask.rgba, colours),
      browser: masksOf(browserMask, colours),
    };
    const across = compare(masks.native, masks.browser, native.rgba, browserPicture, ids);
    table('native vs browser (mean colours native vs browser):', across);

    // Each renderer against its own committed golden.
    const goldens = {
      native: [golden('native', native.rgba), golden('native_mask', nativeMask.rgba)],
      browser: [golden('browser', browserPicture), golden('browser_mask', browserMask)],
    };
    const drift = {
      native: compare(masks.native, masksOf(goldens.native[1], colours), native.rgba, goldens.native[0], ids),
      browser: compare(masks.browser, masksOf(goldens.browser[1], colours), browserPicture, goldens.browser[0], ids),
    };
    table('native vs its golden:', drift.native);
    table('browser vs its golden:', drift.browser);

    for (const r of across) {
      assert.ok(r.pixels > 2000, `${r.name} (${r.id}) covers ${r.pixels} px: the scene should show every object large`);
      assert.ok(r.iou >= IOU_GATE, `${r.name} (${r.id}): silhouettes differ, IoU ${r.iou.toFixed(3)} < ${IOU_GATE}`);
      assert.ok(r.deltaE <= COLOUR_TOLERANCE, `${r.name} (${r.id}): mean colours differ by ΔE ${r.deltaE.toFixed(1)} > ${COLOUR_TOLERANCE}`);
    }
    for (const [renderer, rows] of Object.entries(drift)) {
      for (const r of rows) {
        assert.ok(r.iou >= 0.995, `${renderer} ${r.name}: IoU ${r.iou.toFixed(4)} against its golden`);
        assert.ok(r.deltaE <= 2, `${renderer} ${r.name}: ΔE ${r.deltaE.toFixed(1)} against its golden`);
      }
    }
  } finally {
    await page.close();
  }
});
