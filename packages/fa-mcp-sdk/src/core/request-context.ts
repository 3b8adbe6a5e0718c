/**
 * The context every request carries through the pipeline, whatever its
 * transport and protocol era.
 */
import type { IAuditFields } from './audit-fields.js';
import type { IClientChannel } from './client-channel-types.js';
import type { CoreLogger } from './logger-types.js';
import type { IMcpSession } from './session-types.js';

export type ProtocolEra = '2025' | '2026';
export type TransportKind = 'stdio' | 'http' | 'sse' | 'memory';

export interface AuthInfo {
  subject: string;
  scopes: string[];
  groups: string[];
  claims: Record<string, unknown>;
}

export interface TraceContext {
  traceId: string;
  parentId: string;
  sampled: boolean;
  tracestate?: string;
}

export interface RequestContext {
  /** The correlation id: the HTTP X-Request-Id, or one minted per message. */
  requestId: string;
  era: ProtocolEra;
  transport: TransportKind;
  sessionId?: string;
  auth?: AuthInfo;
  clientInfo?: { name?: string; version?: string };
  clientCapabilities: Record<string, unknown>;
  trace?: TraceContext;
  /** Client address as the server sees it (after trustProxy rules). */
  remoteAddress?: string;
  headers?: Record<string, string>;
  /** A logger bound to this request (request id, trace id); every line it writes names the request. */
  logger?: CoreLogger;
  /** Talks back to the client (logs, elicitation, sampling, roots); set for tools/call, prompts/get and resources/read. */
  client?: IClientChannel;
  /** The 2025-era connection the request came in on, valid after the request (core/session-types.ts); undefined on 2026-07-28 and stateless. */
  session?: IMcpSession;
  /** This request's audit fields (`params.audit`): present with the audit trail on. */
  audit?: IAuditFields;
}
