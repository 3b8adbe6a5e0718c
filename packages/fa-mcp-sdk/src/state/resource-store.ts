/**
 * Minted resources: content a tool created at run time, readable by URI until
 * it expires. `IResourceStore` keeps them; `InMemoryResourceStore` and
 * `PostgresResourceStore` pass the same contract suite.
 */

export interface IStoredResource {
  /** Server-minted, unguessable id (the URI carries it). */
  id: string;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Exactly one of `text` and `blob` (base64). */
  text?: string;
  blob?: string;
  /** Content bytes (UTF-8 text, or the decoded blob). */
  size: number;
  createdAt: number;
  expiresAt: number;
}

export interface IResourceStoreOptions {
  /** Resources kept at most; past it the oldest are dropped. */
  maxResources: number;
  /** Content bytes kept at most; past it the oldest are dropped. */
  maxBytes: number;
}

export interface IResourceStore {
  /** Stores a resource, then drops the oldest ones past the caps (never the one just stored when it fits alone). */
  put(resource: IStoredResource): Promise<void>;
  /** The resource, or undefined when unknown, dropped or expired at `now`. */
  get(id: string, now?: number): Promise<IStoredResource | undefined>;
  delete(id: string): Promise<boolean>;
  /** Deletes expired resources; returns how many. */
  sweep(now?: number): Promise<number>;
  close(): Promise<void>;
}
