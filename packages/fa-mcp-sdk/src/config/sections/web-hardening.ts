/**
 * The hardening keys of the `webServer` section: CORS, security headers and
 * timeouts against slow clients. The allowed origins themselves are
 * `webServer.allowedOrigins` (shared with the DNS-rebinding guard).
 */
import type { SchemaNode } from '../schema-node.js';

export const corsNode: SchemaNode = {
  type: 'object',
  description: 'CORS for browser clients; origins come from webServer.allowedOrigins (exact scheme, host and port).',
  additionalProperties: false,
  properties: {
    enabled: {
      type: 'boolean',
      default: true,
      description: 'Answer preflights and add CORS headers for origins listed in webServer.allowedOrigins.',
      'x-env': ['WEB_SERVER_CORS'],
    },
    credentials: {
      type: 'boolean',
      default: false,
      description: 'Send Access-Control-Allow-Credentials: true to allowed origins (cookies, HTTP auth).',
      'x-env': ['WEB_SERVER_CORS_CREDENTIALS'],
    },
    maxAgeSec: {
      type: 'integer',
      minimum: 0,
      maximum: 86_400,
      default: 600,
      description: 'How long a browser may cache a preflight answer, in seconds (0: not at all).',
      'x-env': ['WEB_SERVER_CORS_MAX_AGE_SEC'],
    },
  },
};

export const securityHeadersNode: SchemaNode = {
  type: 'object',
  description: 'Security response headers (helmet).',
  additionalProperties: false,
  properties: {
    enabled: {
      type: 'boolean',
      default: true,
      description: 'Send nosniff, frame, referrer, cross-origin and CSP headers on every response.',
      'x-env': ['WEB_SERVER_SECURITY_HEADERS'],
    },
    hstsMaxAgeSec: {
      type: 'integer',
      minimum: 0,
      default: 0,
      description: 'Strict-Transport-Security max-age in seconds; 0 sends no HSTS (set it when served over HTTPS only).',
      'x-env': ['WEB_SERVER_HSTS_MAX_AGE_SEC'],
    },
  },
};

export const timeoutsNode: SchemaNode = {
  type: 'object',
  description: 'Timeouts against slow clients; response streams (SSE) are not cut by them.',
  additionalProperties: false,
  properties: {
    headersMs: {
      type: 'integer',
      minimum: 100,
      default: 15_000,
      description: 'Time to receive the request headers; a slower client gets 408 and is disconnected.',
      'x-env': ['WEB_SERVER_HEADERS_TIMEOUT_MS'],
    },
    bodyMs: {
      type: 'integer',
      minimum: 100,
      default: 15_000,
      description: 'Time to receive a request body once the headers arrived; a slower client gets 408 (JSON-RPC error).',
      'x-env': ['WEB_SERVER_BODY_TIMEOUT_MS'],
    },
    requestMs: {
      type: 'integer',
      minimum: 100,
      default: 30_000,
      description: 'Time to receive a whole request, headers and body (must be >= headersMs).',
      'x-env': ['WEB_SERVER_REQUEST_TIMEOUT_MS'],
    },
    keepAliveMs: {
      type: 'integer',
      minimum: 100,
      default: 65_000,
      description: 'How long an idle keep-alive connection stays open between requests; keep it above the idle timeout of the load balancer in front (often 60 s), or clients race the close and see "socket closed".',
      'x-env': ['WEB_SERVER_KEEP_ALIVE_TIMEOUT_MS'],
    },
  },
};
