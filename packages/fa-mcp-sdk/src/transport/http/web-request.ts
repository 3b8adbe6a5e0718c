/**
 * The web Request the SDK's HTTP handlers get for a node request, the way
 * `toWebRequest()` of @modelcontextprotocol/node builds it (that package is no
 * dependency any more, issue 24): the URL from Host, every header but HTTP/2
 * pseudo-headers.
 *
 * - `parsedBodyRequest`: the JSON body is already parsed (and handed to the
 *   handlers as `parsedBody`, so they never read the Request's own body):
 *   Content-Length of the decoded body (body-length.ts), no Content-Encoding or
 *   Transfer-Encoding, and no body: building a body stream for bytes nobody
 *   reads is most of what a web Request costs.
 * - `streamedBodyRequest`: nothing parsed the body (GET, DELETE, a POST the JSON
 *   parser left alone): the body read from the stream, at most `maxBytes`.
 */
import type { IncomingMessage } from 'node:http';
import { PayloadTooLargeError } from '../../core/errors.js';
import { contentLengthOf } from './body-length.js';

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

const urlOf = (req: IncomingMessage) => `http://${single(req.headers.host) ?? single(req.headers[':authority']) ?? 'localhost'}${req.url ?? '/'}`;

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return headers;
}

export async function streamedBodyRequest(req: IncomingMessage, maxBytes: number, signal?: AbortSignal): Promise<Request> {
  const method = (req.method ?? 'GET').toUpperCase();
  let body: string | undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    const tooLarge = () => new PayloadTooLargeError(`Payload Too Large: Request body must not exceed ${maxBytes} bytes`, { maxBytes });
    if (Number(single(req.headers['content-length'])) > maxBytes) throw tooLarge();
    const chunks: Buffer[] = [];
    let received = 0;
    for await (const chunk of req as AsyncIterable<Buffer | string>) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      received += bytes.byteLength;
      if (received > maxBytes) throw tooLarge();
      chunks.push(bytes);
    }
    if (received > 0) body = Buffer.concat(chunks).toString('utf8');
  }
  return new Request(urlOf(req), { method, headers: headersOf(req), ...(signal ? { signal } : {}), ...(body !== undefined ? { body } : {}) });
}

export function parsedBodyRequest(req: IncomingMessage, parsedBody: unknown, signal?: AbortSignal): Request {
  const url = urlOf(req);
  const headers = headersOf(req);
  headers.delete('content-encoding');
  headers.delete('transfer-encoding');
  const length = contentLengthOf(req, parsedBody);
  if (length === undefined) headers.delete('content-length');
  else headers.set('content-length', length);
  return new Request(url, { method: (req.method ?? 'GET').toUpperCase(), headers, ...(signal ? { signal } : {}) });
}
