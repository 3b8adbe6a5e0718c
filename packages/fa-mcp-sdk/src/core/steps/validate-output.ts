import { InternalError } from '../errors.js';
import type { Operation, PipelineStep } from '../pipeline.js';
import type { SchemaValidator } from '../schema-validator.js';
import type { IContentBlock, IToolHandlerStructuredResponse, JsonObject } from '../types.js';

/**
 * Checks `structuredContent` against the tool's outputSchema. A violation is the
 * tool breaking its own contract: `-32603`. Error results are not refused, but
 * clients validate every `structuredContent` of such a tool against the schema
 * (SDK v1, Inspector, mcp-remote reject the whole result), so an error result
 * whose `structuredContent` does not match carries it as JSON text instead.
 */
export function validateOutputStep(validator: SchemaValidator): PipelineStep {
  return {
    name: 'validate-output',
    methods: ['tools/call'],
    // A then, not async/await: one promise per call instead of two.
    run(op, next) {
      return next().then((result) => checkOutput(validator, op, result as IToolHandlerStructuredResponse));
    },
  };
}

/** The result as it may go out, or the tool's contract broken. */
function checkOutput(validator: SchemaValidator, op: Operation, result: IToolHandlerStructuredResponse): IToolHandlerStructuredResponse {
  const schema = op.tool?.outputSchema;
  if (!schema) return result;
  if (result.isError) return errorResultFor(validator, schema, result);
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
}

/** An error result every client accepts: a non-matching `structuredContent` moves into a JSON text block. */
function errorResultFor(validator: SchemaValidator, schema: JsonObject, result: IToolHandlerStructuredResponse): IToolHandlerStructuredResponse {
  if (result.structuredContent === undefined || validator.validate(schema, result.structuredContent).ok) return result;
  const { structuredContent, ...rest } = result;
  const content: IContentBlock[] = Array.isArray(rest.content) ? rest.content : [];
  // Not `{ ...rest, content }`: SPREAD_FIRST in protocol/client-channel.ts.
  rest.content = [...content, { type: 'text', text: JSON.stringify(structuredContent) }];
  return rest;
}
