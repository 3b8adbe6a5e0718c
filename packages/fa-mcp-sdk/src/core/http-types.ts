/**
 * The HTTP shapes the public API names (the app of `handle.http`, the middleware
 * of `createAuthMW()`, the router of `rest.router`), declared here over
 * `node:http` so the published types need no `@types/express` (issue 24).
 * Each is a structural subset of express 5's: an express `Request`,
 * `Response`, `RequestHandler`, `Router` or `Application` is assignable to its
 * counterpart here (test/package/consumer/interop.ts proves it against the
 * real typings), and a consumer who has `@types/express` keeps using express's
 * own types for the same objects.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The request as express hands it to a handler, as far as fa-mcp-sdk reads it. */
export interface HttpRequest extends IncomingMessage {
  /** The path of the URL, without the query. */
  path: string;
  originalUrl: string;
  baseUrl: string;
  query: Record<string, unknown>;
  params: Record<string, string | string[] | undefined>;
  /** The parsed body, when a body parser ran. */
  body?: unknown;
  /** The client address (the proxy rules of `webServer.trustProxy` applied). */
  ip?: string | undefined;
  protocol: string;
  /** A request header (case-insensitive). */
  get(name: string): string | string[] | undefined;
}

/** The response as express hands it to a handler. */
export interface HttpResponse extends ServerResponse {
  locals: Record<string, unknown>;
  status(code: number): this;
  json(body?: unknown): this;
  send(body?: unknown): this;
  sendStatus(code: number): this;
  set(field: string, value?: string | string[]): this;
  type(type: string): this;
}

/** Passes control to the next handler; with an error, to the error handlers. */
export type HttpNext = (err?: unknown) => void;

/**
 * A request handler (middleware). Declared as a method type so it is checked
 * bivariantly: express's own handlers, which name express's richer request,
 * fit here, and a handler of this type fits wherever express takes one.
 */
export type HttpHandler = {
  handle(req: HttpRequest, res: HttpResponse, next: HttpNext): unknown;
}['handle'];

type Path = string | RegExp | Array<string | RegExp>;
type Handlers = Array<HttpHandler | HttpHandler[]>;

/** Routes and middleware mounted by path and method: an express `Router`, or the express app. */
export type HttpRouter = HttpHandler & {
  use(...handlers: Handlers): HttpRouter;
  use(path: Path, ...handlers: Handlers): HttpRouter;
  all(path: Path, ...handlers: Handlers): HttpRouter;
  get(path: Path, ...handlers: Handlers): HttpRouter;
  post(path: Path, ...handlers: Handlers): HttpRouter;
  put(path: Path, ...handlers: Handlers): HttpRouter;
  patch(path: Path, ...handlers: Handlers): HttpRouter;
  delete(path: Path, ...handlers: Handlers): HttpRouter;
};
