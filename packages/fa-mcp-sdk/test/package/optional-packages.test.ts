/**
 * Optional parts (issue 24, item 2): the PostgreSQL client, the embedded database, Swagger UI,
 * Consul, LDAP, pretty logs and the MCP client are optional peer dependencies. A production install of the packed package
 * (`npm install --omit=dev --ignore-scripts`, as scripts/measure-footprint.mjs does) holds none of
 * them and no package with an install script; a server that asks for one of those features there
 * stops with an error naming the packages and the install command (fixtures/optional-probe.mjs).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installCommand, isMissing, loadOptional, MissingPackageError, OPTIONAL_PARTS, requireOptional, type OptionalPart } from '../../src/core/optional-package.js';

const PKG = fileURLToPath(new URL('../../', import.meta.url));
const manifest = JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};
// a package two parts need (pg: PostgreSQL and the embedded database) once, at one version
type PackagePin = readonly [name: string, version: string];
const allPins: PackagePin[] = Object.values(OPTIONAL_PARTS as Record<string, OptionalPart>).flatMap((p) => [...p.packages]);
const partPackages: PackagePin[] = [...new Map(allPins.map((p) => [p[0], p] as const)).values()];

function run(cmd: string, args: string[], cwd: string, timeoutMs: number, env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, npm_config_update_notifier: 'false', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${cmd} ${args.join(' ')} timed out after ${timeoutMs} ms\n${out}\n${err}`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

describe('the table of optional parts', () => {
  it('is exactly the optional peers of package.json, at the versions the workspace tests with', () => {
    for (const [name, version] of allPins) {
      expect(partPackages.find(([n]) => n === name)?.[1], `${name}: one version in every part`).toBe(version);
    }
    const peers = Object.keys(manifest.peerDependencies).sort();
    expect(partPackages.map(([name]) => name).sort()).toEqual(peers);
    for (const [name, version] of partPackages) {
      expect(manifest.peerDependenciesMeta[name]?.optional, `${name} is an optional peer`).toBe(true);
      expect(manifest.devDependencies[name], `${name} is a devDependency at the version the error names`).toBe(version);
      expect(manifest.peerDependencies[name]).toBe(`^${version}`);
      expect(manifest.dependencies[name], `${name} is not a dependency`).toBeUndefined();
    }
  });

  it('turns a real "module not found" of a part into the error with the install command, and nothing else', async () => {
    const part = { feature: 'A test feature', packages: [['fa-mcp-no-such-package', '1.2.3']] as const };
    const notFound = await import('fa-mcp-no-such-package' as string).catch((e: unknown) => e);
    expect(isMissing(part, notFound)).toBe(true);
    expect(isMissing(OPTIONAL_PARTS.consul, notFound)).toBe(false);
    expect(isMissing(part, new Error("Cannot find package 'fa-mcp-no-such-package'"))).toBe(false); // no code: not Node's error
    expect(installCommand(part)).toBe('npm i fa-mcp-no-such-package@1.2.3');

    const missing = Object.assign(new Error("Cannot find package 'ldapts' imported from /x/dist/index.js"), { code: 'ERR_MODULE_NOT_FOUND' });
    const err = await loadOptional('ldap', () => Promise.reject(missing)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingPackageError);
    expect((err as MissingPackageError).message).toBe('Group lookup in a directory (webServer.auth.ldap) needs ldapts, not installed: npm i ldapts@8.0.17');
    expect((err as MissingPackageError).cause).toBe(missing);
    // a file missing inside an installed package, or any other failure, passes through unchanged
    const inside = Object.assign(new Error("Cannot find module '/x/node_modules/consul/lib/agent.js'"), { code: 'MODULE_NOT_FOUND' });
    expect(() => requireOptional('consul', () => { throw inside; })).toThrow(inside);
    await expect(loadOptional('consul', () => import('consul'))).resolves.toHaveProperty('default');
  });
});

const work = mkdtempSync(join(tmpdir(), 'fa-mcp-optional-'));
const app = join(work, 'app');
beforeAll(async () => {
  const dist = join(PKG, 'dist', 'index.js');
  if (!existsSync(dist) || statSync(dist).mtimeMs < statSync(join(PKG, 'src', 'core', 'optional-package.ts')).mtimeMs) {
    throw new Error('packages/fa-mcp-sdk/dist is missing or older than src/: run `pnpm run build` at the repository root first');
  }
  const packed = await run('pnpm', ['pack', '--pack-destination', work], PKG, 120_000);
  expect(packed.code, packed.out + packed.err).toBe(0);
  const tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz')) as string);
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'optional-probe', private: true, type: 'module' }));
  const install = await run('npm', ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', tarball], app, 400_000);
  expect(install.code, `npm install of the packed package failed:\n${install.out}\n${install.err}`).toBe(0);
  copyFileSync(fileURLToPath(new URL('./fixtures/optional-probe.mjs', import.meta.url)), join(app, 'optional-probe.mjs'));
}, 600_000);
afterAll(() => rm(work, { recursive: true, force: true, maxRetries: 5 }), 180_000);

/** Every package folder of a node_modules tree, nested ones included. */
function packagesIn(nodeModules: string): string[] {
  const out: string[] = [];
  for (const name of existsSync(nodeModules) ? readdirSync(nodeModules) : []) {
    if (name.startsWith('.')) continue;
    const dirs = name.startsWith('@') ? readdirSync(join(nodeModules, name)).map((s) => join(nodeModules, name, s)) : [join(nodeModules, name)];
    for (const dir of dirs) out.push(dir, ...packagesIn(join(dir, 'node_modules')));
  }
  return out;
}

