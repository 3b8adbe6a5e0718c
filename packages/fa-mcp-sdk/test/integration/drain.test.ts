/**
 * Drain for a load balancer (webServer.shutdown.drainMs, SHUTDOWN_DRAIN_MS):
 * the order of the steps with an injected clock; on a real server, /ready
 * answers 503 at once while calls (new and old connections) are still served,
 * then the listener closes, idle keep-alive connections close, a call in
 * flight finishes; Consul is left first; SIGTERM drains and a second SIGTERM
 * ends the wait.
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { CoreLogger } from '../../src/core/core.js';
import { runShutdown, type ShutdownClock } from '../../src/ops/shutdown.js';
import { fixtureServerData, sleepRecords } from '../fixtures/server-data.js';
import { FakeConsul } from '../ops2/fake-consul.js';
import { exitWithin, killChildFixtures, spawnChildFixture, waitForHttpChild } from './child-fixture.js';
import { baseUrl, connectHttpClient, ERAS, serverUrl, startTestServer, stopAllServers, waitFor } from './helpers.js';

afterEach(stopAllServers);
afterAll(killChildFixtures);

const silent: CoreLogger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {}, child: () => silent };

/** A clock that moves only when the test says so. */
function manualClock() {
  let now = 0;
  let waiting: Array<{ until: number; resolve: () => void }> = [];
  const clock: ShutdownClock & { advance(ms: number): Promise<void>; sleeping(): number } = {
    now: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve) => {
        if (signal?.aborted) return resolve();
        waiting.push({ until: now + ms, resolve });
        signal?.addEventListener('abort', () => resolve(), { once: true });
      }),
    async advance(ms) {
      now += ms;
      const due = waiting.filter((w) => w.until <= now);
      waiting = waiting.filter((w) => w.until > now);
      due.forEach((w) => w.resolve());
      await new Promise((r) => setImmediate(r));
    },
    sleeping: () => waiting.length,
  };
  return clock;
}

const flush = () => new Promise((r) => setImmediate(r));

describe('runShutdown steps, on an injected clock', () => {
  function plan(clock: ShutdownClock, steps: string[], inFlight: { n: number }, hurry?: AbortSignal) {
    return {
      logger: silent,
      drainMs: 5_000,
      graceMs: 10_000,
      clock,
      ...(hurry ? { hurry } : {}),
      beginDrain: async () => void steps.push('leave discovery'),
      stopAccepting: async () => void steps.push('stop accepting'),
      inFlight: () => inFlight.n,
      closers: [
        { name: 'streams', close: async () => void steps.push('end streams') },
        { name: 'tasks', close: async () => void steps.push('release leases') },
      ],
    };
  }

  it('leaves discovery, serves for drainMs, then stops accepting, waits for in-flight work, then closes', async () => {
    const clock = manualClock();
    const steps: string[] = [];
    const inFlight = { n: 1 };
    const done = runShutdown(plan(clock, steps, inFlight), 'test');
    await flush();
    expect(steps).toEqual(['leave discovery']);
    await clock.advance(4_999);
    expect(steps).toEqual(['leave discovery']); // still serving
    await clock.advance(1);
    expect(steps).toEqual(['leave discovery', 'stop accepting']);
    await clock.advance(3_000);
    expect(steps).toEqual(['leave discovery', 'stop accepting']); // the call in flight is waited for
    inFlight.n = 0;
    await clock.advance(25);
    await expect(done).resolves.toMatchObject({ drained: true, abandoned: 0, durationMs: 8_025 });
    expect(steps).toEqual(['leave discovery', 'stop accepting', 'end streams', 'release leases']);
  });

  it('ends after the grace with the work still in flight abandoned', async () => {
    const clock = manualClock();
    const steps: string[] = [];
    const done = runShutdown(plan(clock, steps, { n: 2 }), 'test');
    await flush();
    await clock.advance(5_000);
    for (let i = 0; i < 400 && clock.sleeping() > 0; i++) await clock.advance(25);
    await expect(done).resolves.toMatchObject({ drained: false, abandoned: 2, durationMs: 15_000 });
    expect(steps.at(-1)).toBe('release leases');
  });

  it('a hurry (the second signal) cuts the drain window and the grace short', async () => {
    const clock = manualClock();
    const steps: string[] = [];
    const hurry = new AbortController();
    const done = runShutdown(plan(clock, steps, { n: 1 }, hurry.signal), 'test');
    await flush();
    expect(steps).toEqual(['leave discovery']);
    hurry.abort();
    await expect(done).resolves.toMatchObject({ drained: false, abandoned: 1, durationMs: 0 });
    expect(steps).toEqual(['leave discovery', 'stop accepting', 'end streams', 'release leases']);
  });

  it('drainMs 0 stops accepting at once', async () => {
    const clock = manualClock();
    const steps: string[] = [];
    await runShutdown({ ...plan(clock, steps, { n: 0 }), drainMs: 0 }, 'test');
    expect(steps).toEqual(['leave discovery', 'stop accepting', 'end streams', 'release leases']);
  });
});

