/**
 * The session a request came in on, as handlers see it (`params.session`,
 * `context.session`): a handle that stays valid after the request ended, for
 * work that sends to one 2025-era connection later (timers, background jobs).
 * Its own module because the request context carries a session and the public
 * data types in types.ts carry the request context: both import from here,
 * neither from the other. Re-exported by types.ts, where the public API lists them.
 */
import type { LogLevel } from './client-channel-types.js';
import type { ListKind } from './declared-capabilities.js';
import type { IResourceDescription, TResourceContent } from './item-types.js';

/**
 * A resource of one session (`session.resources.add()`): listed in that session's
 * `resources/list` and read there, by no other; gone when the session ends. Data, not
 * a function, so a session shared through `mcp.sessions.store: postgres` keeps it in
 * the store and every instance serves it.
 */
export interface ISessionResource extends IResourceDescription {
  /** Text, `{ text }`, `{ blob }` (base64) or full contents. */
  content: TResourceContent;
}

/** The resources of one session. */
export interface ISessionResources {
  /**
   * Adds (or replaces) a resource of this session and, where the server declares
   * `resources.listChanged`, sends `notifications/resources/list_changed` to this
   * session only. Rejects when the session ended, or when the URI is one a static
   * resource or a template of the server already serves.
   */
  add(resource: ISessionResource): Promise<void>;
  /** Removes one (list_changed as for `add`); resolves false when the session had none with that URI. */
  remove(uri: string): Promise<boolean>;
  /** The session's resources, in the order they were added. */
  list(): Promise<ISessionResource[]>;
  /** One of them, or undefined. */
  get(uri: string): Promise<ISessionResource | undefined>;
}

/**
 * One 2025-era connection: a Streamable HTTP session, a legacy HTTP+SSE stream or a
 * stdio connection. Undefined on 2026-07-28, which has no sessions (send to
 * `subscriptions/listen` streams with `handle.notifyResourceUpdated` and
 * `handle.notifyListChanged`), and on a stateless endpoint.
 *
 * Every send resolves to whether the message went to the client's connection
 * (on whichever instance holds its stream, with `mcp.sessions.store: postgres`):
 * false when the session ended, when the session's own choice filters it (its
 * `logging/setLevel` level, its `resources/subscribe` URIs), or when the server does
 * not declare the capability (`logging`, the list's `listChanged`). Sends never reject.
 */
export interface IMcpSession {
  /** `Mcp-Session-Id` on Streamable HTTP, the legacy SSE stream's `sessionId`, one minted per stdio connection. */
  readonly id: string;
  /** False once this instance knows the session ended (DELETE, idle timeout, the connection closed). */
  readonly open: boolean;
  /** `notifications/message`, when `level` is at or above the level the session set with `logging/setLevel` (every level until it sets one). */
  log(level: LogLevel, data: unknown, logger?: string): Promise<boolean>;
  /** `notifications/resources/updated`, when the session subscribed to `uri` (`resources/subscribe`). */
  resourceUpdated(uri: string): Promise<boolean>;
  /** `notifications/<kind>/list_changed`, when the server declares `listChanged` for that list. */
  listChanged(kind: ListKind): Promise<boolean>;
  /** The URIs the session subscribed to. */
  subscriptions(): Promise<string[]>;
  /** Calls `listener` once when the session ends; returns the function that removes it. */
  onClose(listener: () => void): () => void;
  /** Resources of this session only (`resources/list` and `resources/read` of this session). */
  readonly resources: ISessionResources;
}