describe('a production install of the packed package', () => {
  it('holds no optional part and no package with an install script', () => {
    const dirs = packagesIn(join(app, 'node_modules'));
    const names = dirs.map((d) => (JSON.parse(readFileSync(join(d, 'package.json'), 'utf8')) as { name: string }).name);
    for (const [name] of partPackages) expect(names, `${name} is installed by default`).not.toContain(name);
    expect(names).not.toContain('@scarf/scarf');
    const withScripts = dirs.filter((d) => {
      const scripts = (JSON.parse(readFileSync(join(d, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
      return Boolean(scripts.preinstall || scripts.install || scripts.postinstall);
    });
    expect(withScripts, 'packages that run a script at install').toEqual([]);
  });

  it('stops each optional feature with the packages to install, and serves without them otherwise', async () => {
    // NODE_PATH (pnpm sets it to the workspace's store) would let require() find what the install lacks
    const probe = await run(process.execPath, ['optional-probe.mjs'], app, 120_000, { NODE_ENV: 'development', NODE_PATH: '' });
    expect(probe.code, probe.err).toBe(0);
    const results = Object.fromEntries(
      (JSON.parse(probe.out) as Array<{ name: string; started: boolean; error?: string; logs?: string }>).map((r) => [r.name, r]),
    );
    const refused = (name: string, command: string) => {
      expect(results[name]?.started, `${name}: ${JSON.stringify(results[name])}`).toBe(false);
      expect(results[name]?.error).toMatch(/^MissingPackageError: /);
      expect(results[name]?.error).toContain(command);
    };
    refused('postgres', 'npm i pg@8.23.1');
    refused('postgres-store', 'npm i pg@8.23.1');
    refused('embedded', 'npm i pg@8.23.1 @electric-sql/pglite@0.5.14 @electric-sql/pglite-socket@0.2.17');
    refused('docs', 'npm i swagger-ui-dist@5.35.0');
    refused('consul', 'npm i consul@2.0.1');
    refused('ldap', 'npm i ldapts@8.0.17');
    refused('pretty', 'npm i pino-pretty@13.2.0');
    refused('tester', 'npm i @modelcontextprotocol/client@2.4.0');
    // 'auto' features step aside with a warning that names the package
    expect(results['pretty-auto']?.started).toBe(true);
    expect(results['pretty-auto']?.logs).toContain('need pino-pretty, not installed');
    expect(results['tester-auto']?.started).toBe(true);
    expect(results['tester-auto']?.logs).toContain('Agent Tester off: ');
    expect(results['tester-auto']?.logs).toContain('npm i @modelcontextprotocol/client@2.4.0');
    // fa-mcp-sdk/testing imports the client statically: Node's own error names the package
    expect(results.testing?.started).toBe(false);
    expect(results.testing?.error).toContain("Cannot find package '@modelcontextprotocol/client'");
    // the other subpaths import without them (pg, the MCP client load when a feature is used)
    for (const entry of ['fa-mcp-sdk/db', 'fa-mcp-sdk/stores', 'fa-mcp-sdk/agent-tester']) {
      expect(results[entry], `${entry} imports without the optional packages`).toEqual({ name: entry, started: true });
    }
  }, 180_000);
});
