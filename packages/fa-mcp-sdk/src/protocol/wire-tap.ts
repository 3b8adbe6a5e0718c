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

export function tapWire(low: Server, observer: WireObserver, era: ProtocolEra, transport: TransportKind): WireTap {
  const pending = new Map<string | number, WireRequestScope>();
  let sessionId: string | undefined;

  const settle = (id: string | number, outcome: Parameters<WireRequestScope['end']>[0]) => {
    const scope = pending.get(id);
    if (!scope) return;
    pending.delete(id);
    scope.end(outcome);
  };

  const inbound = (message: JSONRPCMessage, extra: MessageExtraInfo | undefined, deliver: OnMessage) => {
    if (isJSONRPCRequest(message)) {
      const headers = extra?.request?.headers;
      const scope = observer.request({
        method: message.method,
        id: message.id,
        ...(message.params ? { params: message.params as Record<string, unknown> } : {}),
        era,
        transport,
        ...(sessionId ? { sessionId } : {}),
        ...(headers ? { headers } : {}),
      });
      pending.set(message.id, scope);
      return scope.run(() => deliver(message, extra));
    }
    if (isJSONRPCNotification(message)) {
      observer.notification('in', message.method, message.params, era, transport);
      if (message.method === 'notifications/cancelled') {
        const id = (message.params as { requestId?: string | number } | undefined)?.requestId;
        if (id !== undefined) settle(id, { cancelled: true });
      }
    }
    return deliver(message, extra);
  };

  const outbound = (message: JSONRPCMessage) => {
    if (isJSONRPCResultResponse(message)) settle(message.id, { result: message.result });
    else if (isJSONRPCErrorResponse(message)) {
      if (message.id !== undefined && message.id !== null) settle(message.id, { error: message.error });
    } else if (isJSONRPCRequest(message)) observer.outboundRequest(message.method, message.id);
    else if (isJSONRPCNotification(message)) observer.notification('out', message.method, message.params, era, transport);
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
