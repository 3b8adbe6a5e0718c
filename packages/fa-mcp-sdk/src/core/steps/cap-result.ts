import type { PipelineStep } from '../pipeline.js';
import type { IContentBlock, IToolHandlerStructuredResponse } from '../types.js';

export const TRUNCATION_MARKER = '[TRUNCATED by fa-mcp-sdk: the tool result exceeded mcp.limits.maxToolResultBytes]';

/**
 * Keeps a serialized tool result under `maxToolResultBytes`. An oversized result
 * is cut visibly: text blocks are shortened and end with the marker, blocks that
 * no longer fit are dropped, and `_meta` says what happened.
 */
export function capResultStep(maxBytes: () => number): PipelineStep {
  return {
    name: 'cap-result',
    methods: ['tools/call'],
    async run(_op, next) {
      const result = (await next()) as IToolHandlerStructuredResponse;
      return capResult(result, maxBytes());
    },
  };
}

export function capResult(result: IToolHandlerStructuredResponse, maxBytes: number): IToolHandlerStructuredResponse {
  const original = Buffer.byteLength(JSON.stringify(result));
  if (original <= maxBytes) return result;
  // Leave room for the envelope, the marker and _meta.
  let budget = Math.max(0, maxBytes - 512);
  const content: IContentBlock[] = [];
  for (const block of result.content ?? []) {
    const size = Buffer.byteLength(JSON.stringify(block));
    if (size <= budget) {
      content.push(block);
      budget -= size;
      continue;
    }
    if (block.type === 'text' && budget > 64) {
      content.push({ type: 'text', text: truncateUtf8(block.text, budget - 64) });
    }
    budget = 0;
    break;
  }
  content.push({ type: 'text', text: TRUNCATION_MARKER });
  const capped: IToolHandlerStructuredResponse = {
    content,
    _meta: { ...(result._meta ?? {}), 'fa-mcp/truncated': { originalBytes: original, maxBytes } },
  };
  if (result.isError) capped.isError = true;
  return capped;
}

function truncateUtf8(text: string, maxBytes: number): string {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= maxBytes) return text;
  let end = maxBytes;
  // back off to a character boundary
  while (end > 0 && ((buf[end] ?? 0) & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString('utf8');
}
