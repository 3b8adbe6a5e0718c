/**
 * The session handle (core/session-types.ts IMcpSession) of a 2025-era
 * connection: what handlers get as `params.session` / `context.session` and
 * `handle.session(id)` returns. Sends outside any request, to this connection
 * only, each checked against what the session chose (its `logging/setLevel`
 * level, its `resources/subscribe` URIs) and what the server declares.
 *
 * Two kinds, one behaviour:
 * - LiveServer: the connection served by this instance. It is the entry
 *   LiveServers keeps for the connection anyway (one object, made when the
 *   connection starts, no other made until the handle is used: an idle session
 *   holds nothing new). A copy of a session shared through
 *   `mcp.sessions.store: postgres` that does not hold the client's stream hands
 *   what it sends to the instance that does (session-share.ts, over the bus).
 * - RemoteSession: a shared session this instance holds no copy of (or no
 *   longer does): the checks read the stored state, and what passes is handed
 *   to the instance holding the stream.
 *
 * Session resources live with the connection (a Map made on the first add),
 * or, for a shared session, in the store, where every instance reads them.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import type { DeclaredCapabilities, ListKind } from '../core/declared-capabilities.js';
import { assertValidDeprecation } from '../core/deprecation.js';
import type { ProtocolEra } from '../core/request-context.js';
import type { IMcpSession, ISessionResource, ISessionResources } from '../core/session-types.js';
import type { JsonObject, LogLevel } from '../core/types.js';
import { passesLogLevel } from './client-channel.js';

/** A notification to one session. */
export interface SessionMessage {
  method: string;
  params?: JsonObject;
}

/** A session's own resources where they are kept (this connection, or the shared store). */
export interface SessionResourceKeeper {
  list(): Promise<ISessionResource[]>;
  get(uri: string): Promise<ISessionResource | undefined>;
  /** False when the session is gone. */
  put(resource: ISessionResource): Promise<boolean>;
  delete(uri: string): Promise<boolean>;
}

/** What the shared store offers for sessions this instance does not serve itself (session-share.ts implements it). */
export interface RemoteSessions {
  /** The session's stored state; undefined when it ended or expired. */
  state(id: string): Promise<{ logLevel?: string; subscriptions: string[] } | undefined>;
  /** Hands `message` to the instance holding the session's stream (it sends it there). */
  handOver(id: string, message: SessionMessage): Promise<void>;
  /** The session's own resources in the store. */
  resources(id: string): SessionResourceKeeper;
}

/** What a session handle needs of the process (LiveServers provides it). */
export interface SessionRoom {
  readonly declared: DeclaredCapabilities;
  /** The shared store, when sessions are shared (mcp.sessions.store: postgres). */
  readonly remote: RemoteSessions | undefined;
  /** Whether a static resource or a template already serves `uri` (a session resource may not take it). */
  served(uri: string): boolean;
  /** The session `id` ended: its close listeners run. */
  ended(id: string): void;
  /** Runs `listener` when the session `id` ends; returns what removes it. */
  watch(id: string, listener: () => void): () => void;
  /** Reports a send that failed (never thrown at the caller: sends resolve false). */
  failed(err: unknown, id: string): void;
}

/** Whether the client's stream of a shared session is held here (session-share.ts SharedCopy). */
export interface StreamHolder {
  readonly holdsStream: boolean;
}

/** The checks every handle makes before it sends: what the server declares. */
function declaredFor(declared: DeclaredCapabilities, what: 'log' | 'resource' | ListKind): boolean {
  if (what === 'log') return declared.logging;
  if (what === 'resource') return declared.subscribe;
  return declared.listChanged[what];
}

const logMessage = (level: LogLevel, data: unknown, logger: string | undefined): SessionMessage => ({
  method: 'notifications/message',
  params: logger === undefined ? { level, data } : { level, data, logger },
});

/** `session.resources` over a keeper: the checks of `add`, and list_changed to the session. */
class SessionResourceList implements ISessionResources {
  constructor(
    private readonly session: IMcpSession,
    private readonly room: SessionRoom,
    private readonly keeper: () => SessionResourceKeeper,
  ) {}

  async add(resource: ISessionResource): Promise<void> {
    checkResource(resource);
    if (this.room.served(resource.uri)) {
      throw new Error(`session.resources.add: "${resource.uri}" is served by a static resource or a template of the server; a session resource needs a URI of its own`);
    }
    if (!(await this.keeper().put(resource))) throw new Error(`session.resources.add: the session ${this.session.id} has ended`);
    await this.session.listChanged('resources');
  }

