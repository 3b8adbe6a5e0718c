/**
 * Every route family answers every error as JSON in its own shape, never
 * express's default page (HTML with the stack trace and node_modules paths
 * outside production): bodies declared gzip that are not, unsupported
 * encodings, too many form fields, unknown paths; in development and in
 * production, on MCP (JSON-RPC), OAuth (`{ error, error_description }`), REST
 * (`{ error: { code, message }, requestId }`) and the Agent Tester's API.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatToolResult, MCP_ERROR_CODES, type McpServerData } from '../../src/index.js';
import { startTestServer, type TestServer } from '../../src/testing/index.js';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const SECRET = 'client-a-secret-0123456789abcdefghijkl';
const data: McpServerData = {
  tools: [{ name: 'ping_tool', description: 'Answers at once.', inputSchema: { type: 'object' }, handler: () => formatToolResult('pong') }],
};

interface Answer {
  status: number;
  type: string;
  text: string;
  json: Record<string, unknown>;
}

async function send(base: string, path: string, init: RequestInit): Promise<Answer> {
  const res = await fetch(new URL(path, base), init);
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // asserted below: the answer must be JSON
  }
  return { status: res.status, type: res.headers.get('content-type') ?? '', text, json };
}

function expectJsonAnswer(a: Answer, status: number): void {
  expect(a.status).toBe(status);
  expect(a.type).toMatch(/^application\/json/);
  expect(a.text).not.toMatch(/<html|<pre>|node_modules|\bat [\w.<>]+ \(/i);
  expect(() => JSON.parse(a.text) as unknown).not.toThrow();
}

/** Production wants a configured signing key. */
const PRIVATE_KEY = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const NOT_GZIP = 'this is not gzip at all';

describe.each(['development', 'production'])('error answers with NODE_ENV=%s', (nodeEnv) => {
  let server: TestServer;
  let base: string;
  let bearer: Record<string, string>;

  beforeAll(async () => {
    const port = await freePort();
    const issuer = `http://127.0.0.1:${port}`;
    server = await startTestServer(
      { ...data, rest: { routes: [] } },
      {
        target: { transport: 'http', era: '2026', label: 'http/2026' },
        nodeEnv,
        env: {},
        config: {
          webServer: {
            port,
            rest: { exposeTools: true },
            auth: {
              enabled: true,
              jwtToken: { mode: 'embedded', issuer, maxTtlSec: 600, privateKey: PRIVATE_KEY },
              oauth: { clients: [{ clientId: 'client-a', clientSecret: SECRET, scopes: [] }] },
            },
          },
          mcp: { legacySse: true },
          agentTester: { enabled: true },
        },
      },
    );
    base = server.handle.url as string;
    const token = await send(base, '/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'client-a', client_secret: SECRET }).toString(),
    });
    expect(token.status).toBe(200);
    bearer = { authorization: `Bearer ${String(token.json.access_token)}` };
  });
  afterAll(async () => {
    await server?.stop();
  });

  const gzipJson = (headers: Record<string, string> = {}): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', accept: 'application/json, text/event-stream', ...bearer, ...headers },
    body: NOT_GZIP,
  });

  it('MCP: a body declared gzip that is not is a JSON-RPC 400; an unknown encoding a JSON-RPC 415', async () => {
    for (const path of ['/mcp', '/messages?sessionId=x']) {
      const bad = await send(base, path, gzipJson({ 'mcp-protocol-version': '2026-07-28' }));
      expectJsonAnswer(bad, 400);
      expect(bad.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: expect.any(Number) as number } });
    }
    const unknown = await send(base, '/mcp', gzipJson({ 'content-encoding': 'x-unknown' }));
    expectJsonAnswer(unknown, 415);
    expect(unknown.json).toMatchObject({ jsonrpc: '2.0', error: { code: MCP_ERROR_CODES.INVALID_REQUEST } });
  });

  it('OAuth: /oauth/token answers a false gzip body and 1,001 form fields in its own shape, unauthenticated', async () => {
    const bad = await send(base, '/oauth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' }, body: NOT_GZIP });
    expectJsonAnswer(bad, 400);
    expect(bad.json).toEqual({ error: 'invalid_request', error_description: expect.any(String) as string });
    const fields = Array.from({ length: 1001 }, (_, i) => `f${i}=1`).join('&');
    const many = await send(base, '/oauth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: fields });
    expectJsonAnswer(many, 413);
    expect(many.json).toEqual({ error: 'invalid_request', error_description: 'Request body has too many fields' });
  });

  it('REST: a false gzip body is a 400 in the REST error shape', async () => {
    const bad = await send(base, '/api/tools/ping_tool', gzipJson());
    expectJsonAnswer(bad, 400);
    expect(bad.json).toMatchObject({ error: { code: expect.any(Number) as number, message: expect.any(String) as string }, requestId: expect.any(String) as string });
  });

  it('Agent Tester: a false gzip body is a JSON 400', async () => {
    const bad = await send(base, '/agent-tester/api/view/tools/call', gzipJson());
    expectJsonAnswer(bad, 400);
  });

  it('a path nobody serves is a JSON 404, and a malformed path a JSON 400', async () => {
    expectJsonAnswer(await send(base, '/nowhere', { method: 'GET' }), 404);
    expectJsonAnswer(await send(base, '/oauth/nowhere', { method: 'POST' }), 404);
    const undecodable = await send(base, '/api/tools/%E0%A4%A', { method: 'POST', headers: { 'content-type': 'application/json', ...bearer }, body: '{}' });
    expectJsonAnswer(undecodable, 400);
    expect(undecodable.json).toMatchObject({ error: { code: expect.any(Number) as number }, requestId: expect.any(String) as string });
  });
});
