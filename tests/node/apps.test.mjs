// MCP Apps end to end: a host built on the extension's own host SDK (`AppBridge` from
// @modelcontextprotocol/ext-apps/app-bridge, bundled for the page with esbuild) opens limina's
// view `ui://limina/world` in a sandboxed iframe in real headless Debian chromium, the way Claude
// or VS Code do: its MCP client (the TypeScript SDK, over stdio to a real `limina mcp`) declares
// the extension, finds the view on `world.view`'s `_meta.ui.resourceUri`, reads the document,
// calls the tool and hands the result to the view; the view's own `tools/call`s come back
// through the bridge and are proxied to the server. The view's read-only hook
// (`window.liminaView`) must show the world's entity count, and follow the world when it changes;
// a glTF entity's model, which the view cannot fetch, arrives through the app-only
// `world.viewModel` and replaces its placeholder (the viewer's hook `modelShown`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { getToolUiResourceUri, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/app-bridge';
import { EXTENSION_ID } from '@modelcontextprotocol/ext-apps/server';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { limina, root } from './common.mjs';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

async function connect(capabilities) {
  const transport = new StdioClientTransport({ command: limina, args: ['mcp', '--stdio'], cwd: root, stderr: 'ignore' });
  const client = new Client({ name: 'limina-apps-host', version: '1.0.0' }, { capabilities });
  await client.connect(transport);
  return client;
}

/** The host SDK as one classic script for the page (`window.ExtApps`). */
async function hostBundle() {
  const out = await build({
    stdin: {
      contents: "export { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';",
      resolveDir: new URL('.', import.meta.url).pathname,
    },
    bundle: true, format: 'iife', globalName: 'ExtApps', platform: 'browser', write: false, logLevel: 'silent',
  });
  return out.outputFiles[0].text;
}

