/**
 * A tool that declares the client capabilities it needs
 * (`execution.requiredClientCapabilities`) is refused up front to a client that
 * lacks them: -32021, `data.requiredCapabilities` naming only what is missing,
 * the handler never run and no task created — for a task on 2026-07-28 (tasks
 * extension) and on a 2025-era task-augmented call, and for a plain call, on
 * every target (both request paths of each era). The declaration is not sent in
 * tools/list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Client } from '@modelcontextprotocol/client';
import { formatToolResult, MCP_ERROR_CODES, type McpServerData } from '../../src/index.js';
import { ALL_TARGETS, startTestServer, type TestServer } from '../../src/testing/index.js';

const TASKS = 'io.modelcontextprotocol/tasks';
type Rec = Record<string, unknown>;
const ran: string[] = [];

const data: McpServerData = {
  tools: [
    {
      name: 'sampling_task',
      description: 'Runs as a task that asks the client model.',
      inputSchema: { type: 'object' },
      execution: { taskSupport: 'optional', requiredClientCapabilities: { sampling: {} } },
      handler: () => {
        ran.push('sampling_task');
        return formatToolResult('sampled');
      },
    },
    {
      name: 'form_task',
      description: 'Runs only as a task that asks the user with a form.',
      inputSchema: { type: 'object' },
      execution: { taskSupport: 'required', requiredClientCapabilities: { elicitation: {} } },
      handler: () => {
        ran.push('form_task');
        return formatToolResult('asked');
      },
    },
    {
      name: 'needs_sampling',
      description: 'A plain tool that asks the client model.',
      inputSchema: { type: 'object' },
      execution: { requiredClientCapabilities: { sampling: {} } },
      handler: () => {
        ran.push('needs_sampling');
        return formatToolResult('ok');
      },
    },
  ],
};

const config = { mcp: { tasks: { enabled: true, pollIntervalMs: 50 } } };

async function refusal(p: Promise<unknown>): Promise<{ code?: number; data?: Rec }> {
  try {
    await p;
  } catch (err) {
    return err as { code?: number; data?: Rec };
  }
  throw new Error('expected a refusal');
}

/** Tasks the server holds now, whatever their status. */
async function taskCount(s: TestServer): Promise<number> {
  const counts = (await s.handle.tasks?.store.countByStatus()) ?? {};
  return Object.values(counts).reduce((a, b) => a + (b ?? 0), 0);
}

describe.each(ALL_TARGETS.filter((t) => t.era === '2026'))('required client capabilities on $label', (target) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(data, { target, config });
  });
  afterAll(() => s?.stop());
  const client = (capabilities: Rec) => s.wire2026({ capabilities });
  const call = (capabilities: Rec, name: string) => client(capabilities).request('tools/call', { name, arguments: {} });

  it('refuses a task whose client lacks the capability before any task exists, naming only what is missing', async () => {
    ran.length = 0;
    const sampling = await refusal(call({ extensions: { [TASKS]: {} }, elicitation: {} }, 'sampling_task'));
    expect(sampling.code).toBe(MCP_ERROR_CODES.MISSING_CLIENT_CAPABILITY);
    expect(sampling.data?.requiredCapabilities).toEqual({ sampling: {} });
    // URL mode is not form mode
    const form = await refusal(call({ extensions: { [TASKS]: {} }, elicitation: { url: {} } }, 'form_task'));
    expect(form.code).toBe(MCP_ERROR_CODES.MISSING_CLIENT_CAPABILITY);
    expect(form.data?.requiredCapabilities).toEqual({ elicitation: { form: {} } });
    // without the extension either, both are named
    const both = await refusal(call({}, 'form_task'));
    expect(both.data?.requiredCapabilities).toEqual({ elicitation: { form: {} }, extensions: { [TASKS]: {} } });
    expect(ran).toEqual([]);
    expect(await taskCount(s)).toBe(0);
  });

  it('takes the task for a client that declares it (an elicitation object naming no mode is form mode)', async () => {
    const created = await call({ extensions: { [TASKS]: {} }, elicitation: {} }, 'form_task');
    expect(created.resultType).toBe('task');
    const sampled = await call({ extensions: { [TASKS]: {} }, sampling: {} }, 'sampling_task');
    expect(sampled.resultType).toBe('task');
    expect(await taskCount(s)).toBe(2);
  });

  it('refuses a plain call the same way, and runs it for a client that declares the capability', async () => {
    ran.length = 0;
    const refused = await refusal(call({ elicitation: { form: {} } }, 'needs_sampling'));
    expect(refused.code).toBe(MCP_ERROR_CODES.MISSING_CLIENT_CAPABILITY);
    expect(refused.data?.requiredCapabilities).toEqual({ sampling: {} });
    expect(ran).toEqual([]);
    const served = await call({ sampling: {} }, 'needs_sampling');
    expect(served.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(ran).toEqual(['needs_sampling']);
  });

  it('keeps the declaration off the wire', async () => {
    const list = await client({}).request('tools/list', {});
    expect((list.tools as Array<{ name: string }>).map((t) => t.name)).toContain('sampling_task');
    expect(JSON.stringify(list)).not.toContain('requiredClientCapabilities');
  });
});

