/**
 * Cursor pagination for lists. A cursor is opaque to clients: it names the list
 * and the last item of the previous page and carries a MAC, so a cursor from
 * another server (or a forged one) is refused with -32602, while the same code
 * after a restart still reads its own cursors. Order is the registration order.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ValidationError } from './errors.js';

export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

export class Paginator {
  private readonly key: Buffer;

  constructor(
    identity: string,
    private readonly pageSize: number,
  ) {
    this.key = createHmac('sha256', 'fa-mcp-sdk/pagination').update(identity).digest();
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
