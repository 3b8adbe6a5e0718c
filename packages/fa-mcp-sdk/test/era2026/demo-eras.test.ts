/**
 * The demo server (examples/demo, built on the public API) driven by the
 * SDK's own clients of both eras over the same endpoint: the 2025-era client
 * (initialize + session) and the 2026-07-28 client (server/discover +
 * per-request `_meta`). Same tools, same answers, same refusals; elicitation
 * is a server-to-client request on one and an input_required round on the other.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServerHandle } from 'fa-mcp-sdk';
import { createDemoServer } from '../../../../examples/demo/src/server.js';

let server: McpServerHandle;
beforeAll(async () => {
  server = await createDemoServer({ handleSignals: false, config: { webServer: { port: 0 }, logger: { level: 'silent' } } });
});
afterAll(async () => {
  await server?.stop('test done');
});

describe.each(['2025', '2026'] as const)('demo server with the SDK client of era %s', (era) => {
  const clients: Client[] = [];
  const connect = async (withElicitation: boolean): Promise<Client> => {
    const client = new Client(
      { name: `demo-${era}`, version: '1.0.0' },
      {
        capabilities: withElicitation ? { elicitation: { form: {} } } : {},
        versionNegotiation: { mode: era === '2026' ? { pin: '2026-07-28' } : 'legacy' },
      },
    );
    if (withElicitation) {
      client.setRequestHandler('elicitation/create', async (req) => ({ action: 'accept', content: { answer: `teal (${req.params.message})` } }));
    }
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url as string)));
    clients.push(client);
    return client;
  };
  let client: Client;
  beforeAll(async () => {
    client = await connect(true);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
  });

  it('speaks the era it asked for', () => {
    expect(client.getNegotiatedProtocolVersion()).toBe(era === '2026' ? '2026-07-28' : '2025-11-25');
  });

  it('lists the demo tools and computes with them', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['get_time', 'convert_currency', 'slow_report', 'ask_user']));
    const converted = await client.callTool({ name: 'convert_currency', arguments: { amount: 100, from: 'EUR', to: 'USD' } });
    expect(converted.structuredContent).toEqual({ amount: 100, from: 'EUR', to: 'USD', rate: 1.1, result: 110 });
  });

  it('answers bad arguments with an isError result naming the field, before the handler runs', async () => {
    const bad = await client.callTool({ name: 'convert_currency', arguments: { amount: -1, from: 'EUR', to: 'USD' } });
    expect(bad).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Invalid arguments for tool convert_currency: amount must be >= 0' }] });
    expect(bad._meta?.['fa-mcp/validation']).toEqual({ field: 'amount', reason: 'must be >= 0' });
  });

  it('asks the user through elicitation and returns the answer', async () => {
    const result = await client.callTool({ name: 'ask_user', arguments: { question: 'Favourite colour?' } });
    expect(result.structuredContent).toEqual({ action: 'accept', answer: 'teal (Favourite colour?)' });
  });

  it('tells a client without elicitation that it cannot ask', async () => {
    const plain = await connect(false);
    const result = await plain.callTool({ name: 'ask_user', arguments: { question: 'Anyone there?' } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('does not support elicitation');
  });

  it('reports progress and serves the prompt and resources', async () => {
    const updates: number[] = [];
    const report = await client.callTool({ name: 'slow_report', arguments: { steps: 3, stepMs: 30 } }, { onprogress: (p) => updates.push(p.progress) });
    expect(report.structuredContent).toMatchObject({ steps: 3 });
    expect(updates.at(-1)).toBe(3);
    const prompt = await client.getPrompt({ name: 'explain_topic', arguments: { topic: 'sampling' } });
    expect(JSON.stringify(prompt.messages)).toContain('sampling');
    const about = await client.readResource({ uri: 'demo://about' });
    expect(about.contents[0]).toMatchObject({ uri: 'demo://about' });
  });

  it('hears of a tool list change', async () => {
    let heard = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => void heard++);
    if (era === '2026') await client.listen({ toolsListChanged: true });
    await server.notifyListChanged('tools');
    await expect.poll(() => heard, { timeout: 2000 }).toBeGreaterThan(0);
  });
});
