/**
 * The one adapter between the SDK and a transport: an implementation of the
 * SDK's own `Transport` interface that holds the transport it adapts and
 * passes every message through an ordered list of filters, inbound (from the
 * client, before the SDK dispatches it) and outbound (from the SDK, before the
 * transport writes it). Observation (wire-observe.ts), the 2025-era task
 * dispatch (task-dispatch-2025.ts), the routing of what a session's server
 * sends for calls the core route serves (session-calls.ts) or to the instance
 * holding the session's stream (session-share.ts), the stdio listen guard and
 * the notification gap are filters; nothing of the SDK's is reassigned or
 * redefined. The order of the list is the order of the filters, inbound and
 * outbound alike: the first filter sees a message first in both directions.
 *
 * A server connects to an adapter (server-factory.ts, CoreServer.connect) or
 * an SDK entry is given one (stdio); the adapter sets the callbacks of the
 * transport it holds, as any owner of a Transport does.
 */
import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/server';

export type Inbound = (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
export type Outbound = (message: JSONRPCMessage, options?: TransportSendOptions) => Promise<void>;

/** What a filter can do on its connection besides passing messages on. */
export interface WireConnection {
  /** Sends a message from the server side, as the SDK sends (through every filter: observed, routed). */
  send: Outbound;
  /** The session id of the adapted transport, when it has one. */
  readonly sessionId: string | undefined;
}

export interface WireFilter {
  /** A message from the client: pass it on with `next` (or not, when the filter answers it itself). */
  inbound?(message: JSONRPCMessage, extra: MessageExtraInfo | undefined, next: Inbound): void;
  /** A message to the client: pass it on with `next` (or not). */
  outbound?(message: JSONRPCMessage, options: TransportSendOptions | undefined, next: Outbound): Promise<void>;
  /** The connection starts (before anything is delivered). */
  started?(connection: WireConnection): void;
  /** The connection closed. */
  closed?(): void;
}

export class WireAdapter implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(
    /** The transport adapted (the SDK's, or one of the framework's own). */
    readonly inner: Transport,
    private readonly filters: readonly WireFilter[],
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  get hasPerRequestStream(): boolean | undefined {
    return this.inner.hasPerRequestStream;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions?.(versions);
  }

  async start(): Promise<void> {
    const inner = this.inner;
    const previousClose = inner.onclose;
    const previousError = inner.onerror;
    inner.onmessage = (message, extra) => this.passIn(0, message, extra);
    inner.onclose = () => {
      previousClose?.();
      for (const filter of this.filters) filter.closed?.();
      this.onclose?.();
    };
    inner.onerror = (error) => {
      previousError?.(error);
      this.onerror?.(error);
    };
    const connection: WireConnection = {
      send: (m, o) => this.passOut(0, m, o),
      get sessionId() {
        return inner.sessionId;
      },
    };
    for (const filter of this.filters) filter.started?.(connection);
    await inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.passOut(0, message, options);
  }

  /** Delivers `message` as if the adapted transport had read it (a handshake answered before the SDK took over). */
  receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    this.passIn(0, message, extra);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** Hands `message` to the first filter from `from` on that takes inbound messages; after the last, to the SDK. */
  private passIn(from: number, message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    const { filters } = this;
    for (let i = from; i < filters.length; i++) {
      const filter = filters[i] as WireFilter;
      if (filter.inbound) return filter.inbound(message, extra, (m, e) => this.passIn(i + 1, m, e));
    }
    this.deliver(message, extra);
  }

  /** Hands `message` to the first filter from `from` on that takes outbound messages; after the last, to the transport. */
  private passOut(from: number, message: JSONRPCMessage, options: TransportSendOptions | undefined): Promise<void> {
    const { filters } = this;
    for (let i = from; i < filters.length; i++) {
      const filter = filters[i] as WireFilter;
      if (filter.outbound) return filter.outbound(message, options, (m, o) => this.passOut(i + 1, m, o));
    }
    return this.inner.send(message, options);
  }

  private deliver(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    this.onmessage?.(message, extra);
  }
}
