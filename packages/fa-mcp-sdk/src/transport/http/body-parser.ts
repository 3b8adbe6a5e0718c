/**
 * JSON body parsing with the payload cap applied before parsing: an oversized
 * body is HTTP 413 with JSON-RPC -32005, malformed JSON or bytes that are not
 * UTF-8 are HTTP 400 with -32700, values nested deeper than the limit and an
 * empty batch are HTTP 400 with -32600.
 */
import type { IncomingMessage } from 'node:http';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { MCP_ERROR_CODES } from '../../core/errors.js';
import { checkRawMessage, describeRawProblem } from '../raw-message-check.js';
import { recordBodyBytes } from './body-length.js';
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

/**
 * A body the HTTP fast lane read before handing the request to express: its
 * JSON value, or the error express's parser raises for the same bytes (the
 * `type` jsonBodyErrors answers by).
 */
export type EarlyBody = { value: unknown } | { error: { type: string; message: string; status: number } };

const earlyBodies = new WeakMap<IncomingMessage, EarlyBody>();

/** Leaves the body the fast lane read for the express chain, which then parses nothing. */
export function handOverBody(req: IncomingMessage, body: EarlyBody): void {
  earlyBodies.set(req, body);
}

/**
 * Reads and parses a JSON body as the express chain would (express.json with
 * the raw-message checks): UTF-8 only, nesting limit, a leading BOM dropped,
 * an empty body read as `{}`. Resolves undefined when the client went away
 * mid-body (nothing is left to answer). The caller checked Content-Type,
 * Content-Encoding and the declared length.
 */
export function readEarlyBody(req: IncomingMessage, maxDepth = DEFAULT_MAX_JSON_DEPTH): Promise<EarlyBody | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => chunks.push(chunk);
    const finish = (body: EarlyBody | undefined) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      resolve(body);
    };
    const onEnd = () => {
      const buf = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      recordBodyBytes(req, buf.length);
      finish(parseEarlyBody(buf, maxDepth));
    };
    const onClose = () => finish(undefined);
    // Plain listeners (finish takes them off), without a once-wrapper each on every request.
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
    req.on('error', ignoreError); // 'close' follows
  });
}

const ignoreError = (): void => undefined;

/**
 * The body when all of it has arrived already, parsed as `readEarlyBody` parses
 * it; undefined when part of it is still on the way (the caller then waits for
 * it with `readEarlyBody` and a body deadline). A small request usually arrives
 * in one packet with its headers, and node has buffered its body by the time
 * the request's handler first yields: it is taken in one read, with no stream
 * listeners and no timer. The stream is resumed afterwards, so it still ends
 * and closes as usual. The caller checked the declared length is an integer.
 */
export function takeArrivedBody(req: IncomingMessage, maxDepth = DEFAULT_MAX_JSON_DEPTH): EarlyBody | undefined {
  // Someone else reading the stream, or bytes still missing: not ours to take.
  if (req.readableFlowing !== null || req.readableLength !== Number(req.headers['content-length'])) return undefined;
  // Paused with the whole body buffered: read() returns all of it at once (the parser never buffers
  // bytes past the declared length, they belong to the next request on the connection).
  const buf = req.read() as Buffer | null;
  req.resume();
  if (!buf) return undefined;
  recordBodyBytes(req, buf.length);
  return parseEarlyBody(buf, maxDepth);
}

function parseEarlyBody(buf: Buffer, maxDepth: number): EarlyBody {
  const problem = checkRawMessage(buf, maxDepth);
  if (problem) {
    return { error: { type: problem === 'invalid-utf8' ? 'fa.invalid-utf8' : 'fa.too-deep', message: describeRawProblem(problem, maxDepth), status: 403 } };
  }
  let text = buf.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.length === 0) return { value: {} };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (err) {
    return { error: { type: 'entity.parse.failed', message: (err as Error).message, status: 400 } };
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
  const verify = (req: IncomingMessage, _res: unknown, buf: Buffer) => {
    recordBodyBytes(req, buf.length);
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
  // A body the fast lane already read: express.json sees a finished request and leaves req.body alone.
  const takeEarlyBody: RequestHandler = (req, _res, next) => {
    const early = earlyBodies.get(req);
    if (!early) return next();
    earlyBodies.delete(req);
    if ('error' in early) return next(early.error);
    req.body = early.value;
    next();
  };
  return [
    limitByHeader,
    takeEarlyBody,
    express.json({ limit: maxBytes, strict: false, type: ['application/json', 'application/*+json'], verify }),
    rejectEmptyBatch,
  ];
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
