/**
 * The audit record, version 1: the JSON object written per request, per task change and per chain
 * event. Field names are fixed (SIEM parsers and `fa-mcp audit` read them); a new field is added as
 * optional, a changed meaning is a new `v`. FA-MCP-SDK-DOC/13-audit-trail.md documents every field.
 *
 * Every record is a link of a hash chain: `hash` is the SHA-256 (hex) of the record's compact
 * canonical JSON without `hash`, and `prevHash` is the `hash` of the record before it in the same
 * `chain` (`seq` one less). One chain per process start of an instance: its first record
 * (`chain_start`, seq 0) names the end of the instance's previous chain.
 */
import type { ProtocolEra, TransportKind } from '../core/request-context.js';

export const AUDIT_RECORD_VERSION = 1;
/** The `prevHash` of a chain that follows no other. */
export const GENESIS_HASH = '0'.repeat(64);

export type AuditRecordKind =
  /** One request (any method), or one refusal before the pipeline. */
  | 'request'
  /** A task was created, changed status, or was cancelled. */
  | 'task'
  /** The first record of a chain (seq 0). */
  | 'chain_start'
  /** The head of the chain, signed (at intervals, and `final` at shutdown). */
  | 'anchor'
  /** Records that were dropped (async mode) before this point. */
  | 'dropped'
  /** Stands for the records of a chain pruned by retention: carries the last pruned record's seq and hash. */
  | 'checkpoint';

export type AuditOutcomeStatus = 'ok' | 'tool_error' | 'error' | 'refused' | 'cancelled';

export interface AuditOutcome {
  status: AuditOutcomeStatus;
  /** The JSON-RPC error code (`error`, and `refused` when the refusal was a JSON-RPC error). */
  code?: number;
  /** The HTTP status of a refusal the HTTP front answered (401, 403, 413, 429). */
  httpStatus?: number;
  /** A short machine word: `unauthorized`, `forbidden`, `rate_limited`, `payload_too_large`, `host_refused`, `origin_refused`, `timeout`, `audit_unavailable` … */
  reason?: string;
  /**
   * The status the request had before its answer was replaced by -32006 because its record could
   * not be written (sync mode): the handler did run, with this outcome, but the client was refused.
   */
  original?: AuditOutcomeStatus;
}

/** Who made the request, as authentication established it. Never a token, a password or a claim set. */
export interface AuditPrincipal {
  subject: string;
  /** The OAuth client (`client_id` / `azp` claim) when the credentials name one. */
  clientId?: string;
  /** The token issuer (`iss`). */
  issuer?: string;
  /** How the caller was authenticated: `jwt`, `static`, `basic`, `custom` … */
  authMode?: string;
  /** The caller's groups and scopes (those that decided access, when the request layer knows them). */
  groups: string[];
  scopes: string[];
}

export interface AuditTarget {
  /** `tool`, `prompt`, `resource`, `template`, `task`, `list`, `extension`, `server`, or `event` (an MCP Events type). */
  kind: string;
  /** The tool or prompt name, resource URI, task id, list or event type; '' when the request names none. */
  name: string;
}

/** What a record holds of the request's arguments (`mcp.audit.arguments`). */
export type AuditArguments =
  | { mode: 'none' }
  | { mode: 'digest'; digest: string }
  | { mode: 'masked'; masked: unknown };

export type AuditTaskStatus = 'created' | 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export interface AuditTaskInfo {
  id: string;
  status: AuditTaskStatus;
  /** The tool the task runs. */
  tool?: string;
  statusMessage?: string;
}

/** An anchor's or a checkpoint's signature over its record without `hash` and `sig.value`. */
export interface AuditSignature {
  /** `HS256` (HMAC-SHA256, mcp.audit.anchors.key), or the JWS name of an asymmetric key (`ES256`, `EdDSA`, `RS256` …). */
  alg: string;
  /** Which key: the first 16 hex digits of the key's SHA-256 (HMAC) or the key's id. */
  keyId: string;
  /** base64url. */
  value: string;
}

