// The live web viewer (docs/viewer.md) in the real headless Debian chromium, driven by
// playwright-core, against `limina mcp --http --tokens FILE`: it connects with the token from the
// URL fragment (and strips it from the address bar), shows the world's entities, follows another
// MCP client's create / move / destroy and a speech bubble, fills the trace panel for a token with
// trace.read and says so for one without, and shows a refusal (not an empty scene) for a bad token.
// Every wait polls the page's read-only hook (`window.liminaViewer`); no sleep is an assertion.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startServer, CHROMIUM, CHROMIUM_ARGS } from './common.mjs';
const WAIT = { timeout: 30000, polling: 100 };

let server, port, browser, builder;

async function connect(tokenValue) {
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${tokenValue}` } },
  });
  const client = new Client({ name: 'limina-viewer-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function tool(name, args) {
  const r = await builder.callTool({ name, arguments: args });
  assert.equal(r.isError, false, `${name}: ${JSON.stringify(r.content)}`);
  return r.structuredContent;
}

async function openViewer(fragment) {
  const page = await browser.newPage({ viewport: { width: 960, height: 600 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`http://127.0.0.1:${port}/${fragment}`);
  return { page, errors };
}

before(async () => {
  assert.ok(existsSync(CHROMIUM), `no chromium at ${CHROMIUM}`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'limina-viewer-'));
  const tokens = path.join(dir, 'tokens');
  writeFileSync(tokens, 'build-token builder.readWrite +world.time\nwatch-token system.readonly\nplayer-token player.limited\n');
  ({ child: server, port } = await startServer(['--http', '--tokens', tokens]));
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  builder = await connect('build-token');
});

after(async () => {
  await builder?.close();
  await browser?.close();
  server?.kill();
});

test('the viewer shows the world and follows another client\'s create, move, destroy and speech bubble', async () => {
  for (let i = 0; i < 4; i++) await tool('scene.createEntity', { shape: i % 2 ? 'sphere' : 'box', position: [i * 1.5 - 2, 0.5, 0], color: 0x3366cc + i * 0x2200 });
  const { entities: listed } = await tool('scene.queryEntities', {});
  const { page, errors } = await openViewer('#token=watch-token');
  try {
    assert.ok(!page.url().includes('token'), `the token left the address bar: ${page.url()}`);
    await page.waitForFunction(() => window.liminaViewer?.connected(), null, WAIT);
    await page.waitForFunction((n) => window.liminaViewer.entityCount() === n, listed.length, WAIT);

    const { entity } = await tool('scene.createEntity', { shape: 'capsule', position: [0, 1, 2], color: 0xcc3333 });
    await page.waitForFunction((id) => window.liminaViewer.hasEntity(id), entity, WAIT);

    await tool('ecs.updateComponent', { entity, component: 'position', value: [3, 1, -2] });
    await page.waitForFunction((id) => {
      const p = window.liminaViewer.position(id);
      return p && Math.abs(p[0] - 3) < 1e-3 && Math.abs(p[2] + 2) < 1e-3;
    }, entity, WAIT);

    await tool('ui.speechBubble', { text: 'hello from the test', anchor: { kind: 'world', entity } });
    await page.waitForFunction(() => window.liminaViewer.bubbles().some((b) => b.text === 'hello from the test'), null, WAIT);
    await page.locator('.ui.speechBubble', { hasText: 'hello from the test' }).waitFor({ state: 'visible', timeout: WAIT.timeout });

    await tool('scene.destroyEntity', { entity });
    await page.waitForFunction((id) => !window.liminaViewer.hasEntity(id), entity, WAIT);
    assert.equal(await page.evaluate(() => window.liminaViewer.entityCount()), listed.length);

    // system.readonly holds trace.read: the panel fills with the world's events.
    await page.waitForFunction(() => document.querySelectorAll('#trace-lines li').length > 0, null, WAIT);
    assert.deepEqual(errors, [], 'no script errors');
  } finally {
    await page.close();
  }
});

