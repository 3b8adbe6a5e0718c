/**
 * The HTTP routes an express application answers, read from its router stack (routes declared with
 * get/post/…, also inside routers mounted with `use`). Plain middleware is not a route and is not
 * listed. Structural input: express 5 layers expose `rawPath`, `route` and a nested router's `stack`.
 */
import type { HttpEndpoint } from './snapshot-types.js';

export interface RouterLayerLike {
  rawPath?: unknown;
  route?: { path?: unknown; methods?: Record<string, boolean> };
  handle?: unknown;
}

export interface RouterLike {
  stack?: RouterLayerLike[];
}

function paths(raw: unknown): string[] {
  if (raw === undefined || raw === null) return ['/'];
  if (Array.isArray(raw)) return raw.flatMap(paths);
  return [raw instanceof RegExp ? String(raw) : String(raw)];
}

function join(prefix: string, path: string): string {
  const joined = `${prefix}/${path}`.replace(/\/{2,}/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
}

function stackOf(handle: unknown): RouterLayerLike[] | undefined {
  if (typeof handle !== 'function' && (typeof handle !== 'object' || handle === null)) return undefined;
  const stack = (handle as RouterLike).stack;
  return Array.isArray(stack) ? stack : undefined;
}

function walk(stack: RouterLayerLike[], prefix: string, out: HttpEndpoint[], depth: number): void {
  if (depth > 16) return; // a router mounted inside itself; nothing sane lies deeper
  for (const layer of stack) {
    if (layer.route) {
      const methods = Object.entries(layer.route.methods ?? {})
        .filter(([, on]) => on)
        .map(([m]) => (m === '_all' ? 'ALL' : m.toUpperCase()));
      for (const path of paths(layer.route.path)) {
        for (const method of methods) out.push({ method, path: join(prefix, path) });
      }
      continue;
    }
    const nested = stackOf(layer.handle);
    if (nested) for (const path of paths(layer.rawPath)) walk(nested, join(prefix, path), out, depth + 1);
  }
}

/** Every route of `router` (an express app's `app.router`, or any router), as METHOD + path. */
export function listHttpEndpoints(router: RouterLike | undefined): HttpEndpoint[] {
  const out: HttpEndpoint[] = [];
  if (router?.stack) walk(router.stack, '', out, 0);
  return out;
}
