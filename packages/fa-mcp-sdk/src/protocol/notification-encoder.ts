/**
 * Notifications of calls the 2026-07-28 fast path serves, made by the SDK: one
 * server instance per process, built by the same factory as the per-request
 * ones (same capabilities, same wire tap) and bound to the 2026-07-28
 * revision, runs every notification through the SDK's own checks (era,
 * capability) and shape, then hands the message to the call it belongs to.
 * The fast path thus sends exactly what the SDK path would, and the wire tap
 * counts it the same way.
 */
import {
  PerRequestHTTPServerTransport,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type McpServer,
  type Server,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';

export const FAST_PATH_REVISION = '2026-07-28';

type Deliver = (message: JSONRPCMessage) => void;

/** The encoder's connection: a per-request transport (so the instance serves 2026-07-28) that never ends and routes what is sent. */
class RoutingSink extends PerRequestHTTPServerTransport {
  constructor(private readonly route: (message: JSONRPCMessage, options?: TransportSendOptions) => void) {
    super({ classification: { era: 'modern', revision: FAST_PATH_REVISION } });
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.route(message, options);
  }

  override async close(): Promise<void> {
    // The instance lives as long as the process.
  }
}

export class NotificationEncoder {
  private server?: Promise<Server>;
  private readonly targets = new Map<number, Deliver>();
  private next = 0;

  /** `build` makes the instance; it must accept the protocol revisions it is given (connecting binds it to 2026-07-28). */
  constructor(private readonly build: (supportedProtocolVersions: string[]) => Promise<McpServer>) {}

  /** Sends `notification` the SDK's way; what the SDK sends is given to `deliver`. Rejects as the SDK would. */
  async send(notification: { method: string; params?: Record<string, unknown> }, deliver: Deliver): Promise<void> {
    const server = await (this.server ??= this.connect());
    const token = ++this.next;
    this.targets.set(token, deliver);
    try {
      await server.notification(notification as Parameters<Server['notification']>[0], { relatedRequestId: token });
    } finally {
      this.targets.delete(token);
    }
  }

  private async connect(): Promise<Server> {
    const mcp = await this.build([...SUPPORTED_PROTOCOL_VERSIONS, FAST_PATH_REVISION]);
    const sink = new RoutingSink((message, options) => {
      const token = options?.relatedRequestId;
      if (typeof token === 'number') this.targets.get(token)?.(message);
    });
    await mcp.connect(sink);
    if (mcp.server.getNegotiatedProtocolVersion() !== FAST_PATH_REVISION) throw new Error('The notification encoder is not bound to 2026-07-28');
    return mcp.server;
  }
}
