/**
 * Watches every JSON-RPC message of a server instance on whatever transport it
 * is connected to (session, per-request 2026-07-28, stateless, legacy SSE,
 * stdio): requests in, their answers out, notifications both ways. It feeds the
 * operations side (metrics, spans, debug channels, trace sink) and gives the
 * request context its request id, trace context and request-bound logger.
 *
 * The one place a request's observation begins, on every route: for what the
 * SDK dispatches, a filter of the wire adapter (wire-adapter.ts), first in its
 * list, so it sees what really crossed the wire, including what the SDK answers
 * by itself (initialize, ping, server/discover, protocol errors), and every
 * later filter and the SDK's dispatch run inside the request's observation; for
 * what a core route serves (route.ts: modern-fast-call.ts, session-fast-call.ts,
 * cold-answers.ts), `observeRequest` around the runner (observe-request.ts).
 * Both open the scope the same way (`openScope`), and the operations side
 * records it once when it ends
 * (ops/wire-observer.ts: request metrics, spans, debug channels, trace sink).
 */
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type MessageExtraInfo,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import type { ProtocolEra, TransportKind } from '../core/request-context.js';
import type { WireObserver, WireRequestScope } from '../core/telemetry.js';
import { openScope } from './observe-request.js';
import { isReplayed } from './handshake-replay.js';
import { httpFactsOf } from './request-facts.js';
import { fromSdkAuthInfo } from './auth-info.js';
import { toWireError } from '../core/error-mapping.js';
import type { AuthInfo } from '../core/request-context.js';
import type { Inbound, Outbound, WireConnection, WireFilter } from './wire-adapter.js';

/** The observation of one server instance's connection. */
export interface WireObservation extends WireFilter {
  /** The observation of an in-flight request of this instance, by JSON-RPC id. */
  scope(id: string | number | undefined): WireRequestScope | undefined;
}

type Kind = 'request' | 'notification' | 'result' | 'error' | undefined;

/** What a message is, by the SDK's schemas (for messages nobody has checked yet). */
function checkedKind(m: JSONRPCMessage): Kind {
  if (isJSONRPCRequest(m)) return 'request';
  if (isJSONRPCNotification(m)) return 'notification';
  if (isJSONRPCResultResponse(m)) return 'result';
  if (isJSONRPCErrorResponse(m)) return 'error';
  return undefined;
}

/**
 * What a message is, for messages already parsed by the SDK's schemas (what the
 * SDK's transports deliver and what the SDK sends): one of the four shapes, told
 * apart by their members, without parsing them again (a schema parse per message
 * and direction is a large share of a small call).
 */
function knownKind(m: JSONRPCMessage): Kind {
  const o = m as Record<string, unknown>;
  if ('method' in o) return 'id' in o ? 'request' : 'notification';
  if ('result' in o) return 'result';
  if ('error' in o) return 'error';
  return undefined;
}

/**
 * The observation filter of one connection. `observedConnection` is the end of
 * a connection observed before the SDK took it over (stdio's cold front): it is
 * not opened a second time.
 */
export function observeWire(observer: WireObserver, era: ProtocolEra, transport: TransportKind, observedConnection?: () => void, defaultAuth?: AuthInfo): WireObservation {
  return new Observation(observer, era, transport, observedConnection, defaultAuth);
}

/**
 * A class, so what every connection shares (the code) lives on its prototype
 * and a connection holds only its fields.
 */
class Observation implements WireObservation {
  /** Requests in flight, by id; made for a request, let go with the last one (an idle connection holds no Map). */
  private pending: Map<string | number, WireRequestScope> | undefined;
  private connection: WireConnection | undefined;
  private closeConnection: (() => void) | undefined;
  /** The SDK's HTTP and stdio transports hand over schema-checked messages; the legacy SSE transport what the client posted, an in-memory pair whatever the other side built. */
  private readonly inboundKind: (m: JSONRPCMessage) => Kind;

  constructor(
    private readonly observer: WireObserver,
    private readonly era: ProtocolEra,
    private readonly transport: TransportKind,
    private observedConnection?: () => void,
    private readonly defaultAuth?: AuthInfo,
  ) {
    this.inboundKind = transport === 'sse' || transport === 'memory' ? checkedKind : knownKind;
  }

