/**
 * Routes of the deprecated HTTP+SSE transport: GET /sse opens a stream with its
 * own server instance, POST /messages?sessionId=… feeds it.
 */
import express, { type Request, type Response } from 'express';
import { MCP_ERROR_CODES } from '../../core/errors.js';
import type { HttpRouter } from '../../core/http-types.js';
import { sdkAuthOf } from '../../protocol/auth-info.js';
import { buildServer, type ServerFactoryOptions } from '../../protocol/server-factory.js';
import { sendJsonRpcError } from './json-rpc-reply.js';
import { LegacySseTransport } from './legacy-sse-transport.js';
import { sessionCaller, sessionOwner } from './session-owner.js';

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
    const caller = sessionCaller(req, sessionOwner(res));
    if (heldBy(caller) >= (caps.maxPerCaller ?? caps.maxSessions)) {
      return sendJsonRpcError(res, 503, MCP_ERROR_CODES.UPSTREAM_UNAVAILABLE, 'Too many active SSE sessions for this caller');
    }
    const transport = new LegacySseTransport(res, messagesPath);
    const built = await buildServer({ ...factory, transport: 'sse', trackLive: true }, '2025');
    streams.set(transport.sessionId, transport);
    owners.set(transport.sessionId, sessionOwner(res));
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
    const transport = owners.get(id) === sessionOwner(res) ? streams.get(id) : undefined;
    if (!transport) return sendJsonRpcError(res, 404, MCP_ERROR_CODES.INVALID_REQUEST, 'Unknown or closed SSE session');
    const body: unknown = req.body;
    if (!body || typeof body !== 'object') return sendJsonRpcError(res, 400, MCP_ERROR_CODES.INVALID_REQUEST, 'Expected a JSON-RPC message');
    try {
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      const request = new Request(`http://${req.get('host') ?? 'localhost'}${req.originalUrl}`, { method: 'POST', headers });
      const authInfo = sdkAuthOf(req);
      transport.receive(body as never, { request, ...(authInfo ? { authInfo } : {}) });
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
