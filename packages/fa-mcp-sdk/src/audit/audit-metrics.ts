/**
 * Prometheus metrics of the audit trail, in the server's registry: records written, records
 * dropped by reason (`mcp_audit_dropped_total`: queue_full, sink_error, closed), failed appends,
 * and the queue's depth.
 */
import { Counter, Gauge, type Registry } from 'prom-client';

export type AuditDropReason = 'queue_full' | 'sink_error' | 'closed';

export class AuditMetrics {
  private readonly writtenTotal: Counter;
  private readonly droppedTotal: Counter<'reason'>;
  private readonly failuresTotal: Counter;

  constructor(registry: Registry, depth: () => number) {
    const registers = [registry];
    this.writtenTotal = new Counter({ name: 'mcp_audit_records_total', help: 'Audit records written to the sink.', registers });
    this.droppedTotal = new Counter({ name: 'mcp_audit_dropped_total', help: 'Audit records dropped (async mode: queue full, sink failing; at shutdown: not written in time), by reason.', labelNames: ['reason'], registers });
    this.failuresTotal = new Counter({ name: 'mcp_audit_write_failures_total', help: 'Appends of a batch of audit records that failed.', registers });
    new Gauge({
      name: 'mcp_audit_queue',
      help: 'Audit records waiting to be written.',
      registers,
      collect() {
        this.set(depth());
      },
    });
  }

  written(n: number): void {
    this.writtenTotal.inc(n);
  }

  dropped(reason: AuditDropReason, n = 1): void {
    this.droppedTotal.inc({ reason }, n);
  }

  failed(): void {
    this.failuresTotal.inc();
  }
}
