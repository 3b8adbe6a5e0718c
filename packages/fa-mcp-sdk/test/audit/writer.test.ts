/**
 * The promise of each mode, on a sink the test holds or breaks:
 * - async: record() resolves at once; past the queue's bound new records are dropped, counted on
 *   mcp_audit_dropped_total, logged once per window, and noted in the chain by a `dropped` record,
 *   so the chain stays whole and says where it is incomplete; a failing sink keeps its batch and
 *   writes it once it is back.
 * - sync: record() resolves only after the sink took the record, durably; records arriving while a
 *   batch is written go together in the next one; a record the sink refuses rejects with -32006,
 *   and the request is recorded as failed (with the outcome its handler had) once the sink is back;
 *   /ready says the sink is failing.
 * - a handler's fields land under `extra`, over the cap only as a note of their size.
 */
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createAuditTrail } from '../../src/audit/audit-trail.js';
import { verifyRecords } from '../../src/audit/chain-verify.js';
import { AuditFields } from '../../src/core/audit-fields.js';
import { UpstreamUnavailableError } from '../../src/core/errors.js';
import { auditConfig, ControlledSink, draft, recordingLogger } from './audit-harness.js';

async function metric(registry: Registry, name: string): Promise<Array<{ value: number; labels: Record<string, string | number> }>> {
  const m = await registry.getSingleMetric(name)?.get();
  return (m?.values ?? []).map((v) => ({ value: v.value, labels: v.labels as Record<string, string | number> }));
}

async function* stored(lines: readonly string[]) {
  for (const [i, text] of lines.entries()) yield { ref: `#${i + 1}`, text };
}

/** Resolves when `check` holds, polling each event-loop turn; fails after the deadline. */
async function until(check: () => boolean, deadlineMs = 5000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met before the deadline');
    await new Promise((r) => setImmediate(r));
  }
}

describe('async mode', () => {
  it('drops what the queue cannot hold, counts and logs it once per window, and notes it in the chain', async () => {
    const sink = new ControlledSink();
    const registry = new Registry();
    const logger = recordingLogger();
    const trail = await createAuditTrail({ config: auditConfig({ mode: 'async', queueSize: 5, batchSize: 5, windowMs: 60_000 }), logger, sink, registry });
    sink.hold();
    const held = sink.held();
    for (let i = 0; i < 5; i++) await trail.record(draft(i)); // a full batch: written at once, and held
    await held;
    // the batch left the queue; the queue takes 5 more, the next 3 are dropped
    for (let i = 5; i < 13; i++) await expect(trail.record(draft(i))).resolves.toBeUndefined();
    expect(await metric(registry, 'mcp_audit_dropped_total')).toEqual([{ value: 3, labels: { reason: 'queue_full' } }]);
    expect(await metric(registry, 'mcp_audit_queue')).toEqual([{ value: 5, labels: {} }]);
    sink.release();
    await trail.flush();
    await trail.close(); // logs what was not logged yet (the window is a minute here)
    const warnings = logger.lines.filter((l) => l.msg === 'audit: records dropped');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.obj).toMatchObject({ dropped: { queue_full: 3 }, total: 3 });

    const kinds = sink.records.map((r) => r.kind);
    expect(kinds).toEqual(['chain_start', 'request', 'request', 'request', 'request', 'request', 'dropped', 'request', 'request', 'request', 'request', 'request']);
    expect(sink.records.find((r) => r.kind === 'dropped')?.dropped).toMatchObject({ count: 3, reasons: { queue_full: 3 } });
    expect(sink.records.filter((r) => r.kind === 'request').map((r) => r.requestId)).toEqual(['req-0', 'req-1', 'req-2', 'req-3', 'req-4', 'req-5', 'req-6', 'req-7', 'req-8', 'req-9']);
    const walk = await verifyRecords(stored(sink.lines));
    expect(walk.problem).toBeUndefined();
    expect(walk.count).toBe(12);
    expect(await metric(registry, 'mcp_audit_records_total')).toEqual([{ value: 12, labels: {} }]);
  });

  it('keeps a batch the sink refused and writes it once the sink is back; /ready fails meanwhile', async () => {
    const sink = new ControlledSink();
    const registry = new Registry();
    const trail = await createAuditTrail({ config: auditConfig({ mode: 'async', windowMs: 5 }), logger: recordingLogger(), sink, registry });
    const ready = trail.readinessCheck();
    sink.failWith = new Error('disk full');
    await trail.record(draft(1));
    await trail.record(draft(2));
    await until(() => trail.readinessCheck() !== undefined && sink.appends >= 2);
    await expect(ready?.check(new AbortController().signal)).rejects.toThrow('test:memory: disk full');
    expect(await metric(registry, 'mcp_audit_write_failures_total')).not.toEqual([{ value: 0, labels: {} }]);
    sink.failWith = undefined;
    await until(() => sink.records.filter((r) => r.kind === 'request').length === 2);
    await expect(ready?.check(new AbortController().signal)).resolves.toBeUndefined();
    expect(await metric(registry, 'mcp_audit_dropped_total')).toEqual([]);
    await trail.close();
  });
});

