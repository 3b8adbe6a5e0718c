/**
 * trigger-multi-step-elicitation (both eras): asks for a name, then for a favourite colour
 * addressed by that name. On 2026-07-28 each question is an input_required round, and the first
 * answer travels to the second round in the signed requestState (the framework signs it with
 * HMAC and refuses a tampered or expired one with -32602). A blank name, or a colour that is not
 * a choice, is asked again (a new key each time: name, name-2, ...).
 */
import { formatToolError, formatToolResult, type IClientChannel, type JsonObject } from 'fa-mcp-sdk';
import { defineTool } from './define.js';

export const COLORS = ['red', 'orange', 'yellow', 'green', 'blue', 'purple'];
const MAX_ASKS = 3;

type Asked = { value: string } | { stopped: string };

/** Asks `field` until `accept` takes the answer (at most MAX_ASKS times). */
async function askUntil(client: IClientChannel, field: string, message: (attempt: number) => string, schema: JsonObject, accept: (v: string) => string | undefined): Promise<Asked> {
  for (let attempt = 1; attempt <= MAX_ASKS; attempt++) {
    const reply = await client.elicit(
      { mode: 'form', message: message(attempt), requestedSchema: { type: 'object', properties: { [field]: schema }, required: [field] } },
      { key: field },
    );
    if (reply.action !== 'accept') return { stopped: String(reply.action) };
    const value = accept(String((reply.content as Record<string, unknown> | undefined)?.[field] ?? ''));
    if (value !== undefined) return { value };
  }
  return { stopped: `no usable ${field} after ${MAX_ASKS} tries` };
}

export const triggerMultiStepElicitation = defineTool('both', {
  name: 'trigger-multi-step-elicitation',
  title: 'Trigger multi-step elicitation',
  description: 'Asks for your name, then for your favourite colour addressed by name; the first answer is carried to the second round in the signed requestState (2026-07-28).',
  annotations: { readOnlyHint: true, openWorldHint: false },
  execution: { requiredClientCapabilities: { elicitation: { form: {} } } },
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  handler: async ({ client }) => {
    const name = await askUntil(
      client,
      'name',
      (n) => (n === 1 ? 'What is your name?' : 'A name cannot be blank. What is your name?'),
      { type: 'string', title: 'Name' },
      (v) => v.trim() || undefined,
    );
    if ('stopped' in name) return formatToolError(`Stopped at the name: ${name.stopped}.`);
    const color = await askUntil(
      client,
      'color',
      (n) => `${n === 1 ? '' : 'That is not one of the choices. '}${name.value}, what is your favourite colour (${COLORS.join(', ')})?`,
      { type: 'string', title: 'Favourite colour', description: `One of ${COLORS.join(', ')}` },
      (v) => (COLORS.includes(v.trim().toLowerCase()) ? v.trim().toLowerCase() : undefined),
    );
    if ('stopped' in color) return formatToolError(`Stopped at the colour: ${color.stopped}.`);
    return formatToolResult({ name: name.value, color: color.value, message: `Nice to meet you, ${name.value}: ${color.value} it is.`, resumed: client.resumed });
  },
});
