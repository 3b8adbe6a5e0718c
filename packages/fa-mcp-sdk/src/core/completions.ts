/** completion/complete for prompt arguments and resource-template variables. */
import type { Registry } from './registry.js';
import type { RequestContext } from './request-context.js';
import type { ICompletionContext, IPromptArgument } from './types.js';

export const MAX_COMPLETION_VALUES = 100;

export interface CompletionRequest {
  ref: { type: string; name?: string; uri?: string };
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> };
}

export interface CompletionAnswer {
  values: string[];
  total: number;
  hasMore: boolean;
}

/** Who asks, for function sources (the pipeline's authorize step decided already that they may). */
export interface CompletionCaller {
  request: RequestContext;
  signal: AbortSignal;
}

export async function complete(registry: Registry, req: CompletionRequest, caller?: CompletionCaller): Promise<CompletionAnswer> {
  const source = findSource(registry, req);
  if (!source) return { values: [], total: 0, hasMore: false };
  let all: string[];
  if (typeof source === 'function') {
    const ctx: ICompletionContext = { ...(req.context ?? {}) };
    if (caller) {
      ctx.auth = caller.request.auth;
      ctx.signal = caller.signal;
      ctx.request = caller.request;
    }
    all = await source(req.argument.value, ctx);
  } else {
    all = source.filter((v) => v.startsWith(req.argument.value));
  }
  return { values: all.slice(0, MAX_COMPLETION_VALUES), total: all.length, hasMore: all.length > MAX_COMPLETION_VALUES };
}

/** The target of a completion request: the prompt or the resource template it completes. */
export function completionTarget(req: CompletionRequest): { kind: 'prompt' | 'template'; name: string } {
  return req.ref.type === 'ref/resource' ? { kind: 'template', name: req.ref.uri ?? '' } : { kind: 'prompt', name: req.ref.name ?? '' };
}

export function hasCompletions(registry: Registry): boolean {
  for (const p of registry.prompts.values()) if (p.arguments?.some((a) => a.complete)) return true;
  return registry.templates.some((t) => t.def.complete && Object.keys(t.def.complete).length > 0);
}

function findSource(registry: Registry, req: CompletionRequest): IPromptArgument['complete'] {
  if (req.ref.type === 'ref/prompt' && req.ref.name) {
    return registry.prompts.get(req.ref.name)?.arguments?.find((a) => a.name === req.argument.name)?.complete;
  }
  if (req.ref.type === 'ref/resource' && req.ref.uri) {
    return registry.templates.find((t) => t.def.uriTemplate === req.ref.uri)?.def.complete?.[req.argument.name];
  }
  return undefined;
}
