/**
 * Where a request's observation begins (wire-observe.ts says why on every
 * route): `openScope` for both ways in, and `observeRequest` for the core
 * routes. A module of its own without the SDK, so that stdio's cold front
 * (cold-answers.ts) observes its answers before the SDK is loaded.
 */
import type { WireObserver, WireOutcome, WireRequest, WireRequestScope } from '../core/telemetry.js';

/** Opens the observation of one request (the operations side records it when it ends). */
export function openScope(observer: WireObserver, req: WireRequest): WireRequestScope {
  return observer.request(req);
}

/** A request a core route serves, under its observation: ended once, with what was answered (or `cancelled`). */
export interface ObservedRequest {
  scope: WireRequestScope;
  end(outcome: WireOutcome): void;
}

export function observeRequest(observer: WireObserver, req: WireRequest): ObservedRequest {
  const scope = openScope(observer, req);
  let observed = true;
  return {
    scope,
    end(outcome) {
      if (!observed) return;
      observed = false;
      scope.end(outcome);
    },
  };
}
