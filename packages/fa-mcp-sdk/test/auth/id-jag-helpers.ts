/**
 * Helpers of the ID-JAG tests: ID-JAGs signed as an enterprise identity provider would sign them,
 * and `POST /oauth/token` with the jwt-bearer grant from an authenticated client.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { clientBasic, tokenRequest, type KeyPair, type TokenAnswer } from './helpers.js';

export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const ID_JAG_PROFILE = 'urn:ietf:params:oauth:grant-profile:id-jag';
export const EMA_EXTENSION = 'io.modelcontextprotocol/enterprise-managed-authorization';

export interface IdJagInput {
  key: KeyPair;
  /** Claims over the defaults; a claim set to undefined is left out. */
  claims?: Record<string, unknown>;
  /** Header parameters over `{ alg, kid, typ: oauth-id-jag+jwt }`. */
  header?: Record<string, unknown>;
}

/** A signed ID-JAG with the claims of the draft (iss, sub, aud, client_id, jti, iat, exp …) and the given ones. */
export async function signIdJag(defaults: Record<string, unknown>, { key, claims = {}, header = {} }: IdJagInput): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const all: Record<string, unknown> = { jti: randomUUID(), iat: now, exp: now + 300, ...defaults, ...claims };
  const payload = Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined));
  return new SignJWT(payload).setProtectedHeader({ alg: String(key.jwk.alg), kid: String(key.jwk.kid), typ: 'oauth-id-jag+jwt', ...header }).sign(key.privateKey);
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The same claims, unsigned (`alg: none`). */
export function unsignedIdJag(claims: Record<string, unknown>): string {
  return `${b64({ alg: 'none', typ: 'oauth-id-jag+jwt' })}.${b64(claims)}.`;
}

/** The jwt-bearer grant with `assertion`, the client authenticating with HTTP Basic. */
export function presentIdJag(base: string, assertion: string, client: [string, string], extra: Record<string, string> = {}): Promise<TokenAnswer> {
  return tokenRequest(base, { grant_type: JWT_BEARER, assertion, ...extra }, clientBasic(...client));
}
