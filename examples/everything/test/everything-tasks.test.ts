/**
 * The everything server's 2026-07-28 tasks (the io.modelcontextprotocol/tasks extension),
 * driven from outside its process by the extension's official client
 * (`@modelcontextprotocol/ext-tasks` on a v2 client): task handles, stages in tasks/get,
 * input_required answered with tasks/update, cancellation, -32021 before any task, the 64 KiB
 * tasks/update cap, unknown tasks and the 100-task cap.
 */
import { resultFromTaskOutcome, taskViewFromExecutionEvent, type TaskEnabledSession, type TaskView } from '@modelcontextprotocol/ext-tasks/client';
import { connectWire2026 } from 'fa-mcp-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_TEXT, FORM_VALUES } from './helpers/answers.js';
import { taskClient, TASKS_EXTENSION, v2Http, type TaskClient } from './helpers/clients.js';
import { rejection } from './helpers/errors.js';
import { startEverything, type EverythingProcess } from './helpers/server-process.js';
import { waitUntil } from './helpers/wait.js';

const STAGES = ['Gathering sources', 'Analyzing content', 'Synthesizing findings', 'Generating report'].map((s, i) => `Stage ${i + 1} of 4: ${s}`);
type ToolResult = { content?: Array<{ text?: string }>; structuredContent?: Record<string, unknown>; isError?: boolean };

let server: EverythingProcess;
let tasks: TaskClient;

beforeAll(async () => {
  server = await startEverything();
  tasks = await taskClient(server.mcpUrl);
}, 60_000);

afterAll(async () => {
  await tasks?.close();
  await server?.stop();
});

const required = { task: { preference: 'require' as const } };

/** Polls tasks/get (faster than the suggested interval) until the task ends; answers every status message seen, in order. */
async function followStages(session: TaskEnabledSession, taskId: string, timeoutMs = 20_000): Promise<{ messages: string[]; last: TaskView }> {
  const messages: string[] = [];
  const controller = session.task(taskId as never);
  let last: TaskView | undefined;
  await waitUntil(
    async () => {
      last = await controller.snapshot();
      if (last.statusMessage && last.status === 'working' && messages.at(-1) !== last.statusMessage) messages.push(last.statusMessage);
      return ['completed', 'failed', 'cancelled'].includes(last.status);
    },
    timeoutMs,
    `task ${taskId} to end`,
  );
  return { messages, last: last as TaskView };
}

/** Whether `seen` is `all` with some left out, in order. */
const inOrderWithin = (seen: string[], all: string[]) => seen.every((m, i) => all.indexOf(m) >= 0 && (i === 0 || all.indexOf(m) > all.indexOf(seen[i - 1] as string)));

