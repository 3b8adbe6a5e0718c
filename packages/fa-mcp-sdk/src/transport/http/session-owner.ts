/**
 * Who a session belongs to. A session opened behind authentication is bound to
 * the subject that opened it; a later request naming that session id must come
 * from the same subject, or it is answered like an unknown session (404), so a
 * leaked or guessed id is of no use to another caller. A session opened without
 * authentication has no owner and is refused to authenticated callers alike.
 *
 * The authentication middleware leaves the verified AuthInfo on `res.locals.auth`.
 */
import type { IncomingMessage } from 'node:http';
import type { Response } from 'express';

export function sessionOwner(res: Response): string | undefined {
  const auth = (res.locals as { auth?: { subject?: unknown } }).auth;
  return typeof auth?.subject === 'string' && auth.subject !== '' ? auth.subject : undefined;
}

/** The same owner, read from the request: where the guard (and the HTTP fast lane) leave the caller. */
export function requestOwner(req: object): string | undefined {
  const auth = (req as { auth?: { subject?: unknown } }).auth;
  return typeof auth?.subject === 'string' && auth.subject !== '' ? auth.subject : undefined;
}

/** Who a new session counts against (session-manager.ts): the subject, or the client address (after trustProxy) without authentication. */
export function sessionCaller(req: IncomingMessage, subject: string | undefined = requestOwner(req)): string {
  if (subject !== undefined) return `sub:${subject}`;
  const address = req.headers['x-fa-mcp-remote-address'];
  return `ip:${typeof address === 'string' && address !== '' ? address : (req.socket.remoteAddress ?? '')}`;
}
