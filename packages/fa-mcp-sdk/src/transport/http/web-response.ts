/**
 * Writes a web-standard Response to a Node response, flushing the headers at
 * once for event streams (so a client sees the 200 before the first event) and
 * stopping the body when the client goes away.
 */
import type { ServerResponse } from 'node:http';
import { statusForJsonRpcBody } from './status-for-error.js';

export interface WriteOptions {
  /**
   * Answer mapped JSON-RPC errors with their HTTP status (429, 504, 413, 503).
   * Off by default: the official MCP clients treat a non-2xx answer as a
   * transport failure and lose the JSON-RPC error, so in-band 200 is the safe
   * default. Retry-After is sent either way.
   */
  mapErrorStatus?: boolean;
}

/**
 * Writes a JSON-RPC message answered with HTTP 200 as a whole JSON body: a
 * mapped error gets its Retry-After, and its own status when configured (or
 * when the protocol requires it: status-for-error.ts).
 */
export function writeJsonRpcBody(res: ServerResponse, body: string, headers: Record<string, string>, opts: WriteOptions = {}): void {
  const mapped = statusForJsonRpcBody(body);
  if (mapped?.retryAfter !== undefined) headers['retry-after'] = String(mapped.retryAfter);
  res.writeHead(mapped && (mapped.required || opts.mapErrorStatus) ? mapped.status : 200, headers);
  res.end(body);
}

/**
 * Hop-by-hop headers of the SDK's web Response that node decides for this connection: the SDK's
 * `Connection: keep-alive` on event streams overrode the front's `Connection: close` while draining.
 */
const CONNECTION_HEADERS: ReadonlySet<string> = new Set(['connection', 'keep-alive']);

export async function writeWebResponse(res: ServerResponse, response: Response, opts: WriteOptions = {}): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    if (!CONNECTION_HEADERS.has(key)) headers[key] = value;
  });
  const contentType = response.headers.get('content-type') ?? '';
  if (response.status === 200 && contentType.includes('application/json') && response.body) {
    writeJsonRpcBody(res, await response.text(), headers, opts);
    return;
  }
  res.writeHead(response.status, headers);
  const isStream = contentType.includes('text/event-stream');
  if (isStream) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const onClose = () => void reader.cancel().catch(() => undefined);
  res.on('close', onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) break;
      if (!res.write(value)) {
        // Wait for drain or close, and take both listeners off whichever comes: a long-lived
        // stream (events/stream, a GET stream) waits many times on one response.
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.once('drain', done);
          res.once('close', done);
        });
      }
    }
  } catch {
    // the client disconnected or the stream was cancelled
  } finally {
    res.off('close', onClose);
    if (!res.writableEnded) res.end();
  }
}
