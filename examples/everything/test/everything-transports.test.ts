/**
 * The everything server over stdio (the official clients launch `node dist/start.js` with
 * MCP_TRANSPORT_TYPE=stdio) on both revisions, and over the legacy HTTP+SSE transport (2025-era
 * only): tools by era, headers absent, client input, logs, session resources, and cancellation
 * that clears the operation's timer.
 */
import { gunzipSync } from 'node:zlib';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectV1, v1Stdio, v2Stdio, type V1, type V2 } from './helpers/clients.js';
import { BOTH_ERAS, expectTools, ONLY_2025, ONLY_2026 } from './helpers/seed.js';
import { startEverything } from './helpers/server-process.js';
import { waitUntil } from './helpers/wait.js';

type Result = { content: Array<{ type: string; text?: string; uri?: string }>; structuredContent?: Record<string, unknown>; isError?: boolean };

describe('2025-11-25 over stdio (SDK v1)', () => {
  let c: V1;
  beforeAll(async () => {
    c = await v1Stdio();
  }, 60_000);
  afterAll(async () => {
    await c?.close();
  });

  const call = async (name: string, args: Record<string, unknown> = {}) => (await c.client.callTool({ name, arguments: args }, CallToolResultSchema)) as Result;

  it('lists the both-era tools and the 2025-era toggles; get-header-params sees no header on stdio', async () => {
    expectTools((await c.client.listTools()).tools.map((t) => t.name), [...BOTH_ERAS, ...ONLY_2025], ONLY_2026);
    expect((await call('get-header-params', { region: 'eu-west' })).structuredContent).toEqual({ region: 'eu-west', header: null });
  });

  it('a cancelled trigger-long-running-operation clears its timer and sends no further progress', async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    const cancelled = c.client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 3, steps: 10 } }, CallToolResultSchema, {
      signal: controller.signal,
      onprogress: (p) => {
        seen.push(p.progress);
        controller.abort(new Error('the test cancels'));
      },
    });
    await expect(cancelled).rejects.toThrow();
    // One step of 700 ms: were the cancelled call's 300 ms timer still running, its next progress would reach
    // this client (on the one stdio stream, before this answer) as a notification for a token it no longer knows.
    const after = await c.client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 0.7, steps: 1 } }, CallToolResultSchema);
    expect((after as Result).isError).toBeFalsy();
    expect(seen).toEqual([1]);
    expect(c.inbox.errors.filter((e) => e.includes('progress'))).toEqual([]);
  });

  it('asks the client (elicitation) and keeps a session resource for the stdio connection', async () => {
    expect((await call('trigger-elicitation-request')).structuredContent).toMatchObject({ action: 'accept', content: { name: 'Ada Lovelace' } });
    const data = `data:text/plain;base64,${Buffer.from('over stdio').toString('base64')}`;
    expect((await call('gzip-file-as-resource', { name: 'stdio.gz', data })).content[0]?.uri).toBe('demo://resource/session/stdio.gz');
    const [gz] = (await c.client.readResource({ uri: 'demo://resource/session/stdio.gz' })).contents as Array<{ blob: string }>;
    expect(gunzipSync(Buffer.from(gz?.blob as string, 'base64')).toString()).toBe('over stdio');
  });

  it('trigger-log-messages honours logging/setLevel on stdio', async () => {
    await c.client.setLoggingLevel('alert');
    await call('trigger-log-messages');
    await waitUntil(() => c.inbox.logs.length >= 2, 10_000, 'the log messages');
    expect(c.inbox.logs.map((l) => l.level)).toEqual(['alert', 'emergency']);
  });
});

describe('2026-07-28 over stdio (v2 client)', () => {
  let c: V2;
  beforeAll(async () => {
    c = await v2Stdio();
  }, 60_000);
  afterAll(async () => {
    await c?.close();
  });

  const call = async (name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>) =>
    (await c.client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) })) as Result;

  it('lists the both-era tools and the task tools; get-header-params sees no header on stdio', async () => {
    expectTools((await c.client.listTools()).tools.map((t) => t.name), [...BOTH_ERAS, ...ONLY_2026], ONLY_2025);
    expect((await call('get-header-params', { region: 'eu-west' })).structuredContent).toEqual({ region: 'eu-west', header: null });
  });

  it('asks in-band across rounds and logs at the level each request names', async () => {
    expect((await call('trigger-multi-step-elicitation')).structuredContent).toMatchObject({ name: 'Ada Lovelace', color: 'blue', resumed: true });
    await call('trigger-log-messages', {}, { 'io.modelcontextprotocol/logLevel': 'emergency' });
    await waitUntil(() => c.inbox.logs.length >= 1, 10_000, 'the log message');
    expect(c.inbox.logs.map((l) => l.level)).toEqual(['emergency']);
  });
});

describe('2025-era over the legacy HTTP+SSE transport (SDK v1)', () => {
  it('serves the 2025-era tools, with client requests, on the legacy endpoint', async () => {
    const server = await startEverything();
    try {
      const c = await connectV1(new SSEClientTransport(new URL(server.sseUrl)));
      try {
        expectTools((await c.client.listTools()).tools.map((t) => t.name), [...BOTH_ERAS, ...ONLY_2025], ONLY_2026);
        const roots = (await c.client.callTool({ name: 'get-roots-list', arguments: {} }, CallToolResultSchema)) as Result;
        expect(roots.structuredContent).toMatchObject({ count: 2 });
      } finally {
        await c.close();
      }
    } finally {
      await server.stop();
    }
  });
});
