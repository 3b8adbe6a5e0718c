/**
 * MCP Events scaled out: three instances of examples/demo (its `note.posted` event type, raised
 * by the post_note tool) on one PostgreSQL (MCP_EVENTS_STORE=postgres, the bus on LISTEN/NOTIFY)
 * behind HAProxy (round-robin, no stickiness), as scripts/cluster/cluster.mjs starts them:
 * (a) a poll served by any instance continues from the cursor another issued;
 * (b) a note posted on one instance reaches the push streams held by the other two;
 * (c) a webhook subscription gets each note once, whichever instance emitted it and however many
 *     instances deliver from the shared outbox;
 * (d) kill -9 of the instance that acknowledged an emit loses nothing: the note is read by a poll
 *     from another instance, and delivered to the webhook after the instance restarted.
 * Needs haproxy and PostgreSQL: in CI their absence fails; elsewhere the file skips with a reason.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from 'fa-mcp-sdk/testing';
import { serviceAvailable } from '../../scripts/test-kit/ci-checks.mjs';
import { assertSdkBuildIsCurrent } from '../../scripts/test-kit/sdk-build.mjs';
import { createDatabase, findHaproxy, LOCAL_PG_URL, pgAnswers, startCluster, waitUntil, type Cluster, type Instance } from '../../scripts/cluster/cluster.mjs';
import { buildDemoDist } from '../../examples/demo/test/demo-dist.js';

const PG_URL = process.env.FA_MCP_TEST_PG_URL ?? LOCAL_PG_URL;
const TOKEN = `events-cluster-${randomBytes(16).toString('hex')}`;
const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const haproxyBin = findHaproxy();
const ready =
  serviceAvailable(haproxyBin !== undefined, 'haproxy', 'run scripts/ci/install-haproxy.sh as root, or set HAPROXY_BIN') &&
  serviceAvailable(await pgAnswers(PG_URL), `PostgreSQL at ${new URL(PG_URL).host}`, 'run scripts/ci/start-postgres.sh, or set FA_MCP_TEST_PG_URL');

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'events-cluster', version: '1' } };
const headers = (method: string) => ({
  authorization: `Bearer ${TOKEN}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': method,
  ...(method === 'tools/call' ? { 'mcp-name': 'post_note' } : {}),
});

/** One 2026-07-28 request to `url` (an instance, or HAProxy); the result, or throws the JSON-RPC error. */
async function rpc(url: string, method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await fetch(url, { method: 'POST', headers: headers(method), body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: META } }) });
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').includes('text/event-stream')
    ? (JSON.parse(text.split('\n').filter((l) => l.startsWith('data: ')).at(-1)!.slice(6)) as Record<string, unknown>)
    : (JSON.parse(text) as Record<string, unknown>);
  if (json.error) throw Object.assign(new Error(JSON.stringify(json.error)), json.error);
  return json.result as Record<string, unknown>;
}

const postNote = (url: string, text: string) => rpc(url, 'tools/call', { name: 'post_note', arguments: { text, tags: ['cluster'] } });

/** A push stream held open on `url`: the notes it received. */
async function holdStream(url: string, id: string): Promise<{ notes: string[]; close: () => Promise<void> }> {
  const res = await fetch(url, { method: 'POST', headers: headers('events/stream'), body: JSON.stringify({ jsonrpc: '2.0', id, method: 'events/stream', params: { name: 'note.posted', _meta: META } }) });
  const reader = res.body!.getReader();
  const notes: string[] = [];
  let active = false;
  let buffer = '';
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += new TextDecoder().decode(value);
      let at: number;
      while ((at = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        const data = frame.split('\n').find((l) => l.startsWith('data: '));
        if (!data) continue;
        const msg = JSON.parse(data.slice(6)) as { method?: string; params?: { data?: { text?: string } } };
        if (msg.method === 'notifications/events/active') active = true;
        if (msg.method === 'notifications/events/event') notes.push(String(msg.params?.data?.text));
      }
    }
  })();
  await waitUntil(() => active, 10_000, `the stream on ${url} to be active`);
  return { notes, close: async () => void (await reader.cancel().catch(() => undefined), await pump) };
}

