/** The REST route next to MCP, and its OpenAPI document, over real HTTP. */
import { startTestServer, type TestServer } from 'fa-mcp-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testInit, testServerData } from './helpers.js';

describe('REST API', () => {
  let server: TestServer;
  let origin: string;

  beforeAll(async () => {
    server = await startTestServer(testServerData(), testInit);
    origin = new URL(server.handle.url as string).origin;
  });
  afterAll(() => server?.stop());

  it('GET /api/convert converts, validated by the route schema', async () => {
    const res = await fetch(`${origin}/api/convert?value=100&from=celsius&to=fahrenheit`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ value: 212, unit: 'fahrenheit' });
  });

  it('answers 400 with the reason for an impossible temperature or a bad unit', async () => {
    const cold = await fetch(`${origin}/api/convert?value=-500&from=celsius&to=kelvin`);
    expect(cold.status).toBe(400);
    expect(JSON.stringify(await cold.json())).toContain('below absolute zero');
    const unknown = await fetch(`${origin}/api/convert?value=1&from=rankine&to=kelvin`);
    expect(unknown.status).toBe(400);
  });

  it('documents the route in /openapi.json', async () => {
    const res = await fetch(`${origin}/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).some((p) => p.endsWith('/convert'))).toBe(true);
  });
});
