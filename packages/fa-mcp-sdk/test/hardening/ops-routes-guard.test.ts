/**
 * The operations routes behind the Host/Origin guard: a DNS-rebinding page
 * (Host or Origin of another site) cannot read /metrics, the OpenAPI document
 * or its reference page; /health and /ready stay open to probes (load
 * balancers and kubelets send the instance's address as Host). With
 * authentication on in production, a /metrics without its token on the main
 * port is announced by a WARN line at start.
 */
import { generateKeyPairSync } from 'node:crypto';
import { request } from 'node:http';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { formatToolResult, type McpServerData } from '../../src/index.js';
import { startTestServer, type TestServer } from '../../src/testing/index.js';

const data: McpServerData = {
  tools: [{ name: 'ping_tool', description: 'Answers at once.', inputSchema: { type: 'object' }, handler: () => formatToolResult('pong') }],
  rest: { routes: [] },
};

/** A GET with headers fetch would not let us forge (Host). */
function get(url: URL, path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('operations routes and the Host/Origin guard', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('/metrics, /openapi.json, /openapi.yaml and /docs refuse a foreign Host or Origin; /health and /ready do not', async () => {
    server = await startTestServer(data, { config: { webServer: { rest: { exposeTools: true } } } });
    const url = new URL(server.handle.url as string);
    for (const path of ['/metrics', '/openapi.json', '/openapi.yaml', '/docs/']) {
      expect(await get(url, path), path).toBe(200);
      expect(await get(url, path, { host: 'evil.example' }), `${path} with a foreign Host`).toBe(403);
      expect(await get(url, path, { origin: 'http://evil.example' }), `${path} with a foreign Origin`).toBe(403);
    }
    for (const path of ['/health', '/ready']) expect(await get(url, path, { host: '10.1.2.3:3000' }), path).toBe(200);
  });
});

describe('the start warns about an open /metrics with authentication on in production', () => {
  const privateKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  const startWith = async (metrics: Record<string, unknown>, nodeEnv: string) => {
    const log = new PassThrough();
    const lines: string[] = [];
    log.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    const s = await startTestServer(data, {
      nodeEnv,
      env: {},
      logDestination: log,
      config: {
        logger: { level: 'warn', format: 'json' },
        webServer: {
          metrics,
          auth: { enabled: true, jwtToken: { mode: 'embedded', issuer: 'http://127.0.0.1', privateKey }, oauth: { clients: [] } },
        },
      },
    });
    await s.stop();
    return lines.filter((l) => l.includes('/metrics on the main port has no token'));
  };

  it('warns without a token on the main port, not with a token, its own port, or outside production', async () => {
    expect(await startWith({}, 'production')).toHaveLength(1);
    expect(await startWith({ token: 'scrape-secret-0123456789' }, 'production')).toHaveLength(0);
    expect(await startWith({ separatePort: true, port: 0 }, 'production')).toHaveLength(0);
    expect(await startWith({}, 'development')).toHaveLength(0);
  });
});
