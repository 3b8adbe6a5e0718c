/** echo (both eras): echoes the message. */
import { formatToolResult } from 'fa-mcp-sdk';
import { defineTool } from './define.js';

export const echo = defineTool('both', {
  name: 'echo',
  title: 'Echo',
  description: 'Echoes back the input message.',
  annotations: { readOnlyHint: true, openWorldHint: false },
  inputSchema: {
    type: 'object',
    properties: { message: { type: 'string', description: 'Message to echo' } },
    required: ['message'],
    additionalProperties: false,
  },
  handler: ({ arguments: args }) => formatToolResult(`Echo: ${String(args.message)}`),
});
