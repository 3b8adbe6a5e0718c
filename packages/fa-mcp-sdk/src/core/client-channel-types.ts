/**
 * What a handler may ask of the client while it runs (IClientChannel) and the types it names.
 * Its own module because the request context carries a channel and the public data types in
 * types.ts carry the request context: both import from here, neither from the other.
 * Re-exported by types.ts, where the public API lists them.
 */
import type { JsonObject } from './json-object.js';

export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** Options of one client-input call (`elicit`, `sample`, `listRoots`). */
export interface IClientInputOptions {
  /**
   * The key of this input request in a 2026-07-28 `input_required` result
   * (default: `elicitation`, `sampling` or `roots`). A key asked again within
   * the same call gets a suffix (`-2`, `-3`, ...), so an answered key is never
   * reused. Ignored on 2025-era connections.
   */
  key?: string;
}

/**
 * What a handler may ask of the client while it runs, the same on both
 * protocol eras. On 2025-era connections elicit/sample/listRoots send real
 * server-to-client requests. On 2026-07-28 they answer from the retried
 * request's `inputResponses`; a missing answer stops the handler, the client
 * gets `input_required` with every pending request and a signed
 * `requestState`, and the handler runs again from the start when the client
 * retries (so code before an input call must be safe to repeat).
 * A client that did not declare the capability an input call needs is refused
 * with -32021 (MissingClientCapabilityError) on both eras.
 */
export interface IClientChannel {
  /** Sends a log message to the client (respects the level the client set; on 2026-07-28 the request's `_meta` level, none = no logs). */
  log(level: LogLevel, data: unknown, logger?: string): Promise<void>;
  /** Asks the user for input through the client (elicitation, form or URL mode). */
  elicit(params: JsonObject, options?: IClientInputOptions): Promise<JsonObject>;
  /** Asks the client's model for a completion (sampling). */
  sample(params: JsonObject, options?: IClientInputOptions): Promise<JsonObject>;
  /** Asks the client for its roots. */
  listRoots(options?: IClientInputOptions): Promise<JsonObject>;
  /** true when this run resumes a 2026-07-28 multi-round-trip flow with a verified `requestState`; false on 2025-era connections. */
  readonly resumed: boolean;
  /** Sends any notification related to the current request. */
  notify(method: string, params?: JsonObject): Promise<void>;
  /** Closes the SSE stream of the current request (2025-era resumability); undefined where not possible. */
  closeStream?: () => void;
}
