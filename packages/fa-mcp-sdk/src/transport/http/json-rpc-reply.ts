/** Sends a JSON-RPC error as an HTTP response (for refusals before the protocol layer). */
import type { ServerResponse } from 'node:http';
import type { Response } from 'express';

export function sendJsonRpcError(
  res: ServerResponse,
  httpStatus: number,
  code: number,
  message: string,
  data?: Record<string, unknown>,
  id: string | number | null = null,
): void {
  if (res.headersSent) return;
  const payload = { jsonrpc: '2.0', error: { code, message, ...(data ? { data } : {}) }, id };
  const express = res as Partial<Response>;
  if (typeof express.status === 'function' && typeof express.json === 'function') {
    express.status(httpStatus).json(payload);
    return;
  }
  // A request the HTTP fast lane holds has not entered express.
  const text = JSON.stringify(payload);
  res.statusCode = httpStatus;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
