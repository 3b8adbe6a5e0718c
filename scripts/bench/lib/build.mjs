// Bundles the bench servers with the library's CURRENT sources (TypeScript, no dist/ needed) into
// packages/fa-mcp-sdk/node_modules/.cache/fa-mcp-bench, where the library's dependencies resolve.
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH_DIR, SDK_BUILD_DIR, SDK_DIR, sdkRequire } from './paths.mjs';

export const SERVER_ENTRIES = ['bare-sdk', 'fa-mcp'];

/**
 * BENCH_SDK_SRC=<folder> builds against another copy of packages/fa-mcp-sdk/src (e.g. a git
 * worktree of another commit), to compare revisions with the same bench.
 */
function sourcePlugin(srcDir) {
  return {
    name: 'fa-mcp-sdk-source',
    setup(build) {
      build.onResolve({ filter: /packages\/fa-mcp-sdk\/src\/index\.js$/ }, () => ({ path: join(srcDir, 'index.ts') }));
    },
  };
}

export async function buildBenchServers({ outdir = SDK_BUILD_DIR, entries = SERVER_ENTRIES } = {}) {
  const esbuild = createRequire(sdkRequire.resolve('tsup'))('esbuild');
  const srcDir = process.env.BENCH_SDK_SRC;
  await esbuild.build({
    entryPoints: entries.map((name) => join(BENCH_DIR, 'servers', `${name}.mjs`)),
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'error',
    plugins: srcDir ? [sourcePlugin(srcDir)] : [],
  });
  return Object.fromEntries(entries.map((name) => [name, join(outdir, `${name}.mjs`)]));
}

/**
 * A module of the library's current sources (`src/testing/webhook-receiver.ts`) bundled for the bench
 * process itself, as the servers are (its dependencies resolve from the library's package); imported.
 */
export async function importSdkSource(relPath) {
  const esbuild = createRequire(sdkRequire.resolve('tsup'))('esbuild');
  const outfile = join(SDK_BUILD_DIR, 'lib', relPath.replace(/\.ts$/, '.mjs'));
  await esbuild.build({ entryPoints: [join(SDK_DIR, relPath)], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'error' });
  return import(pathToFileURL(outfile).href);
}

/** A repository root or its library's src folder: the src folder. */
export function srcOf(dir) {
  dir = resolve(dir);
  const nested = join(dir, 'packages', 'fa-mcp-sdk', 'src');
  const src = existsSync(nested) ? nested : dir;
  if (!existsSync(join(src, 'index.ts'))) throw new Error(`${dir}: no packages/fa-mcp-sdk/src/index.ts (nor index.ts) there`);
  return src;
}

/**
 * The fa-mcp bench server built from `src` (undefined: this tree) into a folder of its own for this
 * run (removed at exit), so two comparisons running at once do not overwrite each other's servers
 * (compare.mjs, instructions.mjs).
 */
export async function buildFaMcpFrom(src, name) {
  const before = process.env.BENCH_SDK_SRC;
  if (src) process.env.BENCH_SDK_SRC = src;
  else delete process.env.BENCH_SDK_SRC;
  const outdir = join(SDK_BUILD_DIR, `${name}-${process.pid}`);
  process.once('exit', () => rmSync(outdir, { recursive: true, force: true }));
  try {
    return (await buildBenchServers({ outdir, entries: ['fa-mcp'] }))['fa-mcp'];
  } finally {
    if (before === undefined) delete process.env.BENCH_SDK_SRC;
    else process.env.BENCH_SDK_SRC = before;
  }
}
