/**
 * Prometheus metrics of the Events extension, in the server's registry: occurrences emitted,
 * delivered and failed per event type and mode, emit-to-delivery latency per mode, open push
 * streams. Labels are bounded: event types are the declared ones, modes are three.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { DeliveryMetrics } from '../webhooks/webhook-dispatcher.js';
import type { TEventDeliveryMode } from './event-types.js';

const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

export class EventMetrics {
  private readonly emittedTotal: Counter<'event'>;
  private readonly refusedTotal: Counter<'event' | 'reason'>;
  private readonly deliveredTotal: Counter<'event' | 'mode'>;
  private readonly failedTotal: Counter<'event' | 'mode'>;
  private readonly latency: Histogram<'mode'>;

  constructor(registry: Registry, openStreams: () => number) {
    const registers = [registry];
    this.emittedTotal = new Counter({ name: 'mcp_events_emitted_total', help: 'Occurrences emitted (stored) by event type.', labelNames: ['event'], registers });
    this.refusedTotal = new Counter({ name: 'mcp_events_refused_total', help: 'Emits refused (payload schema, size) by event type and reason.', labelNames: ['event', 'reason'], registers });
    this.deliveredTotal = new Counter({ name: 'mcp_events_delivered_total', help: 'Occurrences delivered by event type and mode (poll: returned by events/poll).', labelNames: ['event', 'mode'], registers });
    this.failedTotal = new Counter({ name: 'mcp_events_failed_total', help: 'Failed deliveries by event type and mode (webhook: attempts; push: streams ended by an error).', labelNames: ['event', 'mode'], registers });
    this.latency = new Histogram({
      name: 'mcp_events_delivery_latency_seconds',
      help: 'From an occurrence\'s timestamp to its delivery, by mode.',
      labelNames: ['mode'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    new Gauge({
      name: 'mcp_events_streams_open',
      help: 'events/stream requests open on this instance.',
      registers,
      collect() {
        this.set(openStreams());
      },
    });
  }

  emitted(event: string): void {
    this.emittedTotal.inc({ event });
  }

  refused(event: string, reason: 'schema' | 'size'): void {
    this.refusedTotal.inc({ event, reason });
  }

  /** `timestamp`: the occurrence's (epoch ms). */
  delivered(event: string, mode: TEventDeliveryMode, timestamp: number, count = 1): void {
    this.deliveredTotal.inc({ event, mode }, count);
    this.latency.observe({ mode }, Math.max(0, Date.now() - timestamp) / 1000);
  }

  failed(event: string, mode: TEventDeliveryMode): void {
    this.failedTotal.inc({ event, mode });
  }

  /** What the webhook dispatcher reports, by event type (its endpoints are subscription ids: not a label). */
  webhookDeliveries(): DeliveryMetrics {
    return {
      attempted: () => undefined,
      delivered: (_endpoint, latencySeconds, type) => {
        this.deliveredTotal.inc({ event: type, mode: 'webhook' });
        this.latency.observe({ mode: 'webhook' }, latencySeconds);
      },
      failedAttempt: (_endpoint, _outcome, type) => this.failedTotal.inc({ event: type, mode: 'webhook' }),
    };
  }
}