describe.runIf(ready)('MCP Events across three instances behind HAProxy', () => {
  let cluster: Cluster;
  let db: { url: string; drop(): Promise<void> };
  let receiver: WebhookReceiver;
  const at = (i: number) => `${(cluster.instances[i] as Instance).url}/mcp`;

  beforeAll(async () => {
    assertSdkBuildIsCurrent();
    buildDemoDist();
    db = await createDatabase(PG_URL, `fa_mcp_events_cluster_${randomBytes(4).toString('hex')}`);
    cluster = await startCluster({
      dbUrl: db.url,
      env: {
        AUTH_ENABLED: 'true',
        AUTH_PERMANENT_SERVER_TOKENS: TOKEN,
        WEBHOOKS_INITIAL_BACKOFF_MS: '100',
        WEBHOOKS_MAX_BACKOFF_MS: '500',
        WEBHOOKS_POLL_INTERVAL_MS: '100',
        WEBHOOKS_LEASE_MS: '2000',
        WEBHOOKS_MAX_ATTEMPTS: '100',
        MCP_EVENTS_HEARTBEAT_MS: '1000',
      },
    });
    receiver = await startWebhookReceiver({ secret: SECRET });
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
    await receiver?.close();
    await db?.drop();
  });

  it('(a) a poll on any instance continues from the cursor another instance issued', async () => {
    const start = await rpc(at(0), 'events/poll', { name: 'note.posted', cursor: null });
    await postNote(at(1), 'poll-1');
    await postNote(cluster.url, 'poll-2');
    const next = await rpc(at(2), 'events/poll', { name: 'note.posted', cursor: start.cursor });
    expect((next.events as Array<{ data: { text: string } }>).map((e) => e.data.text)).toEqual(['poll-1', 'poll-2']);
    const after = await rpc(cluster.url, 'events/poll', { name: 'note.posted', cursor: next.cursor });
    expect(after.events).toEqual([]);
  });

  it('(b) a note posted on one instance reaches the push streams held by the others', async () => {
    const streams = await Promise.all([1, 2].map((i) => holdStream(at(i), `s${i}`)));
    try {
      await postNote(at(0), 'push-1');
      await waitUntil(() => streams.every((s) => s.notes.includes('push-1')), 10_000, 'the note on both other instances');
      expect(streams.map((s) => s.notes)).toEqual([['push-1'], ['push-1']]);
    } finally {
      await Promise.all(streams.map((s) => s.close()));
    }
  });

  it('(c) a webhook subscription gets each note once, whichever instance emitted it', async () => {
    const sub = await rpc(cluster.url, 'events/subscribe', { name: 'note.posted', arguments: { tag: 'cluster' }, delivery: { mode: 'webhook', url: receiver.url, secret: SECRET } });
    expect(sub.id).toMatch(/^sub_/);
    const texts = Array.from({ length: 9 }, (_, i) => `hook-${i}`);
    for (const [i, text] of texts.entries()) await postNote(at(i % 3), text);
    const isEvent = (h: { body: string }) => h.body.includes('"eventId"');
    await receiver.waitFor((r) => r.filter(isEvent).length >= texts.length, 20_000);
    // Every instance's dispatcher reads the same outbox: give a duplicate the time to show up, then count.
    await postNote(at(0), 'hook-last');
    await receiver.waitFor((r) => r.some((h) => h.body.includes('hook-last')), 20_000);
    const got = receiver.received.filter(isEvent).map((h) => (JSON.parse(h.body) as { data: { text: string } }).data.text);
    expect(got).toEqual([...texts, 'hook-last']);
    expect(new Set(receiver.received.filter(isEvent).map((h) => h.id)).size).toBe(got.length);
    expect(receiver.received.every((h) => h.verified)).toBe(true);
  }, 60_000);

  it('(d) kill -9 of the instance that acknowledged an emit loses nothing', async () => {
    const start = await rpc(at(0), 'events/poll', { name: 'note.posted', cursor: null });
    await receiver.close(); // deliveries fail and stay in the outbox
    const victim = cluster.instances[1] as Instance;
    const acked = await postNote(at(1), 'survivor');
    expect(acked.isError).not.toBe(true);
    await victim.kill();
    // The note was durable when post_note answered: another instance reads it.
    const polled = await rpc(at(2), 'events/poll', { name: 'note.posted', cursor: start.cursor });
    expect((polled.events as Array<{ data: { text: string } }>).map((e) => e.data.text)).toEqual(['survivor']);
    victim.start();
    await victim.waitReady();
    await receiver.listen();
    await receiver.waitFor((r) => r.some((h) => h.body.includes('"survivor"')), 30_000);
    expect(receiver.received.filter((h) => h.body.includes('"survivor"') && h.body.includes('"eventId"'))).toHaveLength(1);
  }, 90_000);
});
