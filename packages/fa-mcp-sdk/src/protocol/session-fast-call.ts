/**
 * The 2025-era session fast path: a plain `tools/call`, `prompts/get`,
 * `resources/read` or `completion/complete` on a Streamable HTTP session,
 * served without the SDK's session transport and dispatcher (their schema
 * parsing and web streams cost more than the call). It runs what the SDK
 * path's handler runs (server-factory.ts: the same RequestContext, client
 * channel, progress, error mapping: the one runner of the method,
 * tool-call-run.ts, method-run.ts) under the same wire observation,
 * and everything that goes back to the client during the call is still made
 * by the session's own server instance (session-calls.ts routes it here):
 *
 * - a plain result or an error: written by the exchange (fast-call-shape.ts, fast-call-results.ts);
 * - any other result (non-text content, blobs, reserved result `_meta` keys):
 *   encoded by the SDK's own codec (sdk-codec.ts), its refusal answered as the
 *   SDK path answers it;
 * - cancelled by the client or ended with the session: aborted with the
 *   SDK's reason, nothing answered.
 *
 * What it does not take (readSessionCall, and task-capable tools while tasks
 * are offered) the SDK path serves.
 */
import { SdkError, SdkErrorCode, type JSONRPCMessage, type McpServer } from '@modelcontextprotocol/server';
import type { Core } from '../core/core.js';
import { LazyAbort } from '../core/lazy-abort.js';
import type { WireRequestScope } from '../core/telemetry.js';
import type { IMcpSession } from '../core/session-types.js';
import type { LogLevel } from '../core/types.js';
import { legacySide } from './client-channel.js';
import { answerOnceRecorded, observeRequest, type AnswerMessage } from './observe-request.js';
import { runToolCall, type CallOutcome } from './tool-call-run.js';
import { runMethod, servedMethods } from './method-run.js';
import { encodeError, readSessionCall, type FastCall } from './fast-call-shape.js';
import { encodeFastResult } from './fast-call-results.js';
import { isTaskCapable, toolVerdicts, type TakesTool } from './fast-call-tools.js';
import { contextFromFacts, type ContextSource, type CoreCallRequest, type HttpRequestDescriber } from './request-context-builder.js';
import type { ModernEraSupport } from './modern-era.js';
import type { SessionCalls } from './session-calls.js';
import type { SdkCodec } from './sdk-codec.js';

/** How the transport answers one call on a session. */
export interface SessionCallExchange {
  /** A message related to the call, sent before its answer (nowhere to go with JSON responses, as on the SDK path). */
  push(message: JSONRPCMessage): Promise<void>;
  /** The answer. */
  answer(message: Record<string, unknown>): Promise<void>;
  /** Nothing is answered: the call was cancelled, or its session ended. */
  abandon(): void;
  /** Ends the call's event stream, for the client to resume it by Last-Event-ID (SSE responses with resumability); undefined otherwise. */
  closeSSE?: (() => void) | undefined;
}

/** What a session gives the calls served on it. */
export interface SessionLink {
  id: string;
  /** The session's server instance: client capabilities and info, and everything sent to the client. */
  server: McpServer;
  /** The level the client set with `logging/setLevel`. */
  logLevel: () => LogLevel | undefined;
  calls: SessionCalls;
  /** Requests to the client ride the call's own stream (SSE responses); otherwise the session's GET stream. */
  requestStreams: boolean;
  /** The session's handle (`context.session`). */
  session: IMcpSession | undefined;
}

export interface SessionFastCallOptions {
  core: Core;
  /** Client input's settings (the 2025 era reads none of them; the run takes them alike). */
  modern: ModernEraSupport;
  describeHttp?: HttpRequestDescriber;
  /** Tasks are offered (`mcp.tasks.enabled`): task-capable tools stay on the SDK path. */
  tasksOffered: boolean;
  /** The SDK's encoding of results the hand-written encoders do not write. */
  codec: SdkCodec;
}

