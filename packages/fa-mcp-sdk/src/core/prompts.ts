/** Prompt listing and rendering, independent of the protocol era. */
import { withDeprecation } from './deprecation.js';
import { ValidationError } from './errors.js';
import type { RequestContext } from './request-context.js';
import type { IPromptData, IPromptResult } from './types.js';

export function describePrompt(p: IPromptData) {
  return {
    name: p.name,
    ...(p.title ? { title: p.title } : {}),
    ...(p.description || p.deprecated ? { description: withDeprecation(p.description, p.deprecated) } : {}),
    ...(p.arguments
      ? {
          arguments: p.arguments.map((a) => ({
            name: a.name,
            ...(a.title ? { title: a.title } : {}),
            ...(a.description ? { description: a.description } : {}),
            ...(a.required ? { required: true } : {}),
          })),
        }
      : {}),
    ...(p.icons ? { icons: p.icons } : {}),
    ...(p._meta ? { _meta: p._meta } : {}),
  };
}

/** Renders a prompt; the pipeline's authorize step checked the caller before (core/steps/authorize.ts). */
export async function renderPrompt(prompt: IPromptData, args: Record<string, string>, ctx: RequestContext): Promise<IPromptResult> {
  for (const a of prompt.arguments ?? []) {
    if (a.required && (args[a.name] === undefined || args[a.name] === '')) {
      throw new ValidationError(`Missing required argument "${a.name}" for prompt ${prompt.name}`, { field: a.name, reason: 'is required' });
    }
  }
  const known = new Set((prompt.arguments ?? []).map((a) => a.name));
  for (const key of Object.keys(args)) {
    if (!known.has(key)) throw new ValidationError(`Unknown argument "${key}" for prompt ${prompt.name}`, { field: key, reason: 'is not allowed' });
  }
  const value = typeof prompt.content === 'function' ? await prompt.content(args, ctx) : prompt.content;
  if (typeof value === 'string') {
    const messages = [{ role: 'user' as const, content: { type: 'text' as const, text: value } }];
    // Two literals, not `{ ...(description ? …), messages }`: SPREAD_FIRST in protocol/client-channel.ts.
    return prompt.description ? { description: prompt.description, messages } : { messages };
  }
  return value;
}
