// The peers (SDK v1, fastmcp) live in a bench-only package, scripts/bench/peers, with its own pinned
// lockfile: never the library's dependencies, never installed by `npm test`. Installed here on the
// first run of the bench (npm ci), and again when the lockfile changed.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_DIR } from './paths.mjs';

export const PEERS_DIR = join(BENCH_DIR, 'peers');

export function ensurePeers(log = console.log) {
  const lock = readFileSync(join(PEERS_DIR, 'package-lock.json'), 'utf8');
  const installed = join(PEERS_DIR, 'node_modules', '.package-lock.json');
  const wanted = JSON.parse(lock).packages;
  const current = existsSync(installed) ? JSON.parse(readFileSync(installed, 'utf8')).packages : {};
  const stale = Object.entries(wanted).some(([path, pkg]) => path !== '' && current[path]?.version !== pkg.version);
  if (!stale) return;
  log('installing the bench peers (scripts/bench/peers, npm ci)...');
  try {
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: PEERS_DIR, stdio: ['ignore', 'ignore', 'inherit'] });
  } catch (err) {
    throw new Error(`could not install the bench peers in ${PEERS_DIR} (npm ci failed: ${err.message}); the bench compares against them and cannot run without them`);
  }
}
