/**
 * Helpers of the authentication tests: key pairs and signed tokens, a JWKS
 * served from a loopback express server, an SDK client that presents
 * credentials on any HTTP transport and era, and raw HTTP calls that show the
 * status and headers of a refusal.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { request, type Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { expect } from 'vitest';
import { SignJWT, exportJWK, type JWK } from 'jose';
import { Client, SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { formatToolResult, type ITool, type McpServerData } from '../../src/index.js';
import { startTestServer, type StartTestServerOptions, type TestServer, type TestTarget } from '../../src/testing/index.js';

export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/', import.meta.url));

export interface KeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
  publicPem: string;
  privatePem: string;
  jwk: JWK;
}

export async function rsaKeyPair(kid = 'rsa-1'): Promise<KeyPair> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return keyPair(privateKey, publicKey, kid, 'RS256');
}

export async function ecKeyPair(kid = 'ec-1'): Promise<KeyPair> {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return keyPair(privateKey, publicKey, kid, 'ES256');
}

async function keyPair(privateKey: KeyObject, publicKey: KeyObject, kid: string, alg: string): Promise<KeyPair> {
  return {
    privateKey,
    publicKey,
    publicPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    privatePem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' },
  };
}

export interface SignOptions {
  alg?: string;
  kid?: string;
  iss?: string;
  aud?: string;
  sub?: string;
  /** Seconds from now; negative for the past; null: no `exp` at all. */
  expIn?: number | null;
  /** `iat`, in seconds from now (default 0). */
  iatIn?: number;
  nbfIn?: number;
  claims?: Record<string, unknown>;
}

