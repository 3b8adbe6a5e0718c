/**
 * Cold start (issue 24, item 2): what the built package loads. `import('fa-mcp-sdk')` loads the
 * library's own code and js-yaml, nothing of the server; a stdio server answers its first
 * tools/list, on either protocol era, without anything of HTTP, the database, JWT, webhooks, the
 * CLI, the pretty log printer (nothing logged yet), the stores of rate-limiter-flexible it does
 * not use or prom-client's Pushgateway. The timings themselves are measured by scripts/measure-footprint.mjs, not here.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PKG = fileURLToPath(new URL('../../', import.meta.url));
const DIST = join(PKG, 'dist', 'index.js');
const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'fa-mcp-cold-start-'));

beforeAll(() => {
  if (!existsSync(DIST) || statSync(DIST).mtimeMs < statSync(join(PKG, 'src', 'index.ts')).mtimeMs) {
    throw new Error('packages/fa-mcp-sdk/dist is missing or older than src/: run `pnpm run build` at the repository root first');
  }
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Probe {
  answer?: { result?: { tools?: Array<{ name: string }> } };
  modules: string[];
}

function probe(...args: string[]): Promise<Probe> {
  const log = join(work, `${args.join('-')}.log`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', join(FIXTURES, 'load-recorder.mjs'), join(FIXTURES, 'cold-start-probe.mjs'), args[0] as string, DIST, ...args.slice(1)], {
      cwd: work,
      env: { ...process.env, FA_MCP_LOAD_LOG: log, NODE_ENV: 'development' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(JSON.parse(out) as Probe) : reject(new Error(`probe exited ${code}:\n${out}\n${err}`))));
  });
}

/** The packages among the loaded modules (`@scope/name` or `name`), and the node: builtins. */
function packagesOf(modules: string[]): Set<string> {
  const names = new Set<string>();
  for (const url of modules) {
    if (url.startsWith('node:')) names.add(url);
    const m = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (m) names.add(m[1] as string);
  }
  return names;
}

/** Nothing a stdio server needs before its first answer. */
const NOT_ON_STDIO = [
  'express', 'helmet', 'cors', 'proxy-addr', '@modelcontextprotocol/node', // HTTP
  'pg', 'pgvector', '@electric-sql/pglite', // no database configured
  'jose', // no authentication configured
  'standardwebhooks', // no webhooks configured
  'commander', // the CLI
  'pino-pretty', // the human-readable log printer: with the first line written
  'swagger-ui-dist', 'consul', 'ldapts',
];

describe('import of the built package', () => {
  it('loads the library and js-yaml, and nothing of a running server', async () => {
    const { modules } = await probe('import');
    const packages = packagesOf(modules);
    for (const name of ['@modelcontextprotocol/server', 'zod', 'ajv', 'pino', 'prom-client', 'rate-limiter-flexible', '@opentelemetry/api', 'debug', ...NOT_ON_STDIO]) {
      expect(packages, `${name} loads with import('fa-mcp-sdk')`).not.toContain(name);
    }
    // node:crypto costs an import a few milliseconds: loaded where used, by what uses it
    expect(packages).not.toContain('node:crypto');
    expect([...packages].filter((p) => !p.startsWith('node:'))).toEqual(['js-yaml']);
  });
});

describe.each(['2025', '2026'])('a stdio server, era %s, up to its first tools/list', (era) => {
  it('answers without HTTP, database, JWT, webhooks, CLI, pretty printer, unused limiter stores or Pushgateway', async () => {
    const { answer, modules } = await probe('stdio', era);
    expect(answer?.result?.tools?.map((t) => t.name)).toEqual(['echo']);
    const packages = packagesOf(modules);
    for (const name of NOT_ON_STDIO) expect(packages, `${name} loads before the first tools/list`).not.toContain(name);
    // rate-limiter-flexible: the in-memory limiter's files, not its index of every store (Redis, Mongo, MySQL…)
    const limiterFiles = modules.filter((url) => url.includes('/rate-limiter-flexible/')).map((url) => url.replace(/.*\/rate-limiter-flexible\//, ''));
    expect(limiterFiles).toContain('lib/RateLimiterMemory.js');
    expect(limiterFiles).not.toContain('index.js');
    expect(limiterFiles.filter((f) => /RateLimiter(Redis|Mongo|MySQL|Postgres|Dynamo|Prisma|Cluster)/.test(f))).toEqual([]);
    // prom-client (metrics are on by default): its registry and metric classes, not the Pushgateway (node:http/https), Summary or cluster
    const promFiles = modules.filter((url) => url.includes('/prom-client/')).map((url) => url.replace(/.*\/prom-client\//, ''));
    expect(promFiles).toContain('lib/registry.js');
    expect(promFiles).not.toContain('index.js');
    expect(promFiles.filter((f) => /pushgateway|summary|cluster/.test(f))).toEqual([]);
  });
});
