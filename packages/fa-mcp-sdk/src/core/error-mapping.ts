import { isExposedMcpError } from './error-guards.js';
import { MCP_ERROR_CODES } from './errors.js';

/** What a client is told of an error: the result of `toWireError`. */
export interface WireErrorInfo {
  code: number;
  message: string;
  httpStatus: number;
  data?: Record<string, unknown>;
}

/**
 * Maps any thrown value to what a client may see. Errors of the framework's
 * family (from either build) keep their code, message and data, unless they
 * are not exposed (`expose: false`); anything else becomes a generic internal
 * error whose message names only the request id (no stack, no paths).
 */
export function toWireError(err: unknown, requestId?: string): WireErrorInfo {
  if (isExposedMcpError(err)) {
    const out: WireErrorInfo = { code: err.code, message: err.message, httpStatus: err.httpStatus };
    if (err.data !== undefined) out.data = err.data;
    return out;
  }
  const suffix = requestId ? ` (request id ${requestId})` : '';
  return {
    code: MCP_ERROR_CODES.INTERNAL_ERROR,
    message: `Internal error${suffix}`,
    httpStatus: 500,
    ...(requestId ? { data: { requestId } } : {}),
  };
}

export function createJsonRpcErrorResponse(id: string | number | null, err: unknown, requestId?: string) {
  const wire = toWireError(err, requestId);
  return {
    jsonrpc: '2.0' as const,
    id,
    error: { code: wire.code, message: wire.message, ...(wire.data ? { data: wire.data } : {}) },
  };
}
