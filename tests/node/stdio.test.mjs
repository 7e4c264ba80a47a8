// The TypeScript SDK's stdio client against `limina mcp --stdio`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { limina, root } from './common.mjs';

test('stdio: list, call, and an isError result for a bound', async () => {
  const transport = new StdioClientTransport({ command: limina, args: ['mcp', '--stdio'], cwd: root, stderr: 'ignore' });
  const client = new Client({ name: 'limina-node-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'scene.createEntity'), 'scene.createEntity is listed');
    const made = await client.callTool({ name: 'scene.createEntity', arguments: { shape: 'sphere' } });
    assert.equal(made.isError, false);
    assert.match(made.structuredContent.entity, /^ent_\d{4,}$/);
    const bad = await client.callTool({ name: 'scene.createEntity', arguments: { size: -1 } });
    assert.equal(bad.isError, true);
    assert.match(bad.content[0].text, /size/);
  } finally {
    await client.close();
  }
});
