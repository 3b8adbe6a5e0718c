/**
 * get-annotated-message (both eras): a text block whose annotations (priority, audience) follow
 * the message type, and optionally an annotated image.
 */
import { formatContentResult, type IContentBlock } from 'fa-mcp-sdk';
import { defineTool } from './define.js';
import { TINY_PNG_BASE64 } from './tiny-image.js';

const MESSAGES = {
  error: { text: 'Error: Operation failed', annotations: { priority: 1.0, audience: ['user', 'assistant'] } },
  success: { text: 'Operation completed successfully', annotations: { priority: 0.7, audience: ['user'] } },
  debug: { text: 'Debug: Cache hit ratio 0.95, latency 150ms', annotations: { priority: 0.3, audience: ['assistant'] } },
} as const;

export const getAnnotatedMessage = defineTool('both', {
  name: 'get-annotated-message',
  title: 'Get annotated message',
  description: 'Returns a text message annotated with priority and audience by messageType (error, success or debug), optionally with an annotated image.',
  annotations: { readOnlyHint: true, openWorldHint: false },
  inputSchema: {
    type: 'object',
    properties: {
      messageType: { type: 'string', enum: ['error', 'success', 'debug'], description: 'Type of message, which decides its annotations' },
      includeImage: { type: 'boolean', default: false, description: 'Whether to include an example image' },
    },
    required: ['messageType'],
    additionalProperties: false,
  },
  handler: ({ arguments: args }) => {
    const message = MESSAGES[args.messageType as keyof typeof MESSAGES];
    const blocks: IContentBlock[] = [{ type: 'text', text: message.text, annotations: { ...message.annotations, audience: [...message.annotations.audience] } }];
    if (args.includeImage === true) {
      blocks.push({ type: 'image', data: TINY_PNG_BASE64, mimeType: 'image/png', annotations: { priority: 0.5, audience: ['user'] } });
    }
    return formatContentResult(blocks);
  },
});
