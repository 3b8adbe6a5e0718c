/** The `webServer` section of the configuration schema: the HTTP server. */
import type { SchemaNode } from '../schema-node.js';
import { metricsNode, openapiNode, restNode } from './web-ops.js';
import { corsNode, securityHeadersNode, timeoutsNode } from './web-hardening.js';
import { authNode, tokenCheckNode } from './auth.js';

/** One trusted proxy: an IPv4/IPv6 address, a CIDR, or a name proxy-addr knows (trust-proxy.ts checks the address itself). */
const PROXY_ENTRY = '(?:loopback|linklocal|uniquelocal|[0-9A-Fa-f:.]+(?:/[0-9]{1,3})?)';

export const webServerSection: SchemaNode = {
  type: 'object',
  description: 'The HTTP server.',
  additionalProperties: false,
  properties: {
    host: {
      type: 'string',
      default: '127.0.0.1',
      description: 'Interface to listen on.',
      'x-env': ['HOST', 'WEB_SERVER_HOST'],
    },
    port: {
      type: 'integer',
      minimum: 0,
      maximum: 65535,
      default: 3000,
      description: 'Port to listen on (0 picks a free port).',
      'x-env': ['PORT', 'WEB_SERVER_PORT'],
    },
    trustProxy: {
      type: ['boolean', 'integer', 'string', 'array'],
      minimum: 0,
      pattern: `^\\s*${PROXY_ENTRY}(?:\\s*,\\s*${PROXY_ENTRY})*\\s*$`,
      items: { type: 'string', pattern: `^${PROXY_ENTRY}$` },
      'x-expected': 'false, true (one hop), a hop count, or proxy addresses/CIDRs/loopback/linklocal/uniquelocal (list or comma-separated)',
      default: false,
      description:
        'Which reverse proxies in front are trusted for X-Forwarded-For/-Proto/-Host (express trust proxy): false or 0 none; true one hop (the proxy the server talks to, not every hop); a number of hops; or proxy addresses, CIDRs and loopback/linklocal/uniquelocal (a list, or comma-separated).',
      'x-env': ['WEB_SERVER_TRUST_PROXY'],
    },
    hostValidation: {
      type: 'object',
      description: 'Host header validation (DNS rebinding protection).',
      additionalProperties: false,
      properties: {
        enabled: {
          type: 'boolean',
          default: true,
          description: 'Reject requests whose Host header is not allowed.',
          'x-env': ['WEB_SERVER_HOST_VALIDATION'],
        },
        allowedHosts: {
          type: 'array',
          items: { type: 'string' },
          default: [],
          description: 'Extra allowed Host values (localhost names are always allowed).',
          'x-env': ['WEB_SERVER_ALLOWED_HOSTS'],
        },
      },
    },
    allowedOrigins: {
      type: 'array',
      items: { type: 'string' },
      default: [],
      description: 'Allowed browser origins, exact (scheme://host[:port]): checked by the Origin guard and used for CORS.',
      'x-env': ['WEB_SERVER_ALLOWED_ORIGINS'],
    },
    cors: corsNode,
    securityHeaders: securityHeadersNode,
    timeouts: timeoutsNode,
    auth: authNode,
    tokenCheck: tokenCheckNode,
    metrics: metricsNode,
    rest: restNode,
    openapi: openapiNode,
    shutdownGraceMs: {
      type: 'integer',
      minimum: 0,
      default: 10_000,
      description: 'Time given to in-flight requests and tasks once the server stopped accepting on shutdown, in ms.',
      'x-env': ['SHUTDOWN_GRACE_MS'],
    },
    shutdown: {
      type: 'object',
      additionalProperties: false,
      description: 'Graceful shutdown for a load balancer.',
      properties: {
        drainMs: {
          type: 'integer',
          minimum: 0,
          default: 5_000,
          description:
            'On SIGTERM, /ready answers 503 and the server leaves Consul, but keeps serving everything for this long before it stops accepting, so the balancer takes it out of rotation first; set it above the balancer\'s detection time (check interval x failures). 0: stop accepting at once. SIGINT and stop() do not wait.',
          'x-env': ['SHUTDOWN_DRAIN_MS'],
        },
      },
    },
  },
};
