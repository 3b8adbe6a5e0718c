/**
 * The example's MCP Events on 2026-07-28, with the official v2 client's raw requests: the three
 * event types listed with their modes; clock-tick replayed from a cursor (poll), filtered by its
 * `every` argument, and pushed on a stream; custom-event (emit-only) pushed live with a null
 * cursor when trigger-event raises it; alert polled with a severity filter. The server runs in
 * this process on the example's own McpServerData, its clock ticking every 100 ms.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { initMcpServer, type McpServerHandle } from 'fa-mcp-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClock } from '../src/events/index.js';
import { createRuntime } from '../src/runtime.js';
import { EVERYTHING_ROOT, everythingServerData } from '../src/server.js';
import { EVERYTHING_SCHEMA } from '../src/settings.js';
import { waitUntil } from './helpers/wait.js';

/** A Standard Schema that takes any object (the extension's shapes are checked by the assertions). */
const Loose = { '~standard': { version: 1, vendor: 'everything-test', validate: (value: unknown) => ({ value: value as Record<string, unknown> }) } } as const;
type Poll = { events: Array<{ eventId: string; data: Record<string, unknown> }>; cursor: string | null; truncated: boolean };

let handle: McpServerHandle;
let client: Client;
let stopClock: () => void;
const poll = async (params: Record<string, unknown>) => (await client.request({ method: 'events/poll', params }, Loose)) as unknown as Poll;

beforeAll(async () => {
  const rt = createRuntime();
  handle = await initMcpServer(everythingServerData(rt), {
    cwd: EVERYTHING_ROOT,
    extraSchema: EVERYTHING_SCHEMA,
    handleSignals: false,
    config: { webServer: { port: 0, host: '127.0.0.1' }, logger: { level: 'warn' } },
  });
  rt.started(handle);
  stopClock = startClock(handle, 100);
  client = new Client({ name: 'everything-events', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(handle.url as string)));
}, 60_000);

afterAll(async () => {
  stopClock?.();
  await client?.close();
  await handle?.stop();
});

describe('MCP Events (2026-07-28)', () => {
  it('lists clock-tick (poll, push), custom-event (push) and alert (poll, push, webhook)', async () => {
    const { events } = (await client.request({ method: 'events/list', params: {} }, Loose)) as unknown as { events: Array<{ name: string; delivery: string[] }> };
    expect(events.map((e) => [e.name, e.delivery])).toEqual([
      ['clock-tick', ['poll', 'push']],
      ['custom-event', ['push']],
      ['alert', ['poll', 'push', 'webhook']],
    ]);
  });

  it('replays clock-tick from a cursor, consecutive ticks, and only every n-th with { every }', async () => {
    const start = await poll({ name: 'clock-tick', cursor: null });
    let got: Poll = { events: [], cursor: start.cursor, truncated: false };
    await waitUntil(async () => (got = await poll({ name: 'clock-tick', cursor: start.cursor })).events.length >= 4, 10_000, 'four ticks');
    const ticks = got.events.map((e) => e.data.tick as number);
    expect(ticks.slice(1)).toEqual(ticks.slice(1).map((_, i) => (ticks[0] as number) + i + 1));
    expect(got.events[0]!.eventId).toBe(`tick-${ticks[0]}`);
    const even = await poll({ name: 'clock-tick', cursor: start.cursor, arguments: { every: 2 } });
    expect(even.events.length).toBeGreaterThan(0);
    expect(even.events.every((e) => (e.data.tick as number) % 2 === 0)).toBe(true);
  });

  it('pushes custom-event live when trigger-event raises it, with a null cursor; alert polls by severity', async () => {
    const got: Array<Record<string, unknown>> = [];
    let active = false;
    client.setNotificationHandler('notifications/events/active', { params: Loose }, () => void (active = true));
    client.setNotificationHandler('notifications/events/event', { params: Loose }, (p) => void got.push(p as Record<string, unknown>));
    const alerts = await poll({ name: 'alert', cursor: null, arguments: { severity: 'critical' } });
    const abort = new AbortController();
    const stream = client.request({ method: 'events/stream', params: { name: 'custom-event' } }, Loose, { signal: abort.signal, timeout: 60_000 });
    stream.catch(() => undefined);
    await waitUntil(() => active, 10_000, 'the stream to be active');
    await client.callTool({ name: 'trigger-event', arguments: { message: 'disk almost full', severity: 'warning' } });
    await client.callTool({ name: 'trigger-event', arguments: { message: 'disk full', severity: 'critical' } });
    await waitUntil(() => got.length >= 2, 10_000, 'two custom events');
    expect(got.map((e) => [e.name, (e.data as { message: string }).message, e.cursor])).toEqual([
      ['custom-event', 'disk almost full', null],
      ['custom-event', 'disk full', null],
    ]);
    abort.abort();
    const critical = await poll({ name: 'alert', cursor: alerts.cursor, arguments: { severity: 'critical' } });
    expect(critical.events.map((e) => e.data.message)).toEqual(['disk full']);
  });
});
