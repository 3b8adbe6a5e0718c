/**
 * Page 14 (MCP Events) shows this fixture (the import path aside), and it works: the tool's
 * emit reaches a poll of a subscriber whose arguments match, once even when emitted twice, and
 * is refused to a caller without the type's scope.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../src/testing/index.js';
import { orderShipped, shipOrder } from './fixtures/doc-events.js';

const doc = readFileSync(new URL('../../../../FA-MCP-SDK-DOC/14-events.md', import.meta.url), 'utf8');
const fixture = readFileSync(new URL('./fixtures/doc-events.ts', import.meta.url), 'utf8').replace("'../../../src/index.js'", "'fa-mcp-sdk'");

describe('14 events example', () => {
  it('the page shows the tested file', () => {
    expect(doc).toContain(fixture.trim());
  });

  it('the emit reaches the matching subscriber once; a caller without the scope is refused', async () => {
    const s = await startTestServer(
      {
        tools: [shipOrder],
        events: [orderShipped],
        customAuthValidator: (req) => (req.headers.authorization === 'Bearer ops' ? { subject: 'ops', scopes: ['orders:read'], groups: [], claims: {} } : { subject: 'guest', scopes: [], groups: [], claims: {} }),
      },
      { target: { transport: 'http', era: '2026', label: 'http/2026' }, config: { webServer: { auth: { enabled: true } } } },
    );
    try {
      const ops = s.wire2026({ headers: { authorization: 'Bearer ops' } });
      const guest = s.wire2026({ headers: { authorization: 'Bearer guest' } });
      const { cursor } = await ops.request('events/poll', { name: 'order.shipped', cursor: null, arguments: { customer: 'acme' } });
      for (const customer of ['acme', 'acme', 'globex']) await ops.request('tools/call', { name: 'ship_order', arguments: { order: `A-${customer}`, customer } });
      const got = await ops.request('events/poll', { name: 'order.shipped', cursor, arguments: { customer: 'acme' } });
      expect(got.events).toEqual([expect.objectContaining({ eventId: 'shipped-A-acme', data: { order: 'A-acme', customer: 'acme', carrier: 'DHL' } })]);
      await expect(guest.request('events/poll', { name: 'order.shipped', cursor: null })).rejects.toMatchObject({ code: -32012 });
    } finally {
      await s.stop();
    }
  });
});
