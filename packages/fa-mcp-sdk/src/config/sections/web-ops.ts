/**
 * Operations keys of the `webServer` section: the Prometheus endpoint, the
 * consumer's REST routes and their OpenAPI document.
 */
import type { SchemaNode } from '../schema-node.js';

export const metricsNode: SchemaNode = {
  type: 'object',
  description: 'Prometheus metrics (prom-client), one registry per server.',
  additionalProperties: false,
  properties: {
    enabled: {
      type: 'boolean',
      default: true,
      description: 'Collect metrics and serve them.',
      'x-env': ['METRICS_ENABLED'],
    },
    path: {
      type: 'string',
      pattern: '^/',
      default: '/metrics',
      description: 'Path of the scrape endpoint.',
      'x-env': ['METRICS_PATH'],
    },
    token: {
      type: 'string',
      default: '',
      description: 'When set, a scrape must send Authorization: Bearer <token>.',
      'x-env': ['METRICS_TOKEN'],
      'x-secret': true,
    },
    separatePort: {
      type: 'boolean',
      default: false,
      description: 'Serve metrics on their own port (webServer.metrics.port) instead of the main one; also works with stdio.',
      'x-env': ['METRICS_SEPARATE_PORT'],
    },
    port: {
      type: 'integer',
      minimum: 0,
      maximum: 65535,
      default: 9464,
      description: 'Port of the separate metrics listener (0 picks a free port).',
      'x-env': ['METRICS_PORT'],
    },
    processMetrics: {
      type: 'boolean',
      default: true,
      description: 'Also export process and Node.js runtime metrics (CPU, memory, event loop, GC).',
      'x-env': ['METRICS_PROCESS'],
    },
  },
};

export const restNode: SchemaNode = {
  type: 'object',
  description: "The consumer's REST routes (McpServerData.rest), served next to MCP.",
  additionalProperties: false,
  properties: {
    enabled: {
      type: 'boolean',
      default: true,
      description: 'Mount the REST routes when the server declares some.',
      'x-env': ['REST_ENABLED'],
    },
    basePath: {
      type: 'string',
      pattern: '^/[A-Za-z0-9._~/-]*$',
      default: '/api',
      description: 'Path prefix of every REST route.',
      'x-env': ['REST_BASE_PATH'],
    },
    exposeTools: {
      type: 'boolean',
      default: false,
      description: 'Also serve every tool as POST <basePath>/tools/<name> through the same pipeline as MCP tools/call.',
      'x-env': ['REST_EXPOSE_TOOLS'],
    },
  },
};

export const openapiNode: SchemaNode = {
  type: 'object',
  description: 'The OpenAPI document of the REST routes and its interactive reference page.',
  additionalProperties: false,
  properties: {
    enabled: {
      type: 'boolean',
      default: true,
      description: 'Serve the OpenAPI document (JSON and YAML) and the reference page when REST routes exist.',
      'x-env': ['OPENAPI_ENABLED'],
    },
    jsonPath: {
      type: 'string',
      pattern: '^/',
      default: '/openapi.json',
      description: 'Path of the document as JSON.',
      'x-env': ['OPENAPI_JSON_PATH'],
    },
    yamlPath: {
      type: 'string',
      pattern: '^/',
      default: '/openapi.yaml',
      description: 'Path of the document as YAML.',
      'x-env': ['OPENAPI_YAML_PATH'],
    },
    docsPath: {
      type: 'string',
      pattern: '^/[A-Za-z0-9._~/-]*$',
      default: '/docs',
      description: 'Path of the interactive reference page (Swagger UI served from the package, no CDN).',
      'x-env': ['OPENAPI_DOCS_PATH'],
    },
    access: {
      type: 'string',
      enum: ['listed', 'authenticated'],
      default: 'listed',
      description:
        'Who reads the document and the page. listed: anyone, and each caller sees only the tools and routes it may list (tools/list rules: with webServer.auth.hideUnauthorized, what needs scopes or groups it lacks is left out; no credentials is the anonymous caller; credentials are checked as /mcp checks them). authenticated: as listed, and a request without the credentials /mcp accepts gets 401.',
      'x-env': ['OPENAPI_ACCESS'],
    },
  },
};

export interface MetricsConfig {
  enabled: boolean;
  path: string;
  token: string;
  separatePort: boolean;
  port: number;
  processMetrics: boolean;
}

export interface RestConfig {
  enabled: boolean;
  basePath: string;
  exposeTools: boolean;
}

export interface OpenApiConfig {
  enabled: boolean;
  jsonPath: string;
  yamlPath: string;
  docsPath: string;
  /** `listed`: anyone, each caller seeing what it may list; `authenticated`: the credentials of /mcp, or 401. */
  access: 'listed' | 'authenticated';
}
