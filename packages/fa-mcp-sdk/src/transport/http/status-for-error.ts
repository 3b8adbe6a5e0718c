/**
 * HTTP status for a JSON-RPC error answered as a single JSON body, so load
 * balancers and clients that read only the status see what happened: 429 with
 * Retry-After for rate limits, 504 for timeouts, 413 for payloads, 503 for
 * upstream failures, 403 for refused access (a missing scope or group).
 * SSE-framed answers keep 200 (the stream already began). These statuses are
 * sent only with `mcp.httpErrorStatus`; -32020 (a header that disagrees with the
 * body, which the pipeline also answers on the SDK path: core/steps/param-headers.ts)
 * is 400 always, as the protocol requires and the core route answers it.
 */
import { MCP_ERROR_CODES } from '../../core/errors.js';

const STATUS_BY_CODE: ReadonlyMap<number, number> = new Map([
  [MCP_ERROR_CODES.RATE_LIMITED, 429],
  [MCP_ERROR_CODES.TIMEOUT, 504],
  [MCP_ERROR_CODES.PAYLOAD_TOO_LARGE, 413],
  [MCP_ERROR_CODES.UPSTREAM_UNAVAILABLE, 503],
  [MCP_ERROR_CODES.FORBIDDEN, 403],
]);

/** Codes whose status the protocol requires, whatever `mcp.httpErrorStatus` says. */
const REQUIRED_STATUS_BY_CODE: ReadonlyMap<number, number> = new Map([[MCP_ERROR_CODES.HEADER_MISMATCH, 400]]);

export interface ErrorStatus {
  status: number;
  retryAfter?: number;
  /** The protocol requires this status: sent even without `mcp.httpErrorStatus`. */
  required?: true;
}

/** Reads a JSON-RPC response body; returns the status to use when it is a single mapped error. */
export function statusForJsonRpcBody(body: string): ErrorStatus | undefined {
  if (body.length > 65_536 || !body.includes('"error"')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const error = (parsed as { error?: { code?: unknown; data?: { retryAfter?: unknown } } }).error;
  if (!error || typeof error.code !== 'number') return undefined;
  const required = REQUIRED_STATUS_BY_CODE.get(error.code);
  if (required) return { status: required, required: true };
  const status = STATUS_BY_CODE.get(error.code);
  if (!status) return undefined;
  const retryAfter = error.data?.retryAfter;
  return typeof retryAfter === 'number' ? { status, retryAfter } : { status };
}
