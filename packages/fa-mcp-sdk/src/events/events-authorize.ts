/**
 * Authorization of the `events/*` methods that name an event type (poll, stream, subscribe,
 * unsubscribe): the type's `requiredScopes` / `requiredGroups` / `requireAuth`, checked right
 * after the core's authorize step, on every transport, before any consumer step or handler.
 * A refusal is the extension's Forbidden (-32012, naming what is missing); with
 * `webServer.auth.hideUnauthorized` the type answers as an unknown one (-32011), as it is left
 * out of events/list. An unknown type is left to the method (-32011 there).
 */
import { assertAccess } from '../core/access-check.js';
import { AuthError } from '../core/auth-error.js';
import type { PipelineStep } from '../core/pipeline.js';
import type { RefusalReporter } from '../core/steps/authorize.js';
import type { EventRegistry } from './event-registry.js';
import { EventForbiddenError, EventNotFoundError } from './events-errors.js';

export const EVENT_TYPE_METHODS = ['events/poll', 'events/stream', 'events/subscribe', 'events/unsubscribe'] as const;

export function authorizeEventStep(registry: EventRegistry, hideUnauthorized: boolean, onRefused?: RefusalReporter): PipelineStep {
  return {
    name: 'authorize-event',
    methods: EVENT_TYPE_METHODS,
    run(op, next) {
      if (op.target.kind !== 'event' || !registry.names().includes(op.target.name)) return next();
      const { def } = registry.get(op.target.name);
      try {
        assertAccess('event', def.name, def, op.ctx);
      } catch (err) {
        if (!(err instanceof AuthError)) throw err;
        onRefused?.(err.reason, { event: def.name, method: op.method, subject: op.ctx.auth?.subject });
        if (hideUnauthorized) return Promise.reject(new EventNotFoundError('event', def.name));
        return Promise.reject(new EventForbiddenError(err.message, { ...(err.data ?? {}), reason: err.reason }));
      }
      return next();
    },
  };
}
