#!/usr/bin/env node
/**
 * The footprint of fa-mcp-sdk as a consumer meets it (issue 24, item 2). Run after `pnpm run build`:
 *
 *   node scripts/measure-footprint.mjs [--runs 10] [--skip-install]
 *
 * 1. install: packs the library, `npm install --omit=dev --ignore-scripts` of the tarball into a
 *    fresh folder; size of node_modules (MB) and number of packages.
 * 2. node's own boot: `node -e ''` from spawn to exit, median of --runs (ms): the floor under
 *    every figure measured from spawn (Node 20 reads NODE_EXTRA_CA_CERTS before V8 starts).
 * 3. import: `import('fa-mcp-sdk')` in a fresh Node process, median of --runs (ms), measured
 *    twice: inside the process (performance.now() around the import: what the import takes,
 *    judged against its target) and from spawn (boot + import, printed beside it).
 * 4. first tools/list: a stdio server process started, until its answer to initialize +
 *    tools/list arrives, median of --runs (ms from spawn: "after process start").
 * Targets: <= 45 MB, <= 110 packages, import <= 150 ms (in-process), first tools/list <= 400 ms
 * (from spawn). It measures and reports; it does not fail on a missed target.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PKG = join(ROOT, 'packages', 'fa-mcp-sdk');
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1] || 10) || 10;
const skipInstall = args.includes('--skip-install');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function duSize(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

function countPackages(nodeModules) {
  let n = 0;
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      if (name.startsWith('.')) continue;
      if (name.startsWith('@')) {
        for (const scoped of readdirSync(join(dir, name))) visit(join(dir, name, scoped));
      } else visit(join(dir, name));
    }
  };
  const visit = (pkgDir) => {
    n++;
    try {
      walk(join(pkgDir, 'node_modules'));
    } catch {
      // no nested node_modules
    }
  };
  walk(nodeModules);
  return n;
}

/** ms from spawn until `done(output)` is true, or the process exits. */
function timeProcess(cmd, argv, opts, done, input) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(cmd, argv, { ...opts, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      resolve(Number(process.hrtime.bigint() - started) / 1e6);
      child.kill('SIGKILL');
    };
    child.stdout.on('data', (d) => {
      out += d.toString();
      if (done(out)) finish();
    });
    child.once('error', reject);
    child.once('exit', (code) => (done(out) || code === 0 ? finish() : reject(new Error(`${cmd} exited ${code}: ${out}`))));
    if (input) child.stdin.write(input);
  });
}

const report = {};
const work = mkdtempSync(join(tmpdir(), 'fa-mcp-footprint-'));
try {
  let app = ROOT;
  if (!skipInstall) {
    execFileSync('pnpm', ['pack', '--pack-destination', work], { cwd: PKG, stdio: 'ignore' });
    const tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz')));
    app = join(work, 'app');
    execFileSync('mkdir', ['-p', app]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'footprint', private: true, type: 'module' }));
    execFileSync('npm', ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: app, stdio: 'ignore' });
    report.installMB = Math.round((duSize(join(app, 'node_modules')) / 1e6) * 10) / 10;
    report.packages = countPackages(join(app, 'node_modules'));
  }
  // With --skip-install, fa-mcp-sdk resolves through the workspace (packages/create-fa-mcp links it).
  const cwd = skipInstall ? join(ROOT, 'packages', 'create-fa-mcp') : app;

  const boots = [];
  const imports = [];
  const inProcess = [];
  const importer = "const t0 = performance.now(); await import('fa-mcp-sdk'); console.log('imported ' + (performance.now() - t0))";
  for (let i = 0; i < runs; i++) {
    boots.push(await timeProcess(process.execPath, ['-e', ''], { cwd }, () => false));
    let out = '';
    imports.push(await timeProcess(process.execPath, ['--input-type=module', '-e', importer], { cwd }, (o) => /imported [\d.]+\n/.test((out = o))));
    inProcess.push(Number(/imported ([\d.]+)/.exec(out)[1]));
  }
  report.nodeBootMs = Math.round(median(boots));
  report.importMs = Math.round(median(inProcess));
  report.importFromSpawnMs = Math.round(median(imports));

  const server = join(cwd, 'footprint-server.mjs');
  writeFileSync(server, [
    "import { formatToolResult, initMcpServer } from 'fa-mcp-sdk';",
    "await initMcpServer({ tools: [{ name: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: {} }, handler: () => formatToolResult('ok') }] },",
    "  { cwd: '/nonexistent', config: { mcp: { transportType: 'stdio' }, logger: { level: 'silent' } } });",
  ].join('\n'));
  const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'footprint', version: '1' } } };
  const input = [init, { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' }].map((m) => JSON.stringify(m)).join('\n') + '\n';
  const lists = [];
  try {
    for (let i = 0; i < runs; i++) lists.push(await timeProcess(process.execPath, [server], { cwd }, (o) => /"id":2/.test(o), input));
  } finally {
    rmSync(server, { force: true });
  }
  report.firstToolsListMs = Math.round(median(lists));
} finally {
  rmSync(work, { recursive: true, force: true });
}

const targets = { installMB: 45, packages: 110, importMs: 150, firstToolsListMs: 400 };
const notes = {
  nodeBootMs: "node -e '' from spawn: the floor under every from-spawn figure",
  importMs: "import('fa-mcp-sdk') inside the process (performance.now() around it)",
  importFromSpawnMs: 'the same import from spawn: node boot + import',
  firstToolsListMs: 'from spawn until the answer to tools/list (after initialize)',
};
console.log(`fa-mcp-sdk footprint, medians of ${runs} (Node ${process.version})`);
for (const key of ['installMB', 'packages', 'nodeBootMs', 'importMs', 'importFromSpawnMs', 'firstToolsListMs']) {
  if (report[key] === undefined) continue;
  const target = targets[key];
  const verdict = target === undefined ? '' : `target <= ${target}   ${report[key] <= target ? 'met' : 'NOT met'}`;
  console.log(`${key.padEnd(18)} ${String(report[key]).padStart(8)}   ${verdict.padEnd(22)}${notes[key] ? `  (${notes[key]})` : ''}`);
}
console.log('The import target is judged inside the process; the first tools/list target from spawn ("after process start").');
