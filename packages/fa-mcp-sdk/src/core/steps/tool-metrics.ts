/**
 * Records every tool call (outcome, latency, argument and result sizes) with
 * the operations side. Runs first, so calls refused by a limit, by validation
 * or by authorization are counted too.
 */
import type { Operation, PipelineStep } from '../pipeline.js';
import { resultSize } from '../result-size.js';
import type { ToolCallRecord, ToolCallRecorder } from '../telemetry.js';
import { outcomeOfError, outcomeOfResult, toolLabel } from '../tool-outcome.js';

export interface ToolMetricsStepOptions {
  recorder: ToolCallRecorder;
  /** True when `name` is a tool this caller may call (labels of unknown names become `unknown`). */
  isRegistered: (name: string, op: Operation) => Promise<boolean>;
}

export function toolMetricsStep(opts: ToolMetricsStepOptions): PipelineStep {
  const { recorder } = opts;
  // The size the cap step measured (result-size.ts): a result it saw is not serialized again.
  const sizeOf = (op: Operation, result: unknown): number => {
    try {
      return resultSize(op, result);
    } catch {
      return 0;
    }
  };
  // Recording never fails the call; a resolved tool is labelled at once, others after a registry lookup.
  const save = (op: Operation, record: ToolCallRecord): void => {
    if (op.tool) {
      record.tool = op.tool.name;
      safeRecord(recorder, record);
      return;
    }
    void toolLabel(op, opts.isRegistered).then((tool) => {
      record.tool = tool;
      safeRecord(recorder, record);
    });
  };
  return {
    name: 'tool-metrics',
    methods: ['tools/call'],
    // Thens, not async/await: one promise per call instead of two (every tool call comes through here).
    run(op, next) {
      const started = performance.now();
      const argumentsBytes = byteSize(op.params.arguments ?? {});
      const failed = (err: unknown): Promise<never> => {
        const outcome = outcomeOfError(op, err);
        const record: ToolCallRecord = { tool: UNLABELLED, outcome, durationMs: performance.now() - started, argumentsBytes };
        if (outcome === 'rate_limited') record.limit = isConcurrencyRefusal(err) ? 'concurrency' : 'window';
        save(op, record);
        return Promise.reject(err);
      };
      let running: Promise<unknown>;
      try {
        running = next();
      } catch (err) {
        return failed(err);
      }
      return running.then((result) => {
        save(op, { tool: UNLABELLED, outcome: outcomeOfResult(op, result), durationMs: performance.now() - started, argumentsBytes, resultBytes: sizeOf(op, result) });
        return result;
      }, failed);
    },
  };
}

/** The label a record carries until `save` gives it the tool's. */
const UNLABELLED = '';

function safeRecord(recorder: ToolCallRecorder, record: ToolCallRecord): void {
  try {
    recorder.toolCall(record);
  } catch {
    /* a broken recorder must not break tool calls */
  }
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
