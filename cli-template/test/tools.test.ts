/**
 * The example tools, called through the official MCP client on every transport and protocol
 * era the server speaks (HTTP with sessions, stateless HTTP, legacy SSE, stdio; 2025 and 2026).
 */
import { ALL_TARGETS, expectToolError, getJsonFromResult, startTestServer, type TestServer } from 'fa-mcp-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testInit, testServerData, type TestClient } from './helpers.js';

describe.each(ALL_TARGETS)('tools on $label', (target) => {
  let server: TestServer;
  let client: TestClient;

  beforeAll(async () => {
    server = await startTestServer(testServerData(), { ...testInit, target });
    client = await server.connect();
  });
  afterAll(() => server?.stop());

  it('say_hello greets with the configured word', async () => {
    const result = await client.callTool({ name: 'say_hello', arguments: { name: 'Ada' } });
    expect(result.isError).toBeFalsy();
    expect(getJsonFromResult(result)).toEqual({ greeting: 'Hello, Ada!' });
  });

  it('say_hello answers a call without a name with an isError result naming the field (handler not run)', async () => {
    const result = await client.callTool({ name: 'say_hello', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result._meta?.['fa-mcp/validation']).toEqual({ field: 'name', reason: 'is required' });
    // expectToolError takes this result as -32602 too (and the JSON-RPC error of mcp.validation.argumentErrors: protocol).
    const err = await expectToolError(client.callTool({ name: 'say_hello', arguments: {} }), -32602, 'name is required');
    expect(err.data).toEqual({ field: 'name', reason: 'is required' });
  });

  it('convert_temperature converts between units', async () => {
    const result = await client.callTool({ name: 'convert_temperature', arguments: { value: 100, from: 'celsius', to: 'fahrenheit' } });
    expect(getJsonFromResult(result)).toEqual({ value: 212, unit: 'fahrenheit' });
  });

  it('convert_temperature reports a temperature below absolute zero as a tool error', async () => {
    const result = await client.callTool({ name: 'convert_temperature', arguments: { value: -300, from: 'celsius', to: 'kelvin' } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('below absolute zero');
  });

  it('convert_temperature refuses an unknown unit (invalid arguments)', async () => {
    const err = await expectToolError(client.callTool({ name: 'convert_temperature', arguments: { value: 1, from: 'rankine', to: 'kelvin' } }), -32602);
    expect(err.data).toMatchObject({ field: 'from' });
  });
});

describe('configuration reaches the tools', () => {
  it('app.greeting changes what say_hello says', async () => {
    const server = await startTestServer(testServerData({ app: { greeting: 'Welcome' } }), testInit);
    try {
      const client = await server.connect();
      const result = await client.callTool({ name: 'say_hello', arguments: { name: 'Linus' } });
      expect(getJsonFromResult(result)).toEqual({ greeting: 'Welcome, Linus!' });
    } finally {
      await server.stop();
    }
  });
});