/** One request on a fresh connection: the status, or the socket error's code. */
function fresh(url: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = httpRequest(url, { agent: false, timeout: 3_000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    req.end();
  });
}

/** A GET through a keep-alive agent; resolves with the status and the socket it used. */
function keptAlive(url: string, agent: Agent): Promise<{ status: number; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, socket: req.socket as Socket }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe.each(ERAS)('drain on a real server, era %s', (era) => {
  it('/ready is 503 at once, everything is served until drainMs, then the listener closes and the call in flight finishes', async () => {
    const drainMs = 2_500;
    const handle = await startTestServer(fixtureServerData(), { webServer: { shutdownGraceMs: 10_000, shutdown: { drainMs } } });
    const origin = baseUrl(handle);
    const agent = new Agent({ keepAlive: true });
    try {
      const before = await connectHttpClient(serverUrl(handle), { era });
      expect(await fresh(`${origin}/ready`)).toBe(200);

      const started = Date.now();
      const stopping = handle.stop('test', { drain: true });
      // The balancer sees 503 at once...
      expect(await fresh(`${origin}/ready`)).toBe(503);
      // ...while everything is still served: liveness, a new connection and client, an old client.
      expect(await fresh(`${origin}/health`)).toBe(200);
      const during = await connectHttpClient(serverUrl(handle), { era });
      await expect(during.client.callTool({ name: 'echo', arguments: { text: 'new' } })).resolves.toMatchObject({ structuredContent: { echoed: 'new' } });
      await expect(before.client.callTool({ name: 'echo', arguments: { text: 'old' } })).resolves.toMatchObject({ structuredContent: { echoed: 'old' } });
      const kept = await keptAlive(`${origin}/health`, agent);
      expect(kept.status).toBe(200);
      const keptClosed = new Promise<void>((resolve) => kept.socket.once('close', () => resolve()));

      // A call started in the window outlives it: it is in flight when the listener closes.
      const since = sleepRecords.length;
      const call = during.client.callTool({ name: 'sleep', arguments: { ms: drainMs + 1_000 } }, { timeout: 20_000 });
      await waitFor(() => sleepRecords.slice(since).some((r) => !r.finished), 3_000, 'the sleep call to run');
      expect(Date.now() - started).toBeLessThan(drainMs); // (it began inside the window)

      const refused = await waitFor(async () => ((await fresh(`${origin}/health`)) === 'ECONNREFUSED' ? Date.now() : false), drainMs + 3_000, 'the listener to close');
      expect(refused - started).toBeGreaterThanOrEqual(drainMs - 50);
      expect(sleepRecords.slice(since).some((r) => !r.finished)).toBe(true); // still running when new connections were refused
      await keptClosed; // the idle keep-alive connection was closed, not left to time out

      await expect(call).resolves.toMatchObject({ structuredContent: { slept: drainMs + 1_000, aborted: false } });
      await expect(stopping).resolves.toMatchObject({ drained: true, abandoned: 0 });
    } finally {
      agent.destroy();
    }
  });
});

