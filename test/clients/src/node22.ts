/**
 * Node 22 for the clients that need it (MCP Inspector 2.x), from .tools/node22
 * (scripts/ci/install-node22.mjs). The suite runs the installer, which does
 * nothing when the install is current; without one (offline, another platform)
 * the rows that need it skip with the reason, and fail under CI.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serviceAvailable } from '../../../scripts/test-kit/ci-checks.mjs';
import { node22Status } from '../../../scripts/test-kit/node22.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export interface Node22 {
  node: string;
  /** The Inspector 2.x package folder. */
  inspector: string;
  /** The environment of its processes: a compile cache, so each CLI start does not compile its bundle again. */
  env: NodeJS.ProcessEnv;
}

/** Installs when needed; the tools, or undefined with a warning (a throw under CI). */
export function ensureNode22(): Node22 | undefined {
  let status = node22Status(ROOT);
  if (!status.ok) {
    spawnSync(process.execPath, [join(ROOT, 'scripts', 'ci', 'install-node22.mjs')], { cwd: ROOT, stdio: 'inherit', timeout: 300_000 });
    status = node22Status(ROOT);
  }
  if (!serviceAvailable(status.ok, 'Node 22 for MCP Inspector 2.x', status.ok ? '' : `${status.reason}`)) return undefined;
  if (!status.ok) return undefined;
  const cache = join(ROOT, '.tools', 'node22', '.compile-cache');
  mkdirSync(cache, { recursive: true });
  return { node: status.node, inspector: status.inspector, env: { ...process.env, NODE_COMPILE_CACHE: cache } };
}
