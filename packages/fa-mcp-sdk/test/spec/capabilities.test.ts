/**
 * Declared capabilities follow what the server does: dynamic tools announce
 * tools.listChanged, the consumer's word and `mcp.capabilities` add or take
 * away logging, listChanged and subscribe; 2025 initialize and 2026-07-28
 * server/discover carry the same object; a log of a handler on a server that
 * declares no logging sends nothing and does not fail the call.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { formatToolResult, type ITool, type McpServerData } from '../../src/index.js';
import { startTestServer, type TestServer, type TestTarget } from '../../src/testing/index.js';

const targets: TestTarget[] = [
  { transport: 'http', era: '2025', label: 'http-session/2025' },
  { transport: 'http', era: '2026', label: 'http/2026' },
];

const logging: ITool = {
  name: 'chatty',
  description: 'Logs to the client, then answers.',
  inputSchema: { type: 'object' },
  handler: async ({ client }) => {
    await client.log('info', 'working');
    return formatToolResult('done');
  },
};

const prompts = [{ name: 'hello', description: 'Says hello.', content: 'Hello.' }];

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function capabilitiesOf(target: TestTarget, data: McpServerData, mcp: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  server = await startTestServer(data, { target, config: { mcp } });
  if (target.era === '2026') return (await server.wire2026().request('server/discover')).capabilities as Record<string, unknown>;
  const client = await server.connect();
  return client.getServerCapabilities() as Record<string, unknown>;
}

describe.each(targets)('declared capabilities ($label)', (target) => {
  it('declares tools.listChanged for dynamic tools, and nothing else beyond the lists by default', async () => {
    const caps = await capabilitiesOf(target, { tools: async () => [logging], prompts });
    expect(caps.tools).toEqual({ listChanged: true });
    expect(caps.prompts).toEqual({});
    expect(caps.resources).toEqual({});
    expect(caps.logging).toBeUndefined();
  });

  it('declares what McpServerData.capabilities names', async () => {
    const caps = await capabilitiesOf(target, { tools: [logging], prompts, capabilities: { logging: true, listChanged: ['prompts'], subscribe: true } });
    expect(caps.logging).toEqual({});
    expect(caps.tools).toEqual({});
    expect(caps.prompts).toEqual({ listChanged: true });
    expect(caps.resources).toEqual({ subscribe: true });
  });

  it('lets mcp.capabilities override the derivation both ways', async () => {
    const caps = await capabilitiesOf(target, { tools: async () => [logging], capabilities: { logging: true } }, { capabilities: { logging: false, listChanged: false, subscribe: true } });
    expect(caps.logging).toBeUndefined();
    expect(caps.tools).toEqual({});
    expect(caps.resources).toEqual({ subscribe: true });
  });
});

describe('logging undeclared', () => {
  it('a handler\'s client.log() sends nothing and the call succeeds (2025 session)', async () => {
    server = await startTestServer({ tools: [logging] }, { target: targets[0] as TestTarget });
    const messages: unknown[] = [];
    const client = await server.connect({}, (c) => c.setNotificationHandler('notifications/message', (n) => void messages.push(n)));
    const result = await client.callTool({ name: 'chatty', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    expect(messages).toEqual([]);
  });

  it('with logging declared the same call delivers its log message', async () => {
    server = await startTestServer({ tools: [logging], capabilities: { logging: true } }, { target: targets[0] as TestTarget });
    const messages: Array<{ params: { data: unknown } }> = [];
    const client = await server.connect({}, (c) => c.setNotificationHandler('notifications/message', (n) => void messages.push(n as never)));
    await client.callTool({ name: 'chatty', arguments: {} });
    await expect.poll(() => messages.map((m) => m.params.data), { timeout: 5000 }).toEqual(['working']);
  });
});
