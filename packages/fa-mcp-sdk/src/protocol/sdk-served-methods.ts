/**
 * The 2026-07-28 methods the SDK's serving entries answer themselves, before
 * any handler of ours could: `server/discover` and `subscriptions/listen`
 * (the listen stream reads the change bus). They run through the core's
 * pipeline all the same, the SDK's answer being the terminal: rate limits and
 * consumer steps see them, and the authorize step refuses a listen filter
 * naming a resource the caller may not read (JSON-RPC -32001, no stream, no
 * acknowledgement, nothing delivered).
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { WireConnection, WireFilter } from './wire-adapter.js';
import type { Core } from '../core/core.js';
import { toWireError } from '../core/error-mapping.js';
import { MCP_ERROR_CODES } from '../core/errors.js';
import { runOperation } from '../core/operation.js';
import type { AuthInfo, TransportKind } from '../core/request-context.js';
import type { JsonObject } from '../core/types.js';
import { contextFromFacts, type HttpRequestDescriber } from './request-context-builder.js';

const SDK_SERVED: ReadonlySet<string> = new Set(['server/discover', 'subscriptions/listen']);

type RpcRequest = { id: string | number; method: string; params?: JsonObject };

/** The request of a body when it is one of the methods the SDK serves itself. */
export function sdkServedRequest(body: unknown): RpcRequest | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const m = body as Partial<RpcRequest>;
  if (typeof m.method !== 'string' || !SDK_SERVED.has(m.method) || m.id === undefined || m.id === null) return undefined;
  return m as RpcRequest;
}

export interface SdkServedOptions {
  core: Core;
  transport: TransportKind;
  describeHttp?: HttpRequestDescriber;
  /** The identity of requests without their own (stdio with a token). */
  defaultAuth?: AuthInfo;
}

/**
 * Runs `request` through the pipeline with `serve` (the SDK's answer) as the
 * terminal. A step's refusal is the JSON-RPC error message instead.
 */
export async function runSdkServed<T>(
  opts: SdkServedOptions,
  request: RpcRequest,
  facts: { headers?: { get(name: string): string | null; forEach(fn: (value: string, key: string) => void): void }; auth?: AuthInfo; signal: AbortSignal },
  serve: () => Promise<T>,
): Promise<{ served: T } | { error: Record<string, unknown> }> {
  const params = request.params ?? {};
  const rc = contextFromFacts(
    { era: '2026', transport: opts.transport, ...(opts.describeHttp ? { describeHttp: opts.describeHttp } : {}), ...(opts.defaultAuth ? { defaultAuth: opts.defaultAuth } : {}) },
    {
      ...(facts.headers ? { http: { headers: facts.headers } } : {}),
      envelope: (params._meta as Record<string, unknown> | undefined) ?? {},
      ...(facts.auth ? { auth: facts.auth } : {}),
    },
  );
  try {
    const served = await runOperation(opts.core, { method: request.method, target: { kind: 'server', name: '' }, ctx: rc, params, signal: facts.signal }, () => serve());
    return { served };
  } catch (err) {
    const wire = toWireError(err, rc.requestId);
    if (wire.code === MCP_ERROR_CODES.INTERNAL_ERROR) (rc.logger ?? opts.core.logger).error({ err, requestId: rc.requestId }, 'unexpected error while handling a request');
    return { error: { jsonrpc: '2.0', id: request.id, error: { code: wire.code, message: wire.message, ...(wire.data !== undefined ? { data: wire.data } : {}) } } };
  }
}

/**
 * On a stdio connection, runs each `subscriptions/listen` through the pipeline
 * before the SDK's listen router sees it (a refusal is answered here): a filter
 * of the stdio wire adapter (stdio-connection.ts). `server/discover` is left to
 * the SDK here: it is the connection's first message, which picks the era, and
 * must not be overtaken.
 */
export function stdioListenFilter(opts: SdkServedOptions): WireFilter {
  let connection: WireConnection | undefined;
  return {
    started(c) {
      connection = c;
    },
    inbound(message, extra, next) {
      const request = sdkServedRequest(message);
      if (!request || request.method !== 'subscriptions/listen') return next(message, extra);
      void runSdkServed(opts, request, { signal: new AbortController().signal }, async () => next(message, extra)).then((outcome) => {
        if ('error' in outcome) return connection?.send(outcome.error as JSONRPCMessage).catch(() => undefined);
        return undefined;
      });
    },
  };
}
