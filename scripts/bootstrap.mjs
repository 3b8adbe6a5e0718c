#!/usr/bin/env node
// Makes a fresh machine ready: finds or installs pnpm (never through corepack),
// installs the workspace from the frozen lockfile, and builds the packages.
// Used by `npm start` and `npm test`, so both work with nothing but Node and npm.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pnpmEnv, resolvePnpm } from './pnpm-path.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pnpm = resolvePnpm(root);
const run = (args) => execFileSync(pnpm.cmd, [...pnpm.prefix, ...args], { cwd: root, stdio: 'inherit', env: pnpmEnv(pnpm) });

const stamp = join(root, 'node_modules', '.modules.yaml');
const lock = join(root, 'pnpm-lock.yaml');
if (!existsSync(stamp) || process.env.FA_MCP_FORCE_INSTALL === '1' || process.env.CI) {
  run(['install', '--frozen-lockfile']);
}
if (!existsSync(lock)) throw new Error('pnpm-lock.yaml is missing: the workspace must install from its committed lockfile');
run(['run', 'build']);
