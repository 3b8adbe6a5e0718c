#!/usr/bin/env node
// Runs pnpm with the given arguments through the same resolution as bootstrap.mjs.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pnpmEnv, resolvePnpm } from './pnpm-path.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pnpm = resolvePnpm(root);
const res = spawnSync(pnpm.cmd, [...pnpm.prefix, ...process.argv.slice(2)], { cwd: process.cwd(), stdio: 'inherit', env: pnpmEnv(pnpm) });
process.exit(res.status ?? 1);
