/**
 * The GET event streams open right now (a 2025-era session's standalone
 * stream on /mcp, a legacy SSE connection on /sse), so that shutdown can end
 * them once the in-flight calls are done: the client sees its stream end and
 * reconnects, through the load balancer, to another instance. Ending a stream
 * does not close its session here; the closers after it do.
 */
import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

export interface GetStreams {
  middleware: RequestHandler;
  /** Ends every tracked stream cleanly (the chunked body's last chunk); answers how many. */
  endAll(): number;
  readonly size: number;
}

const ignore = (): void => undefined;

export function trackGetStreams(): GetStreams {
  const open = new Set<ServerResponse>();
  return {
    middleware: (req, res, next) => {
      if (req.method === 'GET') {
        open.add(res);
        res.once('close', () => open.delete(res));
      }
      next();
    },
    endAll() {
      let ended = 0;
      for (const res of open) {
        open.delete(res);
        if (res.writableEnded || res.destroyed) continue;
        // The writer may still hold a chunk for it: a write after the end is dropped, not thrown.
        res.on('error', ignore);
        res.end();
        ended++;
      }
      return ended;
    },
    get size() {
      return open.size;
    },
  };
}
