/**
 * The observation of a 2026-07-28 `subscriptions/listen` over HTTP. The SDK's per-request entry
 * answers it itself with a long-lived event stream that no server instance of ours sees end, so
 * the wire adapter cannot close its observation: it is opened here, around the pipeline run
 * (sdk-served-methods.ts), and ended when the answer is known — a refusal, a JSON answer, or the
 * stream's end (`cancelled` when the client went away). Request metrics, the span and the audit
 * record of a listen stream come from here, with its whole duration.
 */
import type { WireObserver, WireOutcome } from '../core/telemetry.js';
import type { AuthInfo } from '../core/request-context.js';
import { openScope } from './observe-request.js';
import { httpFactsOf } from './request-facts.js';

type RpcRequest = { id: string | number; method: string; params?: Record<string, unknown> };
type Served = { served: Response } | { error: Record<string, unknown> };

/** Runs `serve` (the pipeline, then the SDK's answer) under the request's observation; the answer, its stream ending the observation. */
export async function observedListen(observer: WireObserver, request: RpcRequest, webReq: Request, auth: AuthInfo | undefined, serve: () => Promise<Served>): Promise<Response> {
  const facts = httpFactsOf(webReq.headers);
  const scope = openScope(
    observer,
    {
      method: request.method,
      id: request.id,
      ...(request.params ? { params: request.params } : {}),
      era: '2026',
      transport: 'http',
      headers: webReq.headers,
      ...(facts ? { requestId: facts.requestId, remoteAddress: facts.remoteAddress } : {}),
      ...(auth ? { auth } : {}),
    },
    facts,
  );
  let open = true;
  const end = (outcome: WireOutcome): void => {
    if (!open) return;
    open = false;
    // A stream's record is written when it ends: its answer was sent long before, nothing waits.
    void Promise.resolve(scope.end(outcome)).catch(() => undefined);
  };
  const outcome = await scope.run(serve);
  if ('error' in outcome) {
    end({ error: (outcome.error as { error: { code: number; message: string; data?: unknown } }).error });
    return Response.json(outcome.error, { status: 200 });
  }
  const response = outcome.served;
  if (!response.body || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const message = (await response.clone().json().catch(() => undefined)) as { result?: unknown; error?: { code: number; message: string; data?: unknown } } | undefined;
    end(message?.error ? { error: message.error } : { result: message?.result ?? null });
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (next.done) {
        end({ result: null });
        controller.close();
      } else controller.enqueue(next.value);
    },
    async cancel(reason) {
      end({ cancelled: true });
      await reader.cancel(reason).catch(() => undefined);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