describe('simulate-research-query', () => {
  it('answers with a task handle; tasks/get shows its stages as statusMessage until it completes', async () => {
    const exec = await tasks.session.callTool('simulate-research-query', { topic: 'tides' }, required);
    expect(exec.kind).toBe('task');
    if (exec.kind !== 'task') return;
    expect(exec.handle.taskId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const { messages, last } = await followStages(tasks.session, exec.handle.taskId);
    expect(last.status).toBe('completed');
    expect(last.raw).toMatchObject({ ttlMs: 3_600_000, pollIntervalMs: expect.any(Number) });
    expect(messages.length).toBeGreaterThanOrEqual(1);
    expect(inOrderWithin(messages, STAGES), JSON.stringify(messages)).toBe(true);
    const result = resultFromTaskOutcome((await exec.settle()).outcome) as ToolResult;
    expect(result.structuredContent).toMatchObject({ topic: 'tides', clarified: null, stages: ['Gathering sources', 'Analyzing content', 'Synthesizing findings', 'Generating report'] });
  });

  it('with ambiguous: true and an elicitation-capable client it pauses at input_required, answered with tasks/update', async () => {
    const statuses: string[] = [];
    const exec = await tasks.session.callTool('simulate-research-query', { topic: 'python', ambiguous: true }, required);
    const settled = await exec.settle({
      onEvent: (event) => {
        const view = taskViewFromExecutionEvent(event);
        if (view && statuses.at(-1) !== view.status) statuses.push(view.status);
      },
    });
    expect(statuses).toContain('input_required');
    const result = resultFromTaskOutcome(settled.outcome) as ToolResult;
    expect(result.structuredContent).toMatchObject({ topic: `python (${String(FORM_VALUES.interpretation)})`, clarified: FORM_VALUES.interpretation });
    expect(tasks.v2.answers.asked.at(-1)?.params.message).toMatch(/^"python" can mean several things/);
  });

  it('with ambiguous: true and a client that cannot answer forms it goes straight through the stages', async () => {
    const plain = await taskClient(server.mcpUrl, {});
    try {
      const exec = await plain.session.callTool('simulate-research-query', { topic: 'python', ambiguous: true }, required);
      const result = resultFromTaskOutcome((await exec.settle()).outcome) as ToolResult;
      expect(result.structuredContent).toMatchObject({ topic: 'python', clarified: null });
      expect(plain.v2.answers.asked).toEqual([]);
    } finally {
      await plain.close();
    }
  });

  it('tasks/cancel stops a running task; a cancel of a task that ended is acknowledged and changes nothing', async () => {
    const exec = await tasks.session.callTool('simulate-research-query', { topic: 'a long one' }, required);
    if (exec.kind !== 'task') throw new Error('not a task');
    const controller = tasks.session.task(exec.handle.taskId);
    await waitUntil(async () => (await controller.snapshot()).statusMessage === STAGES[0], 10_000, 'the first stage');
    await controller.cancel();
    await waitUntil(async () => (await controller.snapshot()).status === 'cancelled', 10_000, 'the cancellation');
    await controller.cancel();
    expect((await controller.snapshot()).status).toBe('cancelled');
    await exec.close();
  });
});

describe('trigger-elicitation-request-async and trigger-sampling-request-async', () => {
  it('trigger-elicitation-request-async: input_required carries the form; tasks/update answers it; the task completes with a summary', async () => {
    const exec = await tasks.session.callTool('trigger-elicitation-request-async', {}, required);
    expect(exec.kind).toBe('task');
    const result = resultFromTaskOutcome((await exec.settle()).outcome) as ToolResult;
    expect(result.structuredContent).toMatchObject({ action: 'accept', content: { name: 'Ada Lovelace', email: 'ada@example.com' } });
    expect(String(result.structuredContent?.summary)).toMatch(/^The user answered: name="Ada Lovelace"/);
  });

  it('trigger-sampling-request-async: input_required carries the sampling request; the task completes with the model text', async () => {
    const exec = await tasks.session.callTool('trigger-sampling-request-async', { prompt: 'Summarise tides', maxTokens: 64 }, required);
    const result = resultFromTaskOutcome((await exec.settle()).outcome) as ToolResult;
    expect(result.structuredContent).toEqual({ model: 'test-model', text: ANSWER_TEXT, asks: 1 });
    expect(tasks.v2.answers.asked.at(-1)).toMatchObject({ method: 'sampling/createMessage', params: { maxTokens: 64 } });
  });

  it('a tasks/update over 64 KiB is refused with -32602, one for a request not outstanding is ignored, and the task keeps waiting for a fitting one', async () => {
    const wire = connectWire2026({ url: server.mcpUrl }, { capabilities: { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } } });
    const created = await wire.request('tools/call', { name: 'trigger-elicitation-request-async', arguments: {} });
    expect(created.resultType).toBe('task');
    const controller = tasks.session.task(String(created.taskId) as never);
    const waiting = await waitUntil(async () => {
      const view = await controller.snapshot();
      return view.status === 'input_required' ? view : undefined;
    }, 10_000, 'input_required');
    const key = Object.keys((waiting.raw.inputRequests ?? {}) as object)[0] as string;
    const huge = { [key]: { action: 'accept', content: { name: 'x'.repeat(70_000), email: 'a@b.example' } } };
    const err = await rejection(controller.updateJson(huge));
    expect(err.code).toBe(-32602);
    expect(err.data).toMatchObject({ field: 'inputResponses', reason: 'too large', limitBytes: 65_536 });
    expect((await controller.snapshot()).status).toBe('input_required');
    // An answer to a request that is not outstanding is ignored.
    await controller.updateJson({ 'never-asked': { action: 'accept', content: { name: 'Nobody' } } });
    expect((await controller.snapshot()).status).toBe('input_required');
    await controller.updateJson({ [key]: { action: 'accept', content: { name: 'Small', email: 'small@example.com' } } });
    await waitUntil(async () => (await controller.snapshot()).status === 'completed', 10_000, 'the task to complete');
    const done = await wire.request('tasks/get', { taskId: created.taskId });
    expect((done.result as ToolResult).structuredContent).toMatchObject({ action: 'accept', content: { name: 'Small' } });
  });
});

