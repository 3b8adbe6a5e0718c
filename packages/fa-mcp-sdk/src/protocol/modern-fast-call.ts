/**
 * The 2026-07-28 fast path: a plain `tools/call`, `prompts/get`,
 * `resources/read` or `completion/complete` served without building an SDK
 * server for the request. It runs what the SDK path's handler runs
 * (server-factory.ts: the same RequestContext, client input, progress, error
 * mapping, the one runner of the method: tool-call-run.ts, method-run.ts)
 * under the same wire observation, and answers the way the SDK would:
 *
 * - a plain result or an error: written here (fast-call-shape.ts, fast-call-results.ts);
 * - any other result (`input_required`, non-text content, blobs): encoded by the
 *   SDK's own codec (sdk-codec.ts), its refusal answered as the SDK path answers it;
 * - notifications (progress, logs): made by the SDK's codec too, turning the
 *   answer into an event stream as the SDK's per-request transport does;
 * - the client going away: the run is aborted and nothing is answered.
 *
 * What it does not take (readFastCall, and the tool checks below) the SDK path serves.
 */
import { LOG_LEVEL_META_KEY, SdkError, SdkErrorCode, isInputRequiredResult, type JSONRPCMessage } from '@modelcontextprotocol/server';
import type { Core } from '../core/core.js';
import { LazyAbort } from '../core/lazy-abort.js';
import type { Operation } from '../core/pipeline.js';
import { TASK_STATE } from '../core/steps/task-support.js';
import type { WireRequestScope } from '../core/telemetry.js';
import type { LogLevel } from '../core/types.js';
import { isTaskCapable, toolVerdicts, type TakesTool } from './fast-call-tools.js';
import { passesLogLevel } from './client-channel.js';
import type { ModernRequestSide } from './client-input-adapter.js';
import { runToolCall, type CallOutcome } from './tool-call-run.js';
import { runMethod, servedMethods } from './method-run.js';
import { createFastCallReader, encodeError, errorStatus, type FastCall, type FastCallReader } from './fast-call-shape.js';
import { encodeFastResult, type ResultStamp } from './fast-call-results.js';
import type { ModernEraSupport } from './modern-era.js';
import type { SdkCodec } from './sdk-codec.js';
import { answerOnceRecorded, observeRequest, type AnswerMessage } from './observe-request.js';
import { contextFromFacts, type ContextSource, type CoreCallRequest, type HttpRequestDescriber } from './request-context-builder.js';
import { serverImplementation } from './server-identity.js';

/** How the transport answers one fast call. */
export interface FastCallExchange {
  /** Calls `fn` once when the client goes away before the answer (at once if it already has); returns an unsubscriber. */
  onGone(fn: () => void): () => void;
  /** A message related to the call, sent before its answer: the answer becomes an event stream. */
  push(message: JSONRPCMessage): void;
  /** The answer; `status` is the HTTP status when it is the whole body (an event stream keeps its 200). */
  answer(message: Record<string, unknown>, status: number): void;
}

export interface ModernFastCallOptions {
  core: Core;
  modern: ModernEraSupport;
  /** The SDK's encoding of what the hand-written encoders do not write (results, notifications). */
  codec: SdkCodec;
  describeHttp?: HttpRequestDescriber;
  /** Tasks are offered (`mcp.tasks.enabled`): task-capable tools stay on the SDK path. */
  tasksOffered: boolean;
}

export interface ModernFastCall {
  /** The call a request body carries, when it is one the fast path serves (readFastCall). */
  read: FastCallReader;
  /** Whether the fast path serves the call (false: the SDK path does); a promise only until the tools are known. */
  takes: (call: FastCall) => ReturnType<TakesTool>;
  serve(call: FastCall, request: CoreCallRequest, exchange: FastCallExchange): Promise<void>;
}

