#!/usr/bin/env node
// Makes a fresh machine ready: finds or installs pnpm (never through corepack), installs the
// workspace from the frozen lockfile, and builds the packages. Used by `npm start` (with --demo:
// the demo is built too) and `npm test`, so both work with nothing but Node and npm.
//
// What is already done is skipped (bootstrap/up-to-date.mjs): the install when node_modules was
// installed from the current lockfile, a build when its outputs are newer than its inputs; CI and
// FA_MCP_FORCE_INSTALL=1 always install. One line per step on the terminal; the output of pnpm and
// the builds goes to .tools/logs/bootstrap.log. A failed step prints the last 40 lines of the log
// and its path, and exits with the step's exit code.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_TARGETS, buildReason, installReason, writeInstallStamp } from './bootstrap/up-to-date.mjs';
import { pnpmEnv, resolvePnpm } from './pnpm-path.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const withDemo = process.argv.includes('--demo');
const LOG = join(root, '.tools', 'logs', 'bootstrap.log');
const TAIL_LINES = 40;

mkdirSync(dirname(LOG), { recursive: true });
writeFileSync(LOG, `bootstrap ${new Date().toISOString()} (${process.argv.slice(2).join(' ') || 'no arguments'})\n`);
const log = openSync(LOG, 'a');
const say = (line) => console.log(`[bootstrap] ${line}`);
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const shownLog = relative(process.cwd(), LOG) || LOG;
say(`the output of the install and the builds goes to ${shownLog}`);

/** Ends the run: the step that failed, the end of the log, where the whole log is. */
function fail(what, code) {
  closeSync(log);
  const lines = readFileSync(LOG, 'utf8').trimEnd().split('\n');
  console.error(`[bootstrap] ${what} failed${code === undefined ? '' : ` (exit ${code})`}; the last ${TAIL_LINES} lines of its log:`);
  console.error(lines.slice(-TAIL_LINES).join('\n'));
  console.error(`[bootstrap] the whole log: ${shownLog}`);
  process.exit(typeof code === 'number' && code > 0 ? code : 1);
}

let pnpm;
try {
  pnpm = resolvePnpm(root, { output: log, say });
} catch (err) {
  writeSync(log, `${err instanceof Error ? err.message : String(err)}\n`);
  fail('installing pnpm with npm', err?.status);
}
// The log is read by people: no colour codes from tsup or pnpm.
const env = { ...pnpmEnv(pnpm), FORCE_COLOR: '0', NO_COLOR: '1' };

/**
 * Runs pnpm with its output in the log; one line on the terminal when it starts and when it ends.
 * `onFailure` runs before the run ends (a failed build removes its outputs: tsc writes them even
 * when it reports errors, and the next run must not take them for a current build).
 */
function step(title, args, onFailure = () => undefined) {
  writeSync(log, `\n== ${title}\n$ pnpm ${args.join(' ')}\n`);
  say(`${title} …`);
  const started = Date.now();
  const res = spawnSync(pnpm.cmd, [...pnpm.prefix, ...args], { cwd: root, stdio: ['ignore', log, log], env });
  if (res.error) writeSync(log, `${res.error.message}\n`);
  if (res.status !== 0) {
    onFailure();
    fail(title, res.status ?? undefined);
  }
  say(`${title}: done in ${seconds(Date.now() - started)}`);
}

if (!existsSync(join(root, 'pnpm-lock.yaml'))) {
  writeSync(log, 'pnpm-lock.yaml is missing: the workspace must install from its committed lockfile\n');
  fail('the install');
}
const whyInstall = installReason(root);
if (whyInstall) {
  step(`installing dependencies (${whyInstall})`, ['install', '--frozen-lockfile']);
  writeInstallStamp(root);
} else say('dependencies match pnpm-lock.yaml: install skipped');

for (const target of BUILD_TARGETS) {
  if (target.demo && !withDemo) continue;
  const why = buildReason(root, target);
  const removeOutputs = () => target.outputs.forEach((rel) => rmSync(join(root, target.dir, rel), { force: true }));
  if (why) step(`building ${target.name} (${why})`, ['--filter', target.name, 'run', 'build'], removeOutputs);
  else say(`${target.name} is up to date: build skipped`);
}
closeSync(log);