describe('sync mode', () => {
  it('resolves only once the record was appended durably, several requests in one batch', async () => {
    const sink = new ControlledSink();
    const trail = await createAuditTrail({ config: auditConfig({ mode: 'sync' }), logger: recordingLogger(), sink });
    sink.hold();
    const held = sink.held();
    let done = false;
    const first = trail.record(draft(1)).then(() => (done = true));
    await held;
    // requests answered meanwhile wait for the next batch
    const others = [trail.record(draft(2)), trail.record(draft(3)), trail.record(draft(4))];
    expect(done).toBe(false);
    expect(sink.records.some((r) => r.requestId === 'req-1')).toBe(false);
    sink.release();
    await first;
    await Promise.all(others);
    expect(sink.records.filter((r) => r.kind === 'request').map((r) => r.requestId)).toEqual(['req-1', 'req-2', 'req-3', 'req-4']);
    expect(sink.appends).toBe(3); // the start, req-1, then req-2..4 together
    expect(sink.durableAppends).toBe(3);
    await trail.close();
  });

  it('rejects with -32006 when the record cannot be written, then records the request as failed', async () => {
    const sink = new ControlledSink();
    const trail = await createAuditTrail({ config: auditConfig({ mode: 'sync', windowMs: 5 }), logger: recordingLogger(), sink });
    sink.failWith = new Error('connection refused');
    const err = await trail.record(draft(7, { outcome: { status: 'tool_error' } })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamUnavailableError);
    expect((err as UpstreamUnavailableError).code).toBe(-32006);
    expect((err as UpstreamUnavailableError).data).toEqual({ reason: 'audit_unavailable' });
    await expect(trail.readinessCheck()?.check(new AbortController().signal)).rejects.toThrow('connection refused');
    sink.failWith = undefined;
    await until(() => sink.records.some((r) => r.requestId === 'req-7'));
    expect(sink.records.find((r) => r.requestId === 'req-7')?.outcome).toEqual({ status: 'error', code: -32006, reason: 'audit_unavailable', original: 'tool_error' });
    // and the next request is served and recorded normally
    await trail.record(draft(8));
    expect(sink.records.at(-1)?.requestId).toBe('req-8');
    const walk = await verifyRecords(stored(sink.lines));
    expect(walk.problem).toBeUndefined();
    await trail.close();
  });

  it('refuses a record when the queue is full instead of waiting without bound', async () => {
    const sink = new ControlledSink();
    const trail = await createAuditTrail({ config: auditConfig({ mode: 'sync', queueSize: 2, batchSize: 1 }), logger: recordingLogger(), sink });
    sink.hold();
    const held = sink.held();
    const pending = [trail.record(draft(1))];
    await held;
    pending.push(trail.record(draft(2)), trail.record(draft(3)));
    await expect(trail.record(draft(4))).rejects.toMatchObject({ code: -32006 });
    sink.release();
    await Promise.all(pending);
    await trail.close();
  });
});

describe('fields of the handler', () => {
  it('are recorded under extra, and replaced by a note of their size past the cap', async () => {
    const sink = new ControlledSink();
    const trail = await createAuditTrail({ config: auditConfig({ mode: 'sync', maxExtraBytes: 64 }), logger: recordingLogger(), sink });
    const fields = new AuditFields();
    fields.set('order', { id: 'o-1', total: 12.5 });
    expect(() => fields.set('1bad', 1)).toThrow(TypeError);
    expect(() => fields.set('fn', () => 1)).toThrow(TypeError);
    await trail.record(draft(1, { extra: fields.fields() }));
    const big = new AuditFields();
    big.set('blob', 'x'.repeat(100));
    await trail.record(draft(2, { extra: big.fields() }));
    await trail.record(draft(3, { extra: new AuditFields().fields() }));
    const [a, b, c] = sink.records.filter((r) => r.kind === 'request');
    expect(a?.extra).toEqual({ order: { id: 'o-1', total: 12.5 } });
    expect(b?.extra).toEqual({ _truncated: { bytes: 111, max: 64 } });
    expect(c && 'extra' in c).toBe(false);
    await trail.close();
  });
});
