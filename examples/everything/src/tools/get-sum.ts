/** get-sum (both eras): the sum of two numbers. */
import { formatToolResult } from 'fa-mcp-sdk';
import { defineTool } from './define.js';

export const getSum = defineTool('both', {
  name: 'get-sum',
  title: 'Get sum',
  description: 'Returns the sum of two numbers.',
  annotations: { readOnlyHint: true, openWorldHint: false },
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number', description: 'First number' }, b: { type: 'number', description: 'Second number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  handler: ({ arguments: args }) => {
    const a = args.a as number;
    const b = args.b as number;
    return formatToolResult(`The sum of ${a} and ${b} is ${a + b}.`);
  },
});
