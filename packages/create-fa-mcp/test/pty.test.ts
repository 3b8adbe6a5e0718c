/**
 * The interactive questions, answered through a pseudo-terminal like a person would: defaults
 * accepted, a bad port corrected, choices made with the arrow keys, yes/no with y and n, the
 * install run with the package manager that invoked the scaffolder; and Ctrl-C leaving nothing.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { load as parseYaml } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { templateSdkPaths } from '../src/bundle.js';
import { availableFeatures } from '../src/features.js';
import { PKG_ROOT, tempDir } from './helpers.js';
import { KEYS, PtySession } from './pty.js';
import { startRegistryDouble, type RegistryDouble } from './registry-double.js';
import { assertBuildIsCurrent, CLI } from './run.js';
import { serviceAvailable } from '../../../scripts/test-kit/ci-checks.mjs';

const tmp = tempDir('create-fa-mcp-pty-');
// The registry check asks npm; npm asks these loopback doubles, one with fa-mcp-sdk and one without.
let registryWith: RegistryDouble;
let registryWithout: RegistryDouble;
beforeAll(async () => {
  assertBuildIsCurrent();
  [registryWith, registryWithout] = await Promise.all([startRegistryDouble(true), startRegistryDouble(false)]);
});
afterAll(async () => {
  await Promise.all([registryWith?.close(), registryWithout?.close()]);
  tmp.cleanup();
});
const npmEnv = (registry: RegistryDouble) => ({ npm_config_registry: registry.url, npm_config_cache: join(tmp.dir, 'npm-cache'), npm_config_update_notifier: 'false' });

// util-linux script(1) gives the CLI a terminal; missing on Linux in CI fails the file, elsewhere it skips.
const hasScript = process.platform === 'linux' && serviceAvailable(existsSync('/usr/bin/script'), '/usr/bin/script (the terminal prompt tests)', 'apt-get install -y bsdutils');
const available = availableFeatures(templateSdkPaths(join(PKG_ROOT, 'dist', 'template', 'project')));

const SDK_DIR = join(PKG_ROOT, '..', 'fa-mcp-sdk');
const npmPath = execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim();

/** Accepts every default up to and including the author (the transport comes from a flag). */
async function answerUpToAuthor(session: PtySession): Promise<void> {
  for (const question of ['Project name', 'Description', 'Product name', 'HTTP port']) {
    await session.waitFor(question);
    await session.type(KEYS.enter);
  }
  if (available.has('auth')) {
    await session.waitFor('Require authentication?');
    await session.type('n');
  }
  if (available.has('database')) {
    await session.waitFor('Database');
    await session.type(KEYS.enter);
  }
  if (available.has('consul')) {
    await session.waitFor('Register in Consul?');
    await session.type('n');
  }
  await session.waitFor('Author');
  await session.type(KEYS.enter);
}

