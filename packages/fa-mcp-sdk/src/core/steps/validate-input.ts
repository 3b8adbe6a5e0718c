import { ARGUMENT_ERRORS_STATE, argumentErrorMode, argumentErrorResult, type ArgumentErrorMode } from '../argument-errors.js';
import { ValidationError } from '../errors.js';
import type { PipelineStep } from '../pipeline.js';
import type { SchemaValidator } from '../schema-validator.js';

/**
 * Validates tool arguments against the tool's inputSchema; the handler never
 * sees invalid input. Arguments that fail it are answered in the configured
 * form (argument-errors.ts): a tool result with `isError: true` (`result`, the
 * default) or JSON-RPC -32602 (`protocol`). Arguments that are not an object
 * at all are a malformed request: -32602 in either form.
 */
export function validateInputStep(validator: SchemaValidator, mode: ArgumentErrorMode = 'result'): PipelineStep {
  return {
    name: 'validate-input',
    methods: ['tools/call'],
    run(op, next) {
      const tool = op.tool;
      if (!tool) return next();
      const args = op.params.arguments ?? {};
      const outcome = validator.validate(tool.inputSchema, args);
      if (outcome.ok) return next();
      const first = outcome.issues[0] ?? { field: '(root)', reason: 'is invalid' };
      const message = `Invalid arguments for tool ${tool.name}: ${first.field} ${first.reason}`;
      const malformed = typeof args !== 'object' || Array.isArray(args);
      if (malformed || argumentErrorMode(op, mode) === 'protocol') {
        return Promise.reject(new ValidationError(message, { field: first.field, reason: first.reason, errors: outcome.issues }));
      }
      op.state.set(ARGUMENT_ERRORS_STATE.answered, first);
      return Promise.resolve(argumentErrorResult(message, first));
    },
  };
}
