/**
 * Consul against a loopback agent that records what it receives: registration
 * on start (name, per-instance id, tags, meta, address, port, HTTP check on
 * /health), re-registration after an agent restart, /ready, deregistration on
 * graceful shutdown, and access points resolved with a cache.
 */
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { initMcpServer, type McpServerHandle } from '../../src/index.js';
import { FakeConsul } from './fake-consul.js';
import { outcomeServer, sleep } from './helpers.js';

let agent: FakeConsul;
const handles: McpServerHandle[] = [];

beforeEach(async () => {
  agent = new FakeConsul();
  await agent.start();
});
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.stop('test finished')));
  await agent.stop();
});

async function start(consul: Record<string, unknown> = {}): Promise<McpServerHandle> {
  const handle = await initMcpServer(outcomeServer(), {
    handleSignals: false,
    config: {
      webServer: { port: 0 },
      logger: { level: 'silent' },
      consul: {
        enabled: true,
        agent: { host: '127.0.0.1', port: agent.port, token: 'acl-token', timeoutMs: 1000 },
        service: { name: 'weather-mcp', tags: ['mcp', 'v1'], meta: { team: 'ops' } },
        check: { interval: '5s' },
        reregisterIntervalMs: 100,
        ...consul,
      },
    },
  });
  handles.push(handle);
  return handle;
}

async function waitFor<T>(fn: () => T | undefined | false, ms = 3000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

describe('Consul registration', () => {
  it('registers on start with name, instance id, tags, meta, address, port and an HTTP check on /health', async () => {
    const handle = await start();
    const port = Number(new URL(handle.url!).port);
    const [register] = agent.calls('PUT', '/v1/agent/service/register');
    expect(register).toBeDefined();
    expect(register!.token).toBe('acl-token');
    expect(register!.body).toEqual({
      Name: 'weather-mcp',
      ID: `weather-mcp-127.0.0.1-${port}`,
      Tags: ['mcp', 'v1'],
      Meta: { version: '1.0.0', sdk: expect.stringMatching(/^fa-mcp-sdk@/), team: 'ops' },
      Address: '127.0.0.1',
      Port: port,
      Check: {
        Name: 'weather-mcp HTTP /health',
        HTTP: `http://127.0.0.1:${port}/health`,
        Interval: '5s',
        Timeout: '5s',
        DeregisterCriticalServiceAfter: '1m',
      },
    });
    // The check URL answers.
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
  });

  it('registers again after the agent restarts and forgets it', async () => {
    await start();
    expect(agent.calls('PUT', '/v1/agent/service/register')).toHaveLength(1);
    await waitFor(() => agent.calls('GET', '/v1/agent/services').length >= 2);
    expect(agent.calls('PUT', '/v1/agent/service/register')).toHaveLength(1); // still known: no re-registration
    agent.restart();
    await waitFor(() => agent.calls('PUT', '/v1/agent/service/register').length === 2);
    expect(agent.services.size).toBe(1);
  });

  it('keeps serving while the agent is down and registers once it is back', async () => {
    agent.down = true;
    const handle = await start();
    expect(agent.services.size).toBe(0);
    const res = await fetch(new URL('/ready', handle.url!));
    const ready = (await res.json()) as { status: string; checks: Record<string, { status: string; durationMs: number; error?: string }> };
    expect(res.status).toBe(503);
    expect(ready.checks.consul).toMatchObject({ status: 'fail', durationMs: expect.any(Number) });
    expect(JSON.stringify(ready)).not.toContain('acl-token');
    agent.down = false;
    await waitFor(() => agent.services.size === 1);
    const again = await fetch(new URL('/ready', handle.url!));
    expect(again.status).toBe(200);
    expect(((await again.json()) as { checks: Record<string, { status: string }> }).checks.consul!.status).toBe('ok');
  });

  it('deregisters on graceful shutdown and stops checking the agent', async () => {
    const handle = await start();
    const id = [...agent.services.keys()][0];
    handles.splice(handles.indexOf(handle), 1);
    await handle.stop('test shutdown');
    const deregister = agent.calls('PUT', '/v1/agent/service/deregister/');
    expect(deregister.map((r) => r.path)).toEqual([`/v1/agent/service/deregister/${id}`]);
    expect(agent.services.size).toBe(0);
    const checksAfter = agent.calls('GET', '/v1/agent/services').length;
    await sleep(300);
    expect(agent.calls('GET', '/v1/agent/services').length).toBe(checksAfter); // the periodic check stopped
  });
});

describe('Consul access points', () => {
  it('resolves healthy instances with a cache, round-robin, and falls back to the last list when the agent fails', async () => {
    agent.services.set('users-1', { ID: 'users-1', Service: 'users-api', Tags: ['v2'], Meta: {}, Address: '10.1.0.1', Port: 8080, passing: true });
    agent.services.set('users-2', { ID: 'users-2', Service: 'users-api', Tags: ['v2'], Meta: {}, Address: '10.1.0.2', Port: 8080, passing: true });
    agent.services.set('users-3', { ID: 'users-3', Service: 'users-api', Tags: ['v1'], Meta: {}, Address: '10.1.0.3', Port: 8080, passing: true });
    agent.services.set('users-4', { ID: 'users-4', Service: 'users-api', Tags: ['v2'], Meta: {}, Address: '10.1.0.4', Port: 8080, passing: false });
    // The cache's clock is Date (faked before the server starts, time still flows): a minute of cache cannot expire
    // between two calls however busy the machine, and it expires when the test moves the clock.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    onTestFinished(() => void vi.useRealTimers());
    const handle = await start({ accessPoints: { users: { service: 'users-api', tag: 'v2' }, allUsers: { service: 'users-api', passingOnly: false } }, cacheTtlMs: 60_000 });
    const ap = handle.accessPoints!;

    const list = await ap.resolveAll('users');
    expect(list.map((a) => a.host).sort()).toEqual(['10.1.0.1', '10.1.0.2']);
    const picks = [await ap.resolve('users'), await ap.resolve('users')].map((a) => a.host).sort();
    expect(picks).toEqual(['10.1.0.1', '10.1.0.2']);
    const healthCalls = agent.calls('GET', '/v1/health/service/users-api');
    expect(healthCalls).toHaveLength(1); // three resolutions, one agent call
    expect(healthCalls[0]!.query).toMatchObject({ tag: 'v2', passing: 'true' });

    // passingOnly: false reads the catalog (every instance, healthy or not).
    const all = await ap.resolveAll('allUsers');
    expect(all.map((a) => a.host).sort()).toEqual(['10.1.0.1', '10.1.0.2', '10.1.0.3', '10.1.0.4']);
    expect(agent.calls('GET', '/v1/catalog/service/users-api')).toHaveLength(1);

    vi.setSystemTime(Date.now() + 61_000); // the cache expired
    agent.down = true;
    const stale = await ap.resolveAll('users');
    expect(stale.map((a) => a.host).sort()).toEqual(['10.1.0.1', '10.1.0.2']);
    expect(agent.calls('GET', '/v1/health/service/users-api')).toHaveLength(2);
    await expect(ap.resolveAll('unknown-service')).rejects.toMatchObject({ code: -32006 });
  });
});
