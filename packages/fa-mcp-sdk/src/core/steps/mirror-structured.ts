import type { PipelineStep } from '../pipeline.js';
import type { IContentBlock, IToolHandlerStructuredResponse } from '../types.js';

/**
 * Whenever a result has `structuredContent`, a serialized copy stands in
 * `content[0].text`, for clients that read only `content`.
 */
export function mirrorStructuredStep(): PipelineStep {
  return {
    name: 'mirror-structured',
    methods: ['tools/call'],
    // A then, not async/await: one promise per call instead of two.
    run(_op, next) {
      return next().then((result) => mirrorStructured(result as IToolHandlerStructuredResponse));
    },
  };
}

export function mirrorStructured(result: IToolHandlerStructuredResponse): IToolHandlerStructuredResponse {
  if (result.structuredContent === undefined) return result;
  const json = JSON.stringify(result.structuredContent);
  const content: IContentBlock[] = Array.isArray(result.content) ? result.content : [];
  const first = content[0];
  if (first && first.type === 'text' && first.text === json) return result;
  // A copy whose content is replaced (not `{ ...result, content }`: SPREAD_FIRST in protocol/client-channel.ts).
  const mirrored = { ...result };
  mirrored.content = [{ type: 'text', text: json }, ...content.filter((c) => !(c.type === 'text' && c.text === json))];
  return mirrored;
}
