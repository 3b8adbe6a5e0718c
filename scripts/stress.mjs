#!/usr/bin/env node
// `npm run test:stress`: the vitest suite with two CPU-burning processes beside
// it, so timing assumptions show up as failures here rather than on a busy CI
// machine. Arguments go to vitest (`npm run test:stress -- packages/x/test/a.test.ts`
// runs one file). The burners stop when vitest ends, whatever ends it (exit,
// error, Ctrl+C, SIGTERM): they also stop themselves when this process is gone.
// Not part of CI: the full run costs the whole machine for a quarter of an hour.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BURNERS = Number(process.env.FA_MCP_STRESS_BURNERS ?? 2);
const root = fileURLToPath(new URL('..', import.meta.url));

// Each burner spins until its parent (this script) is gone: it checks once a
// second, so even a SIGKILL of this script cannot leave one running for long.
const burnerCode = `
const parent = ${process.pid};
let until = Date.now();
for (;;) {
  if (Date.now() >= until) {
    try { process.kill(parent, 0); } catch { process.exit(0); }
    until = Date.now() + 1000;
  }
}`;
const burners = Array.from({ length: BURNERS }, () => spawn(process.execPath, ['-e', burnerCode], { stdio: 'ignore' }));
const stopBurners = () => {
  for (const b of burners) if (b.exitCode === null && b.signalCode === null) b.kill('SIGKILL');
};
process.on('exit', stopBurners);

const started = Date.now();
console.log(`[stress] ${BURNERS} CPU burners running (pids ${burners.map((b) => b.pid).join(', ')}); vitest run ${process.argv.slice(2).join(' ')}`);
const vitest = spawn(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    stopBurners();
    vitest.kill(signal);
  });
}
vitest.on('error', (err) => {
  console.error(`[stress] vitest did not start: ${err.message}`);
  process.exit(1);
});
vitest.on('exit', (code, signal) => {
  stopBurners();
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.log(`[stress] vitest ended (${signal ?? `exit ${code}`}) after ${seconds} s beside ${BURNERS} CPU burners`);
  process.exit(code ?? 1);
});
