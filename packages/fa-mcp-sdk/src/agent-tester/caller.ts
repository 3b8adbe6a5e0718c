/**
 * Who is calling the Agent Tester: the session key (the verified subject when
 * auth is on, otherwise a random cookie for anonymous development use), and the
 * credentials its MCP connection to this server carries (the caller's own).
 */
import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { QUERY_TOKEN_PARAMS } from '../auth/credentials.js';
import { getRequestAuth } from '../auth/request-auth.js';

export const SESSION_COOKIE = 'fa_agent_tester';

function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The key of the caller's session. With `create`, an anonymous caller without a
 * cookie gets one (HttpOnly, SameSite=Strict, scoped to the tester's path).
 */
export function sessionKeyOf(req: Request, res: Response, path: string, create: boolean): string | undefined {
  const subject = getRequestAuth(req)?.subject;
  if (subject) return `subject:${subject}`;
  const cookie = readCookie(req, SESSION_COOKIE);
  if (cookie && /^[A-Za-z0-9_-]{43}$/.test(cookie)) return `anonymous:${cookie}`;
  if (!create) return undefined;
  const id = randomBytes(32).toString('base64url');
  res.append('Set-Cookie', `${SESSION_COOKIE}=${id}; Path=${path}; HttpOnly; SameSite=Strict${req.secure ? '; Secure' : ''}`);
  return `anonymous:${id}`;
}

/** The caller's credentials as headers for the MCP connection: its Authorization header, or a query token as a bearer token. */
export function callerCredentials(req: Request): Record<string, string> | undefined {
  const authorization = req.headers.authorization;
  if (typeof authorization === 'string' && authorization.trim() !== '') return { authorization };
  for (const name of QUERY_TOKEN_PARAMS) {
    const value = req.query?.[name];
    if (typeof value === 'string' && value !== '') return { authorization: `Bearer ${value}` };
  }
  return undefined;
}
