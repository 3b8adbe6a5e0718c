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
import { formatToolResult, type ITool, type McpServerHandle } from '../../src/index.js';
import { runShutdown, type ShutdownClock } from '../../src/ops/shutdown.js';
import { fixtureServerData, fixtureTools } from '../fixtures/server-data.js';
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
    await expect(done).resolves.toMatchObject({ drained: false, abandoned: 2, handedOver: 0, durationMs: 15_000 });
    expect(steps.at(-1)).toBe('release leases');
  });

  it('waits for running tasks too; a task handed over after the grace is not abandoned, a request cut or a task failed is', async () => {
    const run = async (requests: number, report: { handedOver?: number; abandoned?: number }) => {
      const clock = manualClock();
      const steps: string[] = [];
      const tasks = { n: 1 };
      const p = plan(clock, steps, { n: requests });
      const done = runShutdown(
        {
          ...p,
          drainMs: 0,
          tasksRunning: () => tasks.n,
          closers: [...p.closers.slice(0, 1), { name: 'tasks', close: async () => (steps.push('hand over'), report) }],
        },
        'test',
      );
      await flush();
      await clock.advance(9_999);
      expect(steps).toEqual(['leave discovery', 'stop accepting']); // the task holds the grace
      for (let i = 0; i < 10 && clock.sleeping() > 0; i++) await clock.advance(25);
      const outcome = await done;
      expect(steps.at(-1)).toBe('hand over');
      return outcome;
    };
    const handedOver = await run(0, { handedOver: 1 });
    expect(handedOver).toMatchObject({ drained: true, abandoned: 0, handedOver: 1 });
    expect(handedOver.durationMs).toBeGreaterThanOrEqual(10_000); // the whole grace
    await expect(run(1, { handedOver: 1 })).resolves.toMatchObject({ drained: false, abandoned: 1, handedOver: 1 });
    await expect(run(0, { abandoned: 1 })).resolves.toMatchObject({ drained: false, abandoned: 1, handedOver: 0 });
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

/** Tool calls that wait until the test opens their gate (no sleeps: what runs when is the test's say). */
function gates() {
  const open = new Map<string, () => void>();
  const started = new Set<string>();
  const tool: ITool = {
    name: 'gated',
    description: 'Answers when the test opens the gate it names.',
    inputSchema: { type: 'object', properties: { gate: { type: 'string' } }, required: ['gate'] },
    // A progress notification first (when the client asked for progress) turns the answer into an event stream.
    handler: async ({ arguments: args, sendProgress }) => {
      const gate = String(args.gate);
      const opened = new Promise<void>((resolve) => open.set(gate, resolve));
      sendProgress(0, 1);
      started.add(gate);
      await opened;
      return formatToolResult({ gate });
    },
  };
  return { tool, started, open: (gate: string) => open.get(gate)?.() };
}

describe.each(ERAS)('drain on a real server, era %s', (era) => {
  it('/ready is 503 at once, everything is served until drainMs, then the listener closes and the call in flight finishes', async () => {
    const drainMs = 2_500;
    const gate = gates();
    const handle = await startTestServer(fixtureServerData({ tools: [...fixtureTools, gate.tool] }), { webServer: { shutdownGraceMs: 10_000, shutdown: { drainMs } } });
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

      // A call started in the window outlives it: it is in flight when the listener closes (its gate
      // opens only after that).
      const call = during.client.callTool({ name: 'gated', arguments: { gate: 'in-flight' } }, { timeout: 30_000 });
      await waitFor(() => gate.started.has('in-flight'), 5_000, 'the gated call to run');
      expect(Date.now() - started).toBeLessThan(drainMs); // (it began inside the window)

      const refused = await waitFor(async () => ((await fresh(`${origin}/health`)) === 'ECONNREFUSED' ? Date.now() : false), drainMs + 5_000, 'the listener to close');
      expect(refused - started).toBeGreaterThanOrEqual(drainMs - 50);
      await keptClosed; // the idle keep-alive connection was closed, not left to time out

      gate.open('in-flight');
      await expect(call).resolves.toMatchObject({ structuredContent: { gate: 'in-flight' } });
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

/**
 * Once the `holder` and `busy` gated calls run: starts a drain with no window, waits for the listener to
 * close, then lets the busy call answer; resolves with the drain and that answer.
 */
async function stopWhileBusy(handle: McpServerHandle, url: URL, gate: ReturnType<typeof gates>, busy: ReturnType<typeof postOn>) {
  await waitFor(() => gate.started.has('holder') && gate.started.has('busy'), 10_000, 'both gated calls to run');
  const stopping = handle.stop('test', { drain: true });
  await waitFor(async () => (await fresh(`${url.origin}/health`)) === 'ECONNREFUSED', 10_000, 'the listener to close');
  gate.open('busy');
  const first = await busy;
  expect(first.text).toContain('"gate":"busy"');
  return { stopping, first };
}

describe.each([true, false])('drain with event-stream answers (mcp.fastPath %s)', (fastPath) => {
  it('an answer admitted after the listener closed says Connection: close on an event stream too, and its kept-alive connection ends', async () => {
    const gate = gates();
    const handle = await startTestServer(fixtureServerData({ tools: [...fixtureTools, gate.tool] }), { mcp: { responseMode: 'sse', fastPath }, webServer: { shutdownGraceMs: 60_000, shutdown: { drainMs: 0 } } });
    const url = serverUrl(handle);
    const kept = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const init = await postOn(kept, url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'drain', version: '1.0.0' } } });
      const session = { 'mcp-session-id': String(init.headers['mcp-session-id']) };
      expect((await postOn(kept, url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).toBe(202);

      // Holds the shutdown in its grace past the late call, on a connection of its own (a cancel could
      // not reach the server once the listener closed: it would need a new connection).
      const holder = await connectHttpClient(url, { era: '2025' });
      const held = holder.client.callTool({ name: 'gated', arguments: { gate: 'holder' } }, { timeout: 60_000 });
      // Busy when the listener closes, so the kept connection is not closed as idle.
      const busy = postOn(kept, url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'gated', arguments: { gate: 'busy' } } }, session);
      const { stopping, first } = await stopWhileBusy(handle, url, gate, busy);
      expect(first.headers['content-type']).toBe('text/event-stream');
      const closed = new Promise<void>((resolve) => first.socket.once('close', () => resolve()));

      const after = await postOn(kept, url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'late' } } }, session);
      expect(after.socket).toBe(first.socket);
      expect(after.text).toContain('"echoed":"late"');
      expect(after.headers['content-type']).toBe('text/event-stream');
      expect(after.headers.connection).toBe('close');
      await closed; // the client moves to another instance, rather than reusing this one until the grace ends

      gate.open('holder');
      await expect(held).resolves.toMatchObject({ structuredContent: { gate: 'holder' } });
      await expect(stopping).resolves.toMatchObject({ drained: true, abandoned: 0 });
    } finally {
      kept.destroy();
    }
  });
});

