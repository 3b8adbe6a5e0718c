/**
 * Minted resources: a tool stores content under a server-minted id and returns
 * a `resource_link`; any client holding the URI reads it with resources/read
 * until it expires (the id is the capability: 122 random bits). Reads go
 * through a resource template, so they take the same path as every other resource.
 */
import { PayloadTooLargeError, ResourceNotFoundError, ValidationError } from '../core/errors.js';
import type { IResourceContents, IResourceLinkContent, IResourceTemplateInfo } from '../core/types.js';
import type { IResourceStore, IStoredResource } from './resource-store.js';

/** What a tool mints: the stored record's descriptive fields and content (`name` is part of the URI, percent-encoded). */
export type MintResourceInput = Pick<IStoredResource, 'name' | 'title' | 'description' | 'mimeType' | 'text' | 'blob'> & {
  /** Shorter lifetime than `mcp.mintedResources.ttlMs` (never longer). */
  ttlMs?: number;
};

export interface MintedResourcesOptions {
  store: IResourceStore;
  /** URIs are `<uriPrefix><id>/<name>`. */
  uriPrefix: string;
  ttlMs: number;
  /** One resource larger than this is refused. */
  maxBytes: number;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function base64Bytes(b64: string): number {
  const padding = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return Math.floor((b64.length * 3) / 4) - padding;
}

export class MintedResources {
  readonly store: IResourceStore;

  constructor(private readonly opts: MintedResourcesOptions) {
    this.store = opts.store;
  }

  /** Stores the content and returns the `resource_link` content block to put in a tool result. */
  async mint(input: MintResourceInput, now = Date.now()): Promise<IResourceLinkContent> {
    if (typeof input.name !== 'string' || input.name.length === 0) throw new ValidationError('A minted resource needs a name');
    const hasText = typeof input.text === 'string';
    const hasBlob = typeof input.blob === 'string';
    if (hasText === hasBlob) throw new ValidationError('A minted resource has exactly one of text and blob');
    if (hasBlob && (input.blob as string).length % 4 !== 0) throw new ValidationError('blob is not base64');
    if (hasBlob && !BASE64.test(input.blob as string)) throw new ValidationError('blob is not base64');
    const size = hasText ? Buffer.byteLength(input.text as string) : base64Bytes(input.blob as string);
    if (size > this.opts.maxBytes) {
      throw new PayloadTooLargeError(`A minted resource may hold at most ${this.opts.maxBytes} bytes`, { size, maxBytes: this.opts.maxBytes });
    }
    const ttlMs = Math.max(1, Math.min(input.ttlMs ?? this.opts.ttlMs, this.opts.ttlMs));
    const id = crypto.randomUUID();
    const uri = `${this.opts.uriPrefix}${id}/${encodeURIComponent(input.name)}`;
    const record: IStoredResource = {
      id,
      uri,
      name: input.name,
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.mimeType !== undefined ? { mimeType: input.mimeType } : {}),
      ...(hasText ? { text: input.text as string } : { blob: input.blob as string }),
      size,
      createdAt: now,
      expiresAt: now + ttlMs,
    };
    await this.opts.store.put(record);
    return {
      type: 'resource_link',
      uri,
      name: input.name,
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.mimeType !== undefined ? { mimeType: input.mimeType } : {}),
    };
  }

  /** The contents of a minted URI; throws ResourceNotFoundError when unknown or expired. */
  async read(uri: string, now = Date.now()): Promise<IResourceContents[]> {
    const id = this.idOf(uri);
    const r = id === undefined ? undefined : await this.opts.store.get(id, now);
    if (!r || r.uri !== uri) throw new ResourceNotFoundError(uri);
    const mime = r.mimeType !== undefined ? { mimeType: r.mimeType } : {};
    return [r.text !== undefined ? { uri, ...mime, text: r.text } : { uri, ...mime, blob: r.blob ?? '' }];
  }

  /** The resource template that serves minted URIs (registered by initMcpServer). */
  template(): IResourceTemplateInfo {
    return {
      uriTemplate: `${this.opts.uriPrefix}{id}/{name}`,
      name: 'minted_resource',
      title: 'Minted resource',
      description: 'Content a tool created at run time, returned as a resource link; readable by its URI until it expires.',
      read: (uri) => this.read(uri),
    };
  }

  private idOf(uri: string): string | undefined {
    if (!uri.startsWith(this.opts.uriPrefix)) return undefined;
    const rest = uri.slice(this.opts.uriPrefix.length);
    const slash = rest.indexOf('/');
    return slash > 0 ? rest.slice(0, slash) : undefined;
  }
}
