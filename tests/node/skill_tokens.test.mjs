// What instruction skills cost a decision, in o200k tokens (js-tiktoken): `limina bench --only
// skills` writes one builder.readWrite agent's OpenAI request body for each case, and this test
// counts them. Reading skills on demand must cost less than inlining all eight bodies, and an
// agent with skills enabled but none active must not pay for them at all.
import { test } from 'node:test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k_base from 'js-tiktoken/ranks/o200k_base';
import { limina, root } from './common.mjs';

const enc = new Tiktoken(o200k_base);

test('reading skills on demand costs less than inlining them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'limina-skill-tokens-'));
  execFileSync(limina, ['bench', '--only', 'skills'], { cwd: root, env: { ...process.env, LIMINA_BENCH_SKILLS_DUMP: dir } });
  const tokens = (name) => enc.encode(readFileSync(join(dir, `${name}.json`), 'utf8')).length;
  const t = {};
  for (const name of ['no-skills', 'eight-enabled-none-active', 'one-active', 'eight-active', 'eight-inlined-statically', 'list_skills', 'prompts_list', 'resources_list']) {
    t[name] = tokens(name);
    console.log(`${name.padEnd(26)} ${String(t[name]).padStart(6)} o200k tokens`);
  }
  assert.ok(t['eight-enabled-none-active'] < t['eight-inlined-statically'], 'discovery is cheaper than a static catalog');
  assert.ok(t['one-active'] < t['eight-inlined-statically'], 'one active skill is cheaper than all eight inlined');
  assert.ok(t['list_skills'] < 1000, `list_skills is small: ${t['list_skills']}`);
  assert.ok(t['prompts_list'] < 1500, `prompts/list is small: ${t['prompts_list']}`);
});
