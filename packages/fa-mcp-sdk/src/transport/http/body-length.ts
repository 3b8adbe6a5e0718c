/**
 * The Content-Length a request's handlers see for a JSON body that was parsed
 * before them, the same on the fast lane and on the SDK path (node-headers.ts,
 * web-request.ts): the byte length of the body as it arrived, after any
 * Content-Encoding was undone. Whoever reads the bytes records their count
 * (body-parser.ts: the fast lane's early read and express's JSON parser), so
 * no request serializes its parsed body again only to measure it. A body parsed
 * by someone else (a parser of the application's own) is measured as its JSON.
 */
import type { IncomingMessage } from 'node:http';

const BODY_BYTES = Symbol('fa-mcp.bodyBytes');

type Measured = IncomingMessage & { [BODY_BYTES]?: number };

/** Records how many (decoded) bytes the request's body had. */
export function recordBodyBytes(req: IncomingMessage, bytes: number): void {
  (req as Measured)[BODY_BYTES] = bytes;
}

/** The Content-Length handlers see for `parsedBody`; undefined when the body has no JSON (nothing was sent). */
export function contentLengthOf(req: IncomingMessage, parsedBody: unknown): string | undefined {
  const bytes = (req as Measured)[BODY_BYTES];
  if (bytes !== undefined) return String(bytes);
  const serialized = JSON.stringify(parsedBody);
  return serialized === undefined ? undefined : String(Buffer.byteLength(serialized));
}
