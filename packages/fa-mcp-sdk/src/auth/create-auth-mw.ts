/**
 * `createAuthMW()`: the server's own authentication in front of your routes.
 *
 * ```ts
 * const server = await initMcpServer(data);
 * server.http?.app.get('/api/report', createAuthMW(server, { requiredScopes: ['reports:read'] }), (req, res) => {
 *   res.json({ for: getRequestAuth(req)?.subject });
 * });
 * ```
 */
import type { HttpHandler } from '../core/http-types.js';
import type { AuthRuntime } from './auth-runtime.js';
import type { AuthMWOptions } from './http-guard.js';

export function createAuthMW(source: { auth: AuthRuntime } | AuthRuntime, options: AuthMWOptions = {}): HttpHandler {
  const runtime = 'createAuthMW' in source ? source : source.auth;
  return runtime.createAuthMW(options);
}
