/**
 * What an operation's target requires of its caller (`requiredScopes`,
 * `requiredGroups`): the prompt, the resource (a static one or the template
 * its URI matches) or the resource template a completion names. Tools are
 * resolved by the resolve step (they may depend on the request).
 */
import type { OperationTarget } from './pipeline.js';
import type { Registry } from './registry.js';
import type { IAccessRequirements } from './types.js';

export function requirementsOf(registry: Registry, target: OperationTarget): IAccessRequirements | undefined {
  switch (target.kind) {
    case 'prompt':
      return registry.prompts.get(target.name);
    case 'resource':
      return registry.resources.get(target.name) ?? registry.findTemplate(target.name)?.template.def;
    case 'template':
      return registry.templates.find((t) => t.def.uriTemplate === target.name)?.def;
    default:
      return undefined;
  }
}

/** The URIs a 2026-07-28 `subscriptions/listen` filter asks updates of. */
export function listenedUris(params: Record<string, unknown>): string[] {
  const filter = params.notifications as { resourceSubscriptions?: unknown } | undefined;
  const uris = filter?.resourceSubscriptions;
  return Array.isArray(uris) ? uris.filter((u): u is string => typeof u === 'string') : [];
}
