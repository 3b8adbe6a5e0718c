/**
 * Authorization of every operation with a target that may require something of
 * its caller: `requiredScopes` and `requiredGroups` of the tool (tools/call),
 * prompt (prompts/get), resource (resources/read, resources/subscribe, the
 * URIs of a 2026-07-28 subscriptions/listen filter) or the prompt or template a
 * completion names. Runs right after resolve, on every transport and era; a
 * refused request never reaches its handler (JSON-RPC -32001, `data.error`
 * `insufficient_scope` or `forbidden`).
 *
 * `completion/complete` for a prompt or template the caller may not use gets
 * the answer of an unknown one, an empty completion: no values, nothing that
 * tells the item exists (with or without `webServer.auth.hideUnauthorized`).
 */
import { assertAccess } from '../access-check.js';
import { AuthError } from '../auth-error.js';
import { listenedUris, requirementsOf } from '../access-target.js';
import { resourceOf, resourceRequirements } from '../resources.js';
import type { Operation, PipelineStep } from '../pipeline.js';
import type { Registry } from '../registry.js';

export type RefusalReporter = (reason: string, detail: Record<string, unknown>) => void;

/** The answer of completion/complete for an unknown (or, alike, a forbidden) prompt or template. */
export function emptyCompletion(): { completion: { values: string[]; total: number; hasMore: boolean } } {
  return { completion: { values: [], total: 0, hasMore: false } };
}

export function authorizeStep(registry: Registry, onRefused?: RefusalReporter): PipelineStep {
  /** Throws the refusal; a promise only when what a resource URI names depends on the request (resources.ts). */
  const check = (op: Operation): void | Promise<void> => {
    switch (op.method) {
      case 'tools/call':
        if (op.tool) assertAccess('tool', op.tool.name, op.tool, op.ctx);
        return;
      case 'subscriptions/listen': {
        const pending: Array<Promise<void>> = [];
        for (const uri of listenedUris(op.params)) {
          const item = resourceRequirements(registry, uri, op.ctx);
          if (item instanceof Promise) pending.push(item.then((found) => found && assertAccess('resource', uri, found, op.ctx)));
          else if (item) assertAccess('resource', uri, item, op.ctx);
        }
        return pending.length > 0 ? Promise.all(pending).then(() => undefined) : undefined;
      }
      default: {
        if (op.target.kind === 'resource') {
          // Looked up once: the read serves what was checked here.
          const found = resourceOf(registry, op);
          if (found instanceof Promise) return found.then((match) => match && assertAccess('resource', op.target.name, match.def, op.ctx));
          if (found) assertAccess('resource', op.target.name, found.def, op.ctx);
          return;
        }
        const item = requirementsOf(registry, op.target);
        if (item) assertAccess(op.target.kind, op.target.name, item, op.ctx);
      }
    }
  };
  const report = (err: unknown, op: Operation): void => {
    if (err instanceof AuthError) onRefused?.(err.reason, { [op.target.kind]: op.target.name, method: op.method, subject: op.ctx.auth?.subject });
  };
  return {
    name: 'authorize',
    methods: ['tools/call', 'prompts/get', 'resources/read', 'resources/subscribe', 'subscriptions/listen', 'completion/complete'],
    run(op, next) {
      const refused = (err: unknown): Promise<unknown> => {
        report(err, op);
        // A completion answers as for an unknown item; anything else is refused.
        if (op.method === 'completion/complete' && err instanceof AuthError) return Promise.resolve(emptyCompletion());
        return Promise.reject(err);
      };
      let pending: void | Promise<void>;
      try {
        pending = check(op);
      } catch (err) {
        return refused(err);
      }
      return pending ? pending.then(next, refused) : next();
    },
  };
}
