/**
 * A node request's headers read the way the SDK path reads them: that path
 * turns the request into a web Request (web-request.ts, built as `toWebRequest()`
 * of @modelcontextprotocol/node builds it), whose Headers iterate in name order, join
 * repeated values with ", ", leave out HTTP/2 pseudo-headers, drop
 * Content-Encoding and Transfer-Encoding, and give Content-Length as the byte
 * length of the re-serialized body. The fast lane hands this view to the same
 * describers (describe-request.ts, the wire observer), so a handler sees the
 * same `headers` whichever path served it.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { HeaderReader } from '../../protocol/request-context-builder.js';

const DROPPED = new Set(['content-encoding', 'transfer-encoding', 'content-length']);

/** The fast lane's view: a HeaderReader that also gives its headers as a record at once. */
export interface NodeHeaderView extends HeaderReader {
  /**
   * A new record of what `forEach` gives, keys in the same (name) order; a
   * name given twice (Set-Cookie) keeps its last value, as a record filled by
   * `forEach` would.
   */
  toRecord(): Record<string, string>;
}

export function nodeHeaderReader(headers: IncomingHttpHeaders, parsedBody: unknown): NodeHeaderView {
  let entries: Array<[string, string]> | undefined;
  let contentLength: string | undefined;
  const lengthOf = () => {
    if (contentLength === undefined) {
      const serialized = JSON.stringify(parsedBody);
      contentLength = serialized === undefined ? '' : String(Buffer.byteLength(serialized));
    }
    return contentLength;
  };
  const valueOf = (name: string): string | null => {
    if (name === 'content-length') return lengthOf() || null;
    if (DROPPED.has(name) || name.startsWith(':')) return null;
    const value = headers[name];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  };
  // Plain loops: this runs for every request the fast lane serves.
  const sortedNames = (): string[] => {
    const names: string[] = [];
    for (const n in headers) {
      if (headers[n] !== undefined && n.charCodeAt(0) !== 58 /* ':' */ && !DROPPED.has(n)) names.push(n);
    }
    if (lengthOf()) names.push('content-length');
    return names.sort();
  };
  return {
    get: (name) => valueOf(name.toLowerCase()),
    forEach(fn) {
      if (!entries) {
        entries = [];
        for (const n of sortedNames()) {
          const raw = headers[n];
          // Set-Cookie is the one header web Headers iterate value by value.
          if (n === 'set-cookie' && Array.isArray(raw)) for (const v of raw) entries.push([n, v]);
          else entries.push([n, valueOf(n) as string]);
        }
      }
      for (const [key, value] of entries) fn(value, key);
    },
    toRecord() {
      const out: Record<string, string> = {};
      for (const n of sortedNames()) {
        const raw = headers[n];
        if (n === 'set-cookie' && Array.isArray(raw)) {
          if (raw.length > 0) out[n] = raw[raw.length - 1] as string;
        } else out[n] = valueOf(n) as string;
      }
      return out;
    },
  };
}

