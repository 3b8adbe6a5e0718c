/**
 * Records every tool call (outcome, latency, argument and result sizes) with
 * the operations side. Runs first, so calls refused by a limit, by validation
 * or by authorization are counted too.
 */
import type { Operation, PipelineStep } from '../pipeline.js';
import type { ToolCallRecord, ToolCallRecorder } from '../telemetry.js';
import { outcomeOfError, outcomeOfResult, toolLabel } from '../tool-outcome.js';

export interface ToolMetricsStepOptions {
  recorder: ToolCallRecorder;
  /** True when `name` is a tool this caller may call (labels of unknown names become `unknown`). */
  isRegistered: (name: string, op: Operation) => Promise<boolean>;
}

export function toolMetricsStep(opts: ToolMetricsStepOptions): PipelineStep {
  return {
    name: 'tool-metrics',
    methods: ['tools/call'],
    async run(op, next) {
      const started = performance.now();
      const argumentsBytes = byteSize(op.params.arguments ?? {});
      let entry: Omit<ToolCallRecord, 'tool'>;
      try {
        const result = await next();
        entry = { outcome: outcomeOfResult(op, result), durationMs: performance.now() - started, argumentsBytes, resultBytes: byteSize(result) };
        return result;
      } catch (err) {
        entry = { outcome: outcomeOfError(op, err), durationMs: performance.now() - started, argumentsBytes };
        if (entry.outcome === 'rate_limited') entry.limit = isConcurrencyRefusal(err) ? 'concurrency' : 'window';
        throw err;
      } finally {
        // Recording never fails the call; a resolved tool is labelled at once, others after a registry lookup.
        const save = (tool: string) => {
          try {
            opts.recorder.toolCall({ tool, ...entry! });
          } catch {
            /* a broken recorder must not break tool calls */
          }
        };
        if (op.tool) save(op.tool.name);
        else void toolLabel(op, opts.isRegistered).then(save);
      }
    },
  };
}

function byteSize(value: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(value) ?? '');
  } catch {
    return 0;
  }
}

function isConcurrencyRefusal(err: unknown): boolean {
  const data = (err as { data?: Record<string, unknown> } | undefined)?.data;
  return !!data && 'maxConcurrent' in data;
}
