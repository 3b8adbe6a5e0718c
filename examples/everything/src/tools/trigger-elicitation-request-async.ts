/**
 * trigger-elicitation-request-async (2026-07-28, a task): the task's input_required status
 * carries a form elicitation, the client answers with tasks/update, and the task completes with
 * a summary. A client that does not declare the tasks extension and form-mode elicitation is
 * refused with -32021 before any task exists.
 */
import { formatToolResult } from 'fa-mcp-sdk';
import { defineTool } from './define.js';
import { EVERY_FIELD_FORM, EVERY_FIELD_MESSAGE, summariseReply } from './elicitation-form.js';

export const triggerElicitationRequestAsync = defineTool('2026', {
  name: 'trigger-elicitation-request-async',
  title: 'Trigger elicitation request (task)',
  description: 'Runs as a task whose input_required status carries a form elicitation; answer it with tasks/update and the task completes with a summary.',
  annotations: { readOnlyHint: true, openWorldHint: false },
  execution: { taskSupport: 'required', requiredClientCapabilities: { elicitation: { form: {} } } },
  timeoutMs: 600_000,
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  handler: async ({ client }) => {
    const reply = await client.elicit({ mode: 'form', message: EVERY_FIELD_MESSAGE, requestedSchema: EVERY_FIELD_FORM });
    return formatToolResult({ action: String(reply.action), content: (reply.content ?? null) as Record<string, unknown> | null, summary: summariseReply(reply) });
  },
});
