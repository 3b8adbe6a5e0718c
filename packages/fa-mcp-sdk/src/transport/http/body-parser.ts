/**
 * JSON body parsing with the payload cap applied before parsing: an oversized
 * body is HTTP 413 with JSON-RPC -32005, malformed JSON is HTTP 400 with -32700.
 */
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { MCP_ERROR_CODES } from '../../core/errors.js';
import { sendJsonRpcError } from './json-rpc-reply.js';

export function jsonBody(maxBytes: number): RequestHandler[] {
  const limitByHeader: RequestHandler = (req, res, next) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      res.setHeader('Connection', 'close');
      return sendJsonRpcError(res, 413, MCP_ERROR_CODES.PAYLOAD_TOO_LARGE, `Request body exceeds ${maxBytes} bytes`, { maxPayloadBytes: maxBytes });
    }
    next();
  };
  return [limitByHeader, express.json({ limit: maxBytes, strict: false, type: ['application/json', 'application/*+json'] })];
}

export const jsonBodyErrors: ErrorRequestHandler = (err: { type?: string; status?: number }, _req, res, next) => {
  if (err?.type === 'entity.too.large') {
    return sendJsonRpcError(res, 413, MCP_ERROR_CODES.PAYLOAD_TOO_LARGE, 'Request body too large');
  }
  if (err?.type === 'entity.parse.failed') {
    return sendJsonRpcError(res, 400, MCP_ERROR_CODES.PARSE_ERROR, 'Parse error: the body is not valid JSON');
  }
  if (err?.type === 'encoding.unsupported' || err?.type === 'charset.unsupported') {
    return sendJsonRpcError(res, 415, MCP_ERROR_CODES.INVALID_REQUEST, 'Unsupported body encoding');
  }
  next(err);
};
