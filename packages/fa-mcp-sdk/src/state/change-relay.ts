/**
 * Resource updates and list changes across instances. A change is delivered to
 * this instance's connections at once, then published on the notification bus;
 * every other instance on the bus delivers it to its own connections (2025-era
 * subscribers, listen streams, stdio). Subscriptions stay per connection: only
 * the event travels.
 */
import { randomUUID } from 'node:crypto';
import type { CoreLogger } from '../core/core.js';
import { UpstreamUnavailableError } from '../core/errors.js';
import type { INotificationBus } from './notification-bus.js';

export type ChangedList = 'tools' | 'prompts' | 'resources';

/** Where changes go on this instance. */
export interface LocalChangeSink {
  /** Returns how many connections were notified. */
  resourceUpdated(uri: string): Promise<number>;
  listChanged(list: ChangedList): Promise<void>;
}

export interface ChangeRelayOptions {
  bus: INotificationBus;
  /** The bus channel; instances that should see each other's changes use the same one. */
  channel: string;
  local: LocalChangeSink;
  logger?: CoreLogger;
}

const LISTS: ReadonlySet<string> = new Set(['tools', 'prompts', 'resources']);

export class ChangeRelay {
  /** Marks what this instance published, so it is not delivered here twice. */
  readonly origin = randomUUID();
  private readonly unsubscribe: () => void;

  constructor(private readonly opts: ChangeRelayOptions) {
    this.unsubscribe = opts.bus.subscribe(opts.channel, (p) => {
      if (p.origin === this.origin) return;
      this.deliver(p).catch((err: unknown) => opts.logger?.warn({ err }, 'could not deliver a change from another instance'));
    });
  }

  /** Notifies this instance's subscribers of `uri` (the count), then the other instances'. */
  async resourceUpdated(uri: string): Promise<number> {
    const sent = await this.opts.local.resourceUpdated(uri);
    await this.publish({ kind: 'resource_updated', uri });
    return sent;
  }

  async listChanged(list: ChangedList): Promise<void> {
    await this.opts.local.listChanged(list);
    await this.publish({ kind: 'list_changed', list });
  }

  close(): void {
    this.unsubscribe();
  }

  private async publish(event: Record<string, unknown>): Promise<void> {
    try {
      await this.opts.bus.publish(this.opts.channel, { ...event, origin: this.origin });
    } catch (err) {
      // This instance's connections have it already; the others do not.
      this.opts.logger?.warn({ err }, 'could not publish a change to other instances');
      throw new UpstreamUnavailableError('The change reached this instance only: the notification bus is unavailable', { kind: event.kind });
    }
  }

  private async deliver(p: Record<string, unknown>): Promise<void> {
    if (p.kind === 'resource_updated' && typeof p.uri === 'string') await this.opts.local.resourceUpdated(p.uri);
    else if (p.kind === 'list_changed' && typeof p.list === 'string' && LISTS.has(p.list)) await this.opts.local.listChanged(p.list as ChangedList);
  }
}
