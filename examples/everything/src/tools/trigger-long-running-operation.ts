/**
 * trigger-long-running-operation (both eras): a multi-step operation over a given duration that
 * reports progress after each step (when the client sent a progressToken). A cancelled call
 * clears its timer at once and sends no further progress.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { formatToolResult } from 'fa-mcp-sdk';
import { defineTool } from './define.js';

export const triggerLongRunningOperation = defineTool('both', {
  name: 'trigger-long-running-operation',
  title: 'Trigger long-running operation',
  description: 'Simulates an operation of several steps over a duration, with progress notifications; honours cancellation.',
  annotations: { readOnlyHint: true, openWorldHint: false },
  timeoutMs: 310_000,
  inputSchema: {
    type: 'object',
    properties: {
      duration: { type: 'number', exclusiveMinimum: 0, maximum: 300, default: 10, description: 'Duration of the operation in seconds' },
      steps: { type: 'integer', minimum: 1, maximum: 100, default: 5, description: 'Number of steps in the operation' },
    },
    additionalProperties: false,
  },
  handler: async ({ arguments: args, sendProgress, signal }) => {
    const duration = typeof args.duration === 'number' ? args.duration : 10;
    const steps = typeof args.steps === 'number' ? args.steps : 5;
    const stepMs = (duration * 1000) / steps;
    for (let i = 1; i <= steps; i++) {
      // Aborted with the call: the timer is cleared and the loop sends nothing more.
      await sleep(stepMs, undefined, { signal });
      sendProgress(i, steps, `Step ${i} of ${steps}`);
    }
    return formatToolResult(`Long running operation completed. Duration: ${duration} seconds, Steps: ${steps}.`);
  },
});
