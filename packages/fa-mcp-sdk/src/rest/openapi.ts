/**
 * The OpenAPI 3.1 document of the REST routes, generated from the route
 * declarations and the tools' JSON Schemas (OpenAPI 3.1 uses JSON Schema
 * 2020-12, so tool schemas are embedded as they are).
 */
import type { ITool, JsonObject } from '../core/types.js';
import type { IRestApi, IRestRoute } from './types.js';

export interface OpenApiInput {
  api: IRestApi;
  basePath: string;
  info: { title: string; version: string; description?: string };
  /** Tools whose schemas are documented; their routes too when `toolRoutes`. */
  tools: ITool[];
  toolRoutes: boolean;
  /** Document bearer authentication on every operation. */
  bearerAuth: boolean;
}

const ERROR_SCHEMA: JsonObject = {
  type: 'object',
  required: ['error', 'requestId'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'integer', description: 'JSON-RPC style error code (MCP_ERROR_CODES).' }, message: { type: 'string' }, data: { type: 'object' } },
    },
    requestId: { type: 'string', description: 'The X-Request-Id of the request, also in the server log.' },
  },
};

const CALL_TOOL_RESULT: JsonObject = {
  type: 'object',
  required: ['content'],
  properties: {
    content: { type: 'array', items: { type: 'object', required: ['type'], properties: { type: { type: 'string' } } } },
    structuredContent: { type: 'object' },
    isError: { type: 'boolean' },
    _meta: { type: 'object' },
  },
};

const ERROR_RESPONSES: Record<string, string> = {
  '400': 'Invalid parameters or body',
  '403': 'Forbidden (missing scope)',
  '429': 'Rate limited (see Retry-After)',
  '500': 'Internal error (names the request id)',
  '504': 'Timed out',
};

/** `/users/:id` -> `/users/{id}`. */
export function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** A schema without its `$schema` keyword (many OpenAPI tools reject it inside a document). */
function embeddable(schema: JsonObject): JsonObject {
  const { $schema: _dropped, ...rest } = schema;
  return rest;
}

function parameters(route: IRestRoute): JsonObject[] {
  const out: JsonObject[] = [];
  for (const [where, schema] of [['path', route.params], ['query', route.query]] as const) {
    const props = (schema?.properties ?? {}) as Record<string, JsonObject>;
    const required = new Set((schema?.required as string[] | undefined) ?? []);
    for (const [name, prop] of Object.entries(props)) {
      out.push({
        name,
        in: where,
        required: where === 'path' || required.has(name),
        ...(typeof prop.description === 'string' ? { description: prop.description } : {}),
        schema: embeddable(prop),
      });
    }
  }
  // Path parameters that the schema does not describe are still parameters.
  for (const [, name] of route.path.matchAll(/:([A-Za-z0-9_]+)/g)) {
    if (name && !out.some((p) => p.in === 'path' && p.name === name)) out.push({ name, in: 'path', required: true, schema: { type: 'string' } });
  }
  return out;
}

function errorResponses(): JsonObject {
  const out: JsonObject = {};
  for (const [status, description] of Object.entries(ERROR_RESPONSES)) {
    out[status] = { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
  return out;
}

function routeOperation(route: IRestRoute): JsonObject {
  const status = String(route.status ?? 200);
  const responses: JsonObject = {
    [status]: {
      description: 'Success',
      ...(route.response ? { content: { 'application/json': { schema: embeddable(route.response) } } } : {}),
    },
    ...errorResponses(),
  };
  for (const [code, doc] of Object.entries(route.responses ?? {})) {
    responses[code] = { description: doc.description, ...(doc.schema ? { content: { 'application/json': { schema: embeddable(doc.schema) } } } : {}) };
  }
  const params = parameters(route);
  return {
    operationId: route.operationId ?? `${route.method}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    ...(route.summary ? { summary: route.summary } : {}),
    ...(route.description ? { description: route.description } : {}),
    ...(route.tags ? { tags: route.tags } : {}),
    ...(route.deprecated ? { deprecated: true } : {}),
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: embeddable(route.body) } } } } : {}),
    ...(route.scopes?.length ? { 'x-required-scopes': route.scopes } : {}),
    responses,
  };
}

function toolOperation(tool: ITool, schemaBase: string): JsonObject {
  const resultSchema: JsonObject = tool.outputSchema
    ? { allOf: [{ $ref: '#/components/schemas/CallToolResult' }, { properties: { structuredContent: { $ref: `#/components/schemas/${schemaBase}Output` } } }] }
    : { $ref: '#/components/schemas/CallToolResult' };
  return {
    operationId: `tool_${tool.name}`,
    summary: tool.title ?? tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    tags: ['tools'],
    ...(tool.deprecated ? { deprecated: true } : {}),
    requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schemaBase}Input` } } } },
    responses: { '200': { description: 'The tool result (isError: true for a failure of the tool itself)', content: { 'application/json': { schema: resultSchema } } }, ...errorResponses() },
  };
}

/**
 * The base of each tool's schema names (`<base>Input`, `<base>Output`): the name in PascalCase
 * (`add_numbers` -> `AddNumbers`). Names that meet there (`get_sum` and `getSum` under
 * `mcp.tools.nameRule: mcp`) are told apart by a suffix, `_2` on, in registration order.
 */
function schemaBases(tools: readonly ITool[]): Map<ITool, string> {
  const pascal = tools.map((t) => t.name.replace(/(^|_)([a-z0-9])/g, (_m, _s: string, c: string) => c.toUpperCase()));
  const taken = new Set(pascal);
  const bases = new Map<ITool, string>();
  const given = new Set<string>();
  tools.forEach((tool, i) => {
    const base = pascal[i] as string;
    let candidate = base;
    for (let n = 2; given.has(candidate) || (candidate !== base && taken.has(candidate)); n++) candidate = `${base}_${n}`;
    given.add(candidate);
    bases.set(tool, candidate);
  });
  return bases;
}

/** A name a URL path segment cannot carry: `.` and `..` are dot-segments, removed by every URL parser. */
const isDotSegment = (name: string): boolean => name === '.' || name === '..';

export function buildOpenApiDocument(input: OpenApiInput): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const route of input.api.routes ?? []) {
    const key = toOpenApiPath(route.path);
    paths[key] = { ...(paths[key] ?? {}), [route.method]: routeOperation(route) };
  }
  const schemas: Record<string, JsonObject> = { Error: ERROR_SCHEMA, CallToolResult: CALL_TOOL_RESULT };
  const bases = schemaBases(input.tools);
  for (const tool of input.tools) {
    const base = bases.get(tool) as string;
    schemas[`${base}Input`] = embeddable(tool.inputSchema);
    if (tool.outputSchema) schemas[`${base}Output`] = embeddable(tool.outputSchema);
    if (input.toolRoutes && !isDotSegment(tool.name)) paths[`/tools/${tool.name}`] = { post: toolOperation(tool, base) };
  }
  for (const [path, item] of Object.entries(input.api.paths ?? {})) paths[path] = { ...(paths[path] ?? {}), ...item };
  const info = { ...input.info, ...(input.api.info ?? {}) };
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, ...(info.description ? { description: info.description } : {}) },
    servers: [{ url: input.basePath }],
    ...(input.bearerAuth ? { security: [{ bearerAuth: [] }] } : {}),
    paths,
    components: {
      schemas,
      ...(input.bearerAuth ? { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } } : {}),
    },
  };
}
