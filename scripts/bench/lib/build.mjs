// Bundles the bench servers with the library's CURRENT sources (TypeScript, no dist/ needed) into
// packages/fa-mcp-sdk/node_modules/.cache/fa-mcp-bench, where the library's dependencies resolve.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { BENCH_DIR, SDK_BUILD_DIR, sdkRequire } from './paths.mjs';

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

export async function buildBenchServers() {
  const esbuild = createRequire(sdkRequire.resolve('tsup'))('esbuild');
  const srcDir = process.env.BENCH_SDK_SRC;
  await esbuild.build({
    entryPoints: SERVER_ENTRIES.map((name) => join(BENCH_DIR, 'servers', `${name}.mjs`)),
    outdir: SDK_BUILD_DIR,
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
  return Object.fromEntries(SERVER_ENTRIES.map((name) => [name, join(SDK_BUILD_DIR, `${name}.mjs`)]));
}
