/**
 * Keeps this instance registered with the Consul agent: registers on start,
 * asks the agent every `reregisterIntervalMs` whether the registration is still
 * there (an agent restarted without persistent state forgets it) and registers
 * again when it is not, and deregisters on graceful shutdown. Consul being
 * unreachable never stops the server: it is logged and retried on the next tick.
 */
import type { CoreLogger } from '../../core/core.js';
import type { ReadinessCheck } from '../health.js';
import type { ConsulClient } from './consul-client.js';
import type { ServiceDefinition } from './service-definition.js';

export interface RegistrationOptions {
  client: ConsulClient;
  definition: ServiceDefinition;
  intervalMs: number;
  logger: CoreLogger;
  /** Debug channel for registration events. */
  debug?: (format: string, ...args: unknown[]) => void;
}

export interface RegistrationState {
  registered: boolean;
  registrations: number;
  lastError?: string;
  lastCheckAt?: number;
}

export class ConsulRegistration {
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private stopped = false;
  readonly state: RegistrationState = { registered: false, registrations: 0 };

  constructor(private readonly opts: RegistrationOptions) {}

  get serviceId(): string {
    return this.opts.definition.id;
  }

  /** Registers (a failure is logged and retried by the periodic check) and starts the check. */
  async start(): Promise<void> {
    await this.register('start');
    this.timer = setInterval(() => void this.tick(), this.opts.intervalMs);
    this.timer.unref();
  }

  /** One periodic check; exposed for tests and for an immediate re-check. */
  tick(): Promise<void> {
    this.ticking ??= this.check().finally(() => {
      this.ticking = undefined;
    });
    return this.ticking;
  }

  private async check(): Promise<void> {
    if (this.stopped) return;
    try {
      const services = (await this.opts.client.agent.service.list()) as Record<string, unknown>;
      this.state.lastCheckAt = Date.now();
      if (!services || !(this.serviceId in services)) {
        this.state.registered = false;
        this.opts.logger.warn({ serviceId: this.serviceId }, 'Consul does not know this instance (agent restarted?): registering again');
        await this.register('re-register');
      } else {
        this.state.registered = true;
        delete this.state.lastError;
      }
    } catch (err) {
      this.state.registered = false;
      this.fail('Consul agent unreachable', err);
    }
  }

  private async register(why: string): Promise<void> {
    if (this.stopped) return;
    const d = this.opts.definition;
    try {
      await this.opts.client.agent.service.register({
        name: d.name,
        id: d.id,
        tags: d.tags,
        meta: d.meta,
        address: d.address,
        port: d.port,
        check: d.check,
      });
      this.state.registered = true;
      this.state.registrations++;
      delete this.state.lastError;
      this.opts.logger.info({ serviceId: d.id, name: d.name, address: d.address, port: d.port, why }, 'registered with Consul');
      this.opts.debug?.('registered %s (%s)', d.id, why);
    } catch (err) {
      this.fail('Consul registration failed', err);
    }
  }

  private fail(message: string, err: unknown): void {
    const text = err instanceof Error ? err.message : String(err);
    if (this.state.lastError !== text) this.opts.logger.warn({ serviceId: this.serviceId, error: text }, message);
    this.state.lastError = text;
  }

  /** Stops the periodic check and deregisters; never throws. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.ticking?.catch(() => undefined);
    try {
      await this.opts.client.agent.service.deregister(this.serviceId);
      this.state.registered = false;
      this.opts.logger.info({ serviceId: this.serviceId }, 'deregistered from Consul');
    } catch (err) {
      this.opts.logger.warn({ serviceId: this.serviceId, error: err instanceof Error ? err.message : String(err) }, 'Consul deregistration failed');
    }
  }

  /** `/ready` check: the agent answers and knows this instance. */
  readinessCheck(): ReadinessCheck {
    return {
      name: 'consul',
      timeoutMs: 3000,
      check: async () => {
        const services = (await this.opts.client.agent.service.list()) as Record<string, unknown>;
        if (!services || !(this.serviceId in services)) {
          void this.tick();
          throw new Error('this instance is not registered with the Consul agent');
        }
      },
    };
  }
}
