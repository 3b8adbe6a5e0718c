/**
 * Cursor pagination for lists. A cursor is opaque to clients: it names the list
 * and the last item of the previous page and carries a MAC keyed with a secret
 * (`mcp.pagination.cursorSecret`) and the server's `name@version`, so a forged
 * cursor, or one of another server or version, is refused with -32602. Servers
 * given the same secret read each other's cursors (instances behind one load
 * balancer, a restart); without a secret the key is random per process.
 * Order is the registration order.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ValidationError } from './errors.js';

export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

export class Paginator {
  private readonly key: Buffer;

  /** `secret`: shared by the instances that must read each other's cursors; absent, a random key of this Paginator's own. */
  constructor(
    identity: string,
    private readonly pageSize: number,
    secret?: string,
  ) {
    this.key = createHmac('sha256', secret ? Buffer.from(secret, 'utf8') : randomBytes(32))
      .update(`fa-mcp-sdk/pagination\0${identity}`)
      .digest();
  }

  paginate<T>(list: string, items: readonly T[], keyOf: (item: T) => string, cursor?: string): Page<T> {
    let start = 0;
    if (cursor !== undefined) {
      const after = this.decode(list, cursor);
      const at = items.findIndex((i) => keyOf(i) === after.key);
      // The item may have disappeared since (a dynamic list): its successor moved into its old position.
      start = at >= 0 ? at + 1 : Math.min(after.index, items.length);
    }
    const slice = items.slice(start, start + this.pageSize);
    const page: Page<T> = { items: slice };
    const last = slice[slice.length - 1];
    if (start + this.pageSize < items.length && last !== undefined) {
      page.nextCursor = this.encode(list, keyOf(last), start + slice.length - 1);
    }
    return page;
  }

  private encode(list: string, key: string, index: number): string {
    const body = Buffer.from(JSON.stringify({ l: list, k: key, i: index })).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  private decode(list: string, cursor: string): { key: string; index: number } {
    const invalid = () => new ValidationError('Invalid cursor', { field: 'cursor', reason: 'is not a cursor issued by this server for this list' });
    if (typeof cursor !== 'string' || cursor.length > 2048) throw invalid();
    const parts = cursor.split('.');
    const [body, mac] = parts;
    if (parts.length !== 2 || !body || !mac) throw invalid();
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
    try {
      const parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { l?: unknown; k?: unknown; i?: unknown };
      if (parsed.l !== list || typeof parsed.k !== 'string' || typeof parsed.i !== 'number') throw invalid();
      return { key: parsed.k, index: parsed.i };
    } catch {
      throw invalid();
    }
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url').slice(0, 22);
  }
}
