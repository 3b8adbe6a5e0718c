/**
 * Runs each tool call inside a span of its own, a child of the request's span
 * (or of the caller's trace context). The tracer decides what a span costs:
 * without an OpenTelemetry SDK it is a no-op.
 */
import type { Operation, PipelineStep } from '../pipeline.js';
import type { ToolCallTracer } from '../telemetry.js';
import { toolLabel } from '../tool-outcome.js';

export function toolTraceStep(tracer: ToolCallTracer, isRegistered: (name: string, op: Operation) => Promise<boolean>): PipelineStep {
  return {
    name: 'tool-trace',
    methods: ['tools/call'],
    run(op, next) {
      // The tool is resolved inside; its label is asked for when the span ends.
      return tracer.inSpan(op, () => toolLabel(op, isRegistered), next);
    },
  };
}
