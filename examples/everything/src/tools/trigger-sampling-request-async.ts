/**
 * trigger-sampling-request-async (2026-07-28, a task): the task's input_required status carries
 * a sampling request, the client answers with tasks/update, and the task completes with the
 * model's text. An answer without text is asked again, under a new key. A client that does not
 * declare the tasks extension and sampling is refused with -32021 before any task exists.
 */
import { formatToolError, formatToolResult } from 'fa-mcp-sdk';
import { defineTool, DEPRECATED } from './define.js';
import { SAMPLING_INPUT, samplingParams } from './trigger-sampling-request.js';

const MAX_ASKS = 3;

/** The text of a sampling result (content is one block or a list of them), or undefined. */
function textOf(result: Record<string, unknown>): string | undefined {
  const blocks = Array.isArray(result.content) ? result.content : [result.content];
  const texts = blocks.filter((b): b is { type: 'text'; text: string } => !!b && typeof b === 'object' && (b as { type?: unknown }).type === 'text').map((b) => b.text);
  return texts.length ? texts.join('\n') : undefined;
}

export const triggerSamplingRequestAsync = defineTool('2026', {
  name: 'trigger-sampling-request-async',
  title: 'Trigger sampling request (task)',
  description: `Runs as a task whose input_required status carries a sampling request; answer it with tasks/update and the task completes with the result. ${DEPRECATED}`,
  annotations: { readOnlyHint: true, openWorldHint: true },
  execution: { taskSupport: 'required', requiredClientCapabilities: { sampling: {} } },
  timeoutMs: 600_000,
  inputSchema: SAMPLING_INPUT,
  handler: async ({ arguments: args, client }) => {
    const maxTokens = typeof args.maxTokens === 'number' ? args.maxTokens : 100;
    for (let ask = 1; ask <= MAX_ASKS; ask++) {
      const result = await client.sample(samplingParams(String(args.prompt), maxTokens));
      const text = textOf(result);
      if (text !== undefined) return formatToolResult({ model: String(result.model ?? ''), text, asks: ask });
    }
    return formatToolError(`The client answered ${MAX_ASKS} sampling requests without text.`);
  },
});
