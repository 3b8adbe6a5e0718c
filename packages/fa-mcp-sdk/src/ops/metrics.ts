/**
 * The server's Prometheus metrics, in a registry of its own (never
 * prom-client's global one, so two servers in one process do not collide).
 *
 * Label values come only from fixed lists or registered names: an unknown
 * method or tool is counted as `unknown`, so a client cannot grow the label set.
 */
import type { Counter, Histogram, Registry } from 'prom-client';
import { AUTH_FAILURE_REASONS, type ToolCallRecord, type ToolCallRecorder } from '../core/telemetry.js';
import type { ProtocolEra, TransportKind } from '../core/request-context.js';
import { MCP_METHODS } from '../core/methods.js';
import { collectDefaultMetrics, promMetricClasses } from './prom-client-lib.js';

/** MCP methods counted by name (core/methods.ts); any other method is `unknown`. */
export const KNOWN_METHODS: ReadonlySet<string> = new Set(MCP_METHODS);

/** Outcome label of an MCP request, from the JSON-RPC error code of its answer. */
export type RequestOutcome = 'ok' | 'tool_error' | 'invalid_params' | 'method_not_found' | 'rate_limited' | 'timeout' | 'forbidden' | 'cancelled' | 'error';

const SIZE_BUCKETS = [64, 256, 1024, 4096, 16_384, 65_536, 262_144, 1_048_576, 4_194_304, 16_777_216];
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const HTTP_METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);
const AUTH_REASONS: ReadonlySet<string> = new Set(AUTH_FAILURE_REASONS);

export type TaskCounts = () => Record<string, number> | Promise<Record<string, number>>;

export interface ServerMetricsOptions {
  processMetrics: boolean;
  /** Constant labels on every metric (e.g. `{ server: 'my-server' }`). */
  defaultLabels?: Record<string, string>;
}

export class ServerMetrics implements ToolCallRecorder {
  /** The registry `/metrics` serves; register your own metrics here. */
  readonly registry: Registry;
  private readonly requests: Counter<'method' | 'outcome'>;
  private readonly toolCalls: Counter<'tool' | 'outcome'>;
  private readonly toolLatency: Histogram<'tool'>;
  private readonly toolArgs: Histogram<'tool'>;
  private readonly toolResults: Histogram<'tool'>;
  private readonly rateLimited: Counter<'tool' | 'limit'>;
  private readonly authFailures: Counter<'reason'>;
  private readonly notifications: Counter<'direction' | 'method'>;
  private readonly restRequests: Counter<'route' | 'method' | 'status'>;
  private readonly sessionSources = new Map<string, { era: string; transport: string; count: () => number }>();
  private readonly connections = new Map<string, number>();
  private taskCounts: TaskCounts | undefined;
  private processMetricsPending: boolean;