describe('refusals', () => {
  it('a task tool whose client lacks the capability it asks with is refused with -32021 before any task exists', async () => {
    const noSampling = await taskClient(server.mcpUrl, { elicitation: { form: {} } });
    const noForm = await taskClient(server.mcpUrl, { sampling: {} });
    try {
      const sampling = await rejection(noSampling.session.callTool('trigger-sampling-request-async', { prompt: 'x' }, required));
      expect([sampling.code, sampling.data?.requiredCapabilities]).toEqual([-32021, { sampling: {} }]);
      const form = await rejection(noForm.session.callTool('trigger-elicitation-request-async', {}, required));
      expect([form.code, form.data?.requiredCapabilities]).toEqual([-32021, { elicitation: { form: {} } }]);
      expect(noSampling.v2.answers.asked).toEqual([]);
    } finally {
      await noSampling.close();
      await noForm.close();
    }
  });

  it('a client that does not declare the extension gets -32021 for a task tool and for tasks/*', async () => {
    const plain = await v2Http(server.mcpUrl, { elicitation: { form: {} }, sampling: {} });
    try {
      const err = await rejection(plain.client.callTool({ name: 'simulate-research-query', arguments: { topic: 'x' } }));
      expect(err.code).toBe(-32021);
      expect(err.data?.requiredCapabilities).toMatchObject({ extensions: { [TASKS_EXTENSION]: {} } });
    } finally {
      await plain.close();
    }
    const wire = connectWire2026({ url: server.mcpUrl });
    expect((await rejection(wire.request('tasks/get', { taskId: '00000000-0000-4000-8000-000000000000' }))).code).toBe(-32021);
  });

  it('an unknown task is -32602', async () => {
    const err = await rejection(tasks.session.task('00000000-0000-4000-8000-000000000000' as never).snapshot());
    expect(err.code).toBe(-32602);
  });
});

describe('the task cap', () => {
  it('keeps at most 100 tasks: past it a new task is refused with a tool error', async () => {
    // Running tasks count as calls in flight (mcp.rateLimit.maxConcurrentPerSubject, 32 by default): lifted here to reach the task cap.
    const own = await startEverything({ MCP_MAX_CONCURRENT_PER_SUBJECT: '0' }, 'everything-cap');
    try {
      const wire = connectWire2026({ url: own.mcpUrl }, { capabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
      for (let i = 0; i < 100; i++) {
        const created = await wire.request('tools/call', { name: 'simulate-research-query', arguments: { topic: `t${i}` } });
        expect(created.resultType, `task ${i}`).toBe('task');
      }
      const refused = (await wire.request('tools/call', { name: 'simulate-research-query', arguments: { topic: 'one too many' } })) as ToolResult & { resultType?: string };
      expect(refused.resultType).not.toBe('task');
      expect(refused.isError).toBe(true);
    } finally {
      await own.stop();
    }
  }, 90_000);
});