const MODERN = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'gated' };
const modernCall = (id: number, gate: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: {
    name: 'gated',
    arguments: { gate },
    _meta: {
      progressToken: `p-${id}`,
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'drain', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
});

describe.each([true, false])('drain with 2026-07-28 event-stream answers (mcp.fastPath %s)', (fastPath) => {
  it('a call admitted after the listener closed streams its answer with Connection: close, and the connection ends', async () => {
    const gate = gates();
    const handle = await startTestServer(fixtureServerData({ tools: [...fixtureTools, gate.tool] }), { mcp: { fastPath }, webServer: { shutdownGraceMs: 60_000, shutdown: { drainMs: 0 } } });
    const url = serverUrl(handle);
    const kept = new Agent({ keepAlive: true, maxSockets: 1 });
    const other = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // One call holds the shutdown in its grace on a connection of its own; one keeps `kept` busy as the listener closes.
      const held = postOn(other, url, modernCall(1, 'holder'), MODERN);
      const busy = postOn(kept, url, modernCall(2, 'busy'), MODERN);
      const { stopping, first } = await stopWhileBusy(handle, url, gate, busy);
      const closed = new Promise<void>((resolve) => first.socket.once('close', () => resolve()));

      // The late call's head leaves with its progress event, before its result.
      const late = postOn(kept, url, modernCall(3, 'late'), MODERN);
      await waitFor(() => gate.started.has('late'), 10_000, 'the late call to run');
      gate.open('late');
      const after = await late;
      expect(after.socket).toBe(first.socket);
      expect(after.headers['content-type']).toBe('text/event-stream');
      expect(after.text).toContain('notifications/progress');
      expect(after.text).toContain('"gate":"late"');
      expect(after.headers.connection).toBe('close');
      await closed;

      gate.open('holder');
      expect((await held).text).toContain('"gate":"holder"');
      await expect(stopping).resolves.toMatchObject({ drained: true, abandoned: 0 });
    } finally {
      kept.destroy();
      other.destroy();
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
