// The web viewer fed from NATS (`limina spectate nats://…/WORLD --http ADDR`, docs/viewer.md) in
// the real headless Debian chromium, driven by playwright-core: a real `nats-server`, a server
// (`limina mcp --http --nats`) publishing its world there, and a relay that only reads NATS. The
// page opened on the relay shows the entities another MCP client creates on the server, follows
// their moves and removal, fills its trace panel, and a page opened late starts from a keyframe
// and sees the same world. A bad token gets the login form. Every wait polls the page's
// read-only hook (`window.liminaViewer`); no sleep is an assertion.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startServer, limina, root, CHROMIUM, CHROMIUM_ARGS } from './common.mjs';
const WAIT = { timeout: 60000, polling: 100 };

let nats, server, relay, relayLink, browser, builder;

/** `nats-server` with JetStream in a temporary folder, on a free port (read from its ports file). */
async function startNats() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'limina-nats-'));
  const child = spawn('nats-server', ['-js', '-sd', dir, '-a', '127.0.0.1', '-p', '-1', '-m', '-1', '--ports_file_dir', dir], { stdio: 'ignore' });
  const started = Date.now();
  while (Date.now() - started < 20000) {
    const file = readdirSync(dir).find((f) => f.endsWith('.ports'));
    if (file) {
      const ports = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
      const port = new URL(ports.nats[0]).port;
      if (port) return { child, url: `nats://127.0.0.1:${port}` };
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  child.kill();
  throw new Error('nats-server wrote no ports file');
}

/** `limina spectate URL --http 127.0.0.1:0`; resolves with the link it prints. */
function startRelay(url) {
  return new Promise((resolve, reject) => {
    const child = spawn(limina, ['spectate', url, '--http', '127.0.0.1:0'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    const timer = setTimeout(() => { child.kill(); reject(new Error(`the relay did not start: ${err}`)); }, 60000);
    child.stderr.on('data', (chunk) => {
      err += chunk;
      const m = err.match(/watch at (http:\/\/\S+)/);
      if (m) { clearTimeout(timer); resolve({ child, link: m[1] }); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`the relay exited with ${code}: ${err}`)); });
  });
}

async function tool(name, args) {
  const r = await builder.callTool({ name, arguments: args });
  assert.equal(r.isError, false, `${name}: ${JSON.stringify(r.content)}`);
  return r.structuredContent;
}

async function openViewer(link) {
  const page = await browser.newPage({ viewport: { width: 800, height: 500 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(link);
  return { page, errors };
}

before(async () => {
  assert.ok(existsSync(CHROMIUM), `no chromium at ${CHROMIUM}`);
  nats = await startNats();
  let port;
  ({ child: server, port } = await startServer(['--http', '--nats', nats.url]));
  ({ child: relay, link: relayLink } = await startRelay(`${nats.url}/main`));
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  builder = new Client({ name: 'limina-spectate-test', version: '1.0.0' });
  await builder.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
});

after(async () => {
  await builder?.close();
  await browser?.close();
  relay?.kill();
  server?.kill();
  nats?.child.kill();
});

test('a page on the relay shows what another client builds on the server, and follows it', async () => {
  const made = [];
  for (let i = 0; i < 3; i++) made.push((await tool('scene.createEntity', { shape: i % 2 ? 'sphere' : 'box', position: [i * 1.5 - 1.5, 0.5, 0], color: 0x3366cc })).entity);
  const { page, errors } = await openViewer(relayLink);
  try {
    assert.ok(!page.url().includes('token'), `the token left the address bar: ${page.url()}`);
    await page.waitForFunction(() => window.liminaViewer?.connected(), null, WAIT);
    await page.waitForFunction((ids) => ids.every((id) => window.liminaViewer.hasEntity(id)), made, WAIT);
    assert.equal(await page.evaluate(() => window.liminaViewer.hadSnapshot()), true, 'it started at a keyframe');

    const { entity } = await tool('scene.createEntity', { shape: 'capsule', position: [0, 1, 2], color: 0xcc3333 });
    await page.waitForFunction((id) => window.liminaViewer.hasEntity(id), entity, WAIT);
    await tool('ecs.updateComponent', { entity, component: 'position', value: [3, 1, -2] });
    await page.waitForFunction((id) => {
      const p = window.liminaViewer.position(id);
      return p && Math.abs(p[0] - 3) < 1e-3 && Math.abs(p[2] + 2) < 1e-3;
    }, entity, WAIT);
    await tool('scene.destroyEntity', { entity: made[0] });
    await page.waitForFunction((id) => !window.liminaViewer.hasEntity(id), made[0], WAIT);

    // The trace panel reads trace.tail from the relay, fed by the trace subject.
    await page.waitForFunction(() => [...document.querySelectorAll('#trace-lines li')].some((li) => li.textContent.includes('scene.createEntity')), null, WAIT);

    // A page opened now starts from the newest keyframe and shows the same world.
    const late = await openViewer(relayLink);
    try {
      const want = await page.evaluate(() => window.liminaViewer.entityCount());
      await late.page.waitForFunction((n) => window.liminaViewer?.connected() && window.liminaViewer.entityCount() === n, want, WAIT);
      await late.page.waitForFunction((id) => {
        const p = window.liminaViewer.position(id);
        return p && Math.abs(p[0] - 3) < 1e-3;
      }, entity, WAIT);
      assert.equal(await late.page.evaluate((id) => window.liminaViewer.hasEntity(id), made[0]), false);
      assert.deepEqual(late.errors, []);
    } finally {
      await late.page.close();
    }
    // Something drawn: the picture is not the empty sky alone (the mask holds the entities).
    const mask = await page.evaluate(() => window.liminaViewer.pixels({ mask: true }));
    const bytes = Buffer.from(mask.rgba, 'base64');
    let lit = 0;
    for (let i = 0; i < bytes.length; i += 4) if (bytes[i] || bytes[i + 1] || bytes[i + 2]) lit++;
    assert.ok(lit > 100, `only ${lit} pixels of entities drawn`);
    assert.deepEqual(errors, [], 'no script errors');
  } finally {
    await page.close();
  }
});

test('a page with a bad token on the relay gets the login form, and the good one works', async () => {
  const base = relayLink.split('#')[0];
  const { page, errors } = await openViewer(`${base}#token=not-the-token`);
  try {
    await page.locator('#login').waitFor({ state: 'visible', timeout: WAIT.timeout });
    assert.match(await page.locator('#login-why').textContent(), /refused/);
    assert.equal(await page.evaluate(() => window.liminaViewer.entityCount()), 0);
    await page.fill('#login-token', relayLink.split('#token=')[1]);
    await page.click('#login button');
    await page.waitForFunction(() => window.liminaViewer.connected() && window.liminaViewer.entityCount() > 0, null, WAIT);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});
