// What `npm start` and `npm test` (scripts/bootstrap.mjs) may skip because it is already done:
// the install, when the lockfile and the workspace settings are the ones of the last install
// (their hash in a stamp inside node_modules), and each build, when its outputs are newer than
// every input. Each decision answers the reason to do the step, or undefined to skip it.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inCi, newestFile } from '../test-kit/ci-checks.mjs';

/** What the installed node_modules depends on: a change to any of them means installing again. */
const INSTALL_INPUTS = ['pnpm-lock.yaml', 'pnpm-workspace.yaml'];
export const INSTALL_STAMP = join('node_modules', '.fa-mcp-install-stamp');

/** The hash of the install inputs of the workspace at `root`. */
export function installHash(root) {
  const hash = createHash('sha256');
  for (const file of INSTALL_INPUTS) {
    const path = join(root, file);
    hash.update(`${file}\0${existsSync(path) ? readFileSync(path) : ''}\0`);
  }
  return hash.digest('hex');
}

/** Records that node_modules was installed from the current inputs. */
export function writeInstallStamp(root) {
  writeFileSync(join(root, INSTALL_STAMP), `${installHash(root)}\n`);
}

/**
 * Why the workspace must be installed, or undefined when node_modules matches the lockfile.
 * FA_MCP_FORCE_INSTALL=1 and CI (set, not "false" or "0") always install.
 */
export function installReason(root, env = process.env) {
  if (env.FA_MCP_FORCE_INSTALL === '1') return 'FA_MCP_FORCE_INSTALL=1';
  if (inCi(env)) return 'CI';
  if (!existsSync(join(root, 'node_modules', '.modules.yaml'))) return 'no node_modules';
  const stamp = join(root, INSTALL_STAMP);
  if (!existsSync(stamp)) return 'not installed by bootstrap yet';
  if (readFileSync(stamp, 'utf8').trim() !== installHash(root)) return `${INSTALL_INPUTS.join(' or ')} changed`;
  return undefined;
}

/**
 * The packages bootstrap builds, in order. `inputs` and `outputs` are relative to `dir`; a build is
 * current when every output exists and is newer than every file under the inputs (node_modules
 * and dist/ folders inside them are not read). `demo`: built only for `npm start`.
 */
export const BUILD_TARGETS = [
  {
    name: 'fa-mcp-sdk',
    dir: 'packages/fa-mcp-sdk',
    inputs: ['src', 'scripts', 'package.json', 'tsconfig.json', 'tsup.config.ts', '../../tsconfig.base.json'],
    outputs: ['dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/cli/index.js', 'dist/config-validator.cjs'],
  },
  {
    name: 'create-fa-mcp',
    dir: 'packages/create-fa-mcp',
    inputs: ['src', 'scripts', 'package.json', 'tsconfig.json', 'tsup.config.ts', '../../tsconfig.base.json', '../../cli-template', '../../FA-MCP-SDK-DOC'],
    outputs: ['dist/index.js', 'dist/template/project/package.json'],
  },
  {
    name: 'fa-mcp-demo',
    dir: 'examples/demo',
    // The demo compiles against the library's build: a new one means compiling again.
    inputs: ['src', 'package.json', 'tsconfig.json', '../../tsconfig.base.json', '../../packages/fa-mcp-sdk/dist/index.js', '../../packages/fa-mcp-sdk/dist/index.d.ts'],
    outputs: ['dist/start.js', 'dist/server.js'],
    demo: true,
  },
  {
    name: 'fa-mcp-everything',
    dir: 'examples/everything',
    // Its tests run the built server (dist/start.js) as clients would: npm test builds it.
    inputs: ['src', 'package.json', 'tsconfig.json', '../../tsconfig.base.json', '../../packages/fa-mcp-sdk/dist/index.js', '../../packages/fa-mcp-sdk/dist/index.d.ts'],
    outputs: ['dist/start.js', 'dist/server.js'],
  },
];

/** Why `target` must be built, or undefined when its outputs are newer than all its inputs. CI always builds. */
export function buildReason(root, target, env = process.env) {
  if (inCi(env)) return 'CI';
  const at = (rel) => join(root, target.dir, rel);
  const missing = target.outputs.find((rel) => !existsSync(at(rel)));
  if (missing) return `${missing} missing`;
  const oldest = Math.min(...target.outputs.map((rel) => statSync(at(rel)).mtimeMs));
  const newest = newestFile(target.inputs.map(at));
  if (newest.mtimeMs > oldest) return `${newest.path.slice(root.length + 1)} changed`;
  return undefined;
}
