/** Builds the demo's `dist/` (what `node dist/start.js` runs) when a source file is newer than it. */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { DEMO_ROOT } from '../src/server.js';

export const DEMO_START = join(DEMO_ROOT, 'dist', 'start.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export function buildDemoDist(): string {
  if (!existsSync(DEMO_START) || statSync(DEMO_START).mtimeMs < newestSource(join(DEMO_ROOT, 'src'))) {
    const tsc = createRequire(join(DEMO_ROOT, 'package.json')).resolve('typescript/bin/tsc');
    execFileSync(process.execPath, [tsc, '-p', DEMO_ROOT], { stdio: 'pipe', timeout: 120_000 });
  }
  return DEMO_START;
}
