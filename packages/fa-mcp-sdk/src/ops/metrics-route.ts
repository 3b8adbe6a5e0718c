/**
 * The scrape endpoint: `GET <path>` answers the server's registry in the
 * Prometheus text format. With a token configured, a scrape must send
 * `Authorization: Bearer <token>` (compared in constant time). Served on the
 * main HTTP server, or on a listener of its own (`separatePort`), which also
 * gives stdio servers a metrics endpoint.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { listen } from '../transport/http/listen.js';
import { answeringListener } from '../transport/http/error-answers.js';
import express, { type RequestHandler, type Router } from 'express';
import type { ServerMetrics } from './metrics.js';

export interface MetricsRouteOptions {
  metrics: ServerMetrics;
  path: string;
  token: string;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

export function bearerMatches(header: string | undefined, token: string): boolean {
  if (!header) return false;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) return false;
  // Digests have equal length, so the comparison takes the same time whatever was sent.
  return timingSafeEqual(digest(match[1]), digest(token));
}

export function metricsHandler(opts: Omit<MetricsRouteOptions, 'path'>): RequestHandler {
  return async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    if (opts.token && !bearerMatches(req.get('authorization'), opts.token)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      res.status(401).json({ error: 'unauthorized', message: 'A valid bearer token is required to read metrics' });
      return;
    }
    try {
      const { contentType, body } = await opts.metrics.scrape();
      res.setHeader('Content-Type', contentType);
      res.status(200).send(body);
    } catch {
      res.status(500).json({ error: 'metrics_unavailable' });
    }
  };
}

export function createMetricsRouter(opts: MetricsRouteOptions): Router {
  const router = express.Router();
  router.get(opts.path, metricsHandler(opts));
  return router;
}

export interface MetricsListener {
  url: string;
  close(): Promise<void>;
}

/** Starts the separate metrics listener. */
export async function startMetricsListener(opts: MetricsRouteOptions & { host: string; port: number }): Promise<MetricsListener> {
  const app = express();
  app.disable('x-powered-by');
  app.use(createMetricsRouter(opts));
  // Unknown paths and errors: JSON, never express's HTML page.
  const server: Server = createServer(answeringListener(app, {}));
  const base = await listen(server, opts.port, opts.host, { port: 'webServer.metrics.port', host: 'webServer.host' });
  return {
    url: `${base}${opts.path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
