/**
 * Keys of the 2026-07-28 protocol revision under `mcp`: the signed
 * `requestState` of multi-round-trip requests and the cache hints of lists
 * and reads.
 */
import type { SchemaNode } from '../schema-node.js';
import { CACHEABLE_METHODS } from '../../core/methods.js';

export { CACHEABLE_METHODS };

const cacheScope: SchemaNode = { type: 'string', enum: ['private', 'public'] };

export const requestStateSection: SchemaNode = {
  type: 'object',
  description: 'The requestState of 2026-07-28 multi-round-trip requests (elicitation, sampling, roots answered in-band).',
  additionalProperties: false,
  properties: {
    secret: {
      type: 'string',
      pattern: '^$|^.{32,}$',
      default: '',
      description:
        'HMAC key signing requestState, at least 32 characters, the same on every instance; empty: a random key per process (then a warning when several instances may serve: a store or bus on postgres, Consul, or NODE_ENV production).',
      'x-env': ['MCP_REQUEST_STATE_SECRET'],
      'x-secret': true,
    },
    ttlMs: {
      type: 'integer',
      minimum: 1000,
      default: 600_000,
      description: 'How long a requestState stays valid, in ms; an older one is refused with -32602.',
      'x-env': ['MCP_REQUEST_STATE_TTL_MS'],
    },
    maxRounds: {
      type: 'integer',
      minimum: 1,
      maximum: 100,
      default: 16,
      description: 'Most rounds of client input one request may take before it is refused.',
      'x-env': ['MCP_REQUEST_STATE_MAX_ROUNDS'],
    },
  },
};

export const cacheHintsSection: SchemaNode = {
  type: 'object',
  description: 'Cache hints (ttlMs, cacheScope) of 2026-07-28 lists, reads and server/discover; 2025-era answers carry none.',
  additionalProperties: false,
  properties: {
    ttlMs: {
      type: 'integer',
      minimum: 0,
      default: 0,
      description: 'How long a client may reuse a list, read or discover result, in ms (0: do not reuse).',
      'x-env': ['MCP_CACHE_TTL_MS'],
    },
    cacheScope: {
      ...cacheScope,
      default: 'private',
      description: 'private: only the requesting client may cache; public: shared caches may too.',
      'x-env': ['MCP_CACHE_SCOPE'],
    },
    perMethod: {
      type: 'object',
      propertyNames: { enum: [...CACHEABLE_METHODS] },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: { ttlMs: { type: 'integer', minimum: 0 }, cacheScope },
      },
      default: {},
      description: 'Overrides per method `{ "resources/read": { ttlMs, cacheScope } }`; env value is a JSON object.',
      'x-env': ['MCP_CACHE_HINTS_PER_METHOD'],
    },
  },
};
