/**
 * Event cursors: a cursor round-trips to its position; one that points past the latest event
 * (a cursor from the future: a database restored from an older backup, or issued by a store that
 * lost its tail) is refused with -32602 naming `cursor`, as is one used by another principal or
 * for another event type; a cursor of another epoch means "start over" for a memory store and
 * is refused by a PostgreSQL store, whose epoch never changes.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CursorCodec } from '../../src/events/event-cursor.js';

const key = randomBytes(32);

describe('event cursors', () => {
  const codec = new CursorCodec(key, 'epoch-a', 'refuse');

  it('round-trips a position for its event type and principal', () => {
    const cursor = codec.encode('incident.created', 'alice', 7);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(codec.decode(cursor, 'incident.created', 'alice', 7)).toEqual({ kind: 'position', seq: 7 });
    expect(codec.decode(cursor, 'incident.created', 'alice', 42)).toEqual({ kind: 'position', seq: 7 });
  });

  it('refuses a cursor from the future with -32602 naming cursor', () => {
    const cursor = codec.encode('incident.created', 'alice', 9);
    expect(() => codec.decode(cursor, 'incident.created', 'alice', 8)).toThrow(expect.objectContaining({ code: -32602, data: expect.objectContaining({ field: 'cursor', reason: expect.stringContaining('future') }) }));
  });

  it('refuses a cursor used by another principal or for another event type', () => {
    const cursor = codec.encode('incident.created', 'alice', 3);
    for (const [name, principal] of [['incident.created', 'bob'], ['build.finished', 'alice']] as const) {
      expect(() => codec.decode(cursor, name, principal, 10)).toThrow(expect.objectContaining({ code: -32602, data: expect.objectContaining({ field: 'cursor', reason: expect.stringContaining('signature') }) }));
    }
  });

  it('reads another epoch as a restart for a memory store, and refuses it for a durable one', () => {
    const earlier = new CursorCodec(randomBytes(32), 'epoch-old', 'restart').encode('incident.created', 'alice', 3);
    expect(new CursorCodec(key, 'epoch-new', 'restart').decode(earlier, 'incident.created', 'alice', 10)).toEqual({ kind: 'other-epoch' });
    expect(() => codec.decode(earlier, 'incident.created', 'alice', 10)).toThrow(expect.objectContaining({ code: -32602, data: expect.objectContaining({ field: 'cursor' }) }));
  });
});
