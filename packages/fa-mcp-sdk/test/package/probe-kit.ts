/**
 * What the cold-start tests share: the built package, and a probe fixture run in a child process
 * with the load recorder (fixtures/load-recorder.mjs), its JSON output parsed.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PKG = fileURLToPath(new URL('../../', import.meta.url));
export const DIST = join(PKG, 'dist', 'index.js');
const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** Throws unless dist/ is built from the current sources (the probes run it). */
export function assertBuilt(): void {
  if (!existsSync(DIST) || statSync(DIST).mtimeMs < statSync(join(PKG, 'src', 'index.ts')).mtimeMs) {
    throw new Error('packages/fa-mcp-sdk/dist is missing or older than src/: run `pnpm run build` at the repository root first');
  }
}

export const probeWorkDir = (prefix: string): string => mkdtempSync(join(tmpdir(), prefix));

let runs = 0;

/** Runs fixtures/<fixture> with `args` in `cwd` (and `env` added), recording every module it loads; resolves with what it printed. */
export function runProbe<T>(cwd: string, fixture: string, args: string[], env: Record<string, string> = {}): Promise<T> {
  const log = join(cwd, `${fixture}-${runs++}.log`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', join(FIXTURES, 'load-recorder.mjs'), join(FIXTURES, fixture), ...args], {
      cwd,
      env: { ...process.env, ...env, FA_MCP_LOAD_LOG: log, NODE_ENV: 'development' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(JSON.parse(out) as T) : reject(new Error(`probe exited ${code}:\n${out}\n${err}`))));
  });
}
