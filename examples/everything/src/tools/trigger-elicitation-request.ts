/**
 * trigger-elicitation-request (both eras): asks for a form of every field type and returns the
 * action and content. 2025-era: a real elicitation/create request; 2026-07-28: an
 * input_required round. Needs form-mode elicitation (refused up front with -32021 otherwise).
 */
import { formatToolResult } from 'fa-mcp-sdk';
import { defineTool } from './define.js';
import { EVERY_FIELD_FORM, EVERY_FIELD_MESSAGE } from './elicitation-form.js';

export const triggerElicitationRequest = defineTool('both', {
  name: 'trigger-elicitation-request',
  title: 'Trigger elicitation request',
  description: 'Asks the user for a form of every field type form-mode elicitation supports, and returns the action and content.',
  annotations: { readOnlyHint: true, openWorldHint: false },
  execution: { requiredClientCapabilities: { elicitation: { form: {} } } },
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  handler: async ({ client }) => {
    const reply = await client.elicit({ mode: 'form', message: EVERY_FIELD_MESSAGE, requestedSchema: EVERY_FIELD_FORM }, { key: 'form' });
    return formatToolResult({ action: String(reply.action), content: (reply.content ?? null) as Record<string, unknown> | null });
  },
});