const Created = z.object({ task: z.object({ taskId: z.string(), status: z.string() }).passthrough() }).passthrough();
const AnyResult = z.record(z.string(), z.unknown());

describe.each(ALL_TARGETS.filter((t) => t.era === '2025'))('required client capabilities on $label', (target) => {
  // One server per client: a stdio server has one connection.
  let forBare: TestServer;
  let forSampler: TestServer;
  let bare: Client;
  let sampler: Client;
  // A stateless endpoint keeps nothing of initialize: every request declares nothing, so such a tool is always refused.
  const stateless = target.transport === 'stateless';
  beforeAll(async () => {
    [forBare, forSampler] = await Promise.all([startTestServer(data, { target, config }), startTestServer(data, { target, config })]);
    bare = await forBare.connect({ capabilities: { elicitation: { url: {} } } });
    sampler = await forSampler.connect({ capabilities: { sampling: {}, elicitation: {} } });
  });
  afterAll(() => Promise.all([forBare?.stop(), forSampler?.stop()]));
  const callTask = (c: Client, name: string) => c.request({ method: 'tools/call', params: { name, arguments: {}, task: {} } }, Created);
  const call = (c: Client, name: string) => c.request({ method: 'tools/call', params: { name, arguments: {} } }, AnyResult);

  it('refuses a task-augmented call up front: -32021 naming what is missing, no task, no handler', async () => {
    ran.length = 0;
    const sampling = await refusal(callTask(bare, 'sampling_task'));
    expect(sampling.code).toBe(MCP_ERROR_CODES.MISSING_CLIENT_CAPABILITY);
    expect(sampling.data?.requiredCapabilities).toEqual({ sampling: {} });
    const form = await refusal(callTask(bare, 'form_task'));
    expect(form.data?.requiredCapabilities).toEqual({ elicitation: { form: {} } });
    expect(ran).toEqual([]);
    expect(await taskCount(forBare)).toBe(0);
  });

  it('creates the task for a client that declared the capabilities', async () => {
    if (stateless) {
      expect((await refusal(callTask(sampler, 'form_task'))).code).toBe(MCP_ERROR_CODES.MISSING_CLIENT_CAPABILITY);
      expect(await taskCount(forSampler)).toBe(0);
      return;
    }
    const created = await callTask(sampler, 'form_task');
    expect(created.task.status).toBeDefined();
    expect(await taskCount(forSampler)).toBe(1);
  });

  it('refuses a plain call the same way, and runs it for a client that declares the capability', async () => {
    ran.length = 0;
    const refused = await refusal(call(bare, 'needs_sampling'));
    expect(refused.code).toBe(MCP_ERROR_CODES.MISSING_CLIENT_CAPABILITY);
    expect(refused.data?.requiredCapabilities).toEqual({ sampling: {} });
    expect(ran).toEqual([]);
    if (stateless) return;
    const served = await call(sampler, 'needs_sampling');
    expect(served.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(ran).toEqual(['needs_sampling']);
  });

  it('keeps the declaration off the wire', async () => {
    const { tools } = await bare.listTools();
    expect(tools.find((t) => t.name === 'sampling_task')?.execution).toEqual({ taskSupport: 'optional' });
    expect(JSON.stringify(tools)).not.toContain('requiredClientCapabilities');
  });
});
