/**
 * say_hello: greets someone. Shows the shape of a tool: its definition and its handler in one
 * file, an input schema the framework checks before the handler runs (a bad call answers a
 * tool result with isError naming the field, for the model to correct), and an output schema
 * its structured result must match.
 */
import { formatToolResult, type ITool } from 'fa-mcp-sdk';
import type { CustomConfig } from '../custom-config.js';

export function sayHelloTool(settings: CustomConfig['app']): ITool {
  return {
    name: 'say_hello',
    title: 'Say hello',
    description: 'Greets someone by name. The greeting word comes from app.greeting in the configuration.',
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 100, description: 'Who to greet.' },
      },
      required: ['name'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: { greeting: { type: 'string' } },
      required: ['greeting'],
      additionalProperties: false,
    },
    // The arguments have been checked against inputSchema: the cast only restates it for TypeScript.
    handler: ({ arguments: args }) => formatToolResult({ greeting: `${settings.greeting}, ${args.name as string}!` }),
  };
}
