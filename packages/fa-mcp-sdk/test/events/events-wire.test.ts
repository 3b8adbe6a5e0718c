/**
 * The Events extension on 2026-07-28, with the official client's raw requests, over HTTP and
 * stdio: discovery, events/list, events/poll (null starts now, matcher, maxEvents/hasMore,
 * maxAgeMs and retention → truncated), events/stream (active, events, heartbeat, resumed from
 * a cursor, cancelled), emit from a tool through `params.events`, and the refusals: bad
 * arguments (-32602 naming the field), an unknown type (-32011), a mode the type does not
 * offer (-32014), forged and future cursors (-32602 naming `cursor`), a payload that breaks
 * its schema or the size cap (refused at emit, delivered to nobody).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import type { Client } from '@modelcontextprotocol/client';
import { EVENTS_EXTENSION_ID } from '../../src/index.js';
import { ALL_TARGETS, startTestServer, type TestServer } from '../../src/testing/index.js';
import { incidentServer } from './fixtures/incident-server.js';

const Loose = z.object({}).passthrough();
type Poll = { events: Array<{ eventId: string; name: string; timestamp: string; data: Record<string, unknown> }>; cursor: string | null; truncated: boolean; hasMore: boolean; nextPollMs: number };

/** Resolves once `done()` holds, checking after every change; rejects at the deadline. */
async function until(done: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each(ALL_TARGETS.filter((t) => t.era === '2026'))('events on $label', (target) => {
  let server: TestServer;
  let client: Client;
  const poll = async (params: Record<string, unknown>) => (await client.request({ method: 'events/poll', params }, Loose)) as unknown as Poll;
  const raise = (id: string, severity: string) => client.callTool({ name: 'raise_incident', arguments: { id, severity } });

  beforeAll(async () => {
    server = await startTestServer(incidentServer(), { target, config: { mcp: { events: { heartbeatMs: 100, retention: { maxEvents: 5 } } } } });
    client = await server.connect();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('declares the extension in server/discover and lists the event types with their schemas and modes', async () => {
    const caps = client.getServerCapabilities();
    expect(caps?.extensions?.[EVENTS_EXTENSION_ID]).toEqual({});
    // `events` too, where the extension's clients look for it (the official client's schema keeps only known keys).
    const discover = await server.wire2026().request('server/discover', {});
    expect(discover.capabilities).toMatchObject({ events: {}, extensions: { [EVENTS_EXTENSION_ID]: {} } });
    const list = (await client.request({ method: 'events/list', params: {} }, Loose)) as { events: Array<Record<string, unknown>> };
    const incident = list.events.find((e) => e.name === 'incident.created');
    expect(incident).toMatchObject({ delivery: ['poll', 'push', 'webhook'], inputSchema: { properties: { severity: { enum: ['P1', 'P2', 'P3'] } } }, payloadSchema: { required: ['id', 'severity'] } });
    expect(list.events.find((e) => e.name === 'presence.ping')).toMatchObject({ delivery: ['push', 'webhook'] });
  });

  it('polls: null starts now, then what was emitted since, filtered by the arguments, in order', async () => {
    const start = await poll({ name: 'incident.created', cursor: null });
    expect(start).toMatchObject({ events: [], truncated: false, hasMore: false, nextPollMs: 5000 });
    expect(typeof start.cursor).toBe('string');
    await raise('a1', 'P1');
    await raise('a2', 'P2');
    await raise('a3', 'P1');
    const p1 = await poll({ name: 'incident.created', cursor: start.cursor, arguments: { severity: 'P1' } });
    expect(p1.events.map((e) => e.data.id)).toEqual(['a1', 'a3']);
    expect(p1.events[0]).toMatchObject({ eventId: 'inc-a1', name: 'incident.created', data: { id: 'a1', severity: 'P1' } });
    expect(Date.parse(p1.events[0]!.timestamp)).toBeGreaterThan(0);
    // The cursor moved past the P2 the matcher skipped: nothing is left for P1.
    expect((await poll({ name: 'incident.created', cursor: p1.cursor, arguments: { severity: 'P1' } })).events).toEqual([]);
    // maxEvents: a partial batch and hasMore, then the rest.
    const first = await poll({ name: 'incident.created', cursor: start.cursor, maxEvents: 2 });
    expect(first.events.map((e) => e.data.id)).toEqual(['a1', 'a2']);
    expect(first.hasMore).toBe(true);
    const rest = await poll({ name: 'incident.created', cursor: first.cursor, maxEvents: 2 });
    expect(rest.events.map((e) => e.data.id)).toEqual(['a3']);
    expect(rest.hasMore).toBe(false);
  });

  it('emitting the same eventId again stores and delivers nothing more', async () => {
    const start = await poll({ name: 'incident.created', cursor: null });
    const again = await raise('a1', 'P1');
    expect(JSON.parse((again.content as Array<{ text: string }>)[0]!.text)).toMatchObject({ eventId: 'inc-a1', duplicate: true });
    expect((await poll({ name: 'incident.created', cursor: start.cursor })).events).toEqual([]);
  });

  it('says truncated: true when retention dropped events the cursor had not read, and when maxAgeMs skips some', async () => {
    const start = await poll({ name: 'incident.created', cursor: null });
    for (let i = 0; i < 7; i++) await server.handle.events!.emit('incident.created', { id: `r${i}`, severity: 'P3' });
    // retention.maxEvents is 5: the sweep drops the two oldest.
    await server.handle.events!.store.prune(5, 0);
    const gap = await poll({ name: 'incident.created', cursor: start.cursor, maxEvents: 50 });
    expect(gap.truncated).toBe(true);
    expect(gap.events.map((e) => e.data.id)).toEqual(['r2', 'r3', 'r4', 'r5', 'r6']);
    const late = await poll({ name: 'incident.created', cursor: null });
    await server.handle.events!.emit('incident.created', { id: 'old', severity: 'P3' }, { timestamp: new Date(Date.now() - 60_000) });
    await server.handle.events!.emit('incident.created', { id: 'new', severity: 'P3' });
    const floored = await poll({ name: 'incident.created', cursor: late.cursor, maxAgeMs: 10_000 });
    expect(floored).toMatchObject({ truncated: true, events: [expect.objectContaining({ data: { id: 'new', severity: 'P3' } })] });
  });

  it('streams: active with the cursor, the events since it, new ones as they happen, heartbeats with the position, until cancelled', async () => {
    const seen: Array<{ method: string; params: Record<string, unknown> }> = [];
    for (const method of ['notifications/events/active', 'notifications/events/event', 'notifications/events/heartbeat']) {
      client.setNotificationHandler(method, { params: Loose }, (params) => void seen.push({ method, params: params as Record<string, unknown> }));
    }
    const start = await poll({ name: 'incident.created', cursor: null });
    await raise('s1', 'P1');
    const abort = new AbortController();
    const stream = client.request({ method: 'events/stream', params: { name: 'incident.created', cursor: start.cursor, arguments: { severity: 'P1' } } }, Loose, { signal: abort.signal, timeout: 60_000 });
    stream.catch(() => undefined);
    await until(() => seen.some((n) => n.method === 'notifications/events/event'), 'the replayed event');
    expect(seen[0]).toMatchObject({ method: 'notifications/events/active', params: { cursor: start.cursor, truncated: false } });
    await raise('s2', 'P2');
    await raise('s3', 'P1');
    await until(() => seen.filter((n) => n.method === 'notifications/events/event').length === 2, 'the live event');
    const events = seen.filter((n) => n.method === 'notifications/events/event').map((n) => n.params);
    expect(events.map((e) => (e.data as { id: string }).id)).toEqual(['s1', 's3']);
    expect(typeof events[1]!.cursor).toBe('string');
    await until(() => seen.some((n) => n.method === 'notifications/events/heartbeat'), 'a heartbeat');
    const beat = seen.find((n) => n.method === 'notifications/events/heartbeat')!;
    // The heartbeat's cursor is where the stream stands: polling from it gives nothing new.
    expect((await poll({ name: 'incident.created', cursor: beat.params.cursor, arguments: { severity: 'P1' } })).events).toEqual([]);
    abort.abort();
    await expect(stream).rejects.toThrow();
    // Resumed from the last event's cursor, a new stream starts after it.
    seen.length = 0;
    const again = new AbortController();
    const resumed = client.request({ method: 'events/stream', params: { name: 'incident.created', cursor: events[0]!.cursor, arguments: { severity: 'P1' } } }, Loose, { signal: again.signal, timeout: 60_000 });
    resumed.catch(() => undefined);
    await until(() => seen.some((n) => n.method === 'notifications/events/event'), 'the resumed event');
    expect(seen.filter((n) => n.method === 'notifications/events/event').map((n) => (n.params.data as { id: string }).id)).toEqual(['s3']);
    again.abort();
  });

  it('streams an emit-only type live, with a null cursor', async () => {
    const got: Array<Record<string, unknown>> = [];
    client.setNotificationHandler('notifications/events/event', { params: Loose }, (params) => void got.push(params as Record<string, unknown>));
    const actives: Array<Record<string, unknown>> = [];
    client.setNotificationHandler('notifications/events/active', { params: Loose }, (params) => void actives.push(params as Record<string, unknown>));
    await server.handle.events!.emit('presence.ping', { who: 'before' });
    const abort = new AbortController();
    const stream = client.request({ method: 'events/stream', params: { name: 'presence.ping' } }, Loose, { signal: abort.signal, timeout: 60_000 });
    stream.catch(() => undefined);
    await until(() => actives.length > 0, 'active');
    expect(actives[0]).toMatchObject({ cursor: null });
    await server.handle.events!.emit('presence.ping', { who: 'now' });
    await until(() => got.length > 0, 'the live ping');
    expect(got.map((g) => g.data)).toEqual([{ who: 'now' }]);
    expect(got[0]!.cursor).toBeNull();
    abort.abort();
  });

  it('refuses bad arguments with -32602 naming the field, an unknown type with -32011, a mode the type lacks with -32014', async () => {
    await expect(poll({ name: 'incident.created', cursor: null, arguments: { severity: 'P9' } })).rejects.toMatchObject({ code: -32602, data: { field: 'arguments.severity' } });
    await expect(poll({ name: 'incident.created', cursor: null, arguments: { colour: 'red' } })).rejects.toMatchObject({ code: -32602, data: { field: 'arguments.colour' } });
    await expect(poll({ name: 'incident.created', cursor: null, maxEvents: 0 })).rejects.toMatchObject({ code: -32602, data: { field: 'maxEvents' } });
    await expect(poll({ name: 'no.such.event', cursor: null })).rejects.toMatchObject({ code: -32011, data: { kind: 'event', name: 'no.such.event' } });
    await expect(poll({ name: 'presence.ping', cursor: null })).rejects.toMatchObject({ code: -32014, data: { feature: 'deliveryMode', value: 'poll' } });
  });

  it('refuses a forged cursor, one of another type, and garbage, with -32602 naming cursor', async () => {
    const { cursor } = await poll({ name: 'incident.created', cursor: null });
    const raw = Buffer.from(String(cursor), 'base64url').toString('utf8');
    const [prefix, epoch, seq, mac] = raw.split('.');
    const forged = Buffer.from(`${prefix}.${epoch}.${Number(seq) - 1}.${mac}`).toString('base64url');
    await expect(poll({ name: 'incident.created', cursor: forged })).rejects.toMatchObject({ code: -32602, data: { field: 'cursor' }, message: expect.stringContaining('signature') });
    await expect(poll({ name: 'build.finished', cursor })).rejects.toMatchObject({ code: -32602, data: { field: 'cursor' } });
    await expect(poll({ name: 'incident.created', cursor: 'not-a-cursor!' })).rejects.toMatchObject({ code: -32602, data: { field: 'cursor' } });
  });

  it('refuses a payload that breaks its schema, or is too large, at emit: nothing is delivered', async () => {
    const start = await poll({ name: 'incident.created', cursor: null });
    await expect(server.handle.events!.emit('incident.created', { id: 'x', severity: 'P7' })).rejects.toMatchObject({ code: -32602, data: { field: 'data.severity' } });
    await expect(server.handle.events!.emit('incident.created', { id: 'x', severity: 'P1', title: 'x'.repeat(70_000) })).rejects.toMatchObject({ code: -32005 });
    await expect(server.handle.events!.emit('nope', {})).rejects.toMatchObject({ code: -32011 });
    expect((await poll({ name: 'incident.created', cursor: start.cursor })).events).toEqual([]);
  });
  it('counts what it emitted, delivered and refused in its metrics, by event type and mode', async () => {
    const registry = server.handle.metrics?.registry;
    expect(registry).toBeDefined();
    const metrics = await registry!.getMetricsAsJSON();
    const value = (name: string, labels: Record<string, string>) =>
      (metrics.find((m) => m.name === name)?.values ?? [])
        .filter((v) => Object.entries(labels).every(([k, want]) => v.labels[k] === want))
        .reduce((sum, v) => sum + v.value, 0);
    expect(value('mcp_events_emitted_total', { event: 'incident.created' })).toBeGreaterThanOrEqual(3);
    expect(value('mcp_events_delivered_total', { event: 'incident.created', mode: 'poll' })).toBeGreaterThanOrEqual(3);
    expect(value('mcp_events_delivered_total', { event: 'incident.created', mode: 'push' })).toBeGreaterThanOrEqual(1);
    expect(value('mcp_events_refused_total', { event: 'incident.created', reason: 'schema' })).toBe(1);
    expect(value('mcp_events_refused_total', { event: 'incident.created', reason: 'size' })).toBe(1);
    expect(metrics.find((m) => m.name === 'mcp_events_delivery_latency_seconds')).toBeDefined();
  });
});
