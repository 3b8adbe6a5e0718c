/**
 * Tools called over REST (`webServer.rest.exposeTools`: `POST /api/tools/<name>`) reach the same
 * pipeline as MCP `tools/call`, so each leaves one audit record like an MCP call: the caller, the
 * tool, the outcome (ok, a tool error, an argument refusal), the fields the handler added, the
 * client's X-Request-Id; and the file passes `fa-mcp audit verify`.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/audit/audit-record.js';
import { runCommand } from '../../src/cli/cli-io.js';
import { auditVerify } from '../../src/cli/commands/audit.js';
import { formatToolResult, initMcpServer, type McpServerHandle } from '../../src/index.js';
import { recordingIo } from '../devtools/cli-helpers.js';
import { FIXTURES_DIR } from '../integration/helpers.js';
import { ANCHOR_KEY, readRecords, tempDir } from './audit-harness.js';

const TOKEN = 'audit-rest-token-0123456789';

let handle: McpServerHandle;
let file: string;
let records: AuditRecord[];
const statuses: Record<string, number> = {};

async function post(path: string, body: unknown, requestId: string): Promise<void> {
  const res = await fetch(new URL(path, handle.url as string), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}`, 'x-request-id': requestId },
    body: JSON.stringify(body),
  });
  await res.text();
  statuses[requestId] = res.status;
}

beforeAll(async () => {
  file = join(tempDir(), 'audit.jsonl');
  handle = await initMcpServer(
    {
      serverInfo: { name: 'audited-rest', version: '1.0.0' },
      tools: [
        {
          name: 'transfer',
          description: 'Moves an amount.',
          inputSchema: { type: 'object', properties: { from: { type: 'string' }, amount: { type: 'number' } }, required: ['from', 'amount'] },
          handler: ({ arguments: a, audit }) => {
            audit.set('account', a.from);
            return formatToolResult({ moved: a.amount });
          },
        },
        {
          name: 'refuse',
          description: 'Always reports an error to the model.',
          inputSchema: { type: 'object', properties: {} },
          handler: () => ({ content: [{ type: 'text', text: 'no such account' }], isError: true }),
        },
      ],
    },
    {
      cwd: FIXTURES_DIR,
      env: {},
      nodeEnv: 'test',
      handleSignals: false,
      config: {
        webServer: { port: 0, host: '127.0.0.1', auth: { enabled: true, permanentServerTokens: [TOKEN] }, rest: { exposeTools: true } },
        logger: { level: 'silent' },
        mcp: { audit: { sink: 'jsonl', file, mode: 'sync', instance: 'audit-rest', anchors: { key: ANCHOR_KEY } } },
      },
    },
  );
  await post('/api/tools/transfer', { from: 'ACC-9', amount: 5 }, 'rest-ok');
  await post('/api/tools/refuse', {}, 'rest-tool-error');
  await post('/api/tools/transfer', { from: 'ACC-9' }, 'rest-bad-args');
  await handle.stop('test done');
  records = readRecords(file).filter((r) => r.kind === 'request');
}, 60_000);

afterAll(async () => {
  await handle?.stop('test cleanup').catch(() => undefined);
});

describe('audit records of tools called over REST', () => {
  it('leaves one record per call, under the id the client sent', () => {
    expect(statuses).toEqual({ 'rest-ok': 200, 'rest-tool-error': 200, 'rest-bad-args': 400 });
    for (const id of ['rest-ok', 'rest-tool-error', 'rest-bad-args']) expect(records.filter((r) => r.requestId === id), JSON.stringify(records.filter((r) => r.requestId === id))).toHaveLength(1);
  });

  it('names the caller, the tool, the outcome and the handler\'s fields', () => {
    const ok = records.find((r) => r.requestId === 'rest-ok');
    expect(ok).toMatchObject({ method: 'tools/call', transport: 'http', target: { kind: 'tool', name: 'transfer' }, outcome: { status: 'ok' }, extra: { account: 'ACC-9' }, principal: { authMode: 'static' } });
    expect(ok?.arguments).toMatchObject({ mode: 'digest', digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(ok?.resultBytes).toBeGreaterThan(0);
    expect(records.find((r) => r.requestId === 'rest-tool-error')?.outcome).toEqual({ status: 'tool_error' });
    expect(records.find((r) => r.requestId === 'rest-bad-args')?.outcome).toMatchObject({ status: 'error', code: -32602 });
  });

  it('writes a chain fa-mcp audit verify finds intact', async () => {
    const io = recordingIo(tempDir());
    io.env = { MCP_AUDIT_ANCHOR_KEY: ANCHOR_KEY };
    const code = await runCommand(io, () => auditVerify(io, { file: [file], requireClosed: true }));
    expect(io.stderr).toBe('');
    expect(code).toBe(0);
    expect(io.stdout).toContain('audit trail intact');
  });
});
