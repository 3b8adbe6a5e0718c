/**
 * One serialization of a tool result for the size cap and the metrics step:
 * the cap measures it, the metrics step records the size of the same object
 * without serializing it again, and what it records is the result's real size
 * (also when the cap had to cut it).
 */
import { describe, expect, it } from 'vitest';
import { Pipeline } from '../../../src/core/pipeline.js';
import { capResultStep, TRUNCATION_MARKER } from '../../../src/core/steps/cap-result.js';
import { toolMetricsStep } from '../../../src/core/steps/tool-metrics.js';
import type { ToolCallRecord } from '../../../src/core/telemetry.js';
import type { IToolHandlerStructuredResponse, ITool } from '../../../src/core/types.js';
import { makeOp } from '../helpers.js';

const tool: ITool = { name: 'echo', description: 'e', inputSchema: { type: 'object' } };

function pipelineWith(maxBytes: number) {
  const records: ToolCallRecord[] = [];
  const pipeline = new Pipeline([
    toolMetricsStep({ recorder: { toolCall: (r) => records.push(r) }, isRegistered: async () => true }),
    capResultStep(() => maxBytes),
  ]);
  return { pipeline, records };
}

/** A result whose serializations are counted (JSON.stringify calls toJSON of its structuredContent). */
function countedResult(text: string): { result: IToolHandlerStructuredResponse; serialized: () => number } {
  let n = 0;
  const structured = { echoed: text, toJSON: () => (n++, { echoed: text }) };
  return { result: { content: [{ type: 'text', text }], structuredContent: structured as unknown as Record<string, unknown> }, serialized: () => n };
}

describe('result sizes shared by the cap and the metrics step', () => {
  it('a result is serialized once for both, and the metrics step records its real size', async () => {
    const { pipeline, records } = pipelineWith(1_000_000);
    const { result, serialized } = countedResult('hello');
    const op = makeOp({ name: 'echo', arguments: { text: 'hello' } }, { tool });
    expect(await pipeline.run(op, async () => result)).toBe(result);
    expect(serialized()).toBe(1);
    expect(records).toHaveLength(1);
    expect(records[0]?.resultBytes).toBe(Buffer.byteLength(JSON.stringify(result)));
  });

  it('a cut result is recorded with the size of what goes out', async () => {
    const { pipeline, records } = pipelineWith(2_048);
    const big: IToolHandlerStructuredResponse = { content: [{ type: 'text', text: 'x'.repeat(10_000) }] };
    const out = (await pipeline.run(makeOp({ name: 'echo' }, { tool }), async () => big)) as IToolHandlerStructuredResponse;
    expect(out.content.at(-1)).toEqual({ type: 'text', text: TRUNCATION_MARKER });
    expect(records[0]?.resultBytes).toBe(Buffer.byteLength(JSON.stringify(out)));
    expect(records[0]?.resultBytes).toBeLessThanOrEqual(2_048);
  });

  it('a result that cannot be serialized still fails the call (as without the shared sizes) and is counted without a size', async () => {
    const { pipeline, records } = pipelineWith(1_000_000);
    const cyclic: Record<string, unknown> = { content: [] };
    cyclic.self = cyclic;
    await expect(pipeline.run(makeOp({ name: 'echo' }, { tool }), async () => cyclic)).rejects.toThrow(/circular/i);
    expect(records).toHaveLength(1);
    expect(records[0]?.resultBytes).toBeUndefined();
  });
});
