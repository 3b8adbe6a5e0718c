/**
 * slow_report: a long-running tool. It reports progress after each step
 * (sendProgress is a no-op when the client asked for none), logs to the client,
 * and stops as soon as its signal aborts (client cancellation or tool timeout).
 */
import { formatToolResult, type ITool } from 'fa-mcp-sdk';

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export const slowReportTool: ITool = {
  name: 'slow_report',
  title: 'Slow report',
  description: 'Builds a report in several timed steps, sending a progress notification after each. Cancellable.',
  // Read-only, so running it again is harmless: a task of it (mcp.tasks.enabled) whose instance stopped
  // is re-run by another instance instead of failing (FA-MCP-SDK-DOC/06, graceful shutdown).
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  execution: { taskSupport: 'optional' },
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      steps: { type: 'integer', minimum: 1, maximum: 50, default: 5, description: 'Number of steps (1-50).' },
      stepMs: { type: 'integer', minimum: 10, maximum: 5000, default: 200, description: 'Duration of one step in ms.' },
    },
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      steps: { type: 'integer' },
      durationMs: { type: 'integer' },
      lines: { type: 'array', items: { type: 'string' } },
    },
    required: ['steps', 'durationMs', 'lines'],
  },
  handler: async ({ arguments: args, signal, sendProgress, client }) => {
    const steps = typeof args.steps === 'number' ? args.steps : 5;
    const stepMs = typeof args.stepMs === 'number' ? args.stepMs : 200;
    const started = Date.now();
    const lines: string[] = [];
    await client.log('info', { tool: 'slow_report', steps, stepMs }, 'fa-mcp-demo');
    for (let i = 1; i <= steps; i++) {
      await sleep(stepMs, signal);
      lines.push(`section ${i} of ${steps} done`);
      sendProgress(i, steps, `section ${i} of ${steps}`);
    }
    return formatToolResult({ steps, durationMs: Date.now() - started, lines });
  },
};
