/**
 * Where resource updates and list changes go: the server instances serving
 * connections right now (2025-era sessions, stdio of either era, legacy SSE),
 * with the resource URIs each subscribed to, and the change-event bus the
 * 2026-07-28 HTTP handler's `subscriptions/listen` streams read.
 */
import type { McpServer, ServerEventBus } from '@modelcontextprotocol/server';
import type { ListKind } from '../core/declared-capabilities.js';
import type { ProtocolEra } from '../core/request-context.js';

export type { ListKind };

export interface LiveServer {
  server: McpServer;
  era: ProtocolEra;
  /** URIs of resources/subscribe (2025 era; on 2026-07-28 the listen filter decides); made on the first subscribe, as most connections never do. */
  subscriptions?: Set<string>;
}

export class LiveServers {
  private readonly servers = new Set<LiveServer>();
  /**
   * Read by the 2026-07-28 HTTP handler's subscriptions/listen streams, which give it (the SDK's
   * in-memory bus: a stdio server, which has none, starts without loading the SDK).
   */
  bus: ServerEventBus | undefined;

  constructor(bus?: ServerEventBus) {
    this.bus = bus;
  }

  add(server: McpServer, era: ProtocolEra = '2025'): LiveServer {
    const live: LiveServer = { server, era };
    this.servers.add(live);
    return live;
  }

  remove(live: LiveServer): void {
    this.servers.delete(live);
  }

  get size(): number {
    return this.servers.size;
  }

  /** Sends notifications/resources/updated; returns how many connections it was sent on (listen streams not counted). */
  async resourceUpdated(uri: string): Promise<number> {
    this.bus?.publish({ kind: 'resource_updated', uri });
    let sent = 0;
    await Promise.all(
      [...this.servers].map(async (live) => {
        // A 2026-07-28 stdio connection routes the notification to the listen streams whose filter names the URI.
        const wanted = live.era === '2026' || live.subscriptions?.has(uri) === true;
        if (!wanted || !live.server.isConnected()) return;
        try {
          await live.server.server.sendResourceUpdated({ uri });
          sent++;
        } catch {
          // a connection closing underneath us is not an error of the publisher
        }
      }),
    );
    return sent;
  }

  async listChanged(kind: ListKind): Promise<void> {
    this.bus?.publish({ kind: `${kind}_list_changed` });
    await Promise.all(
      [...this.servers].map(async (live) => {
        if (!live.server.isConnected()) return;
        try {
          await live.server.server.notification({ method: `notifications/${kind}/list_changed` });
        } catch {
          // ignore closed connections
        }
      }),
    );
  }
}
