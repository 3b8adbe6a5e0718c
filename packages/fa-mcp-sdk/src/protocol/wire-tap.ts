/**
 * Watches every JSON-RPC message of a server instance on whatever transport it
 * is connected to (session, per-request 2026-07-28, stateless, legacy SSE,
 * stdio): requests in, their answers out, notifications both ways. It feeds the
 * operations side (metrics, spans, debug channels, trace sink) and gives the
 * request context its request id, trace context and request-bound logger.
 *
 * The tap wraps the transport the SDK connects to, so it sees what really
 * crossed the wire, including what the SDK answers by itself (initialize,
 * ping, server/discover, protocol errors).
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
  type Server,
  type Transport,
} from '@modelcontextprotocol/server';
import type { ProtocolEra, TransportKind } from '../core/request-context.js';
import type { WireObserver, WireRequestScope } from '../core/telemetry.js';
import { isReplayed } from './handshake-replay.js';

export interface WireTap {
  /** The observation of an in-flight request of this instance, by JSON-RPC id. */
  scope(id: string | number | undefined): WireRequestScope | undefined;
  /** Called with the method of every request received, before the SDK dispatches it (core-methods.ts). */
  beforeRequest: ((method: string) => void) | undefined;
}

type OnMessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

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
 * `adopt` hands over the observation of a request the 2026-07-28 fast path
 * already began (it ran the call and lets the SDK answer it, see
 * fast-call-replay.ts): that request is then observed once, not twice.
 * `observedConnection` is the end of a connection observed before the SDK
 * took it over (stdio's cold front): it is not opened a second time.
 */
export function tapWire(
  low: Server,
  observer: WireObserver,
  era: ProtocolEra,
  transport: TransportKind,
  adopt?: (request: MessageExtraInfo['request']) => WireRequestScope | undefined,
  observedConnection?: () => void,
): WireTap {
  const tap = new Tap(observer, era, transport, adopt, observedConnection);
  const connect = low.connect;
  low.connect = (t: Transport) => {
    tap.wrap(t);
    return connect.call(low, t);
  };
  return tap;
}

/**
 * One server instance's tap. A class, so what every connection shares (the
 * code) lives on its prototype and a connection holds only its fields and the
 * few functions it hands to the transport; those go on the transport as plain
 * properties, as the SDK's own do, so the transport keeps its shape.
 */
class Tap implements WireTap {
  beforeRequest: ((method: string) => void) | undefined;
  /** Requests in flight, by id; made for a request, let go with the last one (an idle connection holds no Map). */
  private pending: Map<string | number, WireRequestScope> | undefined;
  private sessionId: string | undefined;
  private closeConnection: (() => void) | undefined;
  /** The SDK's HTTP and stdio transports hand over schema-checked messages; the legacy SSE transport what the client posted, an in-memory pair whatever the other side built. */
  private readonly inboundKind: (m: JSONRPCMessage) => Kind;

  constructor(
    private readonly observer: WireObserver,
    private readonly era: ProtocolEra,
    private readonly transport: TransportKind,
    private readonly adopt?: (request: MessageExtraInfo['request']) => WireRequestScope | undefined,
    private observedConnection?: () => void,
  ) {
    this.inboundKind = transport === 'sse' || transport === 'memory' ? checkedKind : knownKind;
  }

  scope(id: string | number | undefined): WireRequestScope | undefined {
    return id === undefined ? undefined : this.pending?.get(id);
  }

  /**
   * Taps `t` as the SDK connects to it: what it sends at once, what it receives
   * and its end from the moment the SDK starts it. The SDK's connect assigns the
   * transport's onmessage and onclose (chaining what was there) and then calls
   * start(), before which nothing is delivered: the tap wraps them there.
   */
  wrap(t: Transport): void {
    this.sessionId = t.sessionId;
    const send = t.send;
    t.send = (message, options) => {
      this.sessionId ??= t.sessionId;
      try {
        this.outbound(message);
      } catch {
        // observation never breaks delivery
      }
      return send.call(t, message, options);
    };
    const start = t.start;
    t.start = () => {
      this.attach(t);
      return start.call(t);
    };
  }

  private attach(t: Transport): void {
    const deliver = t.onmessage as OnMessage | undefined;
    if (deliver) t.onmessage = (message, extra) => this.inbound(message, extra, deliver);
    this.closeConnection = this.observedConnection ?? this.observer.connection(this.era, this.transport);
    this.observedConnection = undefined;
    const inner = t.onclose;
    t.onclose = () => {
      this.markClosed();
      inner?.();
    };
  }

  private markClosed(): void {
    const close = this.closeConnection;
    if (!close) return;
    this.closeConnection = undefined;
    if (this.pending) for (const id of [...this.pending.keys()]) this.settle(id, { cancelled: true });
    close();
  }

  private settle(id: string | number, outcome: Parameters<WireRequestScope['end']>[0]): void {
    const pending = this.pending;
    const scope = pending?.get(id);
    if (!pending || !scope) return;
    // Let go of the table with the last request (an idle connection holds none).
    if (pending.size === 1) this.pending = undefined;
    else pending.delete(id);
    scope.end(outcome);
  }

  private inbound(message: JSONRPCMessage, extra: MessageExtraInfo | undefined, deliver: OnMessage): void {
    // A replayed handshake (handshake-replay.ts) is not the client's: observed when the client sent it.
    if (isReplayed(message)) return deliver(message, extra);
    const kind = this.inboundKind(message);
    if (kind === 'request') {
      const request = message as JSONRPCRequest;
      const headers = extra?.request?.headers;
      const { era, transport, sessionId } = this;
      const scope =
        (this.adopt && extra?.request ? this.adopt(extra.request) : undefined) ??
        this.observer.request({
          method: request.method,
          id: request.id,
          ...(request.params ? { params: request.params as Record<string, unknown> } : {}),
          era,
          transport,
          ...(sessionId ? { sessionId } : {}),
          ...(headers ? { headers } : {}),
        });
      (this.pending ??= new Map()).set(request.id, scope);
      this.beforeRequest?.(request.method);
      return scope.run(() => deliver(message, extra));
    }
    if (kind === 'notification') {
      const notification = message as JSONRPCNotification;
      this.observer.notification('in', notification.method, notification.params, this.era, this.transport);
      if (notification.method === 'notifications/cancelled') {
        const id = (notification.params as { requestId?: string | number } | undefined)?.requestId;
        if (id !== undefined) this.settle(id, { cancelled: true });
      }
    }
    return deliver(message, extra);
  }

  /** What the SDK sends is built by the SDK: told apart by its members. */
  private outbound(message: JSONRPCMessage): void {
    const m = message as { id?: string | number | null; method?: string; params?: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } };
    switch (knownKind(message)) {
      case 'result':
        if (m.id !== undefined && m.id !== null) this.settle(m.id, { result: m.result });
        break;
      case 'error':
        if (m.id !== undefined && m.id !== null && m.error) this.settle(m.id, { error: m.error });
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
