/**
 * JSON body parsing with the payload cap applied before parsing: an oversized
 * body is HTTP 413 with JSON-RPC -32005, malformed JSON or bytes that are not
 * UTF-8 are HTTP 400 with -32700, values nested deeper than the limit and an
 * empty batch are HTTP 400 with -32600.
 */
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { MCP_ERROR_CODES } from '../../core/errors.js';
import { checkRawMessage, describeRawProblem } from '../raw-message-check.js';
import { sendJsonRpcError } from './json-rpc-reply.js';

/** The depth limit when none is configured (mcp.limits.maxJsonDepth's default). */
export const DEFAULT_MAX_JSON_DEPTH = 100;

class RawMessageError extends Error {
  constructor(
    readonly type: 'fa.invalid-utf8' | 'fa.too-deep',
    message: string,
  ) {
    super(message);
  }
}

export function jsonBody(maxBytes: number, maxDepth = DEFAULT_MAX_JSON_DEPTH): RequestHandler[] {
  const limitByHeader: RequestHandler = (req, res, next) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      res.setHeader('Connection', 'close');
      return sendJsonRpcError(res, 413, MCP_ERROR_CODES.PAYLOAD_TOO_LARGE, `Request body exceeds ${maxBytes} bytes`, { maxPayloadBytes: maxBytes });
    }
    next();
  };
  const verify = (_req: unknown, _res: unknown, buf: Buffer) => {
    const problem = checkRawMessage(buf, maxDepth);
    if (problem) throw new RawMessageError(problem === 'invalid-utf8' ? 'fa.invalid-utf8' : 'fa.too-deep', describeRawProblem(problem, maxDepth));
  };
  // JSON-RPC 2.0: an empty batch is an invalid request, answered with one error.
  const rejectEmptyBatch: RequestHandler = (req, res, next) => {
    if (Array.isArray(req.body) && req.body.length === 0) {
      return sendJsonRpcError(res, 400, MCP_ERROR_CODES.INVALID_REQUEST, 'Invalid request: empty batch');
    }
    next();
  };
  return [limitByHeader, express.json({ limit: maxBytes, strict: false, type: ['application/json', 'application/*+json'], verify }), rejectEmptyBatch];
}

export const jsonBodyErrors: ErrorRequestHandler = (err: { type?: string; status?: number; message?: string }, _req, res, next) => {
  // Already answered (e.g. 408 from the body timeout) or the client went away
  // mid-body: there is no one left to answer.
  if (res.headersSent || err?.type === 'request.aborted') return;
  if (err?.type === 'entity.too.large') {
    return sendJsonRpcError(res, 413, MCP_ERROR_CODES.PAYLOAD_TOO_LARGE, 'Request body too large');
  }
  if (err?.type === 'entity.parse.failed') {
    return sendJsonRpcError(res, 400, MCP_ERROR_CODES.PARSE_ERROR, 'Parse error: the body is not valid JSON');
  }
  if (err?.type === 'fa.invalid-utf8') return sendJsonRpcError(res, 400, MCP_ERROR_CODES.PARSE_ERROR, String(err.message));
  if (err?.type === 'fa.too-deep') return sendJsonRpcError(res, 400, MCP_ERROR_CODES.INVALID_REQUEST, String(err.message));
  if (err?.type === 'encoding.unsupported' || err?.type === 'charset.unsupported') {
    return sendJsonRpcError(res, 415, MCP_ERROR_CODES.INVALID_REQUEST, 'Unsupported body encoding');
  }
  next(err);
};
