/**
 * Cursors of the Events extension: opaque to clients, a position in one event type's
 * durable order. A cursor names the store's epoch (its position space: a PostgreSQL store's
 * is fixed, a memory store's is new at every start) and the sequence number, and carries an
 * HMAC over both, the event type and the caller's principal — so a cursor made up, edited,
 * taken to another event type or used by another principal is refused (-32602 naming
 * `cursor`), and one from another epoch (the memory store restarted) reads as "start over",
 * with `truncated: true`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ValidationError } from '../core/errors.js';

export type DecodedCursor = { kind: 'position'; seq: number } | { kind: 'other-epoch' };

const PREFIX = 'ev1';

export class CursorCodec {
  constructor(
    private readonly key: Buffer,
    private readonly epoch: string,
    /** What a cursor of another epoch means: the memory store restarted (`restart`), or nothing this store issued (`refuse`). */
    private readonly otherEpochs: 'restart' | 'refuse',
  ) {}

  encode(name: string, principal: string, seq: number): string {
    const body = `${PREFIX}.${this.epoch}.${seq}`;
    return Buffer.from(`${body}.${this.mac(body, name, principal)}`, 'utf8').toString('base64url');
  }

  /** The position a cursor names; throws a -32602 that says why a cursor is refused. `head`: the latest position of the type. */
  decode(cursor: string, name: string, principal: string, head: number): DecodedCursor {
    const refuse = (reason: string): never => {
      throw new ValidationError(`Invalid cursor: ${reason}`, { field: 'cursor', reason });
    };
    if (cursor.length === 0 || cursor.length > 512 || !/^[A-Za-z0-9_-]+$/.test(cursor)) refuse('not a cursor this server issued');
    const parts = Buffer.from(cursor, 'base64url').toString('utf8').split('.');
    if (parts.length !== 4 || parts[0] !== PREFIX || !/^\d{1,15}$/.test(parts[2] ?? '')) refuse('not a cursor this server issued');
    const [, epoch, seqText, mac] = parts as [string, string, string, string];
    if (epoch !== this.epoch) {
      // A memory store's earlier life, whose key this process never had: start over, truncated.
      if (this.otherEpochs === 'restart') return { kind: 'other-epoch' };
      refuse('not a cursor this server issued');
    }
    const expected = Buffer.from(this.mac(`${PREFIX}.${epoch}.${seqText}`, name, principal), 'utf8');
    const given = Buffer.from(mac, 'utf8');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) refuse('its signature does not match (a forged or edited cursor, or one issued for another event type or caller)');
    const seq = Number(seqText);
    if (seq > head) refuse('it points past the latest event (a cursor from the future)');
    return { kind: 'position', seq };
  }

  private mac(body: string, name: string, principal: string): string {
    return createHmac('sha256', this.key).update(`fa-mcp-sdk/events-cursor\0${body}\0${name}\0${principal}`).digest().subarray(0, 18).toString('base64url');
  }
}
