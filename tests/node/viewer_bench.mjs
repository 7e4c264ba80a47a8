// Figures, not a test: the web viewer's JavaScript time per frame in the real headless chromium
// with N entities (default 2000 and 20000), first at rest, then while they fall (dynamic bodies
// dropped onto a ground: every one changes each tick). Prints, over a window of WINDOW_MS, the
// viewer's own `frameStats()` (performance.now inside the page): `js` is a frame's JavaScript
// (`update`: interpolation, overlays, camera; plus `render`: the renderer's call, which queues GL
// commands — SwiftShader then draws on the CPU in the GPU process), p50 and p95; frames drawn per
// second (frames the page drew in the window); `parse` and `apply` per stream message; and what a
// frame draws (`drawStats()`: vertices per instance per batch, shadow map redrawn every N frames).
// Also the page and bundle bytes.
//
//   node tests/node/viewer_bench.mjs [N ...]        (LIMINA_BIN: the binary; target/debug by default)
import { writeFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startServer, root, CHROMIUM, CHROMIUM_ARGS } from './common.mjs';
import { statSync } from 'node:fs';

const counts = process.argv.slice(2).map(Number).filter((n) => n > 0);
const WINDOW_MS = Number(process.env.WINDOW_MS ?? 10000);

function scene(n) {
  return `
local side = math.ceil(math.sqrt(${n}))
local ground = limina.call("scene.createEntity", { shape = "box", position = { 0, -0.5, 0 }, static = true, color = 0x5d7b4a }).result.entity
limina.call("ecs.updateComponent", { entity = ground, component = "scale", value = { side * 0.8 + 4, 1, side * 0.8 + 4 } })
limina.call("render.setCamera", { position = { side * 0.5, side * 0.35 + 6, side * 0.7 }, target = { 0, 0, 0 }, fov = 55 })
for i = 0, ${n} - 1 do
  local x = (i % side) - side / 2
  local z = math.floor(i / side) - side / 2
  local r = limina.call("scene.createEntity", { shape = (i % 2 == 0) and "box" or "sphere", size = 0.5, dynamic = true,
    position = { x * 0.8, 1 + (i % 13) * 0.9, z * 0.8 }, color = 0x3060c0 + (i % 7) * 0x101800 })
  if not r.success then error(r.error.message) end
end
`;
}

async function measure(page) {
  // The frames drawn and messages applied in the window (the page keeps the last 240 of each).
  const start = await page.evaluate(() => window.liminaViewer.frameStats());
  await page.waitForTimeout(WINDOW_MS);
  const s = await page.evaluate((since) => window.liminaViewer.frameStats(since), start);
  s.fps = (s.drawn - start.drawn) / ((s.at - start.at) / 1000);
  s.draw = await page.evaluate(() => window.liminaViewer.drawStats());
  return s;
}

function show(label, s) {
  const f = (x) => x.toFixed(1);
  const batches = s.draw.batches.map((b) => `${b.instances} ${b.shape} × ${b.vertices} v`).join(', ');
  console.log(`${label}: JS per frame p50 ${f(s.js.p50Ms)} ms p95 ${f(s.js.p95Ms)} ms (update p50 ${f(s.update.p50Ms)} p95 ${f(s.update.p95Ms)}; render call p50 ${f(s.render.p50Ms)} p95 ${f(s.render.p95Ms)}); `
    + `${s.fps.toFixed(2)} frames/s (${s.drawn} drawn in all); per message parse avg ${f(s.parse.avgMs)} ms, apply avg ${f(s.message.avgMs)} ms p95 ${f(s.message.p95Ms)} ms (${s.message.frames} msgs); `
    + `moving ${s.moving}; draws ${batches}, shadow map every ${s.draw.shadowEvery} frame(s)`);
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'limina-viewer-bench-'));
writeFileSync(path.join(dir, 'tokens'), 'bench builder.readWrite +world.time\n');
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
for (const n of counts.length ? counts : [2000, 20000]) {
  const file = path.join(dir, `bench_${n}.lua`);
  writeFileSync(file, scene(n));
  const { child, port } = await startServer(['--http', '--tokens', path.join(dir, 'tokens'), '--scene', file, '--paused']);
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(`http://127.0.0.1:${port}/#token=bench`);
    await page.waitForFunction((want) => window.liminaViewer?.entityCount() === want, n + 1, { timeout: 600000, polling: 500 });
    show(`${n} entities at rest`, await measure(page));
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { requestInit: { headers: { Authorization: 'Bearer bench' } } });
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(transport);
    await client.callTool({ name: 'world.resume', arguments: {} });
    show(`${n} entities falling`, await measure(page));
    if (process.env.SHOT) await page.screenshot({ path: `${process.env.SHOT}-${n}.png`, timeout: 120000 }).catch((e) => console.log(`no screenshot: ${e.message.split('\n')[0]}`));
    await client.close();
    await page.close();
  } finally {
    child.kill();
  }
}
await browser.close();
for (const f of ['web/viewer/index.html', 'web/viewer/viewer.js', 'web/viewer/viewer.css', 'vendor/three/three.bundle.js']) {
  console.log(`${f}: ${statSync(path.join(root, f)).size} bytes`);
}