/** A JSON-RPC POST through `agent`: status, headers, body and the socket it used. */
function postOn(agent: Agent, url: URL, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingHttpHeaders; text: string; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        agent,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers },
        timeout: 20_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, socket: req.socket as Socket }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe.each([true, false])('drain with event-stream answers (mcp.fastPath %s)', (fastPath) => {
  it('an answer admitted after the listener closed says Connection: close on an event stream too, and its kept-alive connection ends', async () => {
    const handle = await startTestServer(fixtureServerData(), { mcp: { responseMode: 'sse', fastPath }, webServer: { shutdownGraceMs: 60_000, shutdown: { drainMs: 0 } } });
    const url = serverUrl(handle);
    const kept = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const init = await postOn(kept, url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'drain', version: '1.0.0' } } });
      const session = { 'mcp-session-id': String(init.headers['mcp-session-id']) };
      expect((await postOn(kept, url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).toBe(202);

      // Holds the shutdown in its grace past the late call, on a connection of its own (a cancel could
      // not reach the server once the listener closed: it would need a new connection).
      const holder = await connectHttpClient(url, { era: '2025' });
      const since = sleepRecords.length;
      const held = holder.client.callTool({ name: 'sleep', arguments: { ms: 8_000 } }, { timeout: 30_000 });
      // Busy when the listener closes, so the kept connection is not closed as idle.
      const busy = postOn(kept, url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'sleep', arguments: { ms: 1_500 } } }, session);
      await waitFor(() => sleepRecords.slice(since).filter((r) => !r.finished).length === 2, 5_000, 'both sleeps to run');

      const stopping = handle.stop('test', { drain: true });
      await waitFor(async () => (await fresh(`${url.origin}/health`)) === 'ECONNREFUSED', 5_000, 'the listener to close');
      const first = await busy;
      expect(first.headers['content-type']).toBe('text/event-stream');
      const closed = new Promise<void>((resolve) => first.socket.once('close', () => resolve()));

      const after = await postOn(kept, url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'late' } } }, session);
      expect(after.socket).toBe(first.socket);
      expect(after.text).toContain('"echoed":"late"');
      expect(after.headers['content-type']).toBe('text/event-stream');
      expect(after.headers.connection).toBe('close');
      await closed; // the client moves to another instance, rather than reusing this one until the grace ends

      await expect(held).resolves.toMatchObject({ structuredContent: { slept: 8_000, aborted: false } });
      await expect(stopping).resolves.toMatchObject({ drained: true, abandoned: 0 });
    } finally {
      kept.destroy();
    }
  });
});

describe('drain and Consul', () => {
  it('deregisters as the drain begins, while the instance still serves', async () => {
    const consul = new FakeConsul();
    await consul.start();
    try {
      const handle = await startTestServer(fixtureServerData(), {
        webServer: { shutdown: { drainMs: 1_500 } },
        consul: { enabled: true, agent: { host: '127.0.0.1', port: consul.port, timeoutMs: 1000 }, service: { name: 'drain-mcp' } },
      });
      const origin = baseUrl(handle);
      await waitFor(() => consul.services.size === 1, 3_000, 'the registration');
      const stopping = handle.stop('test', { drain: true });
      await waitFor(() => consul.calls('PUT', '/v1/agent/service/deregister/').length === 1, 1_000, 'the deregistration');
      expect(consul.services.size).toBe(0);
      expect(await fresh(`${origin}/health`)).toBe(200); // still serving
      expect(await fresh(`${origin}/ready`)).toBe(503);
      await expect(stopping).resolves.toMatchObject({ drained: true });
    } finally {
      await consul.stop();
    }
  });
});

describe('SIGTERM on a child process with SHUTDOWN_DRAIN_MS', () => {
  it('drains (/ready 503, still serving), and a second SIGTERM ends the process without waiting out the window', async () => {
    const fixture = spawnChildFixture('http', { SHUTDOWN_DRAIN_MS: '60000' });
    const url = await waitForHttpChild(fixture);
    expect(await fresh(`${url.origin}/ready`)).toBe(200);
    fixture.child.kill('SIGTERM');
    await waitFor(async () => (await fresh(`${url.origin}/ready`)) === 503, 3_000, '/ready to answer 503');
    expect(await fresh(`${url.origin}/health`)).toBe(200);
    const { client } = await connectHttpClient(url, { era: '2026' });
    await expect(client.callTool({ name: 'echo', arguments: { text: 'draining' } })).resolves.toMatchObject({ structuredContent: { echoed: 'draining' } });
    await client.close();
    fixture.child.kill('SIGTERM');
    expect(await exitWithin(fixture, 5_000)).toBe(0);
  });

  it('SIGINT does not drain: the process ends at once', async () => {
    const fixture = spawnChildFixture('http', { SHUTDOWN_DRAIN_MS: '60000' });
    const url = await waitForHttpChild(fixture);
    expect(await fresh(`${url.origin}/health`)).toBe(200);
    fixture.child.kill('SIGINT');
    expect(await exitWithin(fixture, 5_000)).toBe(0);
  });
});
