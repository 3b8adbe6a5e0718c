/**
 * Security response headers with helmet, tuned for a JSON/SSE API: a CSP that
 * allows nothing to load or frame the responses, nosniff, no referrer,
 * same-origin resource and opener policies. HSTS only when configured (it is
 * meaningful only behind HTTPS).
 *
 * With this configuration helmet's headers are the same on every response, so
 * helmet runs once at start and its headers are replayed on each response
 * (the express chain and the HTTP fast lane alike), without helmet's work per
 * request.
 */
import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

export interface SecurityHeadersOptions {
  enabled: boolean;
  /** Strict-Transport-Security max-age; 0 sends none. */
  hstsMaxAgeSec: number;
}

type HeaderOp = { set: string; value: number | string | readonly string[] } | { remove: string };

/** Sets the configured security headers on a response. */
export type SecurityHeaderWriter = (res: ServerResponse) => void;

function configuredHelmet(opts: SecurityHeadersOptions) {
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

/** What helmet does to a response, recorded once (helmet's work is the same for every response). */
function recordedOps(opts: SecurityHeadersOptions): HeaderOp[] {
  const ops: HeaderOp[] = [];
  const recorder = {
    setHeader(name: string, value: number | string | readonly string[]) {
      ops.push({ set: name, value });
      return recorder;
    },
    removeHeader(name: string) {
      ops.push({ remove: name });
    },
  };
  let done = false;
  configuredHelmet(opts)({} as never, recorder as never, (err?: unknown) => {
    if (err) throw err;
    done = true;
  });
  if (!done) throw new Error('helmet did not finish synchronously; security headers cannot be precomputed');
  return ops;
}

export function securityHeaderWriter(opts: SecurityHeadersOptions): SecurityHeaderWriter {
  if (!opts.enabled) return () => undefined;
  // Replayed in helmet's order, from two plain arrays (no per-op shape test on each response).
  const names: string[] = [];
  const values: Array<number | string | readonly string[] | undefined> = [];
  for (const op of recordedOps(opts)) {
    if ('set' in op) {
      names.push(op.set);
      values.push(op.value);
    } else {
      names.push(op.remove);
      values.push(undefined);
    }
  }
  const count = names.length;
  return (res) => {
    for (let i = 0; i < count; i++) {
      const value = values[i];
      if (value === undefined) res.removeHeader(names[i] as string);
      else res.setHeader(names[i] as string, value);
    }
  };
}

/**
 * The headers the writer leaves on a response that had none, as one flat
 * `[name, value, …]` list in the order node would send them (a header set twice
 * keeps its first place and its last name and value; a removed one is gone): what
 * front-response.ts writes in one `writeHead`.
 */
export function securityHeaderList(opts: SecurityHeadersOptions): ReadonlyArray<string | number | readonly string[]> {
  if (!opts.enabled) return [];
  const byName = new Map<string, [string, number | string | readonly string[]]>();
  for (const op of recordedOps(opts)) {
    if ('set' in op) {
      const key = op.set.toLowerCase();
      const had = byName.get(key);
      if (had) {
        had[0] = op.set; // node keeps the place of the first and the name and value of the last
        had[1] = op.value;
      } else byName.set(key, [op.set, op.value]);
    } else byName.delete(op.remove.toLowerCase());
  }
  return [...byName.values()].flat();
}

export function securityHeaders(opts: SecurityHeadersOptions): RequestHandler {
  const write = securityHeaderWriter(opts);
  return (_req, res, next) => {
    write(res);
    next();
  };
}
