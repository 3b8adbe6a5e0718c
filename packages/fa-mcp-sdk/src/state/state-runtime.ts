/**
 * The shared state of one server, built from `mcp.resumability`,
 * `mcp.notifications` and `mcp.mintedResources` (or from instances the
 * consumer passes): the resumability event store, the notification bus that
 * relays resource updates and list changes between instances, and minted
 * resources. PostgreSQL stores create their tables at start (migrations under
 * an advisory lock); sweeps delete what expired.
 */
import type { PgClientConfig } from '../db/pg-types.js';
import type { AppConfig } from '../config/schema.js';
import type { CoreLogger } from '../core/core.js';
import type { Pipeline } from '../core/pipeline.js';
import { uriSchemeOf } from '../core/builtins.js';
import type { Databases } from '../db/databases.js';
import { ChangeRelay, type LocalChangeSink } from './change-relay.js';
import { InMemoryEventStore, type IEventStore } from './event-store-memory.js';
import { PostgresEventStore } from './event-store-postgres.js';
import { MintedResources } from './minted-resources.js';
import { mintedResourcesStep } from './minted-scope.js';
import { InMemoryNotificationBus, type INotificationBus } from './notification-bus.js';
import { PostgresNotificationBus } from './notification-bus-postgres.js';
import type { IResourceStore } from './resource-store.js';
import { InMemoryResourceStore } from './resource-store-memory.js';
import { PostgresResourceStore } from './resource-store-postgres.js';
import { checkSharedSessions, sharedSessionsOf, type SharedSessions } from './shared-sessions.js';

export interface StateRuntimeOptions {
  config: AppConfig['mcp'];
  databases: Databases;
  logger: CoreLogger;
  serverName: string;
  /** Instances of the consumer's own; each replaces its configured store. */
  eventStore?: IEventStore;
  notificationBus?: INotificationBus;
  resourceStore?: IResourceStore;
}

export interface StateRuntime {
  eventStore: IEventStore;
  bus: INotificationBus;
  /** Present when `mcp.mintedResources.enabled`. */
  minted?: MintedResources;
  /** Present when `mcp.sessions.store: postgres`: the session rows and the bus channel of session events. */
  sessions?: SharedSessions;
  /** Starts relaying changes between this instance's connections and the bus. */
  connectChanges(local: LocalChangeSink): ChangeRelay;
  /** Adds the pipeline steps the state needs (the minted-resources scope). */
  attach(pipeline: Pipeline): void;
  close(): Promise<void>;
}

const CHANGES_CHANNEL = 'mcp-changes';

export async function createStateRuntime(opts: StateRuntimeOptions): Promise<StateRuntime> {
  const { config, databases, logger } = opts;
  const pool = (name: string) => databases.get(name).pool();
  const closers: Array<() => Promise<void> | void> = [];
  const every = (ms: number, what: string, fn: () => Promise<number>) => {
    const timer = setInterval(() => void fn().catch((err: unknown) => logger.warn({ err }, `${what} sweep failed`)), ms);
    timer.unref();
    closers.push(() => clearInterval(timer));
  };

  try {
    checkSharedSessions(config, databases, opts.notificationBus !== undefined);
    const rs = config.resumability;
    let eventStore = opts.eventStore;
    if (!eventStore) {
      if (rs.store === 'postgres') {
        const pgStore = new PostgresEventStore(await pool(rs.database), { maxEventsPerStream: rs.maxEventsPerStream, retentionMs: rs.retentionMs });
        await pgStore.migrate();
        eventStore = pgStore;
      } else {
        eventStore = new InMemoryEventStore({ maxEventsPerStream: rs.maxEventsPerStream, maxStreams: rs.maxStreams, retentionMs: rs.retentionMs });
      }
    }
    const events = eventStore;
    if (events.sweep) every(rs.sweepIntervalMs, 'event store', () => events.sweep?.() ?? Promise.resolve(0));

    let bus = opts.notificationBus;
    let channel = CHANGES_CHANNEL;
    if (!bus) {
      if (config.notifications.bus === 'postgres') {
        const busPool = await pool(config.notifications.database);
        // NOTIFY reaches the whole database: instances of other schemas (other apps, parallel tests) are not ours.
        const { rows } = await busPool.query<{ schema: string | null }>('SELECT current_schema() AS schema');
        channel = `${CHANGES_CHANNEL}@${rows[0]?.schema ?? ''}`;
        // pg.Pool keeps the connection settings it was built with; the bus opens one listening client with them.
        const pgBus = new PostgresNotificationBus(busPool, (busPool as unknown as { options: PgClientConfig }).options, logger);
        await pgBus.start();
        bus = pgBus;
      } else {
        bus = new InMemoryNotificationBus();
      }
      const own = bus;
      closers.push(() => own.close());
    }

    const sessions = await sharedSessionsOf({ config, databases, bus, channel, ownBus: opts.notificationBus !== undefined, every });

    const mr = config.mintedResources;
    let minted: MintedResources | undefined;
    if (mr.enabled) {
      let store = opts.resourceStore;
      if (!store) {
        const limits = { maxResources: mr.maxResources, maxBytes: mr.maxBytes };
        if (mr.store === 'postgres') {
          const pgStore = new PostgresResourceStore(await pool(mr.database), limits);
          await pgStore.migrate();
          store = pgStore;
        } else {
          store = new InMemoryResourceStore(limits);
        }
      }
      const resources = store;
      minted = new MintedResources({ store, uriPrefix: mr.uriPrefix || `${uriSchemeOf(opts.serverName)}://minted/`, ttlMs: mr.ttlMs, maxBytes: mr.maxBytes });
      every(mr.sweepIntervalMs, 'minted resources', () => resources.sweep());
      if (!opts.resourceStore) closers.push(() => resources.close());
    }
    if (!opts.eventStore) closers.push(() => events.close?.());

    const changeBus = bus;
    return {
      eventStore: events,
      bus: changeBus,
      ...(minted ? { minted } : {}),
      ...(sessions ? { sessions } : {}),
      connectChanges(local) {
        const relay = new ChangeRelay({ bus: changeBus, channel, local, logger });
        closers.unshift(() => relay.close());
        return relay;
      },
      attach(pipeline) {
        if (!minted) return;
        const first = pipeline.names()[0];
        pipeline.use(mintedResourcesStep(minted), first ? { before: first } : {});
      },
      close: () => runClosers(closers),
    };
  } catch (err) {
    await runClosers(closers);
    throw err;
  }
}

async function runClosers(closers: Array<() => Promise<void> | void>): Promise<void> {
  for (const close of closers.splice(0)) await Promise.resolve(close()).catch(() => undefined);
}

/** The store and bus instances a consumer passed in McpServerData. */
export function stateInstances(data: { eventStore?: IEventStore; notificationBus?: INotificationBus; resourceStore?: IResourceStore }) {
  return {
    ...(data.eventStore ? { eventStore: data.eventStore } : {}),
    ...(data.notificationBus ? { notificationBus: data.notificationBus } : {}),
    ...(data.resourceStore ? { resourceStore: data.resourceStore } : {}),
  };
}