  scope(id: string | number | undefined): WireRequestScope | undefined {
    return id === undefined ? undefined : this.pending?.get(id);
  }

  started(connection: WireConnection): void {
    this.connection = connection;
    this.closeConnection = this.observedConnection ?? this.observer.connection(this.era, this.transport);
    this.observedConnection = undefined;
  }

  closed(): void {
    const close = this.closeConnection;
    if (!close) return;
    this.closeConnection = undefined;
    if (this.pending) for (const id of [...this.pending.keys()]) this.settle(id, { cancelled: true });
    close();
  }

  /** Ends the observation of request `id`; a promise the answer waits for with the audit trail in `sync` mode. */
  private settle(id: string | number, outcome: Parameters<WireRequestScope['end']>[0]): void | Promise<void> {
    const pending = this.pending;
    const scope = pending?.get(id);
    if (!pending || !scope) return;
    // Let go of the table with the last request (an idle connection holds none).
    if (pending.size === 1) this.pending = undefined;
    else pending.delete(id);
    return scope.end(outcome);
  }

  inbound(message: JSONRPCMessage, extra: MessageExtraInfo | undefined, next: Inbound): void {
    // A replayed handshake (handshake-replay.ts) is not the client's: observed when the client sent it.
    if (isReplayed(message)) return next(message, extra);
    const kind = this.inboundKind(message);
    if (kind === 'request') {
      const request = message as JSONRPCRequest;
      const headers = extra?.request?.headers;
      const facts = httpFactsOf(headers);
      const auth = fromSdkAuthInfo(extra?.authInfo) ?? this.defaultAuth;
      const { era, transport } = this;
      const sessionId = this.connection?.sessionId;
      const scope = openScope(
        this.observer,
        {
          method: request.method,
          id: request.id,
          ...(request.params ? { params: request.params as Record<string, unknown> } : {}),
          era,
          transport,
          ...(sessionId ? { sessionId } : {}),
          ...(headers ? { headers } : {}),
          ...(facts ? { requestId: facts.requestId, remoteAddress: facts.remoteAddress } : {}),
          ...(auth ? { auth } : {}),
        },
        facts,
      );
      (this.pending ??= new Map()).set(request.id, scope);
      return scope.run(() => next(message, extra));
    }
    if (kind === 'notification') {
      const notification = message as JSONRPCNotification;
      this.observer.notification('in', notification.method, notification.params, this.era, this.transport);
      if (notification.method === 'notifications/cancelled') {
        const id = (notification.params as { requestId?: string | number } | undefined)?.requestId;
        if (id !== undefined) this.settle(id, { cancelled: true });
      }
    }
    return next(message, extra);
  }

  /**
   * What the SDK sends is built by the SDK: told apart by its members. Observation never breaks
   * delivery; an answer waits for its audit record in `sync` mode, and is that failure (-32006) when
   * the record cannot be written.
   */
  outbound(message: JSONRPCMessage, options: TransportSendOptions | undefined, next: Outbound): Promise<void> {
    let recorded: void | Promise<void> = undefined;
    try {
      recorded = this.observeOut(message);
    } catch {
      // observation never breaks delivery
    }
    if (!recorded) return next(message, options);
    const id = (message as { id: string | number }).id;
    return recorded.then(
      () => next(message, options),
      (err: unknown) => {
        const wire = toWireError(err);
        return next({ jsonrpc: '2.0', id, error: { code: wire.code, message: wire.message, ...(wire.data !== undefined ? { data: wire.data } : {}) } } as JSONRPCMessage, options);
      },
    );
  }

  private observeOut(message: JSONRPCMessage): void | Promise<void> {
    const m = message as { id?: string | number | null; method?: string; params?: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } };
    switch (knownKind(message)) {
      case 'result':
        if (m.id !== undefined && m.id !== null) return this.settle(m.id, { result: m.result });
        break;
      case 'error':
        if (m.id !== undefined && m.id !== null && m.error) return this.settle(m.id, { error: m.error });
        break;
      case 'request':
        if (m.id !== undefined && m.id !== null) this.observer.outboundRequest(m.method as string, m.id);
        break;
      case 'notification':
        this.observer.notification('out', m.method as string, m.params, this.era, this.transport);
        break;
    }
  }
}
