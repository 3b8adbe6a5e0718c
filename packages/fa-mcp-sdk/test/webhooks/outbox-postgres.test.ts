/**
 * The PostgreSQL outbox on a real database: what `add` stored is there for a
 * new instance (a restart), two instances claiming at once get disjoint
 * events, a crashed claimer's events are taken over when its lease expires,
 * a late record of a lost claim changes nothing, and dead events are re-sent.
 * The same contract runs on the memory outbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresWebhookOutbox } from '../../src/webhooks/outbox-postgres.js';
import { InMemoryWebhookOutbox } from '../../src/webhooks/outbox-memory.js';
import type { IWebhookOutbox } from '../../src/webhooks/webhook-types.js';
import { createTestSchema, type TestSchema } from '../tasks/pg-test-db.js';

let db: TestSchema;
beforeAll(async () => {
  db = await createTestSchema('webhooks');
});
afterAll(async () => {
  await db.drop();
});

const event = (i: number, now: number) => ({ id: `msg_${i}`, endpoint: 'e', type: 't', body: JSON.stringify({ i }), now });

async function pgOutbox(): Promise<IWebhookOutbox> {
  const o = new PostgresWebhookOutbox(db.pool);
  await o.migrate();
  await o.migrate(); // idempotent
  await db.pool.query('TRUNCATE fa_mcp_webhook_outbox');
  return o;
}

for (const [name, make, again] of [
  ['postgres', pgOutbox, async () => new PostgresWebhookOutbox(db.pool)],
  ['memory', async () => new InMemoryWebhookOutbox(), undefined],
] as Array<[string, () => Promise<IWebhookOutbox>, (() => Promise<IWebhookOutbox>) | undefined]>) {
  describe(`${name} outbox`, () => {
    it('two claimers at once get disjoint events; all of them between the two', async () => {
      const a = await make();
      const b = again ? await again() : a;
      const now = Date.now();
      await a.add(Array.from({ length: 40 }, (_, i) => event(i, now)));
      const [x, y] = await Promise.all([a.claim('A', now, now + 10_000, 25), b.claim('B', now, now + 10_000, 25)]);
      const ids = [...x, ...y].map((d) => d.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBe(40);
      expect(await a.claim('C', now, now + 10_000, 50)).toEqual([]); // all leased
    });

    it("takes over a crashed claimer's events after the lease; its late record is refused", async () => {
      const a = await make();
      const now = Date.now();
      await a.add([event(100, now)]);
      expect(await a.claim('dead-instance', now, now + 5000, 10)).toHaveLength(1);
      expect(await a.claim('B', now + 4999, now + 9999, 10)).toHaveLength(0);
      const taken = await a.claim('B', now + 5000, now + 10_000, 10);
      expect(taken.map((d) => d.id)).toEqual(['msg_100']);
      expect(await a.record('msg_100', 'e', 'dead-instance', { outcome: 'delivered', status: 200, now })).toBe(false);
      expect(await a.record('msg_100', 'e', 'B', { outcome: 'dead', error: 'HTTP 400', status: 400, now: now + 5001 })).toBe(true);
      const [dead] = await a.list('dead', 10);
      expect(dead).toMatchObject({ id: 'msg_100', attempts: 1, lastStatus: 400, lastError: 'HTTP 400' });
      expect(await a.resend(now + 6000, ['msg_100'])).toBe(1);
      expect((await a.claim('C', now + 6000, now + 7000, 10)).map((d) => [d.id, d.attempts])).toEqual([['msg_100', 0]]);
    });

    if (again) {
      it('keeps what was added for a new instance (a restart), and the same (id, endpoint) once', async () => {
        const a = await make();
        const now = Date.now();
        await a.add([event(7, now), event(7, now)]);
        const restarted = await again();
        expect((await restarted.countByStatus()).pending).toBe(1);
        expect((await restarted.claim('R', now, now + 1000, 10)).map((d) => d.body)).toEqual([JSON.stringify({ i: 7 })]);
      });
    }
  });
}
