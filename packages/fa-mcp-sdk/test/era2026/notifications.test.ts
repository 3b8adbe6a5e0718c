/**
 * Change notifications and logs reach clients of both eras from the same
 * calls: handle.notifyListChanged / notifyResourceUpdated publish to 2025-era
 * connections (unsolicited, or after resources/subscribe) and to 2026-07-28
 * subscriptions/listen streams (HTTP through the handler's bus, stdio through
 * the connection); logs honour logging/setLevel (2025) or the request's
 * `_meta` level (2026, none = no logs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_LEVEL_META_KEY, type Client, type LoggingMessageNotificationParams } from '@modelcontextprotocol/client';
import { ALL_TARGETS, startTestServer, type TestServer } from '../../src/testing/index.js';
import { inputServer } from './fixtures.js';
import { post2026 } from './wire.js';

const targets = ALL_TARGETS.filter((t) => t.transport !== 'stateless');

async function waitFor(check: () => boolean, what: string, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(targets)('notifications on $label', (target) => {
  let server: TestServer;
  let client: Client;
  const seen: string[] = [];
  const logs: LoggingMessageNotificationParams[] = [];
  const modern = target.era === '2026';

  beforeAll(async () => {
    server = await startTestServer(inputServer({ runs: [] }), { target });
    client = await server.connect({}, (c) => {
      c.setNotificationHandler('notifications/tools/list_changed', () => void seen.push('tools'));
      c.setNotificationHandler('notifications/prompts/list_changed', () => void seen.push('prompts'));
      c.setNotificationHandler('notifications/resources/updated', (n) => void seen.push(`updated ${n.params.uri}`));
      c.setNotificationHandler('notifications/message', (n) => void logs.push(n.params));
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('delivers list changes and resource updates the client asked for, and nothing else', async () => {
    if (modern) {
      const sub = await client.listen({ toolsListChanged: true, resourceSubscriptions: ['test://plain'] });
      expect(sub.honoredFilter).toMatchObject({ toolsListChanged: true });
    } else {
      await client.subscribeResource({ uri: 'test://plain' });
    }
    seen.length = 0;
    await server.handle.notifyListChanged('tools');
    await server.handle.notifyResourceUpdated('test://plain');
    await server.handle.notifyResourceUpdated('test://other');
    await waitFor(() => seen.length >= 2, 'two notifications');
    await new Promise((r) => setTimeout(r, 100));
    expect(seen.sort()).toEqual(['tools', 'updated test://plain']);
  });

  it('sends log messages at or above the level the client chose (setLevel on 2025, the call\'s _meta on 2026)', async () => {
    if (!modern) await client.setLoggingLevel('warning');
    logs.length = 0;
    await client.callTool({ name: 'log_levels', arguments: {}, ...(modern ? { _meta: { [LOG_LEVEL_META_KEY]: 'warning' } } : {}) });
    await waitFor(() => logs.length >= 2, 'two log messages');
    expect(logs.map((l) => l.level)).toEqual(['warning', 'error']);
  });
});

describe('log level per 2026-07-28 request, on the wire', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(inputServer({ runs: [] }), { target: { transport: 'http', era: '2026', label: 'http/2026' } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const logLevels = (messages: Array<Record<string, unknown>>) =>
    messages.filter((m) => m.method === 'notifications/message').map((m) => (m.params as { level: string }).level);

  it('sends no log message to a request that names no level', async () => {
    const answer = await post2026(server.handle.url as string, 'tools/call', { name: 'log_levels', arguments: {} });
    expect(answer.response.result).toMatchObject({ content: [{ text: 'logged' }] });
    expect(logLevels(answer.messages)).toEqual([]);
  });

  it('sends the messages at or above the level the request names', async () => {
    const answer = await post2026(server.handle.url as string, 'tools/call', { name: 'log_levels', arguments: {} }, { logLevel: 'info' });
    expect(logLevels(answer.messages)).toEqual(['info', 'warning', 'error']);
  });
});
