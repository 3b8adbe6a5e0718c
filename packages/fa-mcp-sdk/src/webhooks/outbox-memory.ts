/** The outbox in this process: zero setup, lost on restart. */
import type { AttemptRecord, IWebhookOutbox, NewWebhookDelivery, WebhookDelivery, WebhookDeliveryStatus } from './webhook-types.js';

interface Held extends WebhookDelivery {
  leaseOwner?: string;
  leaseUntil?: number;
  seq: number;
}

const keyOf = (id: string, endpoint: string) => `${endpoint}\u0000${id}`;

export class InMemoryWebhookOutbox implements IWebhookOutbox {
  private readonly items = new Map<string, Held>();

  /** `ordered`: deliver to each endpoint in `seq` order (a delivery waits while an earlier one of its endpoint is pending). */
  constructor(private readonly options: { ordered?: boolean } = {}) {}

  async add(deliveries: NewWebhookDelivery[]): Promise<void> {
    for (const d of deliveries) {
      const key = keyOf(d.id, d.endpoint);
      if (this.items.has(key)) continue;
      this.items.set(key, { id: d.id, endpoint: d.endpoint, type: d.type, body: d.body, status: 'pending', attempts: 0, nextAttemptAt: d.now, createdAt: d.now, updatedAt: d.now, seq: d.seq ?? 0 });
    }
  }

  async claim(owner: string, now: number, leaseUntil: number, limit: number): Promise<WebhookDelivery[]> {
    const pending = [...this.items.values()].filter((d) => d.status === 'pending');
    // Ordered: a delivery waits while an earlier one to its endpoint is pending (one pass, not one per delivery).
    const first = new Map<string, number>();
    if (this.options.ordered === true) for (const p of pending) if (p.seq < (first.get(p.endpoint) ?? Infinity)) first.set(p.endpoint, p.seq);
    const waits = (d: Held) => this.options.ordered === true && (first.get(d.endpoint) ?? Infinity) < d.seq;
    const due = pending
      .filter((d) => d.nextAttemptAt <= now && (d.leaseUntil === undefined || d.leaseUntil <= now) && !waits(d))
      .sort((a, b) => a.nextAttemptAt - b.nextAttemptAt)
      .slice(0, limit);
    for (const d of due) {
      d.leaseOwner = owner;
      d.leaseUntil = leaseUntil;
    }
    return due.map(publicCopy);
  }

  async record(id: string, endpoint: string, owner: string, attempt: AttemptRecord): Promise<boolean> {
    const d = this.items.get(keyOf(id, endpoint));
    if (!d || d.leaseOwner !== owner || d.status !== 'pending') return false;
    delete d.leaseOwner;
    delete d.leaseUntil;
    d.attempts += 1;
    d.updatedAt = attempt.now;
    if (attempt.outcome === 'delivered') {
      d.status = 'delivered';
      d.deliveredAt = attempt.now;
      d.lastStatus = attempt.status;
      delete d.lastError;
      return true;
    }
    d.lastError = attempt.error;
    if (attempt.status !== undefined) d.lastStatus = attempt.status;
    else delete d.lastStatus;
    if (attempt.outcome === 'dead') d.status = 'dead';
    else d.nextAttemptAt = attempt.nextAttemptAt;
    return true;
  }

  async list(status: WebhookDeliveryStatus, limit: number): Promise<WebhookDelivery[]> {
    return [...this.items.values()]
      .filter((d) => d.status === status)
      .sort((a, b) => b.updatedAt - a.updatedAt)
      .slice(0, limit)
      .map(publicCopy);
  }

  async resend(now: number, ids?: string[]): Promise<number> {
    const wanted = ids ? new Set(ids) : undefined;
    let n = 0;
    for (const d of this.items.values()) {
      if (d.status !== 'dead' || (wanted && !wanted.has(d.id))) continue;
      d.status = 'pending';
      d.attempts = 0;
      d.nextAttemptAt = now;
      d.updatedAt = now;
      n++;
    }
    return n;
  }

  async countByStatus(): Promise<Record<WebhookDeliveryStatus, number>> {
    const out: Record<WebhookDeliveryStatus, number> = { pending: 0, delivered: 0, dead: 0 };
    for (const d of this.items.values()) out[d.status]++;
    return out;
  }

  async sweep(before: number): Promise<void> {
    for (const [key, d] of this.items) if (d.status === 'delivered' && (d.deliveredAt ?? d.updatedAt) < before) this.items.delete(key);
  }

  /** The lowest `seq` of the pending deliveries to one endpoint, if any. */
  async minPendingSeq(endpoint: string): Promise<number | undefined> {
    let min: number | undefined;
    for (const d of this.items.values()) if (d.endpoint === endpoint && d.status === 'pending' && (min === undefined || d.seq < min)) min = d.seq;
    return min;
  }

  async dropPending(endpoint: string): Promise<number> {
    let n = 0;
    for (const [key, d] of this.items) {
      if (d.endpoint !== endpoint || d.status !== 'pending') continue;
      this.items.delete(key);
      n++;
    }
    return n;
  }

  async close(): Promise<void> {}
}

function publicCopy(d: Held): WebhookDelivery {
  const { leaseOwner: _owner, leaseUntil: _until, seq: _seq, ...rest } = d;
  return { ...rest };
}