/** Fields every record has. */
export interface AuditRecordBase {
  v: typeof AUDIT_RECORD_VERSION;
  kind: AuditRecordKind;
  /** ISO 8601 with milliseconds, UTC: when the request arrived (when the event happened). */
  ts: string;
  instance: string;
  /** The chain's id (a UUID per process start). */
  chain: string;
  seq: number;
  prevHash: string;
  hash: string;
}

export interface AuditRecord extends AuditRecordBase {
  requestId?: string;
  traceId?: string;
  spanId?: string;
  era?: ProtocolEra;
  transport?: TransportKind;
  sessionId?: string;
  /** The client address as the server saw it (after trustProxy). */
  remoteAddress?: string;
  /** The caller; null when anonymous (no authentication, or refused before it). */
  principal?: AuditPrincipal | null;
  /** The JSON-RPC method; null when the request was refused before it was read. */
  method?: string | null;
  target?: AuditTarget;
  outcome?: AuditOutcome;
  durationMs?: number;
  /** Size of the serialized result, in bytes. */
  resultBytes?: number;
  arguments?: AuditArguments;
  /** Fields the tool handler added (`params.audit.set`). */
  extra?: Record<string, unknown>;
  /** kind `task`. */
  task?: AuditTaskInfo;
  /** kind `task`: who caused the change (the creator, the canceller); absent when the server did (progress, completion, expiry). */
  actor?: AuditPrincipal;
  /** kind `chain_start`: the end of this instance's previous chain, when the sink knows it. */
  previous?: { chain: string; seq: number; hash: string };
  /** kind `anchor`: true for the last record of a chain closed by a shutdown. */
  final?: boolean;
  /** kind `dropped`. */
  dropped?: { count: number; reasons: Record<string, number>; from: string; to: string };
  /** kind `checkpoint`: what retention removed before this point of the chain. */
  pruned?: { count: number; before: string; at: string };
  /** kinds `chain_start`, `anchor`, `checkpoint` when anchors are on. */
  sig?: AuditSignature;
}

/** A request's record before the trail gives it a place in the chain: what the request layer fills. */
export interface AuditRequestDraft {
  kind?: 'request';
  /** When the request arrived (epoch ms); default: now minus `durationMs`. */
  at?: number;
  requestId: string;
  traceId?: string;
  spanId?: string;
  era?: ProtocolEra;
  transport: TransportKind;
  sessionId?: string;
  remoteAddress?: string;
  principal?: AuditPrincipal | null;
  method: string | null;
  target?: AuditTarget;
  outcome: AuditOutcome;
  durationMs: number;
  resultBytes?: number;
  /** The raw arguments (tools/call `arguments`, prompts/get `arguments` …): the trail applies `mcp.audit.arguments`. */
  arguments?: unknown;
  /** The handler's fields (`AuditFields.fields()`). */
  extra?: Record<string, unknown>;
}

/** A task change before the trail gives it a place in the chain. */
export interface AuditTaskDraft {
  kind: 'task';
  at?: number;
  task: AuditTaskInfo;
  actor?: AuditPrincipal;
  /** The request that caused the change (tools/call creating it, tasks/cancel), when one did. */
  requestId?: string;
  era?: ProtocolEra;
  transport?: TransportKind;
  sessionId?: string;
}

export type AuditDraft = AuditRequestDraft | AuditTaskDraft;

/** A record before it has a place in a chain: what the writer queues. */
export type AuditRecordBody = Omit<AuditRecord, 'instance' | 'chain' | 'seq' | 'prevHash' | 'hash'>;

/** Kinds whose records carry a signature when anchors are on. */
export const SIGNED_KINDS: ReadonlySet<AuditRecordKind> = new Set(['chain_start', 'anchor', 'checkpoint']);
