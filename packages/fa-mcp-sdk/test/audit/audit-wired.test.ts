/**
 * The audit trail wired into the request path (page 13): on every transport, era and route, each
 * request that reaches the pipeline leaves exactly one record (tools, prompts, resources, lists,
 * the tool's own `params.audit.set` fields, a tool error, a JSON-RPC error), with the caller and
 * the digest of the arguments; a refusal before the pipeline (401) is recorded without a method;
 * tasks add a record at creation and at each status; the file a real server wrote passes
 * `fa-mcp audit verify`.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Client } from '@modelcontextprotocol/client';
import type { AuditRecord } from '../../src/audit/audit-record.js';
import { runCommand } from '../../src/cli/cli-io.js';
import { auditVerify } from '../../src/cli/commands/audit.js';
import { formatToolResult, type McpServerData } from '../../src/index.js';
import { ALL_TARGETS, startTestServer, type TestServer, type TestTarget } from '../../src/testing/index.js';
import { recordingIo } from '../devtools/cli-helpers.js';
import { FIXTURES_DIR } from '../integration/helpers.js';
import { ANCHOR_KEY, readRecords, tempDir } from './audit-harness.js';

const TOKEN = 'audit-test-token-0123456789';

function auditedServer(): McpServerData {
  return {
    serverInfo: { name: 'audited', version: '1.0.0' },
    tools: [
      {
        name: 'transfer',
        description: 'Moves an amount between two accounts.',
        inputSchema: { type: 'object', properties: { from: { type: 'string' }, amount: { type: 'number' } }, required: ['from', 'amount'] },
        handler: ({ arguments: a, audit }) => {
          audit.set('account', a.from);
          audit.set('amount', a.amount);
          return formatToolResult({ moved: a.amount });
        },
      },
      {
        name: 'refuse',
        description: 'Always reports an error to the model.',
        inputSchema: { type: 'object', properties: {} },
        handler: () => ({ content: [{ type: 'text', text: 'no such account' }], isError: true }),
      },
      {
        name: 'report',
        description: 'A long report, run as a task.',
        inputSchema: { type: 'object', properties: {} },
        execution: { taskSupport: 'optional' },
        handler: () => formatToolResult({ pages: 3 }),
      },
    ],
    prompts: [{ name: 'greet', description: 'Greets.', arguments: [{ name: 'who', required: true }], content: (a) => `Hello ${String(a.who)}` }],
    resources: [{ uri: 'doc://readme', name: 'readme', mimeType: 'text/plain', content: 'read me' }],
  };
}

const http = (t: TestTarget) => t.transport !== 'stdio';
const requests = (records: AuditRecord[]) => records.filter((r) => r.kind === 'request');

describe.each(ALL_TARGETS)('audit records of every request on $label', (target) => {
  let dir: string;
  let file: string;
  let server: TestServer;
  let records: AuditRecord[];
  const auth = http(target) ? { enabled: true, permanentServerTokens: [TOKEN] } : { enabled: false };

  beforeAll(async () => {
    dir = tempDir();
    file = join(dir, 'audit.jsonl');
    server = await startTestServer(auditedServer(), {
      target,
      cwd: FIXTURES_DIR,
      env: {},
      nodeEnv: 'test',
      config: {
        webServer: { auth },
        mcp: { audit: { sink: 'jsonl', file, mode: 'sync', instance: 'audit-it', anchors: { key: ANCHOR_KEY } } },
      },
    });
    const connect = (): Promise<Client> =>
      http(target)
        ? // the SDK's transports take the token through requestInit; the test kit's connect has no headers, so wrap fetch
          withToken(server)
        : server.connect();
    const client = await connect();
    await client.listTools();
    await client.callTool({ name: 'transfer', arguments: { from: 'ACC-7', amount: 12 } });
    await client.callTool({ name: 'refuse', arguments: {} });
    await client.callTool({ name: 'no_such_tool', arguments: {} }).catch(() => undefined);
    await client.getPrompt({ name: 'greet', arguments: { who: 'Ann' } });
    await client.readResource({ uri: 'doc://readme' });
    if (http(target)) {
      const refused = await fetch(server.handle.url as string, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-request-id': 'refused-1' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(refused.status).toBe(401);
    }
    await server.stop();
    records = readRecords(file);
  });
  afterAll(async () => {
    await server?.handle.stop('test cleanup').catch(() => undefined);
  });

  it('leaves one record per served request, each with its own request id', () => {
    const served = requests(records).filter((r) => r.method !== null);
    const ids = served.map((r) => r.requestId);
    expect(new Set(ids).size).toBe(ids.length);
    const calls = served.filter((r) => r.method === 'tools/call');
    expect(calls.map((r) => r.target?.name).sort()).toEqual(['no_such_tool', 'refuse', 'transfer']);
    expect(served.filter((r) => r.method === 'tools/list')).toHaveLength(1);
    expect(served.filter((r) => r.method === 'prompts/get')).toHaveLength(1);
    expect(served.filter((r) => r.method === 'resources/read')).toHaveLength(1);
    for (const r of served) {
      expect(r.era).toBe(target.era);
      expect(r.transport).toBe(target.transport === 'stateless' ? 'http' : target.transport);
      expect(r.instance).toBe('audit-it');
    }
  });

  it('records the target, outcome, caller, digest of the arguments and the fields the tool added', () => {
    const served = requests(records);
    const transfer = served.find((r) => r.target?.name === 'transfer');
    expect(transfer).toMatchObject({ method: 'tools/call', target: { kind: 'tool', name: 'transfer' }, outcome: { status: 'ok' }, extra: { account: 'ACC-7', amount: 12 } });
    expect(transfer?.arguments).toMatchObject({ mode: 'digest', digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(transfer?.resultBytes).toBeGreaterThan(0);
    expect(served.find((r) => r.target?.name === 'refuse')?.outcome).toEqual({ status: 'tool_error' });
    const unknown = served.find((r) => r.target?.name === 'no_such_tool');
    expect(['tool_error', 'error']).toContain(unknown?.outcome?.status);
    expect(served.find((r) => r.method === 'prompts/get')?.target).toEqual({ kind: 'prompt', name: 'greet' });
    expect(served.find((r) => r.method === 'resources/read')?.target).toEqual({ kind: 'resource', name: 'doc://readme' });
    if (http(target)) {
      expect(transfer?.principal).toMatchObject({ authMode: 'static' });
      expect(transfer?.remoteAddress).toMatch(/127\.0\.0\.1/);
    } else {
      expect(transfer?.principal).toBeNull();
    }
  });

  it.runIf(http(target))('records a refusal before the pipeline without a method', () => {
    const refused = requests(records).find((r) => r.requestId === 'refused-1');
    expect(refused).toMatchObject({ method: null, principal: null, outcome: { status: 'refused', reason: 'unauthorized', httpStatus: 401 } });
  });

  it('writes a file fa-mcp audit verify proves intact and closed', async () => {
    const io = recordingIo(dir);
    io.env = { MCP_AUDIT_ANCHOR_KEY: ANCHOR_KEY };
    const code = await runCommand(io, () => auditVerify(io, { file: [file], requireClosed: true }));
    expect(io.stderr).toBe('');
    expect(code).toBe(0);
    expect(io.stdout).toContain(`audit trail intact: ${records.length} records in 1 chain`);
  });
});

/** Connects the SDK client with the static bearer token on every HTTP request it makes. */
async function withToken(server: TestServer): Promise<Client> {
  const { Client: SdkClient, StreamableHTTPClientTransport, SSEClientTransport } = await import('@modelcontextprotocol/client');
  const { target, handle } = server;
  const client = new SdkClient({ name: 'audit-test', version: '1.0.0' }, { versionNegotiation: { mode: target.era === '2026' ? { pin: '2026-07-28' } : 'legacy' } });
  const requestInit = { headers: { Authorization: `Bearer ${TOKEN}` } };
  const url = new URL(handle.url as string);
  const transport = target.transport === 'sse' ? new SSEClientTransport(new URL('/sse', url), { requestInit }) : new StreamableHTTPClientTransport(url, { requestInit });
  await client.connect(transport);
  return client;
}

