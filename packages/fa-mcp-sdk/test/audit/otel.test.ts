/**
 * Each record as an OpenTelemetry log record, when @opentelemetry/api-logs is installed and a
 * LoggerProvider is registered (here a provider of the test's own, registered through the API
 * after the trail started): the body is the stored line, verifiable like the file; the attributes
 * carry method, subject, target and outcome. Without a provider nothing is emitted, and mcp.audit.otel: false turns it off.
 */
import { logs, type LogRecord } from '@opentelemetry/api-logs';
import { afterEach, describe, expect, it } from 'vitest';
import { createAuditTrail } from '../../src/audit/audit-trail.js';
import { verifyRecords } from '../../src/audit/chain-verify.js';
import { auditConfig, ControlledSink, draft, recordingLogger } from './audit-harness.js';

function register(): LogRecord[] {
  const emitted: LogRecord[] = [];
  logs.setGlobalLoggerProvider({ getLogger: () => ({ emit: (r: LogRecord) => void emitted.push(r), enabled: () => true }) });
  return emitted;
}

afterEach(() => logs.disable());

describe('OpenTelemetry logs', () => {
  it('emits every record once a LoggerProvider is registered', async () => {
    const sink = new ControlledSink();
    const trail = await createAuditTrail({ config: auditConfig({ mode: 'sync', otel: true }), logger: recordingLogger(), sink });
    await trail.record(draft(1)); // no provider yet: nothing
    const emitted = register();
    await trail.record(draft(2, { outcome: { status: 'tool_error' } }));
    await trail.close();
    expect(emitted).toHaveLength(1);
    const [log] = emitted;
    expect(log).toMatchObject({ eventName: 'mcp.audit', severityText: 'INFO', body: sink.lines.at(-1) });
    expect(log?.attributes).toMatchObject({ 'mcp.audit.kind': 'request', 'mcp.method.name': 'tools/call', 'enduser.id': 'alice', 'mcp.audit.target': 'get_sum', 'mcp.audit.outcome': 'tool_error', 'mcp.request.id': 'req-2', 'mcp.audit.seq': 2 });
    async function* one() {
      for (const [i, text] of sink.lines.entries()) yield { ref: `#${i}`, text };
    }
    expect((await verifyRecords(one())).problem).toBeUndefined();
    expect(JSON.parse(String(log?.body))).toEqual(sink.records.at(-1));
  });

  it('emits nothing with mcp.audit.otel false', async () => {
    const emitted = register();
    const trail = await createAuditTrail({ config: auditConfig({ mode: 'sync', otel: false }), logger: recordingLogger(), sink: new ControlledSink() });
    await trail.record(draft(1));
    await trail.close();
    expect(emitted).toEqual([]);
  });
});
