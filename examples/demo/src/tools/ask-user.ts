/**
 * ask_user: asks the person behind the client a question through elicitation
 * (a server-to-client request sent while the tool call is running).
 */
import { formatToolResult, ToolExecutionError, type ITool } from 'fa-mcp-sdk';

export const askUserTool: ITool = {
  name: 'ask_user',
  title: 'Ask the user',
  description: 'Asks the user a question through the client (elicitation) and returns the answer.',
  annotations: { readOnlyHint: true, openWorldHint: true },
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      question: { type: 'string', minLength: 1, maxLength: 500, description: 'The question to show to the user.' },
    },
    required: ['question'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      action: { type: 'string', enum: ['accept', 'decline', 'cancel'] },
      answer: { type: 'string' },
    },
    required: ['action'],
  },
  handler: async ({ arguments: args, client, clientCapabilities }) => {
    if (!clientCapabilities.elicitation) {
      throw new ToolExecutionError('This client does not support elicitation, so the question cannot be asked.');
    }
    const reply = await client.elicit({
      mode: 'form',
      message: String(args.question),
      requestedSchema: {
        type: 'object',
        properties: { answer: { type: 'string', title: 'Answer' } },
        required: ['answer'],
      },
    });
    const action = typeof reply.action === 'string' ? reply.action : 'cancel';
    const content = reply.content as { answer?: unknown } | undefined;
    const answer = action === 'accept' && typeof content?.answer === 'string' ? content.answer : undefined;
    return formatToolResult(answer === undefined ? { action } : { action, answer });
  },
};
