/**
 * Security response headers with helmet, tuned for a JSON/SSE API: a CSP that
 * allows nothing to load or frame the responses, nosniff, no referrer,
 * same-origin resource and opener policies. HSTS only when configured (it is
 * meaningful only behind HTTPS).
 */
import type { RequestHandler } from 'express';
import helmet from 'helmet';

export interface SecurityHeadersOptions {
  enabled: boolean;
  /** Strict-Transport-Security max-age; 0 sends none. */
  hstsMaxAgeSec: number;
}

export function securityHeaders(opts: SecurityHeadersOptions): RequestHandler {
  if (!opts.enabled) return (_req, _res, next) => next();
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: opts.hstsMaxAgeSec > 0 ? { maxAge: opts.hstsMaxAgeSec, includeSubDomains: false } : false,
  });
}