  async remove(uri: string): Promise<boolean> {
    const removed = await this.keeper().delete(uri);
    if (removed) await this.session.listChanged('resources');
    return removed;
  }

  list(): Promise<ISessionResource[]> {
    return this.keeper().list();
  }

  get(uri: string): Promise<ISessionResource | undefined> {
    return this.keeper().get(uri);
  }
}

function checkResource(r: ISessionResource): void {
  const content = r?.content;
  const data =
    typeof content === 'string' ||
    Array.isArray(content) ||
    (typeof content === 'object' && content !== null && (typeof (content as { text?: unknown }).text === 'string' || typeof (content as { blob?: unknown }).blob === 'string'));
  if (typeof r?.uri !== 'string' || r.uri === '' || typeof r.name !== 'string' || !data) {
    throw new TypeError('session.resources.add: a resource needs a `uri`, a `name` and a `content` (text, { text }, { blob } or contents)');
  }
  assertValidDeprecation('resource', r.uri, r.deprecated);
}

/** Resources kept with the connection (the memory default, stdio, legacy SSE). */
class ConnectionResources implements SessionResourceKeeper {
  private readonly byUri = new Map<string, ISessionResource>();
  constructor(private readonly live: LiveServer) {}

  async list(): Promise<ISessionResource[]> {
    return [...this.byUri.values()];
  }
  async get(uri: string): Promise<ISessionResource | undefined> {
    return this.byUri.get(uri);
  }
  async put(resource: ISessionResource): Promise<boolean> {
    if (!this.live.open) return false;
    this.byUri.delete(resource.uri); // a replaced one moves to the end, as the store orders them
    this.byUri.set(resource.uri, { ...resource });
    return true;
  }
  async delete(uri: string): Promise<boolean> {
    return this.byUri.delete(uri);
  }
}

const NO_RESOURCES: SessionResourceKeeper = {
  list: async () => [],
  get: async () => undefined,
  put: async () => false,
  delete: async () => false,
};

/** A shared session reached through the store: the stored state decides, the stream holder sends. */
export class RemoteSession implements IMcpSession {
  private ended = false;
  private view: ISessionResources | undefined;

  constructor(
    readonly id: string,
    private readonly room: SessionRoom,
    private readonly remote: RemoteSessions,
  ) {}

  get open(): boolean {
    return !this.ended;
  }

  /** What a handle shows when a context is logged or serialized: not the connection behind it. */
  toJSON(): { id: string; open: boolean } {
    return { id: this.id, open: this.open };
  }

  log(level: LogLevel, data: unknown, logger?: string): Promise<boolean> {
    if (!declaredFor(this.room.declared, 'log')) return Promise.resolve(false);
    return this.send(logMessage(level, data, logger), (s) => passesLogLevel(level, s.logLevel));
  }

  resourceUpdated(uri: string): Promise<boolean> {
    if (!declaredFor(this.room.declared, 'resource')) return Promise.resolve(false);
    return this.send({ method: 'notifications/resources/updated', params: { uri } }, (s) => s.subscriptions.includes(uri));
  }

  listChanged(kind: ListKind): Promise<boolean> {
    if (!declaredFor(this.room.declared, kind)) return Promise.resolve(false);
    return this.send({ method: `notifications/${kind}/list_changed` }, () => true);
  }

  async subscriptions(): Promise<string[]> {
    return (await this.stored())?.subscriptions ?? [];
  }

  onClose(listener: () => void): () => void {
    return this.room.watch(this.id, listener);
  }

  get resources(): ISessionResources {
    return (this.view ??= new SessionResourceList(this, this.room, () => this.remote.resources(this.id)));
  }

  private async stored(): Promise<{ logLevel?: string; subscriptions: string[] } | undefined> {
    if (this.ended) return undefined;
    const state = await this.remote.state(this.id);
    if (!state) {
      this.ended = true;
      this.room.ended(this.id);
    }
    return state;
  }

  private async send(message: SessionMessage, passes: (state: { logLevel?: string; subscriptions: string[] }) => boolean): Promise<boolean> {
    try {
      const state = await this.stored();
      if (!state || !passes(state)) return false;
      await this.remote.handOver(this.id, message);
      return true;
    } catch (err) {
      this.room.failed(err, this.id);
      return false;
    }
  }
}

/** What a session handle makes when first used: none of it for a session whose handlers never use the handle. */
interface MadeOnUse {
  keeper?: SessionResourceKeeper;
  view?: ISessionResources;
  away?: RemoteSession;
}

/**
 * The entry of one connection served here (LiveServers), and the handle of its session. Every field
 * is set in the constructor (one shape, as few fields as an idle connection needs: it holds one per
 * connection); what the handle needs to work is made on first use.
 */
