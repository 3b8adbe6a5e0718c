/**
 * How a tool call whose arguments fail the tool's inputSchema is answered
 * (`mcp.validation.argumentErrors`). The MCP revisions served (2025-11-25,
 * 2026-07-28) list input validation errors among tool execution errors, so by
 * default (`result`) the call answers a tool result with `isError: true` the
 * model can read and correct itself from, with `{ field, reason }` under
 * `_meta["fa-mcp/validation"]`; `protocol` answers JSON-RPC -32602 with
 * `error.data = { field, reason, errors }` instead. Either way the handler
 * never runs. Unknown tools and malformed params stay -32602 (resolve-tool.ts,
 * validate-input.ts).
 */
import type { Operation } from './pipeline.js';
import type { TToolHandlerResponse } from './types.js';

export type ArgumentErrorMode = 'result' | 'protocol';

/** The `_meta` key of an argument-error result: `{ field, reason }` of the first problem found. */
export const VALIDATION_META_KEY = 'fa-mcp/validation';

/**
 * Operation state keys. `mode`: a caller's own answer form, over the configured
 * one (the REST tool routes set `protocol`: they answer HTTP 400 with the field).
 * `answered`: set by the validate-input step when it answered with the result
 * form, so metrics and spans still say `invalid_params` (tool-outcome.ts).
 */
export const ARGUMENT_ERRORS_STATE = { mode: 'fa-mcp/argument-errors', answered: 'fa-mcp/argument-error' } as const;

export interface ArgumentIssue {
  field: string;
  reason: string;
}

/** The answer form of this operation: the caller's (op.state) over the configured one. */
export function argumentErrorMode(op: Operation, configured: ArgumentErrorMode): ArgumentErrorMode {
  const own = op.state.get(ARGUMENT_ERRORS_STATE.mode);
  return own === 'protocol' || own === 'result' ? own : configured;
}

/** The tool result of an argument error: the message as its text, the problem under `_meta["fa-mcp/validation"]`. */
export function argumentErrorResult(message: string, issue: ArgumentIssue): TToolHandlerResponse {
  return {
    content: [{ type: 'text', text: message }],
    isError: true,
    _meta: { [VALIDATION_META_KEY]: { field: issue.field, reason: issue.reason } },
  };
}

/** The `{ field, reason }` of an argument-error result (as a client reads it off the wire); undefined for any other value. */
export function argumentErrorOf(result: unknown): ArgumentIssue | undefined {
  if (!result || typeof result !== 'object' || (result as { isError?: unknown }).isError !== true) return undefined;
  const meta = (result as { _meta?: unknown })._meta;
  const issue = meta && typeof meta === 'object' ? (meta as Record<string, unknown>)[VALIDATION_META_KEY] : undefined;
  if (!issue || typeof issue !== 'object') return undefined;
  const { field, reason } = issue as Record<string, unknown>;
  return typeof field === 'string' && typeof reason === 'string' ? { field, reason } : undefined;
}