/** The CSP a host derives from the resource's `_meta.ui.csp` (none of the origins: 'none'). */
function cspFor(csp = {}) {
  const list = (domains) => (domains?.length ? domains.join(' ') : '');
  const res = list(csp.resourceDomains);
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${res}`.trim(),
    `style-src 'unsafe-inline' ${res}`.trim(),
    `img-src data: blob: ${res}`.trim(),
    `connect-src ${list(csp.connectDomains) || "'none'"}`,
  ].join('; ');
}

/** The host page: an iframe (scripts only, opaque origin) and an AppBridge on it. */
const HOST_PAGE = `<!doctype html><html><body><div id="host"></div><script>
window.openView = async function (html, toolResult) {
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.style.width = '640px'; iframe.style.height = '480px';
  document.getElementById('host').appendChild(iframe);
  const { AppBridge, PostMessageTransport } = window.ExtApps;
  const bridge = new AppBridge(null, { name: 'limina-test-host', version: '1.0.0' },
    { serverTools: {}, openLinks: {}, logging: {} }, { hostContext: { theme: 'dark', displayMode: 'inline' } });
  window.proxied = [];
  bridge.oncalltool = async (params) => { window.proxied.push(params.name); return window.hostCallTool(params); };
  window.viewSize = null;
  bridge.onsizechange = (size) => { window.viewSize = size; };
  bridge.oninitialized = async () => {
    window.viewInitialized = true;
    await bridge.sendToolInput({ arguments: {} });
    await bridge.sendToolResult(toolResult);
  };
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  iframe.srcdoc = html;
};
</script></body></html>`;

test('the view renders the world through the MCP Apps host bridge', { timeout: 180000 }, async (t) => {
  const client = await connect({ extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } });
  t.after(() => client.close());
  const plain = await connect({});
  t.after(() => plain.close());

  // Discovery, as a host does it: the tool names its view; a client without the extension sees
  // neither the link nor (in the core tier) the tool.
  const { tools } = await client.listTools();
  const view = tools.find((tool) => tool.name === 'world.view');
  assert.ok(view, 'an Apps client lists world.view');
  const uri = getToolUiResourceUri(view);
  assert.equal(uri, 'ui://limina/world');
  const plainTools = (await plain.listTools()).tools;
  assert.ok(!plainTools.some((tool) => tool.name === 'world.view' || tool.name === 'world.viewModel' || tool._meta?.ui));
  // The view's model loader is app-only: listed to the Apps host, hidden from its model.
  const modelTool = tools.find((tool) => tool.name === 'world.viewModel');
  assert.deepEqual(modelTool?._meta?.ui, { visibility: ['app'] });
  const { resources } = await client.listResources();
  // The view, first; instruction skills (skill://, from the project's scripts/) may follow.
  assert.deepEqual(resources.filter((r) => r.uri.startsWith('ui://')).map((r) => [r.uri, r.mimeType]), [[uri, RESOURCE_MIME_TYPE]]);
  assert.equal(resources[0].uri, uri);
  const read = await client.readResource({ uri });
  const doc = read.contents[0];
  assert.equal(doc.mimeType, RESOURCE_MIME_TYPE);
  assert.deepEqual(doc._meta.ui.csp, { connectDomains: [], resourceDomains: [] });

  // A world to look at, then the call that opens the view.
  for (const [i, shape] of ['box', 'sphere', 'capsule'].entries()) {
    const made = await client.callTool({ name: 'scene.createEntity', arguments: { shape, position: [i * 2 - 2, 1, 0], color: 0x3366ff * (i + 1) } });
    assert.equal(made.isError, false, JSON.stringify(made));
  }
  // A glTF model: the sandboxed view cannot fetch /assets, so it loads the bytes through the bridge.
  const crate = await client.callTool({ name: 'three.loadGLTF', arguments: { assetId: 'models/crate.glb', position: [0, 0, 3] } });
  assert.equal(crate.isError, false, JSON.stringify(crate));
  const crateId = crate.structuredContent.entity;
  const opened = await client.callTool({ name: 'world.view', arguments: {} });
  assert.equal(opened.isError, false);
  const total = opened.structuredContent.total;
  assert.ok(total >= 3, `the world has the three entities and the default scene: ${total}`);

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'],
  });
  t.after(() => browser.close());
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.exposeFunction('hostCallTool', (params) => client.callTool(params));
  await page.setContent(HOST_PAGE);
  await page.addScriptTag({ content: await hostBundle() });
  // The host applies the CSP the resource's metadata asks for (as hosts' sandboxes do).
  const html = doc.text.replace('<head>', `<head><meta http-equiv="Content-Security-Policy" content="${cspFor(doc._meta.ui.csp)}">`);
  await page.evaluate(([h, r]) => window.openView(h, r), [html, opened]);

  await page.waitForFunction(() => window.viewInitialized === true, null, { timeout: 60000 });
  const frame = page.frames().find((f) => f !== page.mainFrame());
  assert.ok(frame, 'the view frame');
  // The tool result it was opened with, then its own polls through the bridge.
  await frame.waitForFunction((n) => window.liminaView && window.liminaView.entityCount() === n, total, { timeout: 60000 });
  await frame.waitForFunction(() => window.liminaView.polls() >= 2, null, { timeout: 60000 });
  // The crate's model replaced its placeholder, its bytes fetched once through the host.
  await frame.waitForFunction((id) => window.liminaViewer.modelShown(id) && window.liminaViewer.modelsLoading() === 0, crateId, { timeout: 60000 });
  const proxied = await page.evaluate(() => window.proxied);
  assert.equal(proxied.filter((name) => name === 'world.viewModel').length, 1, JSON.stringify(proxied));
  assert.ok(proxied.filter((name) => name === 'world.view').length >= 2, JSON.stringify(proxied));
  assert.ok(proxied.every((name) => name === 'world.view' || name === 'world.viewModel'), JSON.stringify(proxied));
  assert.ok((await page.evaluate(() => window.viewSize))?.height > 0, 'the view told the host its size');

  // The world changes; the view follows through its polls.
  const added = await client.callTool({ name: 'scene.createEntity', arguments: { shape: 'sphere', position: [0, 4, 0] } });
  assert.equal(added.isError, false);
  await frame.waitForFunction((n) => window.liminaView.entityCount() === n, total + 1, { timeout: 60000 });
  assert.equal(await frame.evaluate(() => window.liminaView.lastError()), null);
  // The hook is read-only.
  assert.equal(await frame.evaluate(() => { try { window.liminaView.entityCount = () => 0; } catch (e) { /* frozen */ } return window.liminaView.entityCount(); }), total + 1);
  assert.deepEqual(errors, []);
});