export function createModernFastCall(opts: ModernFastCallOptions): ModernFastCall {
  const { core, modern, codec } = opts;
  const stamp: ResultStamp = { serverInfo: serverImplementation(core), cacheHints: modern.cacheHints };
  const source: ContextSource = { era: '2026', transport: 'http', ...(opts.describeHttp ? { describeHttp: opts.describeHttp } : {}) };

  // Task-capable tools stay on the SDK path while tasks are offered (its task dispatch decides). Mcp-Param-*
  // headers are checked by the pipeline (core/steps/param-headers.ts) on either path.
  const takesTool = toolVerdicts(core, '2026', (tool) => !(opts.tasksOffered && isTaskCapable(tool)), !opts.tasksOffered);

  async function serve(call: FastCall, request: CoreCallRequest, exchange: FastCallExchange): Promise<void> {
    const observed = observeRequest(
      core.telemetry.wire,
      {
        method: call.method,
        id: call.id,
        params: call.wireParams,
        era: '2026',
        transport: 'http',
        headers: request.headers,
        ...(request.facts ? { requestId: request.facts.requestId, remoteAddress: request.facts.remoteAddress } : {}),
        ...(request.auth ? { auth: request.auth } : {}),
      },
      request.facts,
    );
    const { scope, end } = observed;
    // The client went away: the SDK path aborts the handler with this reason and answers nothing.
    const abort = new LazyAbort();
    const forget = exchange.onGone(() => {
      abort.abort(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
      void end({ cancelled: true });
    });
    if (abort.aborted) return;
    try {
      const outcome = await scope.run(() => run(call, request, scope, abort, exchange));
      if (abort.aborted) return;
      const fast = 'result' in outcome && !isInputRequiredResult(outcome.result) ? encodeFastResult(call.method, outcome.result, stamp) : undefined;
      const encoded = 'error' in outcome ? outcome : fast ? { result: fast } : await codec.encodeResult('2026', { method: call.method, params: call.wireParams }, outcome.result);
      if (abort.aborted) return;
      const answer = await answerOnceRecorded(observed, 'error' in encoded ? (encodeError(call.id, encoded.error) as AnswerMessage) : { result: encoded.result, jsonrpc: '2.0', id: call.id }, 'result' in outcome ? outcome.result : undefined);
      exchange.answer(answer, 'error' in answer ? errorStatus(answer.error.code) : 200);
    } finally {
      forget();
    }
  }

  /** The body of the SDK path's handler of the method (server-factory.ts), on this path's request side. */
  function run(call: FastCall, request: CoreCallRequest, scope: WireRequestScope, abort: LazyAbort, exchange: FastCallExchange): Promise<CallOutcome> {
    const rc = contextFromFacts(source, { http: request, envelope: call.envelope, ...(request.auth ? { auth: request.auth } : {}), scope });
    const side = requestSide(call, exchange);
    if (call.method !== 'tools/call') return runMethod(core, call.method, { rc, params: call.params, abort, clientInput: { modernSide: side, modern } });
    const state: Operation['state'] = opts.tasksOffered ? new Map([[TASK_STATE.offered, true]]) : new Map();
    return runToolCall(core, { rc, params: call.params, name: call.name, progressToken: call.progressToken, port: side, abort, clientInput: { modernSide: side, modern }, state, tasks: undefined });
  }

  /** What the SDK's handler context gives a 2026-07-28 call: notifications through the SDK, logs at the request's level. */
  function requestSide(call: FastCall, exchange: FastCallExchange): ModernRequestSide {
    const deliver = (message: JSONRPCMessage) => exchange.push(message);
    const notify: ModernRequestSide['notify'] = (notification) => codec.notify(notification, deliver);
    const threshold = call.envelope[LOG_LEVEL_META_KEY] as string | undefined;
    return {
      notify,
      // As the SDK's `mcpReq.log`: the server declares logging (server-factory.ts), the request's `_meta` sets the level.
      log: (level: LogLevel, data: unknown, logger?: string) => {
        if (threshold === undefined) return Promise.resolve();
        if (!passesLogLevel(level, threshold)) return Promise.resolve();
        return notify({ method: 'notifications/message', params: { level, data, logger } });
      },
      // Requests carrying requestState or inputResponses are the SDK path's (readFastCall).
      requestState: () => undefined,
    };
  }

  const served = servedMethods(core);
  const takes = (call: FastCall) => (call.method === 'tools/call' ? takesTool(call.name) : served[call.method]);
  return { read: createFastCallReader(), takes, serve };
}
