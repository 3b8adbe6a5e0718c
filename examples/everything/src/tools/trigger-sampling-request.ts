/**
 * trigger-sampling-request (both eras): asks the client's model for a completion of the prompt
 * and returns its response payload. 2025-era: sampling/createMessage; 2026-07-28: an
 * input_required round. Needs the sampling capability (-32021 up front otherwise).
 */
import { formatToolResult, type JsonObject } from 'fa-mcp-sdk';
import { defineTool, DEPRECATED } from './define.js';

/** The sampling request of a prompt, shared with trigger-sampling-request-async. */
export function samplingParams(prompt: string, maxTokens: number): JsonObject {
  return {
    messages: [{ role: 'user', content: { type: 'text', text: `Resource trigger-sampling-request context: ${prompt}` } }],
    systemPrompt: 'You are a helpful test server.',
    maxTokens,
    temperature: 0.7,
  };
}

export const SAMPLING_INPUT = {
  type: 'object' as const,
  properties: {
    prompt: { type: 'string', minLength: 1, description: 'The prompt to send to the LLM' },
    maxTokens: { type: 'integer', minimum: 1, maximum: 10_000, default: 100, description: 'Maximum number of tokens to generate' },
  },
  required: ['prompt'],
  additionalProperties: false,
};

export const triggerSamplingRequest = defineTool('both', {
  name: 'trigger-sampling-request',
  title: 'Trigger sampling request',
  description: `Asks the client's LLM for a completion of the prompt and returns the response. ${DEPRECATED}`,
  annotations: { readOnlyHint: true, openWorldHint: true },
  execution: { requiredClientCapabilities: { sampling: {} } },
  inputSchema: SAMPLING_INPUT,
  handler: async ({ arguments: args, client }) => {
    const maxTokens = typeof args.maxTokens === 'number' ? args.maxTokens : 100;
    const result = await client.sample(samplingParams(String(args.prompt), maxTokens), { key: 'sampling' });
    return formatToolResult(`LLM sampling result: ${JSON.stringify(result)}`);
  },
});
