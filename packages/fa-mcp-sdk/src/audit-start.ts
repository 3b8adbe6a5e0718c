/**
 * The audit trail of one server (`mcp.audit`, page 13) and where it is fed
 * from: every request's observation as it ends (ops/wire-observer.ts: one
 * record per request, every method, era, transport and route), HTTP answers
 * of 400 and above that no request's observation covered (refusals before the
 * pipeline: authentication, Host/Origin, body size, throttling, unknown
 * sessions), and every change of a task on the instance that makes it. In
 * `sync` mode a gate step refuses requests up front while the sink fails, so
 * nothing is served unrecorded.
 */
import type { AppConfig } from './config/schema.js';
import type { CoreLogger } from './core/logger-types.js';
import { UpstreamUnavailableError } from './core/errors.js';
import type { PipelineStep } from './core/pipeline.js';
import type { ReadinessCheck } from './ops/health.js';
import type { Databases } from './db/databases.js';
import type { ITaskRecord } from './tasks/task-types.js';
import type { UnobservedAnswer } from './transport/http/request-front.js';
import { DISABLED_AUDIT_TRAIL, type AuditTrail } from './audit/audit-trail-api.js';
import { auditPrincipal } from './audit/audit-principal.js';
import type { AuditOutcome, AuditTaskDraft } from './audit/audit-record.js';
import type { Registry } from 'prom-client';

export interface ServerAudit {
  trail: AuditTrail;
  /** The first pipeline step in `sync` mode: refuses a request while the sink fails (-32006). */
  gate?: PipelineStep;
  /** Records an HTTP refusal no request's observation covered. */
  refusal?: (answer: UnobservedAnswer) => void;
  /** Records a change of a task made on this instance. */
  taskChanged?: (record: ITaskRecord, change: 'created' | 'status') => void;
  readinessCheck?: ReadinessCheck;
}

export interface AuditStartOptions {
  config: AppConfig;
  logger: CoreLogger;
  databases: Databases;
  cwd: string;
  registry?: Registry;
}

/** The refusal reason of an HTTP status answered before the pipeline. */
function refusalReason(status: number): string {
  switch (status) {
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 413:
      return 'payload_too_large';
    case 429:
      return 'rate_limited';
    case 404:
      return 'not_found';
    case 405:
      return 'method_not_allowed';
    case 415:
      return 'unsupported_media_type';
    default:
      return status >= 500 ? 'unavailable' : 'bad_request';
  }
}

export async function startAudit(opts: AuditStartOptions): Promise<ServerAudit> {
  const { config } = opts;
  if (config.mcp.audit.sink === 'off') return { trail: DISABLED_AUDIT_TRAIL };
  const { createAuditTrail } = await import('./audit/audit-trail.js');
  const { defaultAuditInstance } = await import('./audit/audit-config.js');
  const trail = await createAuditTrail({
    config: config.mcp,
    logger: opts.logger.child({ component: 'audit' }),
    instance: defaultAuditInstance(config.mcp.transportType, config.webServer.port),
    cwd: opts.cwd,
    databases: opts.databases,
    pool: () => opts.databases.get(config.mcp.audit.database).pool(),
    ...(opts.registry ? { registry: opts.registry } : {}),
  });
  const record = (draft: Parameters<AuditTrail['record']>[0]) => void trail.record(draft).catch(() => undefined);
  const audit: ServerAudit = {
    trail,
    refusal: (answer) => {
      const outcome: AuditOutcome = { httpStatus: answer.status, reason: refusalReason(answer.status), status: 'refused' };
      record({
        requestId: answer.requestId,
        transport: 'http',
        remoteAddress: answer.remoteAddress,
        principal: null,
        method: null,
        target: { kind: 'http', name: `${answer.req.method ?? ''} ${(answer.req.url ?? '').split('?')[0] ?? ''}` },
        outcome,
        durationMs: answer.durationMs,
      });
    },
    taskChanged: (task, change) => {
      const caller = task.caller;
      const draft: AuditTaskDraft = {
        kind: 'task',
        task: { id: task.taskId, status: change === 'created' ? 'created' : task.status, ...(task.statusMessage ? { statusMessage: task.statusMessage } : {}), tool: task.toolName },
        ...(caller ? { era: caller.era } : {}),
      };
      const actor = caller ? auditPrincipal(caller.subject !== undefined ? { subject: caller.subject, scopes: caller.scopes, groups: caller.groups, claims: {} } : undefined) : null;
      if (actor) draft.actor = actor;
      record(draft);
    },
  };
  const check = trail.readinessCheck();
  if (check) audit.readinessCheck = check;
  if (trail.mode === 'sync') {
    audit.gate = {
      name: 'audit-gate',
      run(_op, next) {
        if (trail.available()) return next();
        return Promise.reject(
          new UpstreamUnavailableError('The audit trail cannot record this request now (mcp.audit.mode: sync); it is refused rather than served unrecorded', {
            reason: 'audit_unavailable',
          }),
        );
      },
    };
  }
  return audit;
}
