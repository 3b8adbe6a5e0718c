/**
 * Refusals are recorded too, each once: in front of the pipeline (a Host or Origin refused with
 * 403, a body over `mcp.limits.maxPayloadBytes` with 413) as a record without a method, and inside
 * it (a call past `mcp.rateLimit`) as the request's record, refused with the rate-limit code, on real HTTP.
 */
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/audit/audit-record.js';
import { formatToolResult, initMcpServer, type McpServerHandle } from '../../src/index.js';
import { FIXTURES_DIR } from '../integration/helpers.js';
import { readRecords, tempDir } from './audit-harness.js';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'audit-refusals', version: '1' } };

let handle: McpServerHandle;
let file: string;
let records: AuditRecord[];
const statuses: Record<string, number> = {};

/** One POST on node:http (fetch would not send another Host), with `extra` headers; the status is kept under `requestId`. */
function call(requestId: string, extra: Record<string, string> = {}, body?: string): Promise<void> {
  const payload = body ?? JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ping', arguments: {}, _meta: META } });
  const url = new URL(handle.url as string);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'ping', 'x-request-id': requestId, 'content-length': Buffer.byteLength(payload), ...extra },
      },
      (res) => {
        statuses[requestId] = res.statusCode ?? 0;
        res.resume();
        res.on('end', resolve);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

beforeAll(async () => {
  file = join(tempDir(), 'audit.jsonl');
  handle = await initMcpServer(
    { serverInfo: { name: 'audited-refusals', version: '1.0.0' }, tools: [{ name: 'ping', description: 'Answers.', inputSchema: { type: 'object', properties: {} }, handler: () => formatToolResult({ pong: true }) }] },
    {
      cwd: FIXTURES_DIR,
      env: {},
      nodeEnv: 'test',
      handleSignals: false,
      config: {
        webServer: { port: 0, host: '127.0.0.1' },
        logger: { level: 'silent' },
        mcp: {
          limits: { maxPayloadBytes: 2048 },
          rateLimit: { enabled: true, maxRequests: 2, windowMs: 60_000 },
          audit: { sink: 'jsonl', file, mode: 'sync', instance: 'audit-refusals' },
        },
      },
    },
  );
  await call('ok-1');
  await call('ok-2');
  await call('limited');
  await call('bad-host', { host: 'evil.example' });
  await call('bad-origin', { origin: 'https://evil.example' });
  await call('too-large', {}, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ping', arguments: { pad: 'x'.repeat(4096) }, _meta: META } }));
  await handle.stop('test done');
  records = readRecords(file).filter((r) => r.kind === 'request');
}, 60_000);

afterAll(async () => {
  await handle?.stop('test cleanup').catch(() => undefined);
});

describe('audit records of refusals', () => {
  const one = (id: string) => {
    const mine = records.filter((r) => r.requestId === id);
    expect(mine, `records of ${id}`).toHaveLength(1);
    return mine[0] as AuditRecord;
  };

  it('records a call past the rate limit as the call, refused with the rate-limit code', () => {
    expect(one('ok-2').outcome).toEqual({ status: 'ok' });
    expect(one('limited')).toMatchObject({ method: 'tools/call', target: { kind: 'tool', name: 'ping' }, outcome: { status: 'refused', code: -32003, reason: expect.any(String) } });
  });

  it('records a Host, an Origin and an oversized body refused in front of the pipeline, without a method', () => {
    expect([statuses['bad-host'], statuses['bad-origin'], statuses['too-large']]).toEqual([403, 403, 413]);
    for (const [id, status] of [['bad-host', 403], ['bad-origin', 403], ['too-large', 413]] as const) {
      expect(one(id)).toMatchObject({ method: null, outcome: { status: 'refused', httpStatus: status } });
    }
  });
});
