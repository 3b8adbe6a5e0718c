/**
 * What `npm start` and `npm test` skip (scripts/bootstrap/up-to-date.mjs): the install when
 * node_modules was installed from the current lockfile, a build when its outputs are newer than
 * its inputs; CI and FA_MCP_FORCE_INSTALL=1 always install, CI always builds. Decided on a
 * temporary folder with set modification times, so no clock or sleep is involved.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILD_TARGETS, buildReason, installReason, writeInstallStamp, type BuildTarget } from '../../scripts/bootstrap/up-to-date.mjs';

const ROOT = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'fa-mcp-bootstrap-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const LOCAL: NodeJS.ProcessEnv = {}; // neither CI nor FA_MCP_FORCE_INSTALL
const T0 = new Date('2026-01-01T00:00:00Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

/** Writes `rel` under `dir` with the modification time `when`. */
function put(dir: string, rel: string, when: Date, content = rel): void {
  const file = join(dir, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
  utimesSync(file, when, when);
}

describe('installReason', () => {
  const root = join(work, 'install');
  mkdirSync(root);
  put(root, 'pnpm-lock.yaml', T0, 'lockfileVersion: 9.0\n');
  put(root, 'pnpm-workspace.yaml', T0, 'packages: []\n');

  it('installs without node_modules, and once more when node_modules was not installed by bootstrap', () => {
    expect(installReason(root, LOCAL)).toBe('no node_modules');
    put(root, 'node_modules/.modules.yaml', T0);
    expect(installReason(root, LOCAL)).toBe('not installed by bootstrap yet');
  });

  it('skips the install while the lockfile and the workspace settings are those of the last install', () => {
    writeInstallStamp(root);
    expect(installReason(root, LOCAL)).toBeUndefined();
    expect(installReason(root, { CI: 'false' })).toBeUndefined();
    expect(installReason(root, { CI: '0' })).toBeUndefined();
  });

  it('installs again when pnpm-lock.yaml or pnpm-workspace.yaml changed, whatever their times', () => {
    writeInstallStamp(root);
    put(root, 'pnpm-lock.yaml', T0, 'lockfileVersion: 9.0\nimporters: {}\n');
    expect(installReason(root, LOCAL)).toBe('pnpm-lock.yaml or pnpm-workspace.yaml changed');
    writeInstallStamp(root);
    put(root, 'pnpm-workspace.yaml', T0, 'packages: []\nonlyBuiltDependencies: [esbuild]\n');
    expect(installReason(root, LOCAL)).toBe('pnpm-lock.yaml or pnpm-workspace.yaml changed');
  });

  it('always installs in CI and with FA_MCP_FORCE_INSTALL=1', () => {
    writeInstallStamp(root);
    expect(installReason(root, { CI: 'true' })).toBe('CI');
    expect(installReason(root, { CI: '1' })).toBe('CI');
    expect(installReason(root, { FA_MCP_FORCE_INSTALL: '1' })).toBe('FA_MCP_FORCE_INSTALL=1');
  });

  it('a fresh node_modules (no stamp) after the stamp was written is installed again', () => {
    writeInstallStamp(root);
    rmSync(join(root, 'node_modules'), { recursive: true });
    expect(installReason(root, LOCAL)).toBe('no node_modules');
  });
});

describe('buildReason', () => {
  const root = join(work, 'build');
  const target: BuildTarget = { name: 'pkg', dir: 'packages/pkg', inputs: ['src', 'package.json', '../../tsconfig.base.json'], outputs: ['dist/index.js', 'dist/index.d.ts'] };
  const pkg = join(root, 'packages', 'pkg');
  put(pkg, 'src/index.ts', at(0));
  put(pkg, 'src/deep/part.ts', at(0));
  put(pkg, 'package.json', at(0));
  put(root, 'tsconfig.base.json', at(0));

  it('builds when an output is missing', () => {
    expect(buildReason(root, target, LOCAL)).toBe('dist/index.js missing');
    put(pkg, 'dist/index.js', at(10));
    expect(buildReason(root, target, LOCAL)).toBe('dist/index.d.ts missing');
  });

  it('skips the build when every output is newer than every input', () => {
    put(pkg, 'dist/index.d.ts', at(10));
    expect(buildReason(root, target, LOCAL)).toBeUndefined();
  });

  it('builds when an input under a folder, a file input, or an input outside the package is newer than the oldest output', () => {
    put(pkg, 'src/deep/part.ts', at(11));
    expect(buildReason(root, target, LOCAL)).toBe('packages/pkg/src/deep/part.ts changed');
    put(pkg, 'src/deep/part.ts', at(0));
    put(pkg, 'dist/index.js', at(5)); // an output older than an input written in between
    put(pkg, 'package.json', at(7));
    expect(buildReason(root, target, LOCAL)).toBe('packages/pkg/package.json changed');
    put(pkg, 'dist/index.js', at(10));
    put(pkg, 'package.json', at(0));
    put(root, 'tsconfig.base.json', at(12));
    expect(buildReason(root, target, LOCAL)).toBe('tsconfig.base.json changed');
    put(root, 'tsconfig.base.json', at(0));
    expect(buildReason(root, target, LOCAL)).toBeUndefined();
  });

  it('does not read node_modules or dist folders inside the inputs', () => {
    put(pkg, 'src/node_modules/x/index.js', at(20));
    put(pkg, 'src/dist/old.js', at(20));
    expect(buildReason(root, target, LOCAL)).toBeUndefined();
  });

  it('always builds in CI', () => {
    expect(buildReason(root, target, { CI: 'true' })).toBe('CI');
  });
});

describe('BUILD_TARGETS', () => {
  it('name the workspace packages, in their folders, each with a build script that writes its outputs under dist/', () => {
    for (const target of BUILD_TARGETS) {
      const pkg = JSON.parse(readFileSync(join(ROOT, target.dir, 'package.json'), 'utf8')) as { name: string; scripts?: Record<string, string> };
      expect(pkg.name).toBe(target.name);
      expect(pkg.scripts?.build, target.name).toBeTruthy();
      for (const output of target.outputs) expect(output.startsWith('dist/'), `${target.name}: ${output}`).toBe(true);
      for (const input of target.inputs) expect(existsSync(join(ROOT, target.dir, input)) || input.includes('/dist/'), `${target.name}: ${input}`).toBe(true);
    }
    expect(BUILD_TARGETS.map((t) => t.name)).toEqual(['fa-mcp-sdk', 'create-fa-mcp', 'fa-mcp-demo', 'fa-mcp-everything']);
  });

  it('the library build lists what its package.json promises (main, module, types, the bin)', () => {
    const sdk = BUILD_TARGETS.find((t) => t.name === 'fa-mcp-sdk') as BuildTarget;
    const pkg = JSON.parse(readFileSync(join(ROOT, sdk.dir, 'package.json'), 'utf8')) as { main: string; module: string; types: string };
    for (const file of [pkg.main, pkg.module, pkg.types]) expect(sdk.outputs).toContain(file.replace(/^\.\//, ''));
    expect(sdk.outputs).toContain('dist/cli/index.js'); // what bin/fa-mcp.js imports
  });
});
