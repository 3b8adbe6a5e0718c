/**
 * Tasks keep the caller's identity: a task belongs to the authenticated
 * subject (not to the client address every caller shares on loopback), and
 * the authorize step sees the same caller as on a synchronous call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Client } from '@modelcontextprotocol/client';
import { formatToolResult, MCP_ERROR_CODES } from '../../src/index.js';
import { ALL_TARGETS, expectToolError, type TestServer, type WireClient2026 } from '../../src/testing/index.js';
import { bearer, connectWith, rsaKeyPair, signJwt, startAuthServer, type KeyPair } from '../auth/helpers.js';

const ISS = 'https://idp.example.test';
const AUD = 'mcp-tasks-auth';
const Created = z.object({ task: z.object({ taskId: z.string(), status: z.string() }).passthrough() }).passthrough();
const AnyResult = z.record(z.string(), z.unknown());

describe.each(ALL_TARGETS.filter((t) => t.era === '2025' && t.transport !== 'stdio'))('tasks with auth on $label', (target) => {
  let rsa: KeyPair;
  let server: TestServer;
  let alice: Client;
  let bob: Client;
  beforeAll(async () => {
    rsa = await rsaKeyPair();
    const data = {
      tools: [
        {
          name: 'whoami_task',
          description: 'Answers the caller, as a task.',
          inputSchema: { type: 'object' as const },
          execution: { taskSupport: 'optional' as const },
          handler: ({ context }: { context: { auth?: { subject: string } } }) => formatToolResult({ subject: context.auth?.subject ?? null }),
        },
        {
          name: 'admin_task',
          description: 'Needs a scope.',
          inputSchema: { type: 'object' as const },
          execution: { taskSupport: 'optional' as const },
          requiredScopes: ['admin'],
          handler: () => formatToolResult('done'),
        },
      ],
    };
    server = await startAuthServer(data as never, target, {
      webServer: { auth: { enabled: true, jwtToken: { mode: 'localKey', publicKey: rsa.publicPem, issuer: ISS, audience: AUD } } },
      mcp: { tasks: { enabled: true } },
    });
    alice = await connectWith(server, bearer(await signJwt(rsa.privateKey, { iss: ISS, aud: AUD, sub: 'alice', claims: { scope: 'user' } })));
    bob = await connectWith(server, bearer(await signJwt(rsa.privateKey, { iss: ISS, aud: AUD, sub: 'bob', claims: { scope: 'user' } })));
  });
  afterAll(async () => {
    await alice?.close();
    await bob?.close();
    await server?.stop();
  });

  it('runs the task as the caller and keeps it from other subjects', async () => {
    const { task } = await alice.request({ method: 'tools/call', params: { name: 'whoami_task', arguments: {}, task: {} } }, Created);
    const result = await alice.request({ method: 'tasks/result', params: { taskId: task.taskId } }, AnyResult);
    expect(result.structuredContent).toEqual({ subject: 'alice' });
    await expectToolError(bob.request({ method: 'tasks/get', params: { taskId: task.taskId } }, AnyResult), MCP_ERROR_CODES.INVALID_PARAMS);
  });

  it('applies scopes to a task exactly as to a synchronous call', async () => {
    const { task } = await alice.request({ method: 'tools/call', params: { name: 'admin_task', arguments: {}, task: {} } }, Created);
    await expectToolError(alice.request({ method: 'tasks/result', params: { taskId: task.taskId } }, AnyResult), MCP_ERROR_CODES.FORBIDDEN);
  });
});

describe('tasks with auth on http/2026 (tasks extension)', () => {
  const TASKS = 'io.modelcontextprotocol/tasks';
  let rsa: KeyPair;
  let server: TestServer;
  let alice: WireClient2026;
  let bob: WireClient2026;
  beforeAll(async () => {
    rsa = await rsaKeyPair();
    const target = ALL_TARGETS.find((t) => t.label === 'http/2026');
    if (!target) throw new Error('http/2026 target missing');
    server = await startAuthServer(
      {
        tools: [
          {
            name: 'whoami_task',
            description: 'Answers the caller, as a task.',
            inputSchema: { type: 'object' },
            execution: { taskSupport: 'required' },
            handler: ({ context }) => formatToolResult({ subject: context.auth?.subject ?? null }),
          },
          { name: 'admin_task', description: 'Needs a scope.', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' }, requiredScopes: ['admin'], handler: () => formatToolResult('done') },
        ],
      },
      target,
      {
        webServer: { auth: { enabled: true, jwtToken: { mode: 'localKey', publicKey: rsa.publicPem, issuer: ISS, audience: AUD } } },
        mcp: { tasks: { enabled: true } },
      },
    );
    const as = async (sub: string) =>
      server.wire2026({ capabilities: { extensions: { [TASKS]: {} } }, headers: bearer(await signJwt(rsa.privateKey, { iss: ISS, aud: AUD, sub, claims: { scope: 'user' } })) });
    alice = await as('alice');
    bob = await as('bob');
  });
  afterAll(() => server?.stop());

  it('runs the task as the caller; another subject can neither read, answer nor cancel it', async () => {
    const created = await alice.request('tools/call', { name: 'whoami_task', arguments: {} });
    expect(created.resultType).toBe('task');
    let done: Record<string, unknown> = {};
    for (let i = 0; i < 100 && done.status !== 'completed'; i++) {
      done = await alice.request('tasks/get', { taskId: created.taskId });
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(done.result).toMatchObject({ structuredContent: { subject: 'alice' } });
    for (const [method, params] of [
      ['tasks/get', { taskId: created.taskId }],
      ['tasks/update', { taskId: created.taskId, inputResponses: {} }],
      ['tasks/cancel', { taskId: created.taskId }],
    ] as const) {
      await expect(bob.request(method, params)).rejects.toMatchObject({ code: MCP_ERROR_CODES.INVALID_PARAMS });
    }
  });

  it('applies scopes before a task is created: no task, the same -32001 as a synchronous call', async () => {
    await expect(alice.request('tools/call', { name: 'admin_task', arguments: {} })).rejects.toMatchObject({ code: MCP_ERROR_CODES.FORBIDDEN });
  });
});
