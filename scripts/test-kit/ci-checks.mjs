// Checks the tests of every package share (fa-mcp-sdk, create-fa-mcp, the
// examples): whether they run in CI, and whether a build they run is there and
// newer than its sources. Outside CI a missing service or build may skip its
// tests with a warning; in CI (CI set, and not "false" or "0") it fails them, so
// a green CI run cannot hide skipped tests. A stale build fails everywhere: a
// test that ran an old dist/ would prove nothing about the sources.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function inCi(env = process.env) {
  const value = env.CI;
  return value !== undefined && value !== '' && value !== 'false' && value !== '0';
}

/**
 * Whether a service a test file needs is there. Missing: throws in CI (with
 * `fix` in the message), warns and answers false elsewhere (the file skips).
 */
export function serviceAvailable(available, what, fix, env = process.env) {
  if (available) return true;
  if (inCi(env)) throw new Error(`${what} is missing, and CI must not skip its tests: ${fix}`);
  console.warn(`[tests] skipped: ${what} is missing (${fix})`);
  return false;
}

/** The newest modification time (ms) of the files under `paths` (files or folders), with the file it belongs to. */
export function newestFile(paths, skip = ['node_modules', 'dist']) {
  let newest = { path: '', mtimeMs: 0 };
  const visit = (path) => {
    const st = statSync(path);
    if (st.isDirectory()) {
      for (const entry of readdirSync(path)) if (!skip.includes(entry)) visit(join(path, entry));
    } else if (st.mtimeMs > newest.mtimeMs) newest = { path, mtimeMs: st.mtimeMs };
  };
  for (const path of paths) if (existsSync(path)) visit(path);
  return newest;
}

/**
 * Whether the build files `built` are there and newer than every file under
 * `sources`. Older than a source: throws (everywhere). Missing: throws in CI,
 * warns and answers false elsewhere (the caller skips). `rebuild` says how to fix it.
 */
export function buildIsCurrent({ name, built, sources, rebuild }, env = process.env) {
  const missing = built.filter((file) => !existsSync(file));
  if (missing.length) {
    if (inCi(env)) throw new Error(`${name} is not built (${missing.join(', ')} missing): run ${rebuild}`);
    console.warn(`[tests] skipped: ${name} is not built (${missing.join(', ')} missing): run ${rebuild}`);
    return false;
  }
  const oldest = Math.min(...built.map((file) => statSync(file).mtimeMs));
  const newest = newestFile(sources);
  if (newest.mtimeMs > oldest) throw new Error(`${name} is older than its sources (${newest.path} changed after the build): run ${rebuild}`);
  return true;
}
