// The TypeScript SDK's WebSocketClientTransport (it asks for the `mcp` subprotocol, and the
// connection fails unless the server echoes it) against `limina mcp --ws`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocket as WsWebSocket } from 'ws';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { WebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
import { startServer } from './common.mjs';

// Node 22 has a global WebSocket; older Nodes get the `ws` package's (the same API).
globalThis.WebSocket ??= WsWebSocket;

test('websocket: connect with the mcp subprotocol, list, call', async () => {
  const { child, port } = await startServer(['--ws']);
  try {
    const client = new Client({ name: 'limina-node-test', version: '1.0.0' });
    await client.connect(new WebSocketClientTransport(new URL(`ws://127.0.0.1:${port}`)));
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'scene.createEntity'), 'scene.createEntity is listed');
    const made = await client.callTool({ name: 'scene.createEntity', arguments: { shape: 'sphere' } });
    assert.equal(made.isError, false);
    assert.match(made.structuredContent.entity, /^ent_\d{4,}$/);
    await client.close();
  } finally {
    child.kill();
  }
});
