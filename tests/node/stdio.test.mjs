// The TypeScript SDK's stdio client against `limina mcp --stdio`.
import { test } from 'node:test';
import { existsSync } from 'node:fs';
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

// Where Mesa's CPU Vulkan driver is installed (as CI installs it), render.capture must work.
const gpu = existsSync('/usr/share/vulkan/icd.d/lvp_icd.x86_64.json') || Boolean(process.env.LIMINA_REQUIRE_GPU);

test('stdio: render.capture sends its PNG once, as an image block, and the SDK accepts its structuredContent', { skip: !gpu && 'no Vulkan driver' }, async () => {
  const transport = new StdioClientTransport({ command: limina, args: ['mcp', '--stdio', '--empty'], cwd: root, stderr: 'ignore' });
  const client = new Client({ name: 'limina-node-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    // Listing tools makes the SDK validate each call's structuredContent against its outputSchema.
    await client.listTools();
    const made = await client.callTool({ name: 'scene.createEntity', arguments: { shape: 'sphere', position: [0, 0, 0] } });
    const shot = await client.callTool({ name: 'render.capture', arguments: { size: 'thumbnail', labelEntities: true } });
    assert.equal(shot.isError, false);
    const images = shot.content.filter((c) => c.type === 'image');
    assert.equal(images.length, 1, 'one image block');
    assert.equal(images[0].mimeType, 'image/png');
    assert.equal(shot.structuredContent.data, undefined, 'no PNG in structuredContent');
    assert.equal(shot.structuredContent.width, 320);
    assert.deepEqual(shot.structuredContent.labels.map((l) => l.entity), [made.structuredContent.entity]);
    assert.equal(JSON.stringify(shot).split(images[0].data).length - 1, 1, 'the PNG appears once');
  } finally {
    await client.close();
  }
});