const Created = z.object({ task: z.object({ taskId: z.string(), status: z.string() }).passthrough() }).passthrough();
const Task = z.object({ taskId: z.string(), status: z.string() }).passthrough();

describe('audit records of a task', () => {
  it('records its creation and each status it takes, with the caller who started it', async () => {
    const dir = tempDir();
    const file = join(dir, 'tasks.jsonl');
    const server = await startTestServer(auditedServer(), {
      target: ALL_TARGETS[0] as TestTarget,
      cwd: FIXTURES_DIR,
      env: {},
      nodeEnv: 'test',
      config: { mcp: { tasks: { enabled: true, pollIntervalMs: 50 }, audit: { sink: 'jsonl', file, mode: 'async', windowMs: 10 } } },
    });
    try {
      const client = await server.connect();
      const { task } = await client.request({ method: 'tools/call', params: { name: 'report', arguments: {}, task: {} } }, Created);
      const deadline = Date.now() + 20_000;
      let status = task.status;
      while (status !== 'completed' && Date.now() < deadline) {
        status = (await client.request({ method: 'tasks/get', params: { taskId: task.taskId } }, Task)).status;
      }
      expect(status).toBe('completed');
      await server.stop();
      const taskRecords = readRecords(file).filter((r) => r.kind === 'task' && r.task?.id === task.taskId);
      const statuses = taskRecords.map((r) => r.task?.status);
      expect(statuses[0]).toBe('created');
      expect(statuses).toContain('completed');
      expect(taskRecords.every((r) => r.task?.tool === 'report')).toBe(true);
      const gets = readRecords(file).filter((r) => r.kind === 'request' && r.method === 'tasks/get');
      expect(gets.length).toBeGreaterThan(0);
      expect(gets.every((r) => r.target?.kind === 'task' && r.target.name === task.taskId)).toBe(true);
    } finally {
      await server.handle.stop('test cleanup').catch(() => undefined);
    }
  });
});
