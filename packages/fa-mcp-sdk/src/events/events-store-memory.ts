/** The Events extension's state in this process: zero setup, lost on restart (cursors then read as "start over"). */
import { randomBytes, randomUUID } from 'node:crypto';
import { InMemoryWebhookOutbox } from '../webhooks/outbox-memory.js';
import type { NewWebhookDelivery } from '../webhooks/webhook-types.js';
import type { AppendOutcome, EventSubscription, EventFanout, IMcpEventsStore, NewOccurrence, StoredOccurrence } from './events-store.js';

interface TypeLog {
  head: number;
  items: StoredOccurrence[];
  byEventId: Map<string, StoredOccurrence>;
}

export class InMemoryMcpEventsStore implements IMcpEventsStore {
  readonly epoch = randomUUID().replace(/-/g, '').slice(0, 16);
  readonly cursorKey = randomBytes(32);
  readonly durable = false;
  readonly outbox = new InMemoryWebhookOutbox({ ordered: true });
  private readonly logs = new Map<string, TypeLog>();
  private readonly subs = new Map<string, EventSubscription>();

  private log(name: string): TypeLog {
    let log = this.logs.get(name);
    if (!log) {
      log = { head: 0, items: [], byEventId: new Map() };
      this.logs.set(name, log);
    }
    return log;
  }

  async append(input: NewOccurrence, fanout: EventFanout | undefined): Promise<AppendOutcome> {
    const log = this.log(input.name);
    const seen = log.byEventId.get(input.eventId);
    if (seen) return { occurrence: seen, duplicate: true, queued: 0 };
    const occurrence: StoredOccurrence = { ...input, seq: ++log.head };
    log.items.push(occurrence);
    log.byEventId.set(occurrence.eventId, occurrence);
    const now = Date.now();
    const live = [...this.subs.values()].filter((s) => s.name === input.name && (s.expiresAt === null || s.expiresAt > now));
    const deliveries = fanout ? fanout(live, occurrence) : [];
    await this.outbox.add(deliveries);
    return { occurrence, duplicate: false, queued: deliveries.length };
  }

  async head(name: string): Promise<number> {
    return this.logs.get(name)?.head ?? 0;
  }

  async oldest(name: string): Promise<number | undefined> {
    return this.logs.get(name)?.items[0]?.seq;
  }

  async read(name: string, afterSeq: number, limit: number, minTimestamp?: number): Promise<StoredOccurrence[]> {
    const items = this.logs.get(name)?.items ?? [];
    const out: StoredOccurrence[] = [];
    // Positions ascend: start at the first one after `afterSeq` (a push stream reads at every wake-up, so not from the oldest kept).
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((items[mid] as StoredOccurrence).seq <= afterSeq) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < items.length; i++) {
      const o = items[i] as StoredOccurrence;
      if (minTimestamp !== undefined && o.timestamp < minTimestamp) continue;
      out.push(o);
      if (out.length >= limit) break;
    }
    return out;
  }

  async prune(keep: number, before: number): Promise<number> {
    let dropped = 0;
    for (const log of this.logs.values()) {
      const fresh = log.items.findIndex((o) => o.timestamp >= before);
      const cut = Math.max(log.items.length - keep, fresh === -1 ? log.items.length : fresh);
      if (cut <= 0) continue;
      for (const o of log.items.splice(0, cut)) log.byEventId.delete(o.eventId);
      dropped += cut;
    }
    return dropped;
  }

  async saveSubscription(sub: EventSubscription, maxPerPrincipal: number): Promise<'created' | 'refreshed' | 'limit'> {
    const existing = this.subs.get(sub.id);
    if (existing) {
      this.subs.set(sub.id, { ...existing, secret: sub.secret, expiresAt: sub.expiresAt, auth: sub.auth, updatedAt: sub.updatedAt });
      return 'refreshed';
    }
    const held = [...this.subs.values()].filter((s) => s.principal === sub.principal).length;
    if (held >= maxPerPrincipal) return 'limit';
    this.subs.set(sub.id, { ...sub });
    return 'created';
  }

  async subscription(id: string): Promise<EventSubscription | undefined> {
    const s = this.subs.get(id);
    return s ? { ...s } : undefined;
  }

  async removeSubscription(id: string): Promise<boolean> {
    const had = this.subs.delete(id);
    await this.outbox.dropPending(id);
    return had;
  }

  async lapse(now: number): Promise<number> {
    let n = 0;
    for (const s of [...this.subs.values()]) {
      if (s.expiresAt === null || s.expiresAt > now) continue;
      await this.removeSubscription(s.id);
      n++;
    }
    return n;
  }

  async pendingFloor(id: string): Promise<number | undefined> {
    return this.outbox.minPendingSeq(id);
  }

  async queue(deliveries: NewWebhookDelivery[]): Promise<void> {
    await this.outbox.add(deliveries);
  }

  async close(): Promise<void> {}
}
