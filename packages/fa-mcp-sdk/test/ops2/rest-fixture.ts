/** A server with REST routes for the REST, OpenAPI and browser tests. */
import express from 'express';
import { ConflictError, formatToolResult, type IRestApi, type McpServerData } from '../../src/index.js';
import { sleep } from './helpers.js';

export function restApi(): IRestApi {
  const users = new Map<number, { id: number; name: string }>([[1, { id: 1, name: 'Ada' }]]);
  const router = express.Router();
  router.get('/raw/ping', (_req, res) => {
    res.json({ pong: true });
  });
  return {
    routes: [
      {
        method: 'get',
        path: '/users/:id',
        summary: 'Read a user',
        tags: ['users'],
        params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'] },
        query: { type: 'object', properties: { verbose: { type: 'boolean' } } },
        response: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } }, required: ['id', 'name'] },
        handler: ({ params, query, context }) => {
          const user = users.get(params.id as number);
          if (!user) throw new ConflictError(`No user ${String(params.id)}`, { id: params.id });
          return query.verbose ? { ...user, requestId: context.requestId } : user;
        },
      },
      {
        method: 'post',
        path: '/users',
        summary: 'Create a user',
        tags: ['users'],
        status: 201,
        body: { type: 'object', properties: { name: { type: 'string', minLength: 1 } }, required: ['name'], additionalProperties: false },
        handler: ({ body }) => {
          const id = users.size + 1;
          const user = { id, name: (body as { name: string }).name };
          users.set(id, user);
          return user;
        },
      },
      { method: 'delete', path: '/users/:id', summary: 'Delete a user', tags: ['users'], handler: () => undefined },
      {
        method: 'get',
        path: '/admin/report',
        summary: 'Admin only',
        scopes: ['admin'],
        handler: () => ({ secret: 'report' }),
      },
      {
        method: 'get',
        path: '/broken',
        summary: 'Fails unexpectedly',
        handler: () => {
          throw new TypeError('database password=hunter2 leaked in message');
        },
      },
      {
        method: 'get',
        path: '/slow',
        summary: 'Takes too long',
        timeoutMs: 100,
        handler: async ({ signal }) => {
          await sleep(1000);
          return { aborted: signal.aborted };
        },
      },
    ],
    router,
    paths: { '/raw/ping': { get: { summary: 'Raw express route', responses: { '200': { description: 'pong' } } } } },
  };
}

export function restServer(): McpServerData {
  return {
    serverInfo: { name: 'rest-demo', version: '2.0.0', title: 'REST demo', description: 'Users API next to MCP' },
    tools: [
      {
        name: 'add_numbers',
        description: 'Adds two numbers.',
        inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false },
        outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
        handler: ({ arguments: a }) => formatToolResult({ sum: (a.a as number) + (a.b as number) }),
      },
    ],
    rest: restApi(),
  };
}
