#!/usr/bin/env node
// Makes the services the tests need available on a fresh Debian machine, so
// `npm test` works with nothing but Node and npm installed: starts (and when
// missing, installs) PostgreSQL, installs slapd for the LDAP tests, chromium
// for the browser tests, haproxy for the cluster tests, and Node 22 with MCP
// Inspector 2.x into .tools/node22 for the client matrix. Each script is
// idempotent and skips what is present; the system packages are only
// installed when running as root (elsewhere it says what it skipped),
// .tools/node22 by any user (npm). Under CI (CI set, not "false"/"0") a script
// that could not provide its service exits non-zero, and so does this: CI
// stops here instead of skipping tests.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inCi } from './test-kit/ci-checks.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (process.platform !== 'linux' || process.env.FA_MCP_SKIP_SERVICES === '1') process.exit(0);
const failed = [];
for (const script of ['start-postgres.sh', 'install-slapd.sh', 'ensure-chromium.sh', 'install-haproxy.sh', 'install-node22.mjs']) {
  const path = join(root, 'scripts', 'ci', script);
  if (!existsSync(path)) continue;
  const res = script.endsWith('.mjs') ? spawnSync(process.execPath, [path], { cwd: root, stdio: 'inherit' }) : spawnSync('bash', [path], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) {
    failed.push(script);
    console.error(`[services] ${script} exited with ${res.status ?? res.signal}; tests that need it fail`);
  }
}
if (failed.length > 0 && inCi()) {
  console.error(`[services] CI: ${failed.join(', ')} could not provide the service; stopping before the tests`);
  process.exit(1);
}
