import type { PipelineStep } from '../pipeline.js';
import { resultSize } from '../result-size.js';
import type { IContentBlock, IToolHandlerStructuredResponse } from '../types.js';

export const TRUNCATION_MARKER = '[TRUNCATED by fa-mcp-sdk: the tool result exceeded mcp.limits.maxToolResultBytes]';

/**
 * Keeps a serialized tool result under `maxToolResultBytes`. An oversized result
 * is cut visibly: text blocks are shortened, blocks that no longer fit are
 * dropped, the marker ends the content, and `_meta` says what happened (`structuredContent`
 * does not survive a cut; the handler's `_meta` does while it is small).
 * The measurement is kept for the metrics step (result-size.ts).
 */
export function capResultStep(maxBytes: () => number): PipelineStep {
  return {
    name: 'cap-result',
    methods: ['tools/call'],
    // A then, not async/await: one promise per call instead of two.
    run(op, next) {
      return next().then((result) => capResult(result as IToolHandlerStructuredResponse, maxBytes(), resultSize(op, result)));
    },
  };
}

/** `measured`: the result's size when the caller measured it already. */
export function capResult(result: IToolHandlerStructuredResponse, maxBytes: number, measured?: number): IToolHandlerStructuredResponse {
  const original = measured ?? Buffer.byteLength(JSON.stringify(result));
  if (original <= maxBytes) return result;
  const marker: IContentBlock = { type: 'text', text: TRUNCATION_MARKER };
  const truncated = { 'fa-mcp/truncated': { originalBytes: original, maxBytes } };
  // The handler's _meta is kept when it leaves room for the marker; otherwise it goes too.
  const withHandlerMeta: Record<string, unknown> = { ...(result._meta ?? {}), ...truncated };
  const metaFits = Buffer.byteLength(JSON.stringify({ content: [marker], _meta: withHandlerMeta, isError: true })) <= maxBytes / 2;
  const meta: Record<string, unknown> = metaFits ? withHandlerMeta : truncated;
  const sizeOf = (content: IContentBlock[]) =>
    Buffer.byteLength(JSON.stringify({ content, _meta: meta, ...(result.isError ? { isError: true } : {}) }));
  const content: IContentBlock[] = [];
  for (const block of result.content ?? []) {
    if (sizeOf([...content, block, marker]) <= maxBytes) {
      content.push(block);
      continue;
    }
    if (block.type === 'text') {
      const cut = largestFittingPrefix(block.text, (text) => sizeOf([...content, { type: 'text', text }, marker]) <= maxBytes);
      if (cut.length > 0) content.push({ type: 'text', text: cut });
    }
    break;
  }
  content.push(marker);
  const capped: IToolHandlerStructuredResponse = { content, _meta: meta };
  if (result.isError) capped.isError = true;
  return capped;
}

/** The longest prefix of `text` (on a character boundary) that `fits`; binary search over UTF-16 code units. */
function largestFittingPrefix(text: string, fits: (prefix: string) => boolean): string {
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(safeSlice(text, mid))) lo = mid;
    else hi = mid - 1;
  }
  return safeSlice(text, lo);
}

/** Slices without splitting a surrogate pair. */
function safeSlice(text: string, end: number): string {
  const code = text.charCodeAt(end - 1);
  return code >= 0xd800 && code <= 0xdbff ? text.slice(0, end - 1) : text.slice(0, end);
}
