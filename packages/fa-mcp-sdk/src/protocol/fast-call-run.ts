/**
 * What both fast paths (modern-fast-call.ts, session-fast-call.ts) run for a
 * call: the body of the SDK path's tools/call handler (server-factory.ts) —
 * progress reporting, the era's client channel, `core.pipeline.run(op,
 * core.executeTool)`, error mapping — and a one-time end of the call's wire
 * observation.
 */
import type { Core } from '../core/core.js';
import { withLazySignal, type LazyAbort } from '../core/lazy-abort.js';
import type { Operation } from '../core/pipeline.js';
import { createProgressReporter, noopProgress } from '../core/progress.js';
import type { RequestContext } from '../core/request-context.js';
import type { WireOutcome, WireRequestScope } from '../core/telemetry.js';
import type { JsonObject } from '../core/types.js';
import type { RequestPort } from './client-channel.js';
import { runWithClientInput, type ClientInputRun } from './client-input-adapter.js';
import { toProtocolError } from './errors.js';
import type { FastCall } from './fast-call-shape.js';

export type CallOutcome = { result: unknown } | { error: { code?: unknown; message?: unknown; data?: unknown } };

export interface FastCallRun {
  call: FastCall;
  rc: RequestContext;
  /** Where progress notifications go (the request's port). */
  port: Pick<RequestPort, 'notify'>;
  /** Aborts the call (the client went away or cancelled, the session ended); its signal is made only if read. */
  abort: LazyAbort;
  /** The era's side of client input (legacySide or modernSide, and the shared settings). */
  clientInput: Omit<ClientInputRun, 'rc' | 'binding' | 'validator'>;
  state: Operation['state'];
}

export async function runFastCall(core: Core, run: FastCallRun): Promise<CallOutcome> {
  const { call, rc } = run;
  const token = call.progressToken;
  const reporter =
    token === undefined
      ? noopProgress
      : createProgressReporter((u) => run.port.notify({ method: 'notifications/progress', params: { progressToken: token, ...u } as JsonObject }), core.limits.progressThrottleMs);
  const binding = { method: 'tools/call', name: call.name, arguments: call.params.arguments };
  try {
    const result = await runWithClientInput({ ...run.clientInput, rc, binding, validator: core.registry.validator }, (client) => {
      const op: Operation = withLazySignal(
        { method: 'tools/call', ctx: rc, params: call.params, client, sendProgress: (p: number, t?: number, m?: string) => reporter.report(p, t, m), state: run.state },
        run.abort,
      );
      return core.pipeline.run(op, core.executeTool);
    });
    await reporter.flush();
    return { result };
  } catch (err) {
    await reporter.flush();
    return { error: toProtocolError(err, rc.requestId, rc.logger ?? core.logger) };
  }
}

/** Ends `scope` once; `handOver()` leaves the end to the SDK path's wire tap (a replayed answer). */
export function observeOnce(scope: WireRequestScope): { end(outcome: WireOutcome): void; handOver(): void } {
  let observed = true;
  return {
    end(outcome) {
      if (!observed) return;
      observed = false;
      scope.end(outcome);
    },
    handOver() {
      observed = false;
    },
  };
}
