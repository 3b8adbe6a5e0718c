/**
 * A node request's headers read the way the SDK path reads them: that path
 * turns the request into a web Request (web-request.ts, built as `toWebRequest()`
 * of @modelcontextprotocol/node builds it), whose Headers iterate in name order, join
 * repeated values with ", ", leave out HTTP/2 pseudo-headers, drop
 * Content-Encoding and Transfer-Encoding, and give Content-Length as the byte
 * length of the decoded body (body-length.ts). The fast lane hands this view to the same
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

/** `contentLength`: what body-length.ts `contentLengthOf` gives for the request's body. */
export function nodeHeaderReader(headers: IncomingHttpHeaders, contentLength: string | undefined): NodeHeaderView {
  return new NodeHeaders(headers, contentLength);
}

/** One object per request, its methods shared (this runs for every request the fast lane serves). */
class NodeHeaders implements NodeHeaderView {
  private names: string[] | undefined;
  private entries: Array<[string, string]> | undefined;

  constructor(
    private readonly headers: IncomingHttpHeaders,
    private readonly contentLength: string | undefined,
  ) {}

  get(name: string): string | null {
    return this.valueOf(name.toLowerCase());
  }

  forEach(fn: (value: string, key: string) => void): void {
    if (!this.entries) {
      const entries: Array<[string, string]> = [];
      for (const n of this.sortedNames()) {
        const raw = this.headers[n];
        // Set-Cookie is the one header web Headers iterate value by value.
        if (n === 'set-cookie' && Array.isArray(raw)) for (const v of raw) entries.push([n, v]);
        else entries.push([n, this.valueOf(n) as string]);
      }
      this.entries = entries;
    }
    for (const [key, value] of this.entries) fn(value, key);
  }

  toRecord(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const n of this.sortedNames()) {
      const raw = this.headers[n];
      if (n === 'set-cookie' && Array.isArray(raw)) {
        if (raw.length > 0) out[n] = raw[raw.length - 1] as string;
      } else out[n] = this.valueOf(n) as string;
    }
    return out;
  }

  private valueOf(name: string): string | null {
    if (name === 'content-length') return this.contentLength ?? null;
    if (DROPPED.has(name) || name.startsWith(':')) return null;
    const value = this.headers[name];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  /** The names forEach and toRecord give, in order (worked out once per request). */
  private sortedNames(): string[] {
    if (this.names) return this.names;
    const names: string[] = [];
    const { headers } = this;
    for (const n in headers) {
      if (headers[n] !== undefined && n.charCodeAt(0) !== 58 /* ':' */ && !DROPPED.has(n)) names.push(n);
    }
    if (this.contentLength !== undefined) names.push('content-length');
    this.names = names.sort();
    return this.names;
  }
}
