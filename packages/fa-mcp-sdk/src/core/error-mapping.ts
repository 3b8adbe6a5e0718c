import { BaseMcpError, MCP_ERROR_CODES } from './errors.js';

export interface WireError {
  code: number;
  message: string;
  httpStatus: number;
  data?: Record<string, unknown>;
}

/**
 * Maps any thrown value to what a client may see. Errors of the framework's
 * family keep their code, message and data; anything else becomes a generic
 * internal error whose message names only the request id (no stack, no paths).
 */
export function toWireError(err: unknown, requestId?: string): WireError {
  if (err instanceof BaseMcpError) {
    const out: WireError = { code: err.code, message: err.message, httpStatus: err.httpStatus };
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
