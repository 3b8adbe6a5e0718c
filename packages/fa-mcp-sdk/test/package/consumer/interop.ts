/**
 * Compiled by test/package/consumer-types.test.ts after the consumer installs `@types/express` and
 * `@types/pg`: the HTTP and PostgreSQL shapes fa-mcp-sdk declares are ones the real express and pg
 * objects satisfy, and what fa-mcp-sdk hands out goes where express takes a handler or a router.
 */
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import pg from 'pg';
import {
  createAuthMW,
  getRequestAuth,
  type AuthenticatedRequest,
  type HttpHandler,
  type HttpNext,
  type HttpRequest,
  type HttpResponse,
  type HttpRouter,
  type IRestApi,
  type McpServerHandle,
} from 'fa-mcp-sdk';
import type { FieldDef, PgClientConfig, PgPool, PgPoolClient, PgQueryable, QueryResult, QueryResultRow } from 'fa-mcp-sdk/db';
import { PostgresNotificationBus, PostgresTaskStore, runMigrations } from 'fa-mcp-sdk/stores';

// express's objects are assignable to fa-mcp-sdk's shapes
export const request = (req: Request): HttpRequest => req;
export const authenticated = (req: Request): AuthenticatedRequest => req;
export const response = (res: Response): HttpResponse => res;
export const next = (n: NextFunction): HttpNext => n;
export const handler = (h: RequestHandler): HttpHandler => h;
export const router = (r: Router): HttpRouter => r;
export const app = (a: express.Express): HttpRouter => a;

// and fa-mcp-sdk's go where express takes them
export function mount(server: McpServerHandle): express.Express {
  const own = express();
  const guard: RequestHandler = createAuthMW(server, { requiredScopes: ['reports:read'] });
  own.get('/reports', guard, (req, res) => {
    res.json({ for: getRequestAuth(req)?.subject });
  });
  const mounted: HttpRouter | undefined = server.http?.app;
  if (mounted) own.use('/inner', mounted);
  server.http?.app.get('/own', createAuthMW(server), (req: HttpRequest, res: HttpResponse) => void res.send(req.path));
  return own;
}
export const rest: IRestApi = { router: express.Router().get('/export.csv', (_req, res) => void res.type('text/csv').send('id\n')) };

// pg's objects are assignable to fa-mcp-sdk's shapes
export const pool = (p: pg.Pool): PgPool => p;
export const client = (c: pg.PoolClient): PgPoolClient => c;
export const queryable = (c: pg.Client): PgQueryable => c;
export const result = <R extends pg.QueryResultRow>(r: pg.QueryResult<R>): QueryResult<R> => r;
export const row = (r: pg.QueryResultRow): QueryResultRow => r;
export const field = (f: pg.FieldDef): FieldDef => f;
export const clientConfig = (c: pg.ClientConfig): PgClientConfig => c;

// and a real pool goes where fa-mcp-sdk takes one
export async function stores(): Promise<void> {
  const real = new pg.Pool({ connectionString: 'postgres://localhost/none' });
  const tasks = new PostgresTaskStore(real, { maxTasks: 10 });
  const bus = new PostgresNotificationBus(real, { connectionString: 'postgres://localhost/none' });
  await runMigrations(real, []);
  console.log(tasks, bus);
}
