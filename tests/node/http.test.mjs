// The TypeScript SDK's StreamableHTTPClientTransport against `limina mcp --http`: list, call,
// isError for a bound, tools/list_changed after skills.enable, and bearer tokens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { startServer } from './common.mjs';

async function connect(port, headers = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { requestInit: { headers } });
  const client = new Client({ name: 'limina-node-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

test('streamable HTTP: list, call, isError for a bound, list_changed after skills.enable', async () => {
  const { child, port } = await startServer(['--http']);
  try {
    const client = await connect(port);
    const changed = new Promise((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve(true)));
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'scene.createEntity'), 'scene.createEntity is listed');
    const made = await client.callTool({ name: 'scene.createEntity', arguments: { shape: 'box', position: [1, 2, 3] } });
    assert.equal(made.isError, false);
    assert.match(made.structuredContent.entity, /^ent_\d{4,}$/);
    const bad = await client.callTool({ name: 'scene.createEntity', arguments: { size: -1 } });
    assert.equal(bad.isError, true);
    assert.match(bad.content[0].text, /size/);
    const enabled = await client.callTool({ name: 'skills.enable', arguments: { categories: ['audio'] } });
    assert.equal(enabled.isError, false, JSON.stringify(enabled));
    const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error('no tools/list_changed within 10 s')), 10000));
    assert.equal(await Promise.race([changed, timeout]), true);
    const after = await client.listTools();
    assert.ok(after.tools.some((t) => t.name.startsWith('audio.')), 'the enabled category is listed now');
    await client.close();
  } finally {
    child.kill();
  }
});

test('streamable HTTP: a missing or unknown bearer token is refused, a known one maps to its profile', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'limina-tokens-'));
  const tokens = path.join(dir, 'tokens');
  writeFileSync(tokens, 'reader-token system.readonly\n');
  const { child, port } = await startServer(['--http', '--tokens', tokens]);
  try {
    await assert.rejects(connect(port), /401|nauthorized/);
    await assert.rejects(connect(port, { Authorization: 'Bearer wrong' }), /401|nauthorized/);
    const reader = await connect(port, { Authorization: 'Bearer reader-token' });
    const denied = await reader.callTool({ name: 'scene.createEntity', arguments: {} });
    assert.equal(denied.isError, true);
    assert.match(denied.content[0].text, /scene\.write/);
    await reader.close();
  } finally {
    child.kill();
  }
});
