/**
 * What the core and the protocol layer tell the operations side (metrics,
 * tracing, debug channels, trace sink) about the traffic they serve. Only
 * interfaces and a no-op implementation live here: the core never imports
 * prom-client or OpenTelemetry; `ops/telemetry.ts` implements these.
 */
import type { CoreLogger } from './logger-types.js';
import type { Operation } from './pipeline.js';
import type { AuthInfo, ProtocolEra, TraceContext, TransportKind } from './request-context.js';
import type { IAuditFields } from './audit-fields.js';

/** How one tool call ended. Every value is a fixed label value of `mcp_tool_calls_total`. */
export type ToolOutcome =
  | 'ok'
  | 'tool_error'
  | 'invalid_params'
  | 'timeout'
  | 'rate_limited'
  | 'forbidden'
  | 'cancelled'
  /** A 2026-07-28 round answered `input_required` (the handler asked the client; the call comes again with the answer). */
  | 'input_required'
  | 'internal_error';

export interface ToolCallRecord {
  /** A registered tool name, or `unknown` (a client cannot grow the label set). */
  tool: string;
  outcome: ToolOutcome;
  durationMs: number;
  /** Size of the serialized arguments, in bytes. */
  argumentsBytes: number;
  /** Size of the serialized result, in bytes (absent when the call failed). */
  resultBytes?: number;
  /** Which limit refused the call, for `rate_limited`. */
  limit?: 'window' | 'concurrency';
}

/** Records tool calls (the metrics step calls it once per call). */
export interface ToolCallRecorder {
  toolCall(record: ToolCallRecord): void;
}

/** Runs a tool call inside a span (the tracing step calls it once per call). */
export interface ToolCallTracer {
  /** `label` gives the tool's label (registered name or `unknown`) once the call has ended. */
  inSpan(op: Operation, label: () => Promise<string>, fn: () => Promise<unknown>): Promise<unknown>;
}

/** One inbound JSON-RPC request as the protocol layer sees it. */
export interface WireRequest {
  method: string;
  id: string | number;
  params?: Record<string, unknown>;
  era: ProtocolEra;
  transport: TransportKind;
  sessionId?: string;
  /** The HTTP request's headers, when it came over HTTP. */
  headers?: { get(name: string): string | null };
  /** The request id the HTTP front gave the request (X-Request-Id as accepted, or minted); a fresh one otherwise. */
  requestId?: string;
  /** The caller authentication verified (what the audit record names as the principal). */
  auth?: AuthInfo;
  /** The client address after `webServer.trustProxy` (HTTP). */
  remoteAddress?: string;
}

/** What the protocol layer sent back: a result, an error, or nothing (cancelled, connection closed). */
export type WireOutcome =
  /** `source`: the handler's result this answer encodes, when the answer is another object (its size was measured already: the audit record reuses it). */
  | { result: unknown; source?: unknown }
  | { error: { code: number; message: string; data?: unknown } }
  | { cancelled: true };

/** The observation of one request, from arrival to answer. */
export interface WireRequestScope {
  /** The correlation id of the request (HTTP X-Request-Id, or minted). */
  readonly requestId: string;
  /** The W3C trace context the request arrived with (HTTP headers or `_meta`). */
  readonly trace?: TraceContext;
  /** A child logger bound to the request id and trace id. */
  readonly logger?: CoreLogger;
  /** Runs `fn` with the request's span as the active context. */
  run<T>(fn: () => T): T;
  /** What the request's handler adds to its audit record (`params.audit`); undefined with the audit trail off. */
  readonly audit?: IAuditFields;
  /**
   * Ends the observation with how the request was answered. With the audit trail in `sync` mode it
   * returns a promise the answer waits for: resolved once the request's record is durable, rejected
   * (an UpstreamUnavailableError, -32006) when it cannot be written — the answer is then that error.
   */
  end(outcome: WireOutcome): void | Promise<void>;
}

/** Sees every JSON-RPC message of every connection, in both directions. */
export interface WireObserver {
  request(req: WireRequest): WireRequestScope;
  /** A notification received from (`in`) or sent to (`out`) the client. */
  notification(direction: 'in' | 'out', method: string, params: unknown, era: ProtocolEra, transport: TransportKind): void;
  /** A request the server sends to the client (sampling, elicitation, roots). */
  outboundRequest(method: string, id: string | number): void;
  /** A connection opened; the returned function is called when it closes. */
  connection(era: ProtocolEra, transport: TransportKind): () => void;
}

/** The operations side of a server, as the core and the adapters see it. */
export interface Telemetry {
  wire: WireObserver;
  /**
   * Counts an authentication or authorization failure: metric
   * `mcp_auth_failures_total{reason}` and debug channel `mcp:auth`.
   * Reasons outside AUTH_FAILURE_REASONS are counted as `other`.
   */
  authFailure(reason: string, detail?: Record<string, unknown>): void;
}

/** The label values of `mcp_auth_failures_total`. */
export const AUTH_FAILURE_REASONS = [
  'missing_credentials',
  'malformed',
  'invalid_signature',
  'expired',
  'not_yet_valid',
  'wrong_issuer',
  'wrong_audience',
  'unknown_key',
  'revoked',
  'insufficient_scope',
  'forbidden_group',
  'jwks_unavailable',
  'throttled',
  // POST /oauth/token: client authentication, the grant type, and the checks of an ID-JAG
  'invalid_client',
  'unsupported_grant_type',
  'invalid_scope',
  'wrong_type',
  'wrong_resource',
  'wrong_client',
  'replayed',
  'other',
] as const;

const noopScope = (requestId: string, trace?: TraceContext): WireRequestScope => ({
  requestId,
  ...(trace ? { trace } : {}),
  run: (fn) => fn(),
  end: () => undefined,
});

/** A Telemetry that observes nothing (the default of `createCore`). */
export function noopTelemetry(mintId: () => string): Telemetry {
  return {
    wire: {
      request: (req) => noopScope(req.requestId ?? mintId()),
      notification: () => undefined,
      outboundRequest: () => undefined,
      connection: () => () => undefined,
    },
    authFailure: () => undefined,
  };
}
