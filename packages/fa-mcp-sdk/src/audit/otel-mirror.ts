/**
 * Each audit record also as an OpenTelemetry log record, for a server that ships logs through an
 * OpenTelemetry logs SDK: only when `@opentelemetry/api-logs` is installed (an optional peer,
 * never loaded otherwise) and a LoggerProvider is registered, which the API's own `enabled()` tells
 * (checked per batch, so a provider registered after the start is picked up). The body is the
 * record's line, exactly what was hashed plus `hash`, so a copy in a SIEM can be verified too;
 * attributes carry the fields people search by. A failure here never fails the record.
 */
import { loadOptional, MissingPackageError } from '../core/optional-package.js';
import type { AuditRecord } from './audit-record.js';
import { recordOutcome, recordSubject, recordTargetName } from './record-fields.js';

export interface AuditMirror {
  emit(records: readonly AuditRecord[], lines: readonly string[]): void;
}

/** SeverityNumber.INFO of the logs data model. */
const INFO = 9;

function attributes(r: AuditRecord): Record<string, string | number> {
  const out: Record<string, string | number> = { 'mcp.audit.kind': r.kind, 'mcp.audit.instance': r.instance, 'mcp.audit.chain': r.chain, 'mcp.audit.seq': r.seq, 'mcp.audit.hash': r.hash };
  const subject = recordSubject(r);
  const target = recordTargetName(r);
  const outcome = recordOutcome(r);
  if (r.method) out['mcp.method.name'] = r.method;
  if (subject) out['enduser.id'] = subject;
  if (target) out['mcp.audit.target'] = target;
  if (outcome) out['mcp.audit.outcome'] = outcome;
  if (r.requestId) out['mcp.request.id'] = r.requestId;
  if (r.traceId) out.trace_id = r.traceId;
  return out;
}

/** The mirror, or undefined when `@opentelemetry/api-logs` is not installed. */
export async function createOtelMirror(): Promise<AuditMirror | undefined> {
  let api: typeof import('@opentelemetry/api-logs');
  try {
    api = await loadOptional('otelLogs', () => import('@opentelemetry/api-logs'));
  } catch (err) {
    if (err instanceof MissingPackageError) return undefined;
    throw err;
  }
  const logger = api.logs.getLogger('fa-mcp-sdk.audit');
  return {
    emit(records, lines) {
      try {
        if (!logger.enabled({ severityNumber: INFO })) return;
        records.forEach((r, i) => {
          logger.emit({ eventName: 'mcp.audit', timestamp: new Date(r.ts), severityNumber: INFO, severityText: 'INFO', body: lines[i], attributes: attributes(r) });
        });
      } catch {
        // an exporter's failure is the logs pipeline's business, never the record's
      }
    },
  };
}
