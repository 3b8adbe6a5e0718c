/**
 * The "mcp.requestState.secret is not set" warning appears where a missing secret matters — when
 * several instances may serve the endpoint (a store or bus on PostgreSQL, Consul, or
 * NODE_ENV=production) — and not on every local start.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/loader.js';
import { sharedInstancesReason } from '../../src/config/shared-instances.js';
import { startTestServer, type StartTestServerOptions, type TestServer } from '../../src/testing/index.js';
import { inputServer } from './fixtures.js';

const emptyDir = mkdtempSync(join(tmpdir(), 'fa-mcp-shared-'));
afterAll(() => rmSync(emptyDir, { recursive: true, force: true }));

const configWith = (overrides: Record<string, unknown>) => loadConfig({ cwd: emptyDir, env: {}, nodeEnv: 'development', overrides }).config;

describe('sharedInstancesReason', () => {
  it.each([
    [{}, 'development', undefined],
    [{}, 'test', undefined],
    [{}, 'production', 'NODE_ENV is production'],
    [{ mcp: { sessions: { store: 'postgres' } } }, 'development', 'mcp.sessions.store is postgres'],
    [{ mcp: { notifications: { bus: 'postgres' } } }, 'development', 'mcp.notifications.bus is postgres'],
    [{ mcp: { tasks: { enabled: true, store: 'postgres' } } }, 'development', 'mcp.tasks.store is postgres'],
    [{ mcp: { tasks: { enabled: false, store: 'postgres' } } }, 'development', undefined], // tasks off: the store is never used
    [{ mcp: { resumability: { store: 'postgres' } } }, 'development', 'mcp.resumability.store is postgres'],
    [{ mcp: { rateLimit: { store: 'postgres' } } }, 'development', 'mcp.rateLimit.store is postgres'],
    [{ mcp: { rateLimit: { enabled: false, store: 'postgres' } } }, 'development', undefined],
    [{ mcp: { mintedResources: { enabled: true, store: 'postgres' } } }, 'development', 'mcp.mintedResources.store is postgres'],
    [{ consul: { enabled: true } }, 'development', 'consul.enabled is true'],
  ])('%j with NODE_ENV %s: %s', (overrides, nodeEnv, expected) => {
    expect(sharedInstancesReason(configWith(overrides), nodeEnv)).toBe(expected);
  });
});

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

/** The warn-level log lines of an HTTP server started with `options`. */
async function startupWarnings(options: StartTestServerOptions): Promise<string> {
  const lines: string[] = [];
  const logDestination = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const config = { ...options.config, logger: { level: 'warn', format: 'json' } };
  servers.push(await startTestServer(inputServer({ runs: [] }), { target: { transport: 'http', era: '2026', label: 'http/2026' }, ...options, config, logDestination }));
  return lines.join('');
}

describe('the missing requestState secret on start', () => {
  it('is not worth a warning on a local start (development, state in memory)', async () => {
    const logs = await startupWarnings({ nodeEnv: 'development' });
    expect(logs).not.toContain('mcp.requestState.secret');
  });

  it('is a warning, with its reason, in production', async () => {
    const logs = await startupWarnings({ nodeEnv: 'production' });
    expect(logs).toContain('mcp.requestState.secret is not set');
    expect(logs).toContain('several may serve this endpoint: NODE_ENV is production');
  });

  it('is a warning when another instance is configured to share the state (Consul registration)', async () => {
    // Consul registration with an agent that is not there: the start goes on (registration retries).
    const logs = await startupWarnings({ nodeEnv: 'development', config: { consul: { enabled: true, agent: { port: 9, timeoutMs: 200 } } } });
    expect(logs).toContain('several may serve this endpoint: consul.enabled is true');
  });

  it('is never logged when the secret is set', async () => {
    const logs = await startupWarnings({ nodeEnv: 'production', config: { mcp: { requestState: { secret: 'x'.repeat(32) } } } });
    expect(logs).not.toContain('mcp.requestState.secret');
  });
});
