/**
 * `mintResource()` inside tool handlers: the server's minted resources are
 * ambient for every tools/call (an AsyncLocalStorage scope entered by a pipeline
 * step), like the databases of the *MAIN helpers. Outside a handler use
 * `handle.mintedResources`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { InternalError } from '../core/errors.js';
import type { PipelineStep } from '../core/pipeline.js';
import type { IResourceLinkContent } from '../core/types.js';
import type { MintedResources, MintResourceInput } from './minted-resources.js';

// One storage per process even when the package is loaded twice (ESM and CJS builds).
const SCOPE_KEY = Symbol.for('fa-mcp-sdk.minted-scope');
const holder = globalThis as typeof globalThis & { [SCOPE_KEY]?: AsyncLocalStorage<MintedResources> };
const scope = (holder[SCOPE_KEY] ??= new AsyncLocalStorage<MintedResources>());

/** The pipeline step that makes `minted` ambient for tools/call (tasks included). */
export function mintedResourcesStep(minted: MintedResources): PipelineStep {
  return {
    name: 'minted-resources',
    methods: ['tools/call'],
    run: (_op, next) => scope.run(minted, next),
  };
}

/**
 * Stores content as a minted resource and returns the `resource_link` to put in
 * the tool result. Works inside tool handlers of a server with
 * `mcp.mintedResources.enabled: true`.
 */
export async function mintResource(input: MintResourceInput): Promise<IResourceLinkContent> {
  const minted = scope.getStore();
  if (!minted) {
    throw new InternalError('mintResource() works inside tool handlers of a server with mcp.mintedResources.enabled: true; elsewhere use handle.mintedResources.mint()');
  }
  return minted.mint(input);
}
