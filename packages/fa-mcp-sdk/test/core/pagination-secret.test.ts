/**
 * Pagination cursors through real servers (`mcp.pagination.cursorSecret`): a
 * cursor forged with the key the server's public `name@version` gave before is
 * refused with -32602; instances configured with the same secret read each
 * other's cursors (a client behind a load balancer pages across them); with
 * another secret, or none, they do not. On both eras.
 */
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { formatToolResult, MCP_ERROR_CODES, type ITool, type McpServerData } from '../../src/index.js';
import { connectHttpClient, ERAS, serverUrl, startTestServer, stopAllServers } from '../integration/helpers.js';

afterEach(stopAllServers);

const tool = (name: string): ITool => ({ name, description: `${name} (test)`, inputSchema: { type: 'object' }, handler: () => formatToolResult('ok') });
const data: McpServerData = { serverInfo: { name: 'paging-srv', version: '1.2.3' }, tools: ['t_a', 't_b', 't_c', 't_d', 't_e'].map(tool) };
const config = (cursorSecret?: string) => ({ mcp: { pagination: { pageSize: 2, ...(cursorSecret !== undefined ? { cursorSecret } : {}) } } });

type Client = Awaited<ReturnType<typeof connectHttpClient>>['client'];
/** One page on the wire (listTools() aggregates every page). */
const page = (client: Client, cursor?: string) => client.request({ method: 'tools/list', params: cursor ? { cursor } : {} });
const names = (p: { tools: Array<{ name: string }> }) => p.tools.map((t) => t.name);

const refusal = async (promise: Promise<unknown>) => {
  const err = (await promise.then(
    () => undefined,
    (e: unknown) => e,
  )) as { code?: number } | undefined;
  expect(err, 'the list was answered').toBeDefined();
  return err?.code;
};

describe.each(ERAS)('pagination cursors and mcp.pagination.cursorSecret (%s era)', (era) => {
  it('a cursor forged with the key derived from the public name@version is refused with -32602', async () => {
    const server = await startTestServer(data, config());
    const { client } = await connectHttpClient(serverUrl(server), { era });
    const oldKey = createHmac('sha256', 'fa-mcp-sdk/pagination').update('paging-srv@1.2.3').digest();
    const body = Buffer.from(JSON.stringify({ l: 'tools', k: 't_b', i: 1 })).toString('base64url');
    const forged = `${body}.${createHmac('sha256', oldKey).update(body).digest('base64url').slice(0, 22)}`;
    expect(await refusal(page(client, forged))).toBe(MCP_ERROR_CODES.INVALID_PARAMS);
    // its own cursors still work
    const first = await page(client);
    expect(names(first)).toEqual(['t_a', 't_b']);
    expect(names(await page(client, first.nextCursor))).toEqual(['t_c', 't_d']);
  });

  it('two instances with the same secret read each other\'s cursors; another secret or none refuses them', async () => {
    const secret = 'cursor-secret-shared-by-instances-0123';
    const [a, b, other, none] = await Promise.all([
      startTestServer(data, config(secret)),
      startTestServer(data, config(secret)),
      startTestServer(data, config('a-different-cursor-secret-4567')),
      startTestServer(data, config()),
    ]);
    const [onA, onB, onOther, onNone] = await Promise.all([a, b, other, none].map(async (s) => (await connectHttpClient(serverUrl(s), { era })).client));
    const cursor = (await page(onA!)).nextCursor;
    expect(cursor).toBeTruthy();
    const second = await page(onB!, cursor);
    expect(names(second)).toEqual(['t_c', 't_d']);
    expect(names(await page(onA!, second.nextCursor))).toEqual(['t_e']);
    expect(await refusal(page(onOther!, cursor))).toBe(MCP_ERROR_CODES.INVALID_PARAMS);
    expect(await refusal(page(onNone!, cursor))).toBe(MCP_ERROR_CODES.INVALID_PARAMS);
  });
});
