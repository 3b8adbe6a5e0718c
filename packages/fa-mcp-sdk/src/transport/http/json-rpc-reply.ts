/** Sends a JSON-RPC error as an HTTP response (for refusals before the protocol layer). */
import type { Response } from 'express';

export function sendJsonRpcError(res: Response, httpStatus: number, code: number, message: string, data?: Record<string, unknown>, id: string | number | null = null): void {
  if (res.headersSent) return;
  res.status(httpStatus).json({ jsonrpc: '2.0', error: { code, message, ...(data ? { data } : {}) }, id });
}
