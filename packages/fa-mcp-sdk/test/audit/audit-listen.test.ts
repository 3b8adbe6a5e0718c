/**
 * A 2026-07-28 `subscriptions/listen` over HTTP is answered by the SDK's own entry with a long-lived
 * stream; it still leaves its audit record, with the caller and the stream's whole duration, once
 * the stream ends (here: the client goes away, `cancelled`). A listen the pipeline refuses (an
 * unauthenticated caller never gets this far; a filter naming a resource the caller may not read
 * does) is recorded as that error.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/audit/audit-record.js';
import { formatToolResult, initMcpServer, type McpServerHandle } from '../../src/index.js';
import { FIXTURES_DIR } from '../integration/helpers.js';
import { ANCHOR_KEY, readRecords, tempDir } from './audit-harness.js';

const TOKEN = 'audit-listen-token-0123456789';
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'audit-listen', version: '1' } };

let handle: McpServerHandle;
let file: string;
let records: AuditRecord[];

const listen = (requestId: string, notifications: Record<string, unknown>, signal?: AbortSignal) =>
  fetch(handle.url as string, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'subscriptions/listen',
      'x-request-id': requestId,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'subscriptions/listen', params: { notifications, _meta: META } }),
    ...(signal ? { signal } : {}),
  });

beforeAll(async () => {
  file = join(tempDir(), 'audit.jsonl');
  handle = await initMcpServer(
    {
      serverInfo: { name: 'audited-listen', version: '1.0.0' },
      tools: [{ name: 'noop', description: 'Does nothing.', inputSchema: { type: 'object', properties: {} }, handler: () => formatToolResult({ ok: true }) }],
      resources: [{ uri: 'doc://secret', name: 'secret', mimeType: 'text/plain', content: 'x', requiredScopes: ['secret:read'] }],
    },
    {
      cwd: FIXTURES_DIR,
      env: {},
      nodeEnv: 'test',
      handleSignals: false,
      config: {
        webServer: { port: 0, host: '127.0.0.1', auth: { enabled: true, permanentServerTokens: [TOKEN] } },
        logger: { level: 'silent' },
        mcp: { capabilities: { listChanged: true, subscribe: true }, audit: { sink: 'jsonl', file, mode: 'sync', instance: 'audit-listen', anchors: { key: ANCHOR_KEY } } },
      },
    },
  );
  // A stream held until its acknowledgement arrived, then left by the client.
  const abort = new AbortController();
  const res = await listen('listen-1', { toolsListChanged: true }, abort.signal);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const reader = res.body!.getReader();
  let text = '';
  while (!text.includes('notifications/subscriptions/acknowledged')) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  abort.abort();
  await reader.cancel().catch(() => undefined);
  // Refused by the pipeline: a filter naming a resource this caller may not read.
  const refused = await listen('listen-refused', { resourceSubscriptions: ['doc://secret'] });
  await refused.text();
  // The record of the stream is written when the server sees it end: wait for it, with a deadline.
  const deadline = Date.now() + 10_000;
  while (!readRecords(file).some((r) => r.requestId === 'listen-1') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  await handle.stop('test done');
  records = readRecords(file).filter((r) => r.kind === 'request');
}, 60_000);

afterAll(async () => {
  await handle?.stop('test cleanup').catch(() => undefined);
});

describe('audit records of subscriptions/listen', () => {
  it('records a listen stream once, when it ends, with its caller', () => {
    const mine = records.filter((r) => r.requestId === 'listen-1');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ method: 'subscriptions/listen', era: '2026', transport: 'http', outcome: { status: 'cancelled' }, principal: { authMode: 'static' } });
  });

  it('records a listen the pipeline refused as that error', () => {
    const refused = records.filter((r) => r.requestId === 'listen-refused');
    expect(refused).toHaveLength(1);
    expect(refused[0]?.outcome?.status).not.toBe('ok');
  });
});