export interface SessionFastCall {
  /** The call a request body carries, when it is one this path serves. */
  read(body: unknown): FastCall | undefined;
  /** Whether the fast path serves the call (false: the SDK path does); a promise only until the tools are known. */
  takes: (call: FastCall) => ReturnType<TakesTool>;
  serve(call: FastCall, request: CoreCallRequest, link: SessionLink, exchange: SessionCallExchange): Promise<void>;
}

export function createSessionFastCall(opts: SessionFastCallOptions): SessionFastCall {
  const { core } = opts;
  const takesTool = toolVerdicts(core, '2025', (tool) => !(opts.tasksOffered && isTaskCapable(tool)), !opts.tasksOffered);

  async function serve(call: FastCall, request: CoreCallRequest, link: SessionLink, exchange: SessionCallExchange): Promise<void> {
    const observed = observeRequest(
      core.telemetry.wire,
      {
        method: call.method,
        id: call.id,
        params: call.wireParams,
        era: '2025',
        transport: 'http',
        sessionId: link.id,
        headers: request.headers,
        ...(request.facts ? { requestId: request.facts.requestId, remoteAddress: request.facts.remoteAddress } : {}),
        ...(request.auth ? { auth: request.auth } : {}),
      },
      request.facts,
    );
    const { scope, end } = observed;
    const abort = new LazyAbort();
    const forget = link.calls.begin(call.id, {
      deliver: (message) => exchange.push(message),
      abort: (reason) => {
        abort.abort(reason);
        void end({ cancelled: true });
      },
    });
    try {
      const outcome = await scope.run(() => run(call, request, link, scope, abort, exchange));
      // A cancelled request gets no response (the protocol says so), whatever the handler did.
      if (abort.aborted) return exchange.abandon();
      const fast = 'result' in outcome ? encodeFastResult(call.method, outcome.result) : undefined;
      const encoded = 'error' in outcome ? outcome : fast ? { result: fast } : await opts.codec.encodeResult('2025', { method: call.method, params: call.wireParams }, outcome.result);
      if (abort.aborted) return exchange.abandon();
      const answer = await answerOnceRecorded(observed, 'error' in encoded ? (encodeError(call.id, encoded.error) as AnswerMessage) : { result: encoded.result, jsonrpc: '2.0', id: call.id }, 'result' in outcome ? outcome.result : undefined);
      await exchange.answer(answer);
    } finally {
      forget();
    }
  }

  /** The body of the SDK path's 2025-era handler of the method (server-factory.ts), on the session's side. */
  function run(
    call: FastCall,
    request: CoreCallRequest,
    link: SessionLink,
    scope: WireRequestScope,
    abort: LazyAbort,
    exchange: SessionCallExchange,
  ): Promise<CallOutcome> {
    const source: ContextSource = { era: '2025', transport: 'http', server: link.server, session: link.session, ...(opts.describeHttp ? { describeHttp: opts.describeHttp } : {}) };
    const rc = contextFromFacts(source, { http: request, sessionId: link.id, scope, ...(request.auth ? { auth: request.auth } : {}) });
    const side = legacySide(link.server.server, call.id, { onRequestStream: link.requestStreams, logLevel: link.logLevel, closeSSE: exchange.closeSSE });
    if (call.method !== 'tools/call') return runMethod(core, call.method, { rc, params: call.params, abort, clientInput: { legacySide: side, modern: opts.modern } });
    // The 2025-era SDK path runs tools/call with an empty operation state (tasks are dispatched before it).
    return runToolCall(core, {
      rc,
      params: call.params,
      name: call.name,
      progressToken: call.progressToken,
      port: side,
      abort,
      clientInput: { legacySide: side, modern: opts.modern },
      state: new Map(),
      tasks: undefined,
    });
  }

  const served = servedMethods(core);
  const takes = (call: FastCall) => (call.method === 'tools/call' ? takesTool(call.name) : served[call.method]);
  return { read: readSessionCall, takes, serve };
}

/** The session's end, as the SDK aborts its own handlers then. */
export const sessionClosed = (): SdkError => new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
