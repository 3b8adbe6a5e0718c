/**
 * The handler's way back to the client for one request, one API on both eras:
 * on 2025-era connections elicitation, sampling and roots are real
 * server-to-client requests; on 2026-07-28 they are answered from the
 * request's `inputResponses` (ClientInputSession), a missing answer turning
 * into `input_required`. Logs honour the client's level either way (the
 * connection's `logging/setLevel`, kept by server-factory.ts, on 2025; the
 * request's `_meta` level on 2026).
 *
 * PER_CALL_OBJECTS: the objects made for every call here and in the session
 * exchange (ports, sides, channels, exchanges) get all their fields in their
 * object literal, optional ones as undefined, never a function-valued field
 * added afterwards. On Node 20 a closure added to such an object after it was
 * made led V8 to pretenure the calls' objects: on 2025-era SSE sessions
 * promoted bytes went up about six times and scavenges five times (a third of
 * the server's CPU); see page 07, "Benchmark".
 *
 * SPREAD_FIRST: no per-call object literal starts with a spread that other
 * fields follow (`{ ...base, more }`). On Node 20 (V8 11.3) such a literal
 * costs about 2.5 µs, a hundred times an explicit one (`{ ...base }` alone,
 * or fields first and the spread last, stay cheap); the 2025-era channel
 * made that way was the largest single item of a fast call's profile.
 */
import type { Server, ServerContext } from '@modelcontextprotocol/server';
import { assertClientCapability } from '../core/client-capabilities.js';
import type { ClientInputSession } from '../core/client-input.js';
import type { IClientChannel, JsonObject, LogLevel } from '../core/types.js';

type ElicitParams = Parameters<Server['elicitInput']>[0];
type SamplingParams = Parameters<Server['createMessage']>[0];

/** The request's own way back to the client, as both serving paths supply it (the SDK's context or the 2026 fast path). */
export interface RequestPort {
  log(level: LogLevel, data: unknown, logger?: string): Promise<void>;
  notify(notification: { method: string; params?: JsonObject }): Promise<void>;
  /** Ends the request's SSE stream (2025-era resumability); undefined where there is none. */
  closeSSE?: (() => void) | undefined;
}

/** The port of a request the SDK serves. */
export function sdkPort(ctx: ServerContext): RequestPort {
  const closeSSE = ctx.http?.closeSSE;
  return {
    log: (level, data, logger) => ctx.mcpReq.log(level, data, logger),
    notify: (notification) => ctx.mcpReq.notify(notification),
    closeSSE: closeSSE ? () => closeSSE() : undefined,
  };
}

/** The protocol's log severities, lowest first. */
const SEVERITY = new Map<string, number>(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'].map((level, i) => [level, i]));

/** Whether a log message at `level` goes to a client that asked for `threshold` and above (everything when it asked nothing). */
export function passesLogLevel(level: string, threshold: string | undefined): boolean {
  if (threshold === undefined) return true;
  return (SEVERITY.get(level) ?? 0) >= (SEVERITY.get(threshold) ?? 0);
}

/** A 2025-era request's way back to the client: its port, and requests to the client. */
export interface LegacyRequestSide extends RequestPort {
  elicit(params: JsonObject): Promise<JsonObject>;
  sample(params: JsonObject): Promise<JsonObject>;
  listRoots(): Promise<JsonObject>;
}

export interface LegacySideOptions {
  /**
   * Send requests to the client on the stream of the request being served (an
   * SSE response, stdio, legacy SSE), where the client is sure to read them.
   * Without it (Streamable HTTP with JSON responses, which has no stream per
   * request) they go on the session's GET stream.
   */
  onRequestStream: boolean;
  /** The level the client set with `logging/setLevel` on this connection. */
  logLevel: () => LogLevel | undefined;
  closeSSE?: (() => void) | undefined;
}

/**
 * The side of a 2025-era request, through its connection's server instance:
 * whether the SDK serves the request or the session fast path does, what goes
 * back to the client is made by the SDK (related to the request, so it rides
 * the request's own stream), exactly as `ctx.mcpReq` makes it.
 */
export function legacySide(low: Server, requestId: string | number, opts: LegacySideOptions): LegacyRequestSide {
  const related = { relatedRequestId: requestId };
  const toClient = opts.onRequestStream ? related : undefined;
  const notify = (notification: { method: string; params?: JsonObject }) => low.notification(notification as Parameters<Server['notification']>[0], related);
  return {
    notify,
    log: (level, data, logger) =>
      passesLogLevel(level, opts.logLevel()) ? notify({ method: 'notifications/message', params: { level, data, logger } as JsonObject }) : Promise.resolve(),
    elicit: async (params) => (await low.elicitInput(params as ElicitParams, toClient)) as unknown as JsonObject,
    sample: async (params) => (await low.createMessage(params as SamplingParams, toClient)) as unknown as JsonObject,
    listRoots: async () => (await low.listRoots(undefined, toClient)) as unknown as JsonObject,
    closeSSE: opts.closeSSE,
  };
}

/** 2025-era: real server-to-client requests, after the same capability check as 2026. */
export function createLegacyClientChannel(side: LegacyRequestSide, capabilities: Record<string, unknown>): IClientChannel {
  const closeSSE = side.closeSSE;
  const ask = <T>(kind: 'elicitation' | 'sampling' | 'roots', params: JsonObject, send: () => Promise<T>): Promise<T> => {
    // As an async function would: a refusal (or a throw of the side) is a rejection.
    try {
      assertClientCapability(kind, params, capabilities);
      return send();
    } catch (err) {
      return Promise.reject(err);
    }
  };
  // One literal with every field, no spread: see PER_CALL_OBJECTS and SPREAD_FIRST.
  return {
    log: (level: LogLevel, data: unknown, logger?: string) => side.log(level, data, logger),
    notify: (method: string, params?: JsonObject) => side.notify(params ? { method, params } : { method }),
    closeStream: closeSSE ? () => closeSSE() : undefined,
    resumed: false,
    elicit: (params: JsonObject) => ask('elicitation', params, () => side.elicit(params)),
    sample: (params: JsonObject) => ask('sampling', params, () => side.sample(params)),
    listRoots: () => ask('roots', {}, () => side.listRoots()),
  };
}

/** 2026-07-28: answers come from the request (replay model); see ClientInputSession. */
export function createModernClientChannel(port: RequestPort, capabilities: Record<string, unknown>, session: ClientInputSession): IClientChannel {
  // Synchronous up to the session's registration, so Promise.all gathers every pending request.
  const ask = (kind: 'elicitation' | 'sampling' | 'roots', params: JsonObject, key?: string): Promise<JsonObject> => {
    try {
      assertClientCapability(kind, params, capabilities);
    } catch (err) {
      return Promise.reject(err);
    }
    return session.ask(kind, params, key);
  };
  const closeSSE = port.closeSSE;
  // Built in one literal (no spread), every field in it: one is made for every 2026-07-28 call (PER_CALL_OBJECTS).
  return {
    log: (level: LogLevel, data: unknown, logger?: string) => port.log(level, data, logger),
    notify: (method: string, params?: JsonObject) => port.notify({ method, ...(params ? { params } : {}) }),
    resumed: session.resumed,
    elicit: (params, options) => ask('elicitation', params, options?.key),
    sample: (params, options) => ask('sampling', params, options?.key),
    listRoots: (options) => ask('roots', {}, options?.key),
    closeStream: closeSSE ? () => closeSSE() : undefined,
  };
}
