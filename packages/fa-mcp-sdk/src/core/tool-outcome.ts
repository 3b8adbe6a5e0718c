/**
 * Classifies how a tool call ended, from its result or the error it threw, into
 * the fixed outcome labels of the metrics and spans.
 */
import { ARGUMENT_ERRORS_STATE } from './argument-errors.js';
import { InputRequiredSignal } from './client-input.js';
import { MCP_ERROR_CODES } from './errors.js';
import { isMcpError } from './error-guards.js';
import { abortSourceOf } from './lazy-abort.js';
import type { Operation } from './pipeline.js';
import type { ToolOutcome } from './telemetry.js';

export function outcomeOfResult(op: Operation, result: unknown): ToolOutcome {
  if (abortSourceOf(op).aborted) return 'cancelled';
  // Arguments the validate-input step refused with a tool result (argument-errors.ts): the same label as its -32602.
  if (op.state.has(ARGUMENT_ERRORS_STATE.answered)) return 'invalid_params';
  return result && typeof result === 'object' && (result as { isError?: unknown }).isError === true ? 'tool_error' : 'ok';
}

export function outcomeOfError(op: Operation, err: unknown): ToolOutcome {
  if (isMcpError(err)) {
    switch (err.code) {
      case MCP_ERROR_CODES.INVALID_PARAMS:
        return 'invalid_params';
      case MCP_ERROR_CODES.TIMEOUT:
        return 'timeout';
      case MCP_ERROR_CODES.RATE_LIMITED:
        return 'rate_limited';
      case MCP_ERROR_CODES.FORBIDDEN:
        return 'forbidden';
      default:
        break;
    }
  }
  // A 2026-07-28 round that stopped to ask the client: a normal answer (`input_required`), not a failure.
  if (err instanceof InputRequiredSignal) return 'input_required';
  return abortSourceOf(op).aborted ? 'cancelled' : 'internal_error';
}

/**
 * The tool name to use as a label: the resolved tool, else the requested name
 * when it is registered (a call refused before resolution), else `unknown`.
 */
export async function toolLabel(op: Operation, isRegistered: (name: string, op: Operation) => Promise<boolean>): Promise<string> {
  if (op.tool) return op.tool.name;
  const name = op.params.name;
  if (typeof name !== 'string') return 'unknown';
  try {
    return (await isRegistered(name, op)) ? name : 'unknown';
  } catch {
    return 'unknown';
  }
}
