/**
 * The end of a fast call's wire observation, once. The call itself runs in the
 * one tools/call runner (tool-call-run.ts) that the SDK path runs too.
 */
import type { WireOutcome, WireRequestScope } from '../core/telemetry.js';

/** Ends `scope` once. */
export function observeOnce(scope: WireRequestScope): { end(outcome: WireOutcome): void } {
  let observed = true;
  return {
    end(outcome) {
      if (!observed) return;
      observed = false;
      scope.end(outcome);
    },
  };
}
