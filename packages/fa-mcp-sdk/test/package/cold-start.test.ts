/**
 * Cold start (issue 24, item 2): what the built package loads. `import('fa-mcp-sdk')` loads the
 * library's own code and js-yaml, nothing of the server; a stdio server answers its first
 * tools/list, on either protocol era, without anything of HTTP, the database, JWT, webhooks, the
 * CLI, the pretty log printer (nothing logged yet), the stores of rate-limiter-flexible it does
 * not use or prom-client's Pushgateway. On the 2025 era the cold front answers (transport/stdio.ts):
 * nothing of the MCP SDK, zod or ajv loads before that answer; the SDK loads after it and serves the
 * call that follows, whose arguments ajv validates. The timings themselves are measured by scripts/measure-footprint.mjs, not here.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, DIST, probeWorkDir, runProbe } from './probe-kit.js';

const work = probeWorkDir('fa-mcp-cold-start-');

beforeAll(assertBuilt);
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Probe {
  answer?: { result?: { tools?: Array<{ name: string }> } };
  modules: string[];
  call?: { result?: { content?: Array<{ text?: string }> } };
  after?: string[];
}

const probe = (mode: string, ...rest: string[]): Promise<Probe> => runProbe<Probe>(work, 'cold-start-probe.mjs', [mode, DIST, ...rest]);

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
    // Its process and runtime metrics start after the first answers (ops/metrics.ts).
    expect(promFiles.filter((f) => f === 'lib/defaultMetrics.js' || f.startsWith('lib/metrics/'))).toEqual([]);
  });
});

describe('a stdio server with metrics and tracing off', () => {
  it('loads neither prom-client nor @opentelemetry/api, before its first tools/list or with the call after it', async () => {
    const { answer, call, after } = await runProbe<Probe>(work, 'cold-start-probe.mjs', ['stdio', DIST, '2025'], { METRICS_ENABLED: 'false', TRACING_ENABLED: 'false' });
    expect(answer?.result?.tools?.map((t) => t.name)).toEqual(['echo']);
    expect(call?.result?.content?.[0]?.text).toBe('ok');
    const packages = packagesOf(after ?? []);
    for (const name of ['prom-client', '@opentelemetry/api']) expect(packages, `${name} loads with metrics and tracing off`).not.toContain(name);
  });
});

/** The MCP SDK and its schema library: the cold front answers the 2025-era handshake and lists without them. */
const SDK_PACKAGES = ['@modelcontextprotocol/server', '@modelcontextprotocol/core', 'zod'];

describe('a stdio server, era 2025, answers its first tools/list without the MCP SDK', () => {
  it('loads no @modelcontextprotocol module nor zod before that answer, then the SDK, which serves the call that follows', async () => {
    const { answer, modules, call, after } = await probe('stdio', '2025');
    expect(answer?.result?.tools?.map((t) => t.name)).toEqual(['echo']);
    const before = packagesOf(modules);
    for (const name of SDK_PACKAGES) expect(before, `${name} loads before the first tools/list`).not.toContain(name);
    // nor ajv's compiler: the tool's schema is compiled after the first answers (core/schema-precheck.ts);
    // the configuration's validator, compiled at build time, needs only a file of ajv's runtime
    const ajvFiles = modules.filter((url) => url.includes('/ajv/')).map((url) => url.replace(/.*\/ajv\//, ''));
    expect(ajvFiles).toEqual(['dist/runtime/ucs2length.js']);
    expect(call?.result?.content?.[0]?.text).toBe('ok');
    expect(packagesOf(after ?? [])).toContain('ajv');
    expect(packagesOf(after ?? [])).toContain('@modelcontextprotocol/server');
  });
});

describe('a stdio server, era 2026', () => {
  it('is served by the SDK from its first message (server/discover), list and call', async () => {
    const { answer, call, modules } = await probe('stdio', '2026');
    expect(answer?.result?.tools?.map((t) => t.name)).toEqual(['echo']);
    expect(call?.result?.content?.[0]?.text).toBe('ok');
    expect(packagesOf(modules)).toContain('@modelcontextprotocol/server');
  });
});