export class LiveServer implements IMcpSession {
  /** URIs of resources/subscribe (2025 era; on 2026-07-28 the listen filter decides); made on the first subscribe, as most connections never do. */
  subscribed: Set<string> | undefined = undefined;
  /** This instance's copy of a session shared through the store (session-open.ts sets it). */
  copy: StreamHolder | undefined = undefined;
  /** `here`: served by this instance; `elsewhere`: this copy closed, the session lives on other instances; `ended`. */
  private where: 'here' | 'elsewhere' | 'ended' = 'here';
  private made: MadeOnUse | undefined = undefined;

  constructor(
    /** The connection's server instance; dropped when the connection closes (a kept handle holds no server). */
    public server: McpServer | undefined,
    readonly era: ProtocolEra,
    readonly id: string,
    /** The level the client set with logging/setLevel (server-factory.ts keeps it). */
    private readonly levelOf: () => LogLevel | undefined,
    private readonly room: SessionRoom,
  ) {}

  get open(): boolean {
    return this.where === 'elsewhere' ? (this.made?.away?.open ?? true) : this.where === 'here';
  }

  toJSON(): { id: string; open: boolean } {
    return { id: this.id, open: this.open };
  }

  /** The connection closed here: the session ended, or (a shared copy) lives on elsewhere. */
  detach(ended: boolean): void {
    this.server = undefined;
    // The resources kept with the connection go with it (a kept handle holds none).
    if (this.made) this.made.keeper = undefined;
    if (this.where !== 'here') return;
    this.where = !ended && this.copy && this.room.remote ? 'elsewhere' : 'ended';
  }

  /** The session ended (here, or heard of from another instance). */
  end(): void {
    this.where = 'ended';
  }

  log(level: LogLevel, data: unknown, logger?: string): Promise<boolean> {
    const away = this.elsewhere();
    if (away) return away.log(level, data, logger);
    if (!declaredFor(this.room.declared, 'log') || !passesLogLevel(level, this.levelOf())) return Promise.resolve(false);
    return this.send(logMessage(level, data, logger));
  }

  resourceUpdated(uri: string): Promise<boolean> {
    const away = this.elsewhere();
    if (away) return away.resourceUpdated(uri);
    if (!declaredFor(this.room.declared, 'resource') || this.subscribed?.has(uri) !== true) return Promise.resolve(false);
    return this.send({ method: 'notifications/resources/updated', params: { uri } });
  }

  listChanged(kind: ListKind): Promise<boolean> {
    const away = this.elsewhere();
    if (away) return away.listChanged(kind);
    if (!declaredFor(this.room.declared, kind)) return Promise.resolve(false);
    return this.send({ method: `notifications/${kind}/list_changed` });
  }

  async subscriptions(): Promise<string[]> {
    const away = this.elsewhere();
    if (away) return away.subscriptions();
    return this.where === 'here' ? [...(this.subscribed ?? [])] : [];
  }

  onClose(listener: () => void): () => void {
    if (this.where === 'ended') {
      queueMicrotask(listener);
      return () => undefined;
    }
    return this.room.watch(this.id, listener);
  }

  get resources(): ISessionResources {
    const made = (this.made ??= {});
    return (made.view ??= new SessionResourceList(this, this.room, () => this.keeperNow()));
  }

  /** Where the session's resources are now: the store for a shared session, else this connection (none once it ended). */
  private keeperNow(): SessionResourceKeeper {
    const remote = this.room.remote;
    if (remote && (this.copy || this.where === 'elsewhere')) return remote.resources(this.id);
    if (this.where === 'ended') return NO_RESOURCES;
    const made = (this.made ??= {});
    return (made.keeper ??= new ConnectionResources(this));
  }

  /** The handle through the store, once this copy closed and the session lives on elsewhere. */
  private elsewhere(): RemoteSession | undefined {
    if (this.where !== 'elsewhere' || !this.room.remote) return undefined;
    const made = (this.made ??= {});
    return (made.away ??= new RemoteSession(this.id, this.room, this.room.remote));
  }

  private async send(message: SessionMessage): Promise<boolean> {
    const server = this.server;
    if (this.where !== 'here' || !server?.isConnected()) return false;
    try {
      const remote = this.room.remote;
      // A shared copy without the client's stream: the instance holding it sends (session-share.ts).
      if (this.copy && !this.copy.holdsStream && remote) await remote.handOver(this.id, message);
      else await server.server.notification(message as Parameters<McpServer['server']['notification']>[0]);
      return true;
    } catch (err) {
      this.room.failed(err, this.id);
      return false;
    }
  }
}
