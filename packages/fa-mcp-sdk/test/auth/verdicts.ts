/**
 * The table-driven verifier tests' vocabulary: what one verifier answers to
 * one credential (accepted as a subject, refused with a reason, or "not mine":
 * left to the next verifier), the verifiers a configuration builds, and the
 * credentials to try.
 */
import { loadConfig } from '../../src/config/index.js';
import type { AuthConfig } from '../../src/config/sections/auth-config.js';
import { AuthError } from '../../src/core/auth-error.js';
import { buildSchemes } from '../../src/auth/build-schemes.js';
import type { AuthInfo, Credentials, Verifier } from '../../src/auth/types.js';

/** `accepted:<subject>`, `refused:<reason>` (the AuthError's metric reason) or `not-mine`. */
export type Verdict = `accepted:${string}` | `refused:${string}` | 'not-mine';

export async function verdictOf(verifier: Verifier, credentials: Credentials): Promise<Verdict> {
  try {
    const auth = await verifier.verify(credentials);
    return auth ? `accepted:${auth.subject}` : 'not-mine';
  } catch (err) {
    if (err instanceof AuthError) return `refused:${err.reason}`;
    throw err;
  }
}

/** What the authenticator answers: `accepted:<subject>`, `refused:<kind>:<reason>`, or `error:<message>` for anything else. */
export async function authVerdict(outcome: Promise<AuthInfo>): Promise<string> {
  try {
    return `accepted:${(await outcome).subject}`;
  } catch (err) {
    if (err instanceof AuthError) return `refused:${err.kind}:${err.reason}`;
    return `error:${(err as Error).message}`;
  }
}

export const quietLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined, child: () => quietLogger };

export const bearerOf = (token: string): Credentials => ({ scheme: 'bearer', token, from: 'header' });
export const basicOf = (username: string, password: string): Credentials => ({ scheme: 'basic', username, password });

/** `webServer.auth` as the loader makes it from these overrides (every other key at its default). */
export function authSection(auth: Record<string, unknown>): AuthConfig {
  return loadConfig({ cwd: '/nonexistent', env: {}, overrides: { webServer: { auth } } }).config.webServer.auth;
}

/** The verifier of that name the configuration builds (as the server does at start). */
export async function builtVerifier(auth: Record<string, unknown>, name: string): Promise<Verifier> {
  const { verifiers } = await buildSchemes(authSection(auth), false);
  const found = verifiers.find((v) => v.name === name);
  if (!found) throw new Error(`no verifier ${name} in ${verifiers.map((v) => v.name).join(', ')}`);
  return found;
}

/** Changes the case of every letter (a token that differs only in case). */
export const swapCase = (text: string) => text.replace(/[a-z]/gi, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));

/** The same text with the character at `index` replaced by another of the same class. */
export function flipChar(text: string, index: number): string {
  const c = text[index] as string;
  const other = /\d/.test(c) ? (c === '0' ? '1' : '0') : /[a-z]/.test(c) ? (c === 'a' ? 'b' : 'a') : /[A-Z]/.test(c) ? (c === 'A' ? 'B' : 'A') : c === '-' ? '_' : '-';
  return `${text.slice(0, index)}${other}${text.slice(index + 1)}`;
}
