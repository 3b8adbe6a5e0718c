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

export interface WireTap {
  /** The observation of an in-flight request of this instance, by JSON-RPC id. */
  scope(id: string | number | undefined): WireRequestScope | undefined;
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
 */
export function tapWire(
  low: Server,
  observer: WireObserver,
  era: ProtocolEra,
  transport: TransportKind,
  adopt?: (request: MessageExtraInfo['request']) => WireRequestScope | undefined,
): WireTap {
  const pending = new Map<string | number, WireRequestScope>();
  let sessionId: string | undefined;
  // The SDK's HTTP and stdio transports hand over schema-checked messages; the legacy SSE transport
  // hands over what the client posted, and an in-memory pair whatever the other side built.
  const inboundKind = transport === 'sse' || transport === 'memory' ? checkedKind : knownKind;

  const settle = (id: string | number, outcome: Parameters<WireRequestScope['end']>[0]) => {
    const scope = pending.get(id);
    if (!scope) return;
    pending.delete(id);
    scope.end(outcome);
  };

  const inbound = (message: JSONRPCMessage, extra: MessageExtraInfo | undefined, deliver: OnMessage) => {
    const kind = inboundKind(message);
    if (kind === 'request') {
      const request = message as JSONRPCRequest;
      const headers = extra?.request?.headers;
      const scope =
        (adopt && extra?.request ? adopt(extra.request) : undefined) ??
        observer.request({
          method: request.method,
          id: request.id,
          ...(request.params ? { params: request.params as Record<string, unknown> } : {}),
          era,
          transport,
          ...(sessionId ? { sessionId } : {}),
          ...(headers ? { headers } : {}),
        });
      pending.set(request.id, scope);
      return scope.run(() => deliver(message, extra));
    }
    if (kind === 'notification') {
      const notification = message as JSONRPCNotification;
      observer.notification('in', notification.method, notification.params, era, transport);
      if (notification.method === 'notifications/cancelled') {
        const id = (notification.params as { requestId?: string | number } | undefined)?.requestId;
        if (id !== undefined) settle(id, { cancelled: true });
      }
    }
    return deliver(message, extra);
  };

  // What the SDK sends is built by the SDK: told apart by its members.
  const outbound = (message: JSONRPCMessage) => {
    const m = message as { id?: string | number | null; method?: string; params?: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } };
    switch (knownKind(message)) {
      case 'result':
        if (m.id !== undefined && m.id !== null) settle(m.id, { result: m.result });
        break;
      case 'error':
        if (m.id !== undefined && m.id !== null && m.error) settle(m.id, { error: m.error });
        break;
      case 'request':
        if (m.id !== undefined && m.id !== null) observer.outboundRequest(m.method as string, m.id);
        break;
      case 'notification':
        observer.notification('out', m.method as string, m.params, era, transport);
        break;
    }
  };

  // A message seen once is not observed again when tapped handlers end up chained.
  const seen = new WeakSet<object>();

  const wrap = (t: Transport) => {
    // The SDK reads the current onmessage/onclose and assigns a function that chains
    // them; the accessors wrap whatever is assigned, keeping what was there before.
    let deliver = t.onmessage as OnMessage | undefined;
    const tapMessage =
      (inner: OnMessage): OnMessage =>
      (message, extra) => {
        if (seen.has(message)) return inner(message, extra);
        seen.add(message);
        return inbound(message, extra, inner);
      };
    Object.defineProperty(t, 'onmessage', {
      configurable: true,
      enumerable: true,
      get: () => (deliver ? tapMessage(deliver) : undefined),
      set: (fn: OnMessage | undefined) => {
        deliver = fn;
      },
    });

    const closeConnection = observer.connection(era, transport);
    let closed = false;
    const markClosed = () => {
      if (closed) return;
      closed = true;
      for (const id of [...pending.keys()]) settle(id, { cancelled: true });
      closeConnection();
    };
    let onClose = t.onclose;
    Object.defineProperty(t, 'onclose', {
      configurable: true,
      enumerable: true,
      get: () => {
        const inner = onClose;
        return () => {
          markClosed();
          inner?.();
        };
      },
      set: (fn: (() => void) | undefined) => {
        onClose = fn;
      },
    });

    const send = t.send.bind(t);
    t.send = (message, options) => {
      sessionId ??= t.sessionId;
      try {
        outbound(message);
      } catch {
        // observation never breaks delivery
      }
      return send(message, options);
    };
  };

  const connect = low.connect.bind(low);
  low.connect = async (t: Transport) => {
    sessionId = t.sessionId;
    wrap(t);
    return connect(t);
  };

  return { scope: (id) => (id === undefined ? undefined : pending.get(id)) };
}