export async function signJwt(key: KeyObject | Uint8Array, o: SignOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({ ...o.claims })
    .setProtectedHeader({ alg: o.alg ?? 'RS256', ...(o.kid ? { kid: o.kid } : {}) })
    .setIssuedAt(now + (o.iatIn ?? 0))
    .setSubject(o.sub ?? 'alice');
  if (o.expIn !== null) jwt.setExpirationTime(now + (o.expIn ?? 300));
  if (o.iss !== undefined) jwt.setIssuer(o.iss);
  if (o.aud !== undefined) jwt.setAudience(o.aud);
  if (o.nbfIn !== undefined) jwt.setNotBefore(now + o.nbfIn);
  return jwt.sign(key);
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
export const decodePart = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;

/** An unsigned token (`alg: none`) with the given claims. */
export function unsignedJwt(claims: Record<string, unknown>): string {
  return `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims)}.`;
}

/** The same token with its payload edited and the original signature kept. */
export function tamperJwt(token: string, edit: (claims: Record<string, unknown>) => void): string {
  const [h, p, s] = token.split('.') as [string, string, string];
  const claims = decodePart(p);
  edit(claims);
  return `${h}.${b64url(claims)}.${s}`;
}

/** A JWKS on a loopback express server; `set()` rotates the keys, `hits` counts fetches. */
export interface JwksServer {
  url: string;
  hits: number;
  set(keys: JWK[]): void;
  close(): Promise<void>;
}

export async function startJwksServer(keys: JWK[]): Promise<JwksServer> {
  let current = keys;
  const app = express();
  const state = { hits: 0 };
  app.get('/jwks', (_req, res) => {
    state.hits++;
    res.json({ keys: current });
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/jwks`,
    get hits() {
      return state.hits;
    },
    set(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Connects the official client to an HTTP target (session, stateless, legacy SSE; either era) with extra headers. */
export async function connectWith(server: TestServer, headers: Record<string, string>, setup?: (client: Client) => void): Promise<Client> {
  const { target, handle } = server;
  const client = new Client(
    { name: 'auth-test-client', version: '1.0.0' },
    { versionNegotiation: { mode: target.era === '2026' ? { pin: '2026-07-28' } : 'legacy' } },
  );
  setup?.(client);
  const url = new URL(handle.url as string);
  const requestInit = { headers };
  const transport =
    target.transport === 'sse' ? new SSEClientTransport(new URL('/sse', url), { requestInit }) : new StreamableHTTPClientTransport(url, { requestInit });
  await client.connect(transport);
  return client;
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
export const basic = (user: string, password: string) => ({ Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });

export interface RawResponse {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** POSTs one JSON-RPC request to a path of the server (the stateless 2025 path needs no initialize). */
export async function rawPost(baseUrl: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  const res = await fetch(new URL(path, baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

export interface SentAnswer {
  status: number;
  retryAfter: string | undefined;
  body: Record<string, unknown>;
  /** From sending the request to the end of the answer, in ms. */
  elapsedMs: number;
}

/**
 * One HTTP request to the server from a loopback source address of the caller's choice (Linux
 * routes all of 127.0.0.0/8 to lo, so 127.0.0.2, 127.0.0.3 … are distinct clients to the server).
 */
export function sendFrom(server: TestServer, path: string, opts: { from?: string; method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<SentAnswer> {
  const url = new URL(path, server.handle.url as string);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? 'POST', headers: opts.headers ?? {}, localAddress: opts.from ?? '127.0.0.1' }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const retryAfter = res.headers['retry-after'];
        resolve({
          status: res.statusCode ?? 0,
          retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined,
          body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : {},
          elapsedMs: performance.now() - started,
        });
      });
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** The failure throttle's refusal: 429 with a `Retry-After` of at most `blockSec`. */
export function expectThrottled(a: SentAnswer, blockSec: number): void {
  expect(a.status).toBe(429);
  expect(Number(a.retryAfter)).toBeGreaterThan(0);
  expect(Number(a.retryAfter)).toBeLessThanOrEqual(blockSec);
}

/** The answer waited the failure throttle's delay (server timers run on a clock truncated to the millisecond). */
export function expectSlowed(a: SentAnswer, delayMs: number): void {
  expect(a.elapsedMs).toBeGreaterThanOrEqual(delayMs - 2);
}

export const toolCall = (name: string, args: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });

/** Tools whose handlers record that they ran. */
export function guardedServer(calls: string[]): McpServerData {
  const tool = (name: string, extra: Partial<ITool> = {}): ITool => ({
    name,
    description: `${name} (test)`,
    inputSchema: { type: 'object' },
    handler: ({ context }) => {
      calls.push(name);
      return formatToolResult({ ran: name, subject: context.auth?.subject ?? null, scopes: context.auth?.scopes ?? [], groups: context.auth?.groups ?? [] });
    },
    ...extra,
  });
  return {
    tools: [
      tool('open_tool'),
      tool('scoped_tool', { requiredScopes: ['reports:write'] }),
      tool('group_tool', { requiredGroups: ['mcp-admins'] }),
    ],
    prompts: [
      { name: 'open_prompt', content: 'hello' },
      { name: 'scoped_prompt', requiredScopes: ['reports:write'], content: () => (calls.push('scoped_prompt'), 'secret prompt') },
    ],
    resources: [
      { uri: 'test://open', name: 'open', content: 'open doc' },
      { uri: 'test://grouped', name: 'grouped', requiredGroups: ['mcp-admins'], content: () => (calls.push('grouped_resource'), 'group doc') },
    ],
    resourceTemplates: [
      { uriTemplate: 'test://reports/{id}', name: 'report', requiredScopes: ['reports:write'], read: (_uri, v) => (calls.push('report_template'), `report ${v.id}`) },
    ],
  };
}

/** startTestServer with the test isolation every auth test wants: no env, no config files, silent. */
export function startAuthServer(data: McpServerData, target: TestTarget, config: Record<string, unknown>, extra: Partial<StartTestServerOptions> = {}): Promise<TestServer> {
  return startTestServer(data, { target, config, cwd: FIXTURES_DIR, env: {}, nodeEnv: 'test', ...extra });
}

/** A free loopback port (for an embedded issuer that must be known before the server listens). */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** HTTP Basic of an OAuth client (client_secret_basic form-urlencodes both parts, RFC 6749 §2.3.1). */
export const clientBasic = (id: string, secret: string) => ({
  Authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`,
});

export interface TokenAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** POST /oauth/token with a form and headers. */
export async function tokenRequest(base: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<TokenAnswer> {
  const res = await fetch(new URL('/oauth/token', base), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}
