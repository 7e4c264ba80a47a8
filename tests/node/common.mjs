// Shared helpers for the Node client tests: where the binary is, and starting a server on a
// free port that says where it listens.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const limina = process.env.LIMINA_BIN ?? path.join(root, 'target/debug/limina');

/** Starts `limina mcp ARGS` (a network server) and resolves with {child, port} once it
 * prints `listening on ...:PORT`. */
export function startServer(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(limina, ['mcp', ...args, '--port', '0'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    const timer = setTimeout(() => { child.kill(); reject(new Error(`server did not start: ${err}`)); }, 60000);
    child.stderr.on('data', (chunk) => {
      err += chunk;
      const m = err.match(/listening on \S+:(\d+)/);
      if (m) { clearTimeout(timer); resolve({ child, port: Number(m[1]) }); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited with ${code}: ${err}`)); });
  });
}

/** The real Debian chromium the browser tests drive (playwright-core), headless. */
export const CHROMIUM = process.env.LIMINA_CHROMIUM ?? '/usr/bin/chromium';
/** WebGL2 in headless chromium without a GPU: ANGLE on SwiftShader. */
export const CHROMIUM_ARGS = ['--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', '--no-sandbox'];
