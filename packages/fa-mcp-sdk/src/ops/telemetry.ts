/**
 * Builds the operations side of one server from its configuration: metrics
 * (own registry), tracing, debug channels, trace sink, and the pipeline steps
 * that observe tool calls. Passed to the core as its `Telemetry`.
 */
import type { AppConfig } from '../config/schema.js';
import type { CoreLogger } from '../core/core.js';
import type { Operation, PipelineStep } from '../core/pipeline.js';
import type { Registry as ToolRegistry } from '../core/registry.js';
import { toolMetricsStep } from '../core/steps/tool-metrics.js';
import { toolTraceStep } from '../core/steps/tool-trace.js';
import type { Telemetry } from '../core/telemetry.js';
import { createDebugChannels, type DebugChannels } from './debug-channels.js';
import { ServerMetrics } from './metrics.js';
import { TraceSink, type TraceEvent } from './trace-sink.js';
import type { Tracing } from './tracing.js';
import { createWireObserver, type WireObserverParts } from './wire-observer.js';
import type { AuditTrail } from '../audit/audit-trail-api.js';

export interface ServerTelemetry {
  telemetry: Telemetry;
  metrics?: ServerMetrics;
  tracing?: Tracing;
  sink?: TraceSink;
  debug: DebugChannels;
  /** The tool-call observation steps, given the registry that knows the tool names. */
  steps(registry: ToolRegistry): PipelineStep[];
  /** Writes an event of your own to the trace sink (no-op when `mcp.debug.logFile` is empty). */
  emitTrace(event: TraceEvent): void;
  /** Records every request's observation in the audit trail from now on (made after the operations side: it needs its registry). */
  useAudit(trail: AuditTrail): void;
  close(): Promise<void>;
}

export interface TelemetryInput {
  config: AppConfig;
  logger: CoreLogger;
  serverName: string;
  /** Version of fa-mcp-sdk (the tracer's version). */
  sdkVersion: string;
}

/** Tracing loads @opentelemetry/api: only when it is on (a start with tracing off does not load the API for it). */
export async function createServerTelemetry({ config, logger, serverName, sdkVersion }: TelemetryInput): Promise<ServerTelemetry> {
  const debug = createDebugChannels();
  const m = config.webServer.metrics;
  const metrics = m.enabled ? new ServerMetrics({ processMetrics: m.processMetrics }) : undefined;
  const tracing = config.tracing.enabled ? new (await import('./tracing.js')).Tracing(sdkVersion) : undefined;
  const sink = config.mcp.debug.logFile
    ? new TraceSink({ file: config.mcp.debug.logFile, maxEntryBytes: config.mcp.debug.maxEntryBytes, logger })
    : undefined;
  const parts: WireObserverParts = { logger, debug, ...(metrics ? { metrics } : {}), ...(tracing ? { tracing } : {}), ...(sink ? { sink } : {}) };
  const wire = createWireObserver(parts);

  const telemetry: Telemetry = {
    wire,
    authFailure(reason, detail) {
      metrics?.authFailure(reason);
      debug.auth('auth failure: %s %O', reason, detail ?? {});
      sink?.emit({ kind: 'auth_failure', reason, ...(detail ? { data: detail } : {}) });
    },
  };
  logger.debug({ server: serverName, metrics: !!metrics, tracing: !!tracing, traceFile: sink ? config.mcp.debug.logFile : undefined }, 'telemetry ready');

  return {
    telemetry,
    ...(metrics ? { metrics } : {}),
    ...(tracing ? { tracing } : {}),
    ...(sink ? { sink } : {}),
    debug,
    steps(registry) {
      const isRegistered = async (name: string, op: Operation) => !!(await registry.findTool(name, op.ctx));
      return [...(tracing ? [toolTraceStep(tracing, isRegistered)] : []), ...(metrics ? [toolMetricsStep({ recorder: metrics, isRegistered })] : [])];
    },
    emitTrace: (event) => sink?.emit(event),
    useAudit(trail) {
      parts.audit = trail;
    },
    async close() {
      await sink?.close();
    },
  };
}
