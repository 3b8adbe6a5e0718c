/**
 * The server instances serving 2025-era connections right now (sessions, stdio,
 * legacy SSE), with the resource URIs each subscribed to, so a resource update
 * or a list change reaches every connection that should hear of it.
 */
import type { McpServer } from '@modelcontextprotocol/server';

export interface LiveServer {
  server: McpServer;
  subscriptions: Set<string>;
}

export class LiveServers {
  private readonly servers = new Set<LiveServer>();

  add(server: McpServer): LiveServer {
    const live: LiveServer = { server, subscriptions: new Set() };
    this.servers.add(live);
    return live;
  }

  remove(live: LiveServer): void {
    this.servers.delete(live);
  }

  get size(): number {
    return this.servers.size;
  }

  async resourceUpdated(uri: string): Promise<number> {
    let sent = 0;
    await Promise.all(
      [...this.servers].map(async (live) => {
        if (!live.subscriptions.has(uri) || !live.server.isConnected()) return;
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

  async listChanged(kind: 'tools' | 'prompts' | 'resources'): Promise<void> {
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
