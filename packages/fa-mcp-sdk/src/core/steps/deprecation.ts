import type { DeprecationWarnings } from '../deprecation.js';
import type { PipelineStep } from '../pipeline.js';

/** Logs the first call per hour of a deprecated tool; the call itself proceeds. */
export function deprecationStep(warnings: DeprecationWarnings): PipelineStep {
  return {
    name: 'deprecation',
    methods: ['tools/call'],
    run(op, next) {
      if (op.tool?.deprecated) warnings.used('tool', op.tool.name, op.tool.deprecated);
      return next();
    },
  };
}