  constructor(opts: ServerMetricsOptions) {
    // prom-client loads with the first ServerMetrics, not with the package (CommonJS, so required in place, class by class)
    const { Counter, Gauge, Histogram, Registry } = promMetricClasses();
    this.registry = new Registry();
    if (opts.defaultLabels) this.registry.setDefaultLabels(opts.defaultLabels);
    const registers = [this.registry];
    this.requests = new Counter({ name: 'mcp_requests_total', help: 'MCP requests by method and outcome.', labelNames: ['method', 'outcome'], registers });
    this.toolCalls = new Counter({ name: 'mcp_tool_calls_total', help: 'Tool calls by tool and outcome.', labelNames: ['tool', 'outcome'], registers });
    this.toolLatency = new Histogram({
      name: 'mcp_tool_call_duration_seconds',
      help: 'Tool call latency, from arrival in the pipeline to its result or error.',
      labelNames: ['tool'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.toolArgs = new Histogram({ name: 'mcp_tool_arguments_bytes', help: 'Size of tool call arguments (JSON).', labelNames: ['tool'], buckets: SIZE_BUCKETS, registers });
    this.toolResults = new Histogram({ name: 'mcp_tool_result_bytes', help: 'Size of tool results (JSON).', labelNames: ['tool'], buckets: SIZE_BUCKETS, registers });
    this.rateLimited = new Counter({ name: 'mcp_rate_limit_refusals_total', help: 'Tool calls refused by a rate limit or concurrency cap.', labelNames: ['tool', 'limit'], registers });
    this.authFailures = new Counter({ name: 'mcp_auth_failures_total', help: 'Authentication and authorization failures by reason.', labelNames: ['reason'], registers });
    this.notifications = new Counter({ name: 'mcp_notifications_total', help: 'Notifications received (in) and sent (out).', labelNames: ['direction', 'method'], registers });

    this.restRequests = new Counter({
      name: 'mcp_rest_requests_total',
      help: 'REST requests by declared route, HTTP method and status code.',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    const sessions = (): Array<{ era: string; transport: string; value: number }> => {
      const out = new Map<string, { era: string; transport: string; value: number }>();
      const add = (era: string, transport: string, value: number) => {
        const key = `${era}|${transport}`;
        const prev = out.get(key);
        out.set(key, { era, transport, value: (prev?.value ?? 0) + value });
      };
      for (const s of this.sessionSources.values()) add(s.era, s.transport, safeCount(s.count));
      for (const [key, value] of this.connections) {
        const [era = '', transport = ''] = key.split('|');
        add(era, transport, value);
      }
      return [...out.values()];
    };
    new Gauge({
      name: 'mcp_active_sessions',
      help: 'Open sessions and connections by protocol era and transport.',
      labelNames: ['era', 'transport'],
      registers,
      collect() {
        this.reset();
        for (const s of sessions()) this.set({ era: s.era, transport: s.transport }, s.value);
      },
    });
    const taskSource = () => this.taskCounts;
    new Gauge({
      name: 'mcp_tasks',
      help: 'Tasks by status.',
      labelNames: ['status'],
      registers,
      async collect() {
        this.reset();
        const source = taskSource();
        if (!source) return;
        try {
          for (const [status, n] of Object.entries(await source())) this.set({ status }, n);
        } catch {
          // a failing task store must not break the scrape
        }
      },
    });
    this.processMetricsPending = opts.processMetrics;
  }

  /**
   * Starts prom-client's process and Node.js runtime metrics (`processMetrics`), once. The server
   * calls it right after its first answers (init-mcp-server.ts), so a start does not wait for them:
   * they cost a stdio start 25–50 ms and load OpenTelemetry's API (prom-client's exemplars). A scrape
   * that comes earlier starts them first.
   */
  startProcessMetrics(): void {
    if (!this.processMetricsPending) return;
    this.processMetricsPending = false;
    collectDefaultMetrics()({ register: this.registry });
  }

  /** Counts one answered (or cancelled) MCP request. */
  request(method: string, outcome: RequestOutcome): void {
    this.requests.inc({ method: KNOWN_METHODS.has(method) ? method : 'unknown', outcome });
  }

  toolCall(record: ToolCallRecord): void {
    const tool = record.tool;
    this.toolCalls.inc({ tool, outcome: record.outcome });
    this.toolLatency.observe({ tool }, record.durationMs / 1000);
    this.toolArgs.observe({ tool }, record.argumentsBytes);
    if (record.resultBytes !== undefined) this.toolResults.observe({ tool }, record.resultBytes);
    if (record.outcome === 'rate_limited') this.rateLimited.inc({ tool, limit: record.limit ?? 'window' });
  }

  /** `mcp_auth_failures_total{reason}`; a reason outside AUTH_FAILURE_REASONS counts as `other`. */
  authFailure(reason: string): void {
    this.authFailures.inc({ reason: AUTH_REASONS.has(reason) ? reason : 'other' });
  }

  notification(direction: 'in' | 'out', method: string): void {
    this.notifications.inc({ direction, method: method.startsWith('notifications/') && method.length <= 64 && /^[a-z/_]+$/.test(method) ? method : 'unknown' });
  }

  /** Counts one REST answer; `route` is the declared path template (or `unmatched`). */
  restRequest(route: string, method: string, status: number): void {
    this.restRequests.inc({ route, method: HTTP_METHODS.has(method) ? method : 'OTHER', status: String(status) });
  }

  /** Adds a live count of sessions (e.g. the HTTP session manager's size) to `mcp_active_sessions`. */
  addSessionSource(key: string, era: ProtocolEra, transport: TransportKind, count: () => number): void {
    this.sessionSources.set(key, { era, transport, count });
  }

  /** A long-lived connection opened (stdio, legacy SSE); returns its close function. */
  connectionOpened(era: ProtocolEra, transport: TransportKind): () => void {
    const key = `${era}|${transport}`;
    this.connections.set(key, (this.connections.get(key) ?? 0) + 1);
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      this.connections.set(key, Math.max(0, (this.connections.get(key) ?? 1) - 1));
    };
  }

  /** The task manager's count of tasks by status, read at every scrape (`mcp_tasks{status}`). */
  observeTasks(counts: TaskCounts): void {
    this.taskCounts = counts;
  }

  /** The exposition text and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    this.startProcessMetrics();
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

function safeCount(count: () => number): number {
  try {
    const n = count();
    return Number.isFinite(n) ? n : 0;
  } catch {
    return 0;
  }
}
