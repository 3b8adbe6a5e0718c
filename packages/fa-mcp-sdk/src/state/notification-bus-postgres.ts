/**
 * The notification bus over PostgreSQL LISTEN/NOTIFY: one listening
 * connection per instance, one PostgreSQL channel, the bus channel inside the
 * payload. Reconnects when the connection drops. Payloads must stay small
 * (NOTIFY caps them near 8 KB): send ids, not documents.
 */
import type pg from 'pg';
import type { PgClientConfig, PgPool } from '../db/pg-types.js';
import type { CoreLogger } from '../core/core.js';
import { loadOptional } from '../core/optional-package.js';
import { LocalListeners, type BusListener, type INotificationBus } from './notification-bus.js';

const PG_CHANNEL = 'fa_mcp_bus';

export class PostgresNotificationBus implements INotificationBus {
  private readonly listeners = new LocalListeners();
  private client?: pg.Client;
  private closed = false;
  private connecting?: Promise<void>;
  private reconnecting = false;

  constructor(
    private readonly pool: PgPool,
    private readonly clientConfig: PgClientConfig,
    private readonly logger?: CoreLogger,
  ) {}

  /** Opens the listening connection; resolves once LISTEN is active. */
  async start(): Promise<void> {
    if (!this.connecting) this.connecting = this.connect();
    await this.connecting;
  }

  async publish(channel: string, payload: Record<string, unknown>): Promise<void> {
    const text = JSON.stringify({ c: channel, p: payload });
    if (Buffer.byteLength(text) > 7900) throw new Error(`Bus payload too large for NOTIFY (${Buffer.byteLength(text)} bytes)`);
    await this.pool.query('SELECT pg_notify($1, $2)', [PG_CHANNEL, text]);
  }

  subscribe(channel: string, listener: BusListener): () => void {
    return this.listeners.add(channel, listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    // pg is loaded on first use, so servers without PostgreSQL never pay for it
    const { default: pgModule } = await loadOptional('postgres', () => import('pg'));
    const client = new pgModule.Client(this.clientConfig as pg.ClientConfig);
    client.on('notification', (msg) => {
      if (msg.channel !== PG_CHANNEL || !msg.payload) return;
      try {
        const { c, p } = JSON.parse(msg.payload) as { c: string; p: Record<string, unknown> };
        this.listeners.deliver(c, p);
      } catch {
        this.logger?.warn({ payload: msg.payload.slice(0, 200) }, 'ignored a malformed bus notification');
      }
    });
    client.on('error', (err) => {
      this.logger?.warn({ err }, 'notification bus connection lost; reconnecting');
      this.reconnectSoon();
    });
    client.on('end', () => this.reconnectSoon());
    await client.connect();
    await client.query(`LISTEN ${PG_CHANNEL}`);
    this.client = client;
  }

  private reconnectSoon(): void {
    // 'error' and 'end' both arrive for one drop: reconnect once
    if (this.closed || this.reconnecting) return;
    this.reconnecting = true;
    this.client = undefined;
    const retry = () => {
      if (this.closed) return;
      this.connecting = this.connect().then(
        () => {
          this.reconnecting = false;
        },
        () => {
          setTimeout(retry, 1000).unref();
        },
      );
    };
    setTimeout(retry, 250).unref();
  }
}
