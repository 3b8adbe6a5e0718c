/** The built `create-fa-mcp` binary, run non-interactively: flags, --yes, --config, refusals and exit codes. */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load as parseYaml } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers.js';
import { assertBuildIsCurrent, CLI, run } from './run.js';

const tmp = tempDir();
afterAll(tmp.cleanup);
beforeAll(assertBuildIsCurrent);

const cli = (args: string[], env: Record<string, string> = {}) =>
  run(process.execPath, [CLI, ...args], { cwd: tmp.dir, env: { ...process.env, npm_config_user_agent: '', ...env }, timeoutMs: 30_000 });

describe('create-fa-mcp (non-interactive)', () => {
  it('--yes generates a project from the defaults, named after the folder', async () => {
    const r = await cli(['orders-mcp', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Created orders-mcp');
    expect(r.stdout).toContain('npm install'); // --yes does not install; the next steps say so
    const pkg = JSON.parse(readFileSync(join(tmp.dir, 'orders-mcp', 'package.json'), 'utf8')) as { name: string };
    expect(pkg.name).toBe('orders-mcp');
    expect(existsSync(join(tmp.dir, 'orders-mcp', 'node_modules'))).toBe(false);
  });

  it('takes every answer as a flag', async () => {
    const r = await cli([
      'flagged', '--yes', '--name', '@acme/flagged', '--description', 'Flags all the way', '--product-name', 'Flagged',
      '--port', '4999', '--transport', 'stdio', '--author', 'Grace', '--package-manager', 'pnpm',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const dir = join(tmp.dir, 'flagged');
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, string>;
    expect(pkg).toMatchObject({ name: '@acme/flagged', description: 'Flags all the way', author: 'Grace' });
    const config = parseYaml(readFileSync(join(dir, 'config', 'default.yaml'), 'utf8')) as { webServer: { port: number }; mcp: { transportType: string } };
    expect(config.webServer.port).toBe(4999);
    expect(config.mcp.transportType).toBe('stdio');
    expect(readFileSync(join(dir, 'Dockerfile'), 'utf8')).toContain('pnpm install --frozen-lockfile');
  });

  it('reads a --config file; flags win over it', async () => {
    const file = join(tmp.dir, 'answers.yaml');
    writeFileSync(file, 'name: from-file\nport: 4111\ndescription: From a file\n');
    const r = await cli(['from-config', '--config', file, '--port', '4222']);
    expect(r.code, r.stderr).toBe(0);
    const dir = join(tmp.dir, 'from-config');
    expect((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string }).name).toBe('from-file');
    expect(readFileSync(join(dir, 'config', 'default.yaml'), 'utf8')).toContain('port: 4222');
  });

  it('takes the folder from the name when none is given', async () => {
    const r = await cli(['--yes', '--name', '@acme/no-dir']);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(tmp.dir, 'no-dir', 'package.json'))).toBe(true);
  });

  it('refuses a non-empty folder unless --force, before writing anything', async () => {
    const dir = join(tmp.dir, 'occupied');
    mkdirSync(dir);
    writeFileSync(join(dir, 'keep.txt'), 'x');
    const refused = await cli(['occupied', '--yes']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is not empty');
    expect(readdirSync(dir)).toEqual(['keep.txt']);
    const forced = await cli(['occupied', '--yes', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(readdirSync(dir)).toEqual(expect.arrayContaining(['keep.txt', 'package.json']));
  });

  it.each([
    [['bad1', '--yes', '--name', 'Bad Name'], /not a valid npm package name/],
    [['bad2', '--yes', '--port', '99999'], /port must be an integer/i],
    [['bad3', '--yes', '--database', 'postgres'], /databaseUrl/],
    [['bad4', '--config', 'missing.json'], /cannot be read/],
  ])('exits 1 with the reason for %j', async (args, reason) => {
    const r = await cli(args);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(reason);
    expect(existsSync(join(tmp.dir, args[0] as string))).toBe(false);
  });

  it('--sdk vendors a local tarball or a built checkout (file:vendor/…), or depends on a given version', async () => {
    const sdkDir = join(tmp.dir, 'sdk-checkout');
    mkdirSync(join(sdkDir, 'dist'), { recursive: true });
    writeFileSync(join(sdkDir, 'package.json'), '{ "name": "fa-mcp-sdk", "version": "0.1.0", "files": ["dist"] }');
    writeFileSync(join(sdkDir, 'dist', 'index.js'), 'export const built = true;\n');
    const tarball = join(tmp.dir, 'fa-mcp-sdk-0.1.0.tgz');
    writeFileSync(tarball, 'a tarball');
    const dep = (dir: string) => (JSON.parse(readFileSync(join(tmp.dir, dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies['fa-mcp-sdk'];
    for (const [dir, sdk, expected] of [['sdk-a', 'sdk-checkout', 'file:vendor/fa-mcp-sdk-0.1.0.tgz'], ['sdk-b', 'fa-mcp-sdk-0.1.0.tgz', 'file:vendor/fa-mcp-sdk-0.1.0.tgz'], ['sdk-c', '0.1.0', '0.1.0']] as const) {
      const r = await cli([dir, '--yes', '--no-install', '--sdk', sdk]);
      expect(r.code, r.stderr).toBe(0);
      expect(dep(dir)).toBe(expected);
    }
    // The tarball is copied as it is; the checkout is packed by npm (its package.json and dist/ inside).
    expect(readFileSync(join(tmp.dir, 'sdk-b', 'vendor', 'fa-mcp-sdk-0.1.0.tgz'), 'utf8')).toBe('a tarball');
    const packed = await run('tar', ['tzf', join(tmp.dir, 'sdk-a', 'vendor', 'fa-mcp-sdk-0.1.0.tgz')], { timeoutMs: 30_000 });
    expect(packed.stdout.split('\n')).toEqual(expect.arrayContaining(['package/package.json', 'package/dist/index.js']));
    expect(readdirSync(join(tmp.dir, 'sdk-c', 'vendor'))).toEqual(['README.md']);
    const said = (await cli(['sdk-e', '--yes', '--no-install', '--sdk', 'fa-mcp-sdk-0.1.0.tgz'])).stdout;
    expect(said).toContain('fa-mcp-sdk comes from vendor/fa-mcp-sdk-0.1.0.tgz (package.json: file:vendor/fa-mcp-sdk-0.1.0.tgz); commit it');

    const bad = await cli(['sdk-d', '--yes', '--no-install', '--sdk', 'no/such/checkout']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--sdk no/such/checkout: neither an existing folder or tarball nor a version');
    expect(existsSync(join(tmp.dir, 'sdk-d'))).toBe(false);
    const unbuilt = join(tmp.dir, 'sdk-unbuilt');
    mkdirSync(unbuilt);
    writeFileSync(join(unbuilt, 'package.json'), '{ "name": "fa-mcp-sdk", "version": "0.1.0" }');
    const notBuilt = await cli(['sdk-f', '--yes', '--no-install', '--sdk', 'sdk-unbuilt']);
    expect(notBuilt.code).toBe(1);
    expect(notBuilt.stderr).toContain('is not built (no dist/index.js): build it first');
    expect(existsSync(join(tmp.dir, 'sdk-f'))).toBe(false);
  });

  it('a failing install names the step, its time and shows the package manager\'s output', async () => {
    // A registry on a closed loopback port: npm itself fails, quickly, without the network.
    const r = await cli(['install-fails', '--yes', '--install', '--package-manager', 'npm'], {
      npm_config_registry: 'http://127.0.0.1:9/',
      npm_config_fetch_retries: '0',
      npm_config_cache: join(tmp.dir, 'empty-npm-cache'),
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Installing dependencies (npm install)');
    expect(r.stderr).toMatch(/--- npm install output\n[\s\S]*(ECONNREFUSED|127\.0\.0\.1:9)[\s\S]*\n---/);
    expect(r.stderr).toMatch(/npm install failed \(exit \d+\) after \d+ s; the project is complete/);
    expect(existsSync(join(tmp.dir, 'install-fails', 'package.json'))).toBe(true);
  }, 60_000);

  it('a folder it may not write to is one line on stderr, exit 1', async () => {
    const r = await cli(['/sys/fa-mcp-create-cli-test', '--yes', '--no-install']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual(['create-fa-mcp: cannot write to /sys (EPERM: permission denied); choose another folder']);
  });

  it('rejects an unknown choice and prints the help', async () => {
    const bad = await cli(['x', '--transport', 'websocket']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Allowed choices are http, stdio");
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--package-manager <pm>');
  });

  it('leaves no temporary folder behind', () => {
    expect(readdirSync(tmp.dir).filter((n) => n.includes('create-fa-mcp'))).toEqual([]);
  });
});