describe.runIf(hasScript)('interactive prompts on a terminal', () => {
  it('asks every question and generates what was answered', async () => {
    // A stand-in pnpm that records how it was called: the scaffolder must use the manager it was invoked with.
    const bin = join(tmp.dir, 'bin');
    mkdirSync(bin);
    const record = join(tmp.dir, 'pnpm-call.txt');
    writeFileSync(join(bin, 'pnpm'), `#!/bin/sh\necho "$PWD|$*" > ${JSON.stringify(record)}\n`);
    chmodSync(join(bin, 'pnpm'), 0o755);
    const session = new PtySession(`${process.execPath} ${CLI} pty-project`, {
      cwd: tmp.dir,
      env: { ...process.env, ...npmEnv(registryWith), PATH: `${bin}:${process.env.PATH ?? ''}`, npm_config_user_agent: 'pnpm/10.34.9 npm/? node/v20.20.2 linux x64' },
    });
    try {
      await session.waitFor('Project name');
      await session.type(KEYS.enter);
      await session.waitFor('Description');
      await session.type(KEYS.enter);
      await session.waitFor('Product name');
      await session.type(KEYS.enter);
      await session.waitFor('HTTP port');
      await session.type(...Array<string>(4).fill(KEYS.backspace), 'abc', KEYS.enter);
      await session.waitFor('The port must be an integer from 1 to 65535');
      await session.type(...Array<string>(3).fill(KEYS.backspace), '4567', KEYS.enter);
      await session.waitFor('Transport');
      await session.type(KEYS.down, KEYS.enter);
      if (available.has('auth')) {
        await session.waitFor('Require authentication?');
        await session.type('y');
      }
      if (available.has('database')) {
        await session.waitFor('Database');
        await session.type(KEYS.down, KEYS.enter);
      }
      if (available.has('consul')) {
        await session.waitFor('Register in Consul?');
        await session.type('n');
      }
      await session.waitFor('Author');
      await session.type('Tester <t@example.com>', KEYS.enter);
      await session.waitFor('Install dependencies with pnpm?');
      await session.type(KEYS.enter);
      await session.waitFor('Next steps');
      expect(await session.exited).toBe(0);
    } finally {
      session.kill();
    }

    const dir = join(tmp.dir, 'pty-project');
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, string>;
    expect(pkg).toMatchObject({ name: 'pty-project', author: 'Tester <t@example.com>' });
    const config = parseYaml(readFileSync(join(dir, 'config', 'default.yaml'), 'utf8')) as {
      webServer: { port: number; auth?: { enabled: boolean } };
      mcp: { transportType: string };
      db?: { postgres: { dbs: { main: { embedded: boolean } } } };
    };
    expect(config.webServer.port).toBe(4567);
    expect(config.mcp.transportType).toBe('stdio');
    if (available.has('auth')) {
      expect(config.webServer.auth?.enabled).toBe(true);
      expect(parseEnv(readFileSync(join(dir, '.env'), 'utf8')).AUTH_PERMANENT_SERVER_TOKENS).toMatch(/^[\w-]{43}$/);
    }
    if (available.has('database')) expect(config.db?.postgres.dbs.main.embedded).toBe(true);
    expect(readFileSync(record, 'utf8').trim()).toBe(`${dir}|install`);
    expect(registryWith.requests, 'the registry was asked for fa-mcp-sdk before the install question').toContain('/fa-mcp-sdk');
  }, 180_000);

  it('says so when the registry lacks fa-mcp-sdk, and takes a local checkout instead', async () => {
    const bin = join(tmp.dir, 'bin-local');
    mkdirSync(bin);
    const record = join(tmp.dir, 'npm-install-call.txt');
    // A stand-in npm for the install only; `npm view` (the registry check) goes to the real npm.
    writeFileSync(join(bin, 'npm'), `#!/bin/sh
if [ "$1" = "install" ]; then echo "$PWD|$*" > ${JSON.stringify(record)}; exit 0; fi
exec ${JSON.stringify(npmPath)} "$@"
`);
    chmodSync(join(bin, 'npm'), 0o755);
    const session = new PtySession(`${process.execPath} ${CLI} local-sdk --transport http`, {
      cwd: tmp.dir,
      env: { ...process.env, ...npmEnv(registryWithout), PATH: `${bin}:${process.env.PATH ?? ''}`, npm_config_user_agent: 'npm/10.9.0 node/v20.20.2 linux x64' },
    });
    try {
      await answerUpToAuthor(session);
      await session.waitFor('is not on your npm registry');
      await session.waitFor('Where should fa-mcp-sdk come from?');
      await session.type(KEYS.enter); // a local fa-mcp-sdk
      await session.waitFor('Path to the fa-mcp-sdk folder or .tgz');
      await session.type('no/such/folder', KEYS.enter);
      await session.waitFor('neither an existing folder or tarball nor a version');
      await session.type(...Array<string>('no/such/folder'.length).fill(KEYS.backspace), SDK_DIR, KEYS.enter);
      await session.waitFor('Install dependencies with npm?');
      await session.type(KEYS.enter);
      await session.waitFor('Next steps');
      expect(await session.exited).toBe(0);
    } finally {
      session.kill();
    }
    const dir = join(tmp.dir, 'local-sdk');
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    // The checkout is packed into the project (vendor/), and depended on by a relative path a clone finds too.
    const sdkVersion = (JSON.parse(readFileSync(join(SDK_DIR, 'package.json'), 'utf8')) as { version: string }).version;
    expect(pkg.dependencies['fa-mcp-sdk']).toBe(`file:vendor/fa-mcp-sdk-${sdkVersion}.tgz`);
    expect(statSync(join(dir, 'vendor', `fa-mcp-sdk-${sdkVersion}.tgz`)).size).toBeGreaterThan(0);
    expect(readFileSync(record, 'utf8').trim()).toBe(`${dir}|install`);
    expect(registryWithout.requests).toContain('/fa-mcp-sdk');
  }, 180_000);

  it('lets the install wait when the registry lacks fa-mcp-sdk', async () => {
    const session = new PtySession(`${process.execPath} ${CLI} later-install --transport http`, { cwd: tmp.dir, env: { ...process.env, ...npmEnv(registryWithout) } });
    try {
      await answerUpToAuthor(session);
      await session.waitFor('Where should fa-mcp-sdk come from?');
      await session.type(KEYS.down, KEYS.enter); // skip the install
      await session.waitFor('Next steps');
      expect(await session.exited).toBe(0);
    } finally {
      session.kill();
    }
    expect(session.screen).not.toContain('Install dependencies with');
    expect(session.screen).toMatch(/npm install/); // the next steps say to install later
    expect(existsSync(join(tmp.dir, 'later-install', 'node_modules'))).toBe(false);
  }, 180_000);

  it('Ctrl-C at a question ends the run with exit code 130 and writes nothing', async () => {
    const parent = join(tmp.dir, 'cancel');
    mkdirSync(parent);
    const session = new PtySession(`${process.execPath} ${CLI} never-made`, { cwd: parent, env: { ...process.env, ...npmEnv(registryWith) } });
    try {
      await session.waitFor('Project name');
      await session.type(KEYS.enter);
      await session.waitFor('Description');
      await session.type(KEYS.ctrlC);
      await session.waitFor('Cancelled: nothing was written.');
      expect(await session.exited).toBe(130);
    } finally {
      session.kill();
    }
    expect(readdirSync(parent)).toEqual([]);
  }, 120_000);
});
