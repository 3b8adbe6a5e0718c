/**
 * Webhooks through a running server: a tool handler's `webhooks.send` queues
 * an event the receiver verifies, on both protocol eras; the framework's task
 * events (completed, failed, cancelled, with the task id and tool); metrics;
 * and no secret in /health or in what the config shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatToolResult, ToolExecutionError, type McpServerData } from '../../src/index.js';
import { ALL_TARGETS, startTestServer, startWebhookReceiver, type TestServer, type WebhookReceiver } from '../../src/testing/index.js';
import { newSecret, until } from './webhook-harness.js';

const AnyResult = z.record(z.string(), z.unknown());
const CreateTaskResult = z.object({ task: z.object({ taskId: z.string() }).passthrough() }).passthrough();

const data: McpServerData = {
  tools: [
    {
      name: 'notify',
      description: 'Sends an event.',
      inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      handler: async ({ arguments: a, webhooks }) => formatToolResult(await webhooks.send('thing.happened', { n: a.n }, { idempotencyKey: `thing-${String(a.n)}` })),
    },
    {
      name: 'job',
      description: 'A long job.',
      inputSchema: { type: 'object', properties: { ms: { type: 'integer' }, fail: { type: 'boolean' } }, required: ['ms'] },
      execution: { taskSupport: 'optional' },
      handler: async ({ arguments: a, signal }) => {
        await new Promise<void>((resolve, reject) => {
          const t = setTimeout(resolve, a.ms as number);
          signal.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)));
        });
        if (a.fail) throw new ToolExecutionError('the job broke');
        return formatToolResult('done');
      },
    },
  ],
};

for (const target of [ALL_TARGETS.find((t) => t.label === 'http-session/2025')!, ALL_TARGETS.find((t) => t.label === 'http/2026')!]) {
  describe(`webhooks on ${target.label}`, () => {
    const secret = newSecret();
    let receiver: WebhookReceiver;
    let s: TestServer;
    beforeAll(async () => {
      receiver = await startWebhookReceiver({ secret });
      s = await startTestServer(data, {
        target,
        config: {
          mcp: { tasks: { enabled: true, pollIntervalMs: 50 } },
          webServer: { metrics: { enabled: true } },
          webhooks: { endpoints: [{ name: 'main', url: receiver.url, secret }], taskEvents: true, pollIntervalMs: 20 },
        },
      });
    });
    afterAll(async () => {
      await s.stop();
      await receiver.close();
    });

    it("a handler's webhooks.send: queued before the tool answers, delivered signed", async () => {
      const client = await s.connect();
      const result = await client.callTool({ name: 'notify', arguments: { n: 1 } });
      // The key is the caller's (here the anonymous namespace): the webhook-id is derived from both.
      const queued = result.structuredContent as { id: string; endpoints: string[] };
      expect(queued).toEqual({ id: expect.stringMatching(/^msg_[A-Za-z0-9_-]{43}$/), endpoints: ['main'] });
      const [hook] = await receiver.waitFor((r) => r.some((h) => h.id === queued.id));
      expect(hook).toMatchObject({ id: queued.id, verified: true, payload: { type: 'thing.happened', data: { n: 1 } } });
      const sent = /mcp_webhooks_sent_total\{endpoint="main"\} [1-9]/;
      await until('the sent counter', async () => sent.test(await s.handle.metrics!.registry.metrics()));
      const metrics = await s.handle.metrics!.registry.metrics();
      expect(metrics).toMatch(/mcp_webhooks_delivery_latency_seconds_count\{endpoint="main"\} [1-9]/);
      expect(metrics).toContain('mcp_webhooks_outbox{status="pending"}');
      await client.close();
    });

    if (target.era === '2025') {
      it('sends task.completed, task.failed and task.cancelled with the task id and tool', async () => {
        const client = await s.connect();
        const call = (args: Record<string, unknown>) =>
          client.request({ method: 'tools/call', params: { name: 'job', arguments: args, task: { ttl: 60_000 } } }, CreateTaskResult);
        const ok = await call({ ms: 1 });
        const bad = await call({ ms: 1, fail: true });
        const slow = await call({ ms: 30_000 });
        await client.request({ method: 'tasks/cancel', params: { taskId: slow.task.taskId } }, AnyResult);
        const want = { 'task.completed': ok.task.taskId, 'task.failed': bad.task.taskId, 'task.cancelled': slow.task.taskId };
        const got = await receiver.waitFor((r) => Object.values(want).every((id) => r.some((h) => (h.payload.data as { taskId?: string }).taskId === id)));
        for (const [type, taskId] of Object.entries(want)) {
          const hook = got.find((h) => (h.payload.data as { taskId?: string }).taskId === taskId);
          expect(hook?.payload).toMatchObject({ type, data: { taskId, tool: 'job', subject: null } });
          expect(hook?.verified).toBe(true);
        }
        await client.close();
      });

      it('keeps the secret out of /health', async () => {
        const health = await (await fetch(new URL('/health', s.handle.url))).text();
        expect(health).not.toContain(secret);
        expect(JSON.stringify(s.handle.webhooks?.endpoints)).not.toContain(secret);
      });
    }
  });
}
