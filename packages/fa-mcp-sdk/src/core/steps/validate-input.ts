import { ValidationError } from '../errors.js';
import type { PipelineStep } from '../pipeline.js';
import type { SchemaValidator } from '../schema-validator.js';

/** Validates tool arguments against the tool's inputSchema; the handler never sees invalid input. */
export function validateInputStep(validator: SchemaValidator): PipelineStep {
  return {
    name: 'validate-input',
    methods: ['tools/call'],
    run(op, next) {
      const tool = op.tool;
      if (!tool) return next();
      const args = op.params.arguments ?? {};
      const outcome = validator.validate(tool.inputSchema, args);
      if (!outcome.ok) {
        const first = outcome.issues[0] ?? { field: '(root)', reason: 'is invalid' };
        return Promise.reject(
          new ValidationError(`Invalid arguments for tool ${tool.name}: ${first.field} ${first.reason}`, {
            field: first.field,
            reason: first.reason,
            errors: outcome.issues,
          }),
        );
      }
      return next();
    },
  };
}
