/**
 * The demo's event type a newcomer can watch: poll `note.posted` from now, post two notes with
 * the post_note tool, poll again with the cursor — the one carrying the subscribed tag arrives;
 * an argument the event's inputSchema does not take is refused naming it. The official client
 * pinned to 2026-07-28, raw requests for the events methods.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { McpServerHandle } from 'fa-mcp-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoServer } from '../src/server.js';
import { assertSdkBuildIsCurrent } from '../../../scripts/test-kit/sdk-build.mjs';

/** A Standard Schema that takes any object (the assertions check the shapes). */
const Loose = { '~standard': { version: 1, vendor: 'demo-test', validate: (value: unknown) => ({ value: value as Record<string, unknown> }) } } as const;
type Poll = { events: Array<{ name: string; data: { text: string; tags: string[] } }>; cursor: string };

let handle: McpServerHandle;
let client: Client;

beforeAll(async () => {
  assertSdkBuildIsCurrent();
  handle = await createDemoServer({ handleSignals: false, config: { webServer: { port: 0 }, logger: { level: 'silent' } } });
  client = new Client({ name: 'demo-events', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(handle.url as string)));
});
afterAll(async () => {
  await client?.close();
  await handle?.stop();
});

describe('note.posted', () => {
  it('a poll from now gets the notes posted since that carry its tag', async () => {
    const poll = async (params: Record<string, unknown>) => (await client.request({ method: 'events/poll', params: { name: 'note.posted', ...params } }, Loose)) as unknown as Poll;
    const start = await poll({ cursor: null, arguments: { tag: 'release' } });
    await client.callTool({ name: 'post_note', arguments: { text: 'lunch at noon', tags: ['office'] } });
    await client.callTool({ name: 'post_note', arguments: { text: 'v2.1 is out', tags: ['release'] } });
    const next = await poll({ cursor: start.cursor, arguments: { tag: 'release' } });
    expect(next.events.map((e) => e.data.text)).toEqual(['v2.1 is out']);
    await expect(poll({ cursor: null, arguments: { channel: 'x' } })).rejects.toMatchObject({ code: -32602, data: { field: 'arguments.channel' } });
  });
});
