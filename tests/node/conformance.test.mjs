// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in package.json)
// against `limina mcp --http`, one fresh server per scenario, in a project made by `limina new`
// with an instruction skill of our own (a body, a text file and a binary file beside it).
//
// Only the server scenarios that test limina's real behaviour run. The others ask for the
// reference "everything" server's fixtures, which a limina project cannot hold honestly:
// tools named test_* (tools-call-*, elicitation-*, json-schema-2020-12, server-sse-polling),
// resources at fixed test:// URIs (resources-read-text, resources-read-binary,
// resources-templates-read), prompts named test_* (prompts-get-*: an instruction skill's name
// is a-z, 0-9 and `-`, and its prompt takes no arguments), or capabilities limina does not
// advertise (logging-set-level, completion-complete, resources-subscribe/-unsubscribe).
// The last test applies those scenarios' own checks, with the same SDK client, to a skill://
// URI and a skill's prompt instead.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs, { mkdtempSync, mkdirSync, writeFileSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { limina, startServer } from './common.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);
const require = createRequire(import.meta.url);
const suite = path.join(path.dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist/index.js');
// Node 20 lacks fs.globSync, which the suite's bundle imports (see node20-globsync.mjs).
const nodeArgs = fs.globSync ? [] : ['--import', path.join(here, 'node20-globsync.mjs')];

/** The server scenarios that apply to limina, each with the check it must pass. */
const SCENARIOS = {
  'server-initialize': 'server-initialize',
  ping: 'ping',
  'tools-list': 'tools-list',
  'prompts-list': 'prompts-list',
  'resources-list': 'resources-list',
  'server-sse-multiple-streams': 'server-accepts-multiple-post-streams',
  'dns-rebinding-protection': 'localhost-host-rebinding-rejected',
};

const SKILL = '---\nname: conformance-probe\ndescription: A skill the conformance test reads back.\n---\n# Probe\nRead me.\n';
// A 1x1 PNG: not UTF-8, so it is served as a base64 blob.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

let work;
let project;

before(() => {
  work = mkdtempSync(path.join(os.tmpdir(), 'limina-conformance-'));
  project = path.join(work, 'proj');
  const made = spawnSync(limina, ['new', project], { encoding: 'utf8' });
  assert.equal(made.status, 0, `limina new failed: ${made.stderr}`);
  const skill = path.join(project, 'scripts/conformance-probe');
  mkdirSync(path.join(skill, 'refs'), { recursive: true });
  writeFileSync(path.join(skill, 'SKILL.md'), SKILL);
  writeFileSync(path.join(skill, 'refs/notes.txt'), 'three-point rig\n');
  writeFileSync(path.join(skill, 'refs/dot.png'), PNG);
});

after(() => rmSync(work, { recursive: true, force: true }));

/** Runs one scenario of the suite against `url`; resolves with its checks. */
function runScenario(scenario, url) {
  const out = mkdtempSync(path.join(work, 'out-'));
  const run = spawnSync(process.execPath, [...nodeArgs, suite, 'server', '--url', url, '--scenario', scenario, '-o', out], { encoding: 'utf8' });
  const [dir] = readdirSync(out);
  assert.ok(dir, `${scenario}: the suite wrote no results (exit ${run.status}): ${run.stderr}${run.stdout}`);
  const checks = JSON.parse(readFileSync(path.join(out, dir, 'checks.json'), 'utf8'));
  return { status: run.status, checks, log: run.stdout + run.stderr };
}

for (const [scenario, mustPass] of Object.entries(SCENARIOS)) {
  test(`conformance suite: ${scenario}`, async () => {
    const { child, port } = await startServer(['--http', '--project', project]);
    try {
      const { status, checks, log } = runScenario(scenario, `http://127.0.0.1:${port}/mcp`);
      const failed = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
      assert.deepEqual(failed.map((c) => `${c.id}: ${c.errorMessage}`), [], `${scenario} failed checks`);
      assert.ok(checks.some((c) => c.id === mustPass && c.status === 'SUCCESS'), `${scenario}: no passing ${mustPass} check:\n${log}`);
      assert.equal(status, 0, `${scenario}: the suite exited ${status}:\n${log}`);
    } finally {
      child.kill();
    }
  });
}

test('the fixture-bound scenarios\' checks, applied to a skill\'s prompt and skill:// resources', async () => {
  const { child, port } = await startServer(['--http', '--project', project]);
  try {
    const client = new Client({ name: 'limina-conformance', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
    assert.deepEqual(client.getServerCapabilities().prompts, { listChanged: true });
    assert.deepEqual(client.getServerCapabilities().resources, { listChanged: true });
    // prompts-get-simple's checks: a messages array, each with a role and content.
    const prompt = await client.getPrompt({ name: 'conformance-probe' });
    assert.ok(Array.isArray(prompt.messages) && prompt.messages.length > 0);
    for (const m of prompt.messages) assert.ok(m.role && m.content, JSON.stringify(m));
    assert.equal(prompt.messages[0].content.text, '# Probe\nRead me.\n');
    // resources-read-text's checks on the body and a text file: uri, mimeType and text.
    for (const [uri, text] of [['skill://conformance-probe', '# Probe\nRead me.\n'], ['skill://conformance-probe/refs/notes.txt', 'three-point rig\n']]) {
      const { contents } = await client.readResource({ uri });
      assert.equal(contents.length, 1);
      assert.ok(contents[0].uri && contents[0].mimeType && contents[0].text, JSON.stringify(contents[0]));
      assert.equal(contents[0].text, text);
    }
    // resources-read-binary's: uri, mimeType and a base64 blob.
    const { contents } = await client.readResource({ uri: 'skill://conformance-probe/refs/dot.png' });
    assert.equal(contents[0].mimeType, 'image/png');
    assert.deepEqual(Buffer.from(contents[0].blob, 'base64'), PNG);
    await client.close();
  } finally {
    child.kill();
  }
});
