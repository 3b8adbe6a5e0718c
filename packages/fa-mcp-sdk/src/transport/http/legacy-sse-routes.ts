/**
 * Routes of the deprecated HTTP+SSE transport: GET /sse opens a stream with its
 * own server instance, POST /messages?sessionId=… feeds it.
 */
import express, { type Request, type Response } from 'express';
import { getRequestAuth } from '../../auth/request-auth.js';
import { MCP_ERROR_CODES } from '../../core/errors.js';
import type { HttpRouter } from '../../core/http-types.js';
import { LegacySseTransport } from '../../protocol/legacy-sse-transport.js';
import { rememberHttpFacts } from '../../protocol/request-facts.js';
import { decideRoute } from '../../protocol/route.js';
import { buildServer, type ServerFactoryOptions } from '../../protocol/server-factory.js';
import { sendJsonRpcError } from './json-rpc-reply.js';
import { getRequestId } from './request-id.js';
import { frontFactsOf } from './request-front.js';
import { sessionCaller } from './session-owner.js';

/** The subject the HTTP guard verified (getRequestAuth), when there is one. */
const ownerOf = (req: Request): string | undefined => {
  const subject = getRequestAuth(req)?.subject;
  return typeof subject === 'string' && subject !== '' ? subject : undefined;
};
const addressOf = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? '';

export interface LegacySseRoutes {
  router: HttpRouter;
  readonly size: number;
  close(): Promise<void>;
}

/** `mcp.sessions.maxSessions` and `maxPerCaller`: a stream past either is refused (503); a stream is never evicted for another. */
export interface LegacySseCaps {
  maxSessions: number;
  maxPerCaller?: number;
}

export function createLegacySseRoutes(factory: ServerFactoryOptions, caps: LegacySseCaps, messagesPath = '/messages'): LegacySseRoutes {
  const streams = new Map<string, LegacySseTransport>();
  /** Who opened each stream (see session-owner.ts): only they may post to it. */
  const owners = new Map<string, string | undefined>();
  /** Who each stream counts against (session-owner.ts sessionCaller). */
  const callers = new Map<string, string>();
  const heldBy = (caller: string) => {
    let n = 0;
    for (const c of callers.values()) if (c === caller) n++;
    return n;
  };
  const router = express.Router();

  router.get('/sse', async (req: Request, res: Response) => {
    if (streams.size >= caps.maxSessions) return sendJsonRpcError(res, 503, MCP_ERROR_CODES.UPSTREAM_UNAVAILABLE, 'Too many active SSE sessions');
    const caller = sessionCaller(ownerOf(req), addressOf(req));
    if (heldBy(caller) >= (caps.maxPerCaller ?? caps.maxSessions)) {
      return sendJsonRpcError(res, 503, MCP_ERROR_CODES.UPSTREAM_UNAVAILABLE, 'Too many active SSE sessions for this caller');
    }
    const transport = new LegacySseTransport(res, messagesPath);
    const built = await buildServer({ ...factory, transport: 'sse', trackLive: true }, '2025', transport.sessionId);
    streams.set(transport.sessionId, transport);
    owners.set(transport.sessionId, ownerOf(req));
    callers.set(transport.sessionId, caller);
    transport.onclose = () => {
      streams.delete(transport.sessionId);
      owners.delete(transport.sessionId);
      callers.delete(transport.sessionId);
      built.dispose();
      void built.server.close().catch(() => undefined);
    };
    await built.server.connect(transport);
  });

  router.post(messagesPath, (req: Request, res: Response) => {
    const id = typeof req.query.sessionId === 'string' ? req.query.sessionId : '';
    const transport = owners.get(id) === ownerOf(req) ? streams.get(id) : undefined;
    if (!transport) return sendJsonRpcError(res, 404, MCP_ERROR_CODES.INVALID_REQUEST, 'Unknown or closed SSE session');
    const body: unknown = req.body;
    if (!body || typeof body !== 'object') return sendJsonRpcError(res, 400, MCP_ERROR_CODES.INVALID_REQUEST, 'Expected a JSON-RPC message');
    try {
      const route = decideRoute({ transport: 'sse' });
      switch (route) {
        case 'sdk.legacy-sse': {
          // The stream's own SDK server instance serves the message.
          const headers = new Headers();
          for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
          const request = new Request(`http://${req.get('host') ?? 'localhost'}${req.originalUrl}`, { method: 'POST', headers });
          const facts = frontFactsOf(req) ?? { requestId: getRequestId(req), remoteAddress: '' };
          facts.remoteAddress = addressOf(req);
          rememberHttpFacts(request.headers, facts);
          transport.receive(body as never, { request, auth: getRequestAuth(req) });
          break;
        }
        default:
          throw new Error(`route ${route} is not served on a legacy SSE stream`);
      }
    } catch (err) {
      return sendJsonRpcError(res, 410, MCP_ERROR_CODES.INVALID_REQUEST, (err as Error).message);
    }
    res.status(202).send('Accepted');
  });

  return {
    router,
    get size() {
      return streams.size;
    },
    async close() {
      await Promise.all([...streams.values()].map((t) => t.close()));
    },
  };
}
