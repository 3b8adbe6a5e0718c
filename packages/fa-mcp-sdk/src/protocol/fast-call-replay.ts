/**
 * Hands a call the 2026-07-28 fast path already ran to the SDK path for its
 * answer. The fast path writes plain answers itself; a result it does not
 * encode (an `input_required` round, content other than text, result `_meta`)
 * goes through the SDK's own result checks and encoding instead: the request is
 * served by the SDK path, whose tools/call handler returns the recorded result
 * without running the pipeline again, and whose wire tap continues the fast
 * path's observation of the request (one request, observed once).
 *
 * Entries are keyed by the web Request the SDK hands to the handler, and live
 * as long as it does.
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import type { WireRequestScope } from '../core/telemetry.js';

interface Entry {
  result: unknown;
  scope: WireRequestScope;
}

export class ReplayBook {
  private readonly entries = new WeakMap<object, Entry>();

  /** Records the outcome of the call `request` carries, before the SDK path serves it. */
  record(request: object, result: unknown, scope: WireRequestScope): void {
    this.entries.set(request, { result, scope });
  }

  /** The observation the fast path began for `request`, for the wire tap to continue. */
  readonly scopeOf = (request: unknown): WireRequestScope | undefined =>
    request && typeof request === 'object' ? this.entries.get(request)?.scope : undefined;

  /** The recorded result of the call the handler is serving, once; undefined for any other request. */
  take(ctx: ServerContext): { result: unknown } | undefined {
    const request = ctx.http?.req;
    if (!request) return undefined;
    const entry = this.entries.get(request);
    if (!entry) return undefined;
    this.entries.delete(request);
    return { result: entry.result };
  }
}
