/**
 * The routes of 2026-07-28 requests over HTTP (protocol/route.ts), carried
 * out: `core.modern` (the core runner serves a plain call,
 * protocol/modern-fast-call.ts, its answer written here: one JSON body, or an
 * event stream once something is sent before it, as the SDK's per-request
 * transport answers), `sdk.modern` (the SDK's per-request entry), and the
 * 2025-era `sdk.stateless` of a stateless endpoint.
 */
import type { ServerResponse } from 'node:http';
import type { JSONRPCMessage } from '../../protocol/sdk-server.js';
import type { FastCall } from '../../protocol/fast-call-shape.js';
import { createModernEntry, serveStateless } from '../../protocol/http-entry.js';
import type { FastCallExchange, ModernFastCall } from '../../protocol/modern-fast-call.js';
import type { ServerFactoryOptions } from '../../protocol/server-factory.js';
import { goneSignal, webRequestOf, type CoreRequest, type HttpExchange } from './http-exchange.js';
import { KEEP_ALIVE, KEEP_ALIVE_MS, SSE_HEADERS, sseEvent } from './sse-frames.js';
import { writeJsonRpcBody, writeWebResponse } from './web-response.js';

export interface ModernRoutesOptions {
  factory: ServerFactoryOptions;
  /** The core route's runner (mcp.fastPath); absent: every request is the SDK's. */
  modernCall?: ModernFastCall;
  responseMode: 'json' | 'sse';
  maxPayloadBytes: number;
  mapErrorStatus: boolean;
}

export interface ModernRoutes {
  serveCall(request: CoreRequest, res: ServerResponse, call: FastCall): Promise<void>;
  serve(exchange: HttpExchange): Promise<void>;
  serveStateless(exchange: HttpExchange): Promise<void>;
  close(): Promise<void>;
}

export function createModernRoutes(opts: ModernRoutesOptions): ModernRoutes {
  const logger = opts.factory.core.logger;
  const entry = createModernEntry({ factory: opts.factory, maxPayloadBytes: opts.maxPayloadBytes, onerror: (err) => logger.debug({ err }, 'per-request handler error') });
  const write = (res: ServerResponse, response: Response) => writeWebResponse(res, response, { mapErrorStatus: opts.mapErrorStatus });

  /** How one core-served call is answered on its response. */
  function answerOn(res: ServerResponse): FastCallExchange {
    let gone: Array<() => void> | undefined = [];
    let streaming = false;
    let finished = false;
    let keepAlive: NodeJS.Timeout | undefined;
    const stop = () => {
      finished = true;
      if (keepAlive) clearInterval(keepAlive);
    };
    res.once('close', () => {
      if (keepAlive) clearInterval(keepAlive);
      if (res.writableFinished) return;
      const listeners = gone ?? [];
      gone = undefined;
      for (const fn of listeners) fn();
    });
    const startStream = () => {
      streaming = true;
      res.writeHead(200, SSE_HEADERS);
      res.flushHeaders();
      keepAlive = setInterval(() => res.write(KEEP_ALIVE), KEEP_ALIVE_MS);
      keepAlive.unref();
    };
    return {
      onGone(fn) {
        if (!gone) {
          fn();
          return () => undefined;
        }
        gone.push(fn);
        return () => {
          gone = gone?.filter((f) => f !== fn);
        };
      },
      push(message: JSONRPCMessage) {
        if (finished || res.destroyed) return;
        if (!streaming) startStream();
        res.write(sseEvent(JSON.stringify(message)));
      },
      answer(message, status) {
        if (finished) return;
        stop();
        const text = JSON.stringify(message);
        if (streaming) {
          res.end(sseEvent(text));
          return;
        }
        const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) };
        if (status !== 200) {
          res.writeHead(status, headers);
          res.end(text);
          return;
        }
        writeJsonRpcBody(res, text, headers, { mapErrorStatus: opts.mapErrorStatus });
      },
    };
  }

  return {
    serveCall: (request, res, call) => (opts.modernCall as ModernFastCall).serve(call, request, answerOn(res)),
    async serve(exchange) {
      const webReq = await webRequestOf(exchange, opts.maxPayloadBytes, goneSignal(exchange.res));
      await write(exchange.res, await entry.fetch({ webReq, body: exchange.body, auth: exchange.auth }));
    },
    async serveStateless(exchange) {
      const webReq = await webRequestOf(exchange, opts.maxPayloadBytes, goneSignal(exchange.res));
      await serveStateless(opts.factory, opts.responseMode, { webReq, body: exchange.body, auth: exchange.auth }, (response) => write(exchange.res, response));
    },
    close: () => entry.close(),
  };
}
