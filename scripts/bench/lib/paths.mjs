// Where the bench finds the library, its dependencies and its own outputs.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
export const ROOT = dirname(dirname(BENCH_DIR));
export const SDK_DIR = join(ROOT, 'packages', 'fa-mcp-sdk');
/** The library built from the current sources (see build-sdk.mjs); inside the package so its dependencies resolve. */
export const SDK_BUILD_DIR = join(SDK_DIR, 'node_modules', '.cache', 'fa-mcp-bench');
export const RESULTS_FILE = join(BENCH_DIR, 'results.json');
export const TABLE_FILE = join(BENCH_DIR, 'results.md');
export const CHART_FILE = join(BENCH_DIR, 'results.svg');
export const CHART_DOC_FILE = join(ROOT, 'FA-MCP-SDK-DOC', 'images', 'bench-throughput.svg');
export const DOC_PAGE = join(ROOT, 'FA-MCP-SDK-DOC', '07-testing-and-operations.md');

/** require() that resolves from the library's package, where the MCP SDK packages are installed. */
export const sdkRequire = createRequire(join(SDK_DIR, 'package.json'));
