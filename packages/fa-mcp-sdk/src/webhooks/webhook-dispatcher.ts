/**
 * Delivers what is due in the outbox: claims a batch for this instance, makes
 * one signed attempt per delivery (the same `webhook-id` on every attempt, a
 * fresh `webhook-timestamp`), and records the verdict of the retry policy.
 * Time comes from an injected clock and timers from an injected scheduler, so
 * tests step through retries without sleeping.
 */
import type { HttpPoster } from './http-delivery.js';
import { judge, type RetrySettings } from './retry-policy.js';
import type { ResolvedEndpoint } from './webhook-endpoint.js';
import type { IWebhookOutbox, WebhookDelivery } from './webhook-types.js';

export interface Scheduler {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realScheduler: Scheduler = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

export interface DispatcherLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

/** What the dispatcher reports of its attempts (webhook-metrics.ts; the Events extension's, by event type). */
export interface DeliveryMetrics {
  attempted(endpoint: string, seconds: number, type: string): void;
  delivered(endpoint: string, latencySeconds: number, type: string): void;
  failedAttempt(endpoint: string, outcome: 'retry' | 'dead', type: string): void;
}

/** Where a delivery's endpoint name leads: the configured endpoints, or (the Events extension) a subscription found in its store. */
export interface EndpointLookup {
  get(name: string): ResolvedEndpoint | undefined | Promise<ResolvedEndpoint | undefined>;
}

export interface DispatcherOptions {
  outbox: IWebhookOutbox;
  endpoints: EndpointLookup;
  post: HttpPoster;
  retry: RetrySettings;
  owner: string;
  leaseMs: number;
  pollIntervalMs: number;
  concurrency: number;
  scheduler: Scheduler;
  random: () => number;
  logger: DispatcherLogger;
  metrics?: DeliveryMetrics;
  userAgent: string;
}

export class WebhookDispatcher {
  private timer: unknown;
  private running: Promise<number> | undefined;
  private again = false;
  private closed = false;

  constructor(private readonly opts: DispatcherOptions) {}

  /** Starts the loop: a batch now, then one every poll interval (and whenever `wake` is called). */
  start(): void {
    this.schedule(0);
  }

  /** Runs a batch soon (after a send on this instance). */
  wake(): void {
    if (this.closed) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  /** Claims and attempts one batch of due deliveries; resolves with how many were attempted. */
  async runOnce(): Promise<number> {
    const { outbox, scheduler, owner } = this.opts;
    const now = scheduler.now();
    const batch = await outbox.claim(owner, now, now + this.opts.leaseMs, this.opts.concurrency);
    await Promise.all(batch.map((d) => this.attempt(d)));
    return batch.length;
  }

  /** Stops the loop and waits for the batch in flight. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== undefined) this.opts.scheduler.clearTimeout(this.timer);
    await this.running?.catch(() => 0);
  }

  private schedule(ms: number): void {
    if (this.closed) return;
    if (this.timer !== undefined) this.opts.scheduler.clearTimeout(this.timer);
    this.timer = this.opts.scheduler.setTimeout(() => void this.loop(), ms);
  }

  private async loop(): Promise<void> {
    this.timer = undefined;
    if (this.closed || this.running) return;
    let attempted = 0;
    this.running = this.runOnce();
    try {
      attempted = await this.running;
    } catch (err) {
      this.opts.logger.warn({ err: (err as Error).message }, 'webhook outbox read failed');
    } finally {
      this.running = undefined;
    }
    // Anything attempted may mean more is due — an ordered outbox hands out one delivery per
    // subscription at a time, so a short batch is no sign of an empty one: go on at once until a
    // claim finds nothing; then wait for the poll interval.
    const more = this.again || attempted > 0;
    this.again = false;
    this.schedule(more ? 0 : this.opts.pollIntervalMs);
  }

  private async attempt(d: WebhookDelivery): Promise<void> {
    const { scheduler, outbox, owner, logger, metrics } = this.opts;
    const endpoint = await this.opts.endpoints.get(d.endpoint);
    const attemptNo = d.attempts + 1;
    const started = scheduler.now();
    const result = endpoint
      ? await this.opts.post({ url: endpoint.url, headers: this.headers(endpoint, d, started), body: d.body, timeoutMs: endpoint.timeoutMs })
      : ({ kind: 'error', error: 'endpoint not configured on this instance' } as const);
    const now = scheduler.now();
    metrics?.attempted(d.endpoint, (now - started) / 1000, d.type);
    const verdict = judge(result, attemptNo, this.opts.retry, now, this.opts.random);
    const log = { webhookId: d.id, endpoint: d.endpoint, type: d.type, attempt: attemptNo, durationMs: now - started };
    if (verdict.action === 'delivered') {
      await outbox.record(d.id, d.endpoint, owner, { outcome: 'delivered', status: verdict.status, now });
      metrics?.delivered(d.endpoint, (now - d.createdAt) / 1000, d.type);
      logger.info({ ...log, status: verdict.status }, 'webhook delivered');
      return;
    }
    const status = verdict.status !== undefined ? { status: verdict.status } : {};
    if (verdict.action === 'retry') {
      await outbox.record(d.id, d.endpoint, owner, { outcome: 'retry', nextAttemptAt: now + verdict.delayMs, error: verdict.error, now, ...status });
      logger.warn({ ...log, ...status, error: verdict.error, retryInMs: verdict.delayMs }, 'webhook attempt failed; will retry');
    } else {
      await outbox.record(d.id, d.endpoint, owner, { outcome: 'dead', error: verdict.error, now, ...status });
      logger.warn({ ...log, ...status, error: verdict.error }, 'webhook event is dead (no more attempts)');
    }
    metrics?.failedAttempt(d.endpoint, verdict.action, d.type);
  }

  private headers(endpoint: ResolvedEndpoint, d: WebhookDelivery, now: number): Record<string, string> {
    const timestamp = Math.floor(now / 1000);
    return {
      ...endpoint.headers,
      'content-type': 'application/json',
      'user-agent': this.opts.userAgent,
      'webhook-id': d.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': endpoint.signer.sign(d.id, timestamp, d.body),
    };
  }
}
