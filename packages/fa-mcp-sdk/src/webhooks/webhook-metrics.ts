/**
 * Prometheus metrics of the webhooks, in the server's registry: deliveries
 * sent, failed attempts, retries, dead events, the outbox depth by status, and
 * latency (event creation to delivery; one attempt). Labels are the configured
 * endpoint names only.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { WebhookDeliveryStatus } from './webhook-types.js';

const LATENCY_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600];

export class WebhookMetrics {
  private readonly sent: Counter<'endpoint'>;
  private readonly failed: Counter<'endpoint'>;
  private readonly retried: Counter<'endpoint'>;
  private readonly dead: Counter<'endpoint'>;
  private readonly latency: Histogram<'endpoint'>;
  private readonly attemptDuration: Histogram<'endpoint'>;

  constructor(registry: Registry, depth: () => Promise<Record<WebhookDeliveryStatus, number>>) {
    const registers = [registry];
    this.sent = new Counter({ name: 'mcp_webhooks_sent_total', help: 'Webhook events delivered (2xx) by endpoint.', labelNames: ['endpoint'], registers });
    this.failed = new Counter({ name: 'mcp_webhooks_failed_attempts_total', help: 'Webhook attempts that failed by endpoint.', labelNames: ['endpoint'], registers });
    this.retried = new Counter({ name: 'mcp_webhooks_retried_total', help: 'Webhook events scheduled for another attempt by endpoint.', labelNames: ['endpoint'], registers });
    this.dead = new Counter({ name: 'mcp_webhooks_dead_total', help: 'Webhook events given up (dead) by endpoint.', labelNames: ['endpoint'], registers });
    this.latency = new Histogram({
      name: 'mcp_webhooks_delivery_latency_seconds',
      help: 'From send() to the delivery of a webhook event.',
      labelNames: ['endpoint'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.attemptDuration = new Histogram({
      name: 'mcp_webhooks_attempt_duration_seconds',
      help: 'Duration of one webhook HTTP attempt.',
      labelNames: ['endpoint'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    new Gauge({
      name: 'mcp_webhooks_outbox',
      help: 'Webhook events in the outbox by status (pending is the depth).',
      labelNames: ['status'],
      registers,
      async collect() {
        this.reset();
        try {
          for (const [status, n] of Object.entries(await depth())) this.set({ status }, n);
        } catch {
          // the store is unreachable: report nothing rather than fail the scrape
        }
      },
    });
  }

  attempted(endpoint: string, seconds: number): void {
    this.attemptDuration.observe({ endpoint }, seconds);
  }

  delivered(endpoint: string, latencySeconds: number): void {
    this.sent.inc({ endpoint });
    this.latency.observe({ endpoint }, latencySeconds);
  }

  failedAttempt(endpoint: string, outcome: 'retry' | 'dead'): void {
    this.failed.inc({ endpoint });
    if (outcome === 'retry') this.retried.inc({ endpoint });
    else this.dead.inc({ endpoint });
  }
}
