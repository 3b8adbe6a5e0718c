import { InternalError } from '../errors.js';
import type { PipelineStep } from '../pipeline.js';
import type { SchemaValidator } from '../schema-validator.js';
import type { IToolHandlerStructuredResponse } from '../types.js';

/**
 * Checks `structuredContent` against the tool's outputSchema. A violation is the
 * tool breaking its own contract: `-32603`. Error results are not checked.
 */
export function validateOutputStep(validator: SchemaValidator): PipelineStep {
  return {
    name: 'validate-output',
    methods: ['tools/call'],
    async run(op, next) {
      const result = (await next()) as IToolHandlerStructuredResponse;
      const schema = op.tool?.outputSchema;
      if (!schema || result.isError) return result;
      if (result.structuredContent === undefined) {
        throw new InternalError(`Tool ${op.tool?.name} declares an outputSchema but returned no structuredContent`);
      }
      const outcome = validator.validate(schema, result.structuredContent);
      if (!outcome.ok) {
        const first = outcome.issues[0] ?? { field: '(root)', reason: 'is invalid' };
        throw new InternalError(`Tool ${op.tool?.name} returned output that violates its outputSchema: ${first.field} ${first.reason}`, {
          field: first.field,
          reason: first.reason,
          errors: outcome.issues,
        });
      }
      return result;
    },
  };
}
