// Lets the MCP conformance suite (@modelcontextprotocol/conformance, which asks for Node 22) run
// on Node 20: its one bundle imports `globSync` from `fs`, which Node 20 lacks, and that import
// alone fails the whole CLI before any scenario runs. The server scenarios never call it (only
// `tier-check` does), so a stand-in that throws if ever called is enough. Loaded with
// `node --import ./node20-globsync.mjs` only when `fs.globSync` is missing; it redirects `fs`
// for modules of that package alone. The file is both the registration (main thread) and the
// resolve hook (the loader thread).
import fs from 'node:fs';
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

const STAND_IN = 'data:text/javascript,' + encodeURIComponent(
  "import fs from 'node:fs'; export * from 'node:fs'; export default fs;\n" +
  "export const globSync = fs.globSync ?? (() => { throw new Error('fs.globSync needs Node 22'); });\n",
);

export async function resolve(specifier, context, next) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes('/@modelcontextprotocol/conformance/')) {
    return { url: STAND_IN, shortCircuit: true };
  }
  return next(specifier, context);
}

if (isMainThread && !fs.globSync) {
  register(import.meta.url);
}
