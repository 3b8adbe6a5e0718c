/**
 * The MCP Events extension with a real client: the Vercel AI SDK's MCP client (`@ai-sdk/mcp`,
 * `experimental_events`, pinned in this package) against a server built on fa-mcp-sdk's public
 * API (the built package). It discovers the server over server/discover (2026-07-28), finds the
 * `events` capability, lists the event types, subscribes with a webhook whose receiver is the
 * AI SDK's own handler (`experimental_createMCPEventWebhook`: it answers the verification
 * challenge, checks the Standard Webhooks signature with the secret it generated, the
 * subscription id header and that webhook-id is the eventId), receives matching events only,
 * refreshes, and unsubscribes — after which nothing more arrives.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { experimental_createMCPClient as createMCPClient, experimental_createMCPEventWebhook as createMCPEventWebhook, type Experimental_MCPEvents as MCPEvents } from '@ai-sdk/mcp';
import { initMcpServer, type McpServerHandle } from 'fa-mcp-sdk';
import { assertSdkBuildIsCurrent } from '../../scripts/test-kit/sdk-build.mjs';

type Client = Awaited<ReturnType<typeof createMCPClient>>;
type Store = NonNullable<Parameters<typeof createMCPEventWebhook>[0]>['store'];
type Subscription = Awaited<ReturnType<Store['get']>> & object;

/** The client's private subscription store (the AI SDK persists the secret here before subscribing). */
function memoryStore(): Store & { size(): number } {
  const byKey = new Map<string, Subscription>();
  return {
    size: () => byKey.size,
    get: async (key) => byKey.get(key),
    getById: async (id) => [...byKey.values()].find((s) => s.id === id),
    set: async (s) => void byKey.set(s.key, structuredClone(s)),
    update: async (key, patch) => {
      const s = byKey.get(key);
      if (s) byKey.set(key, { ...s, ...patch });
    },
    delete: async (key) => void byKey.delete(key),
  };
}

/** Serves a Web Request → Response handler on loopback (what the AI SDK's webhook handler is). */
async function serveWebHandler(handler: (req: Request) => Promise<Response>): Promise<{ url: string; server: Server; statuses: number[] }> {
  const statuses: number[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      const request = new Request(`http://127.0.0.1:${(server.address() as AddressInfo).port}${req.url ?? '/'}`, { method: req.method, headers, body: Buffer.concat(chunks) });
      void handler(request).then(async (response) => {
        statuses.push(response.status);
        const out: Record<string, string> = {};
        response.headers.forEach((value, key) => (out[key] = value));
        res.writeHead(response.status, out);
        res.end(Buffer.from(await response.arrayBuffer()));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/mcp`, server, statuses };
}

async function until(done: () => boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('MCP Events with the Vercel AI SDK MCP client (@ai-sdk/mcp)', () => {
  let handle: McpServerHandle;
  let client: Client;
  /** The direct-mode events API (a store is configured, no managed adapter). */
  const events = (): MCPEvents => client.experimental_events as MCPEvents;
  let receiver: Awaited<ReturnType<typeof serveWebHandler>>;
  const store = memoryStore();
  const received: Array<{ subscription: { id: string; name: string }; event: { eventId: string; name: string; data: Record<string, unknown>; cursor?: string | null } }> = [];

  beforeAll(async () => {
    assertSdkBuildIsCurrent();
    handle = await initMcpServer(
      {
        tools: [],
        events: [
          {
            name: 'ticket.opened',
            description: 'A support ticket was opened.',
            delivery: ['poll', 'push', 'webhook'],
            inputSchema: { type: 'object', properties: { queue: { type: 'string' } } },
            payloadSchema: { type: 'object', properties: { ticket: { type: 'string' }, queue: { type: 'string' } }, required: ['ticket', 'queue'] },
            matcher: (args, payload) => args.queue === undefined || args.queue === payload.queue,
          },
        ],
        customAuthValidator: (req) => (req.headers.authorization === 'Bearer agent-token' ? { subject: 'agent-1', scopes: [], groups: [], claims: {} } : undefined),
      },
      {
        config: { webServer: { port: 0, host: '127.0.0.1', auth: { enabled: true } }, logger: { level: 'warn' }, webhooks: { initialBackoffMs: 20, maxBackoffMs: 100, pollIntervalMs: 20 } },
        handleSignals: false,
      },
    );
    receiver = await serveWebHandler(createMCPEventWebhook({ store, onEvent: async (e) => void received.push(e as never) }));
    client = await createMCPClient({
      transport: { type: 'http', url: handle.url as string, headers: { Authorization: 'Bearer agent-token' } },
      experimental_events: { store },
    });
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await handle?.stop();
    await new Promise<void>((resolve) => (receiver ? receiver.server.close(() => resolve()) : resolve()));
  });

  it('lists the event types (server/discover told it the server has events)', async () => {
    const page = await events().list();
    expect(page.events).toEqual([
      expect.objectContaining({ name: 'ticket.opened', delivery: ['poll', 'push', 'webhook'], inputSchema: expect.objectContaining({ type: 'object' }), payloadSchema: expect.objectContaining({ required: ['ticket', 'queue'] }) }),
    ]);
  });

  it('subscribes with a webhook, receives the matching events verified, refreshes, unsubscribes', async () => {
    const sub = await events().subscribe({
      name: 'ticket.opened',
      arguments: { queue: 'billing' },
      delivery: { mode: 'webhook', url: receiver.url, allowInsecureLocalhost: true },
      ttlMs: 600_000,
    });
    expect(sub.id).toMatch(/^sub_/);
    expect(Date.parse(String(sub.refreshBefore))).toBeGreaterThan(Date.now());
    expect(sub.truncated).toBe(false);
    // The verification POST was answered by the AI SDK's handler before the subscription was active.
    expect(receiver.statuses[0]).toBe(200);

    await handle.events!.emit('ticket.opened', { ticket: 'T-1', queue: 'billing' }, { eventId: 'T-1' });
    await handle.events!.emit('ticket.opened', { ticket: 'T-2', queue: 'sales' }, { eventId: 'T-2' });
    await handle.events!.emit('ticket.opened', { ticket: 'T-3', queue: 'billing' }, { eventId: 'T-3' });
    await until(() => received.length >= 2, 'two deliveries');
    expect(received.map((r) => r.event.eventId)).toEqual(['T-1', 'T-3']);
    expect(received[0]).toMatchObject({ subscription: { id: sub.id, name: 'ticket.opened' }, event: { name: 'ticket.opened', data: { ticket: 'T-1', queue: 'billing' } } });
    // The client persisted the cursor of each delivery (the position to resume from).
    const saved = await store.getById(sub.id);
    expect(saved?.cursor).toBe(received[1]!.event.cursor);
    expect(typeof saved?.cursor).toBe('string');

    const refreshed = await events().refresh({ id: sub.id });
    expect(refreshed.id).toBe(sub.id);

    await events().unsubscribe({ id: sub.id });
    expect(store.size()).toBe(0);
    const after = await handle.events!.emit('ticket.opened', { ticket: 'T-4', queue: 'billing' }, { eventId: 'T-4' });
    expect(after.webhooks).toBe(0);
    expect(received.map((r) => r.event.eventId)).toEqual(['T-1', 'T-3']);
  }, 30_000);
});
