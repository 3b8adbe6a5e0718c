/**
 * Finds credentials in a request: `Authorization: Bearer …`, `Authorization:
 * Basic …` (the password may contain ':'), or, only when allowed, a token in
 * the query string (`?token=` or `?access_token=`).
 */
import { AuthError } from '../core/auth-error.js';
import type { Credentials } from './types.js';

export const QUERY_TOKEN_PARAMS = ['access_token', 'token'] as const;

export interface CredentialSource {
  headers: Record<string, string | string[] | undefined>;
  query?: Record<string, unknown>;
}

function header(headers: CredentialSource['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function queryToken(query: Record<string, unknown> | undefined): string | undefined {
  for (const name of QUERY_TOKEN_PARAMS) {
    const value = query?.[name];
    if (typeof value === 'string' && value !== '') return value;
    if (Array.isArray(value) || (value !== undefined && typeof value !== 'string')) {
      throw new AuthError('invalid_request', `The query parameter "${name}" must appear once`);
    }
  }
  return undefined;
}

/** The credentials of a request; undefined when it carries none. Throws AuthError on malformed ones. */
export function extractCredentials(source: CredentialSource, allowQueryToken: boolean): Credentials | undefined {
  const fromQuery = queryToken(source.query);
  if (fromQuery !== undefined && !allowQueryToken) {
    throw new AuthError('invalid_request', 'A token in the query string is not accepted; send it in the Authorization header');
  }
  const authorization = header(source.headers, 'authorization')?.trim();
  if (authorization) {
    const space = authorization.indexOf(' ');
    const scheme = (space < 0 ? authorization : authorization.slice(0, space)).toLowerCase();
    const value = space < 0 ? '' : authorization.slice(space + 1).trim();
    if (scheme === 'bearer') {
      if (!/^[\x21-\x7e]+$/.test(value)) throw new AuthError('invalid_token', 'Malformed bearer token', { reason: 'malformed' });
      return { scheme: 'bearer', token: value, from: 'header' };
    }
    if (scheme === 'basic') return parseBasic(value);
    throw new AuthError('invalid_request', `Unsupported authorization scheme "${scheme}"`);
  }
  if (fromQuery !== undefined) return { scheme: 'bearer', token: fromQuery, from: 'query' };
  return undefined;
}

function parseBasic(value: string): Credentials {
  if (!/^[A-Za-z0-9+/]+=*$/.test(value)) throw new AuthError('invalid_credentials', 'Malformed Basic credentials');
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new AuthError('invalid_credentials', 'Malformed Basic credentials');
  // Only the first ':' separates: a password may contain more of them (RFC 7617).
  return { scheme: 'basic', username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