test('UI lifecycles play in the viewer as the world plays them: fade, typewriter, queue, expiry', async () => {
  // The world is paused and stepped; at each tick the viewer's element (its hook reports the tick
  // it shows) must read as `world.digest` reads it (the native `present`), at the opacity the
  // fade gives. Before the viewer ran lifecycles, it showed every text whole at once.
  const { page, errors } = await openViewer('#token=watch-token');
  await tool('world.pause', {});
  try {
    await page.waitForFunction(() => window.liminaViewer?.connected(), null, WAIT);
    const label = (await tool('ui.panel', { kind: 'label', anchor: { kind: 'screen', corner: 'top-left' }, text: 'typing out',
      lifecycle: { typewriter: { cps: 30 }, fade: { durationMs: 500 }, ttl: 2000 } })).handle;
    const queue = (await tool('ui.panel', { kind: 'speechBubble', anchor: { kind: 'world', point: [0, 2, 0] },
      lifecycle: { typewriter: { cps: 30 }, queue: { lines: ['first', 'second'], defaultHoldMs: 500 } } })).handle;
    const start = (await tool('world.digest', {})).tick;
    const native = async () => {
      const d = await tool('world.digest', {});
      const text = (h) => d.ui.find((r) => r.id === h)?.text ?? null;
      return { tick: d.tick, label: text(label), queue: text(queue) };
    };
    const shown = async (tick) => {
      await page.waitForFunction(([h, t]) => window.liminaViewer.ui(h)?.tick === t, [queue, tick], WAIT);
      return page.evaluate(([a, b]) => ({ label: window.liminaViewer.ui(a), queue: window.liminaViewer.ui(b) }), [label, queue]);
    };
    // age in ticks -> the label's revealed text and opacity (500 ms fade = 30 ticks, in and before the 120-tick ttl)
    const expected = { 0: ['', 0], 3: ['t', 0.1], 15: ['typing ', 0.5], 45: ['typing out', 1], 105: ['typing out', 0.5] };
    for (const age of [0, 3, 15, 45, 105]) {
      const now = (await native()).tick;
      if (start + age > now) await tool('world.step', { ticks: start + age - now });
      const world = await native();
      assert.equal(world.tick, start + age);
      const page_ = await shown(world.tick);
      assert.equal(page_.label.text, world.label, `the label at age ${age}`);
      assert.equal(page_.queue.text, world.queue, `the queue at age ${age}`);
      assert.equal(page_.label.text, expected[age][0]);
      assert.ok(Math.abs(page_.label.opacity - expected[age][1]) < 1e-6, `opacity ${page_.label.opacity} at age ${age}, want ${expected[age][1]}`);
      assert.equal(page_.label.drawn, expected[age][1] > 0);
      assert.equal(page_.label.full, 'typing out', 'sized for the whole line while it types out');
    }
    // The queue moved on to its second line (5 chars + 500 ms hold = 40 ticks per line).
    assert.match(await page.evaluate((h) => window.liminaViewer.ui(h).text, queue), /^second$/);
    // The ttl: gone from the world, gone from the page.
    await tool('world.step', { ticks: start + 120 - (await native()).tick });
    assert.equal((await native()).label, null);
    await page.waitForFunction((h) => window.liminaViewer.ui(h) === null, label, WAIT);
    assert.deepEqual(errors, []);
  } finally {
    await tool('world.resume', {});
    await page.close();
  }
});

test('a bad token sees a refusal, not an empty scene', async () => {
  const { page, errors } = await openViewer('#token=not-a-token');
  try {
    await page.locator('#login').waitFor({ state: 'visible', timeout: WAIT.timeout });
    assert.match(await page.locator('#login-why').textContent(), /refused/);
    assert.equal(await page.evaluate(() => window.liminaViewer.connected()), false);
    assert.equal(await page.evaluate(() => window.liminaViewer.entityCount()), 0);
    // The form takes a good one.
    await page.fill('#login-token', 'watch-token');
    await page.click('#login button');
    await page.waitForFunction(() => window.liminaViewer.connected() && window.liminaViewer.entityCount() > 0, null, WAIT);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test('a token without trace.read watches, and its trace panel says it may not read the trace', async () => {
  const { page } = await openViewer('#token=player-token');
  try {
    await page.waitForFunction(() => window.liminaViewer.connected(), null, WAIT);
    await page.waitForFunction(() => /trace\.read/.test(document.getElementById('trace-state').textContent), null, WAIT);
    assert.equal(await page.locator('#trace-lines li').count(), 0);
  } finally {
    await page.close();
  }
});

test('a page from a foreign origin cannot use the server', async () => {
  const page = await browser.newPage();
  try {
    // about:blank has an opaque origin; a fetch from it carries `Origin: null`, which is refused.
    const status = await page.evaluate(async (p) => {
      try {
        const r = await fetch(`http://127.0.0.1:${p}/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer watch-token' }, body: '{}' });
        return r.status;
      } catch (e) {
        return 'blocked';
      }
    }, port);
    assert.ok(status === 403 || status === 'blocked', `got ${status}`);
  } finally {
    await page.close();
  }
});

test('the viewer shows 20,000 moving entities and keeps drawing them within its vertex budget', async () => {
  // Its own server: 20,000 dynamic bodies falling in a running world (a Lua scene is quicker to
  // build than 20,000 tool calls). Before levels of detail by population, a frame drew ~4.5 million
  // vertices (twice, with shadows) and SwiftShader drew no frame in tens of seconds.
  const n = 20000;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'limina-viewer-many-'));
  const scene = path.join(dir, 'many.lua');
  writeFileSync(scene, `
local side = math.ceil(math.sqrt(${n}))
for i = 0, ${n} - 1 do
  local r = limina.call("scene.createEntity", { shape = (i % 2 == 0) and "box" or "sphere", size = 0.5, dynamic = true,
    position = { (i % side - side / 2) * 0.8, 1 + (i % 13) * 0.9, (math.floor(i / side) - side / 2) * 0.8 } })
  if not r.success then error(r.error.message) end
end
`);
  writeFileSync(path.join(dir, 'tokens'), 'many-token system.readonly\n');
  const { child, port: manyPort } = await startServer(['--http', '--tokens', path.join(dir, 'tokens'), '--scene', scene]);
  const page = await browser.newPage({ viewport: { width: 640, height: 400 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(`http://127.0.0.1:${manyPort}/#token=many-token`);
    const LONG = { timeout: 300000, polling: 500 };
    // The count the page displays (written by its frame loop, so a frame was drawn with them).
    await page.waitForFunction((want) => document.getElementById('counts').textContent.startsWith(`${want} entities`), n, LONG);
    const shown = await page.evaluate(() => window.liminaViewer.frameStats());
    // And it keeps drawing while they move: more frames come.
    await page.waitForFunction((since) => window.liminaViewer.frameStats().drawn >= since + 3, shown.drawn, LONG);
    const draw = await page.evaluate(() => window.liminaViewer.drawStats());
    assert.equal(draw.batches.reduce((k, b) => k + b.instances, 0), n, JSON.stringify(draw));
    assert.ok(draw.vertices <= 500000, `a frame draws ${draw.vertices} vertices for ${n} entities: ${JSON.stringify(draw)}`);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    child.kill();
  }
});
