/**
 * The built server the tests drive from outside (`node dist/start.js`, what `npm start` runs).
 * `npm test`'s bootstrap builds it (scripts/bootstrap/up-to-date.mjs); with CI set a missing or
 * stale build fails the tests, elsewhere one older than its sources (or than the fa-mcp-sdk
 * build it compiles against) is built here first, by one test worker at a time, so no worker
 * starts a server from a half-written dist/. A stale fa-mcp-sdk build fails everywhere.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from '../../../../scripts/cluster/cluster.mjs';
import { buildIsCurrent, inCi, newestFile } from '../../../../scripts/test-kit/ci-checks.mjs';
import { assertSdkBuildIsCurrent } from '../../../../scripts/test-kit/sdk-build.mjs';

const ROOT = join(import.meta.dirname, '..', '..');
export const EVERYTHING_ENTRY = join(ROOT, 'dist', 'start.js');
const BUILT = [EVERYTHING_ENTRY, join(ROOT, 'dist', 'server.js')];
const SOURCES = [join(ROOT, 'src'), join(ROOT, 'package.json'), join(ROOT, 'tsconfig.json'), join(ROOT, '..', '..', 'packages', 'fa-mcp-sdk', 'dist', 'index.d.ts')];
const LOCK = join(tmpdir(), `fa-mcp-everything-build-${Buffer.from(ROOT).toString('hex').slice(-32)}.lock`);
const BUILD_MS = 120_000;

const stale = () => newestFile(SOURCES).mtimeMs > Math.min(...BUILT.map((f) => (existsSync(f) ? statSync(f).mtimeMs : 0)));

/** Takes the build lock (a directory: made by one process only); a lock older than a build is a crashed holder's. */
function tryLock(): boolean {
  try {
    mkdirSync(LOCK);
    return true;
  } catch {
    if (existsSync(LOCK) && Date.now() - statSync(LOCK).mtimeMs > BUILD_MS) rmSync(LOCK, { recursive: true, force: true });
    return false;
  }
}

export async function everythingDist(): Promise<string> {
  assertSdkBuildIsCurrent();
  if (inCi()) {
    buildIsCurrent({ name: 'examples/everything', built: BUILT, sources: SOURCES, rebuild: 'node scripts/run-pnpm.mjs --filter fa-mcp-everything run build' }, { ...process.env, CI: 'true' });
    return EVERYTHING_ENTRY;
  }
  if (!stale()) return EVERYTHING_ENTRY;
  await waitUntil(tryLock, BUILD_MS, 'the build lock of examples/everything');
  try {
    if (stale()) {
      const tsc = createRequire(join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
      execFileSync(process.execPath, [tsc, '-p', ROOT], { stdio: 'pipe', timeout: BUILD_MS });
    }
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
  return EVERYTHING_ENTRY;
}
