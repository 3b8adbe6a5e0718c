/**
 * The web Request the SDK's HTTP handlers get for a node request whose JSON
 * body is already parsed (and handed to them as `parsedBody`, so they never
 * read the Request's own body). It carries the same URL, method and headers as
 * `toWebRequest(req, parsedBody)` of @modelcontextprotocol/node (Content-Length
 * of the re-serialized body, no Content-Encoding or Transfer-Encoding), but no
 * body: building a body stream for bytes nobody reads is most of what a web
 * Request costs.
 */
import type { IncomingMessage } from 'node:http';

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export function parsedBodyRequest(req: IncomingMessage, parsedBody: unknown, signal?: AbortSignal): Request {
  const url = `http://${single(req.headers.host) ?? single(req.headers[':authority']) ?? 'localhost'}${req.url ?? '/'}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  headers.delete('content-encoding');
  headers.delete('transfer-encoding');
  const serialized = JSON.stringify(parsedBody);
  if (serialized === undefined) headers.delete('content-length');
  else headers.set('content-length', String(Buffer.byteLength(serialized)));
  return new Request(url, { method: (req.method ?? 'GET').toUpperCase(), headers, ...(signal ? { signal } : {}) });
}
