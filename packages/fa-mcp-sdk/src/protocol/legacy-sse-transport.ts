/**
 * The deprecated HTTP+SSE transport (protocol 2024-11-05): the client holds a
 * GET /sse stream open, learns its POST endpoint from the first `endpoint`
 * event, and posts messages there. One transport per stream; a message is only
 * ever delivered to the stream whose session id it names.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { JSONRPCMessage, MessageExtraInfo, Transport } from '@modelcontextprotocol/server';
import { createNotificationGap } from './notification-gap.js';
import type { AuthInfo } from '../core/request-context.js';
import { toSdkAuthInfo } from './auth-info.js';

export class LegacySseTransport implements Transport {
  readonly sessionId = randomUUID();
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  private closed = false;
  private keepAlive?: NodeJS.Timeout;
  private readonly gap = createNotificationGap();

  constructor(
    private readonly res: ServerResponse,
    private readonly endpoint: string,
    keepAliveMs = 15_000,
  ) {
    res.on('close', () => this.finish());
    if (keepAliveMs > 0) {
      this.keepAlive = setInterval(() => this.write(': keep-alive\n\n'), keepAliveMs);
      this.keepAlive.unref();
    }
  }

  async start(): Promise<void> {
    // No Connection header: node writes keep-alive, or the front's close while the server drains.
    this.res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
    });
    this.res.flushHeaders();
    const sep = this.endpoint.includes('?') ? '&' : '?';
    this.write(`event: endpoint\ndata: ${this.endpoint}${sep}sessionId=${this.sessionId}\n\n`);
  }

  /** Delivers a message the client posted to /messages, with the web Request it came in and the caller the guard verified. */
  receive(message: JSONRPCMessage, from: { request: Request; auth: AuthInfo | undefined }): void {
    if (this.closed) throw new Error('SSE stream is closed');
    const extra: MessageExtraInfo = { request: from.request, ...(from.auth ? { authInfo: toSdkAuthInfo(from.auth) } : {}) };
    this.onmessage?.(message, extra);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('SSE stream is closed');
    // A response waits one turn after a notification written before it (see notification-gap.ts).
    return this.gap.send(message, async () => this.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`));
  }

  async close(): Promise<void> {
    if (!this.res.writableEnded) this.res.end();
    this.finish();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  private write(chunk: string): void {
    if (!this.closed && !this.res.writableEnded) this.res.write(chunk);
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.onclose?.();
  }
}
