/**
 * stdio has no per-request credentials: without a token the caller is the
 * local user who started the process (trusted by the process boundary); with
 * `webServer.auth.stdioToken` (env MCP_AUTH_TOKEN) every request carries that
 * token's identity, verified at start, and scopes apply as on HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { getJsonFromResult, MCP_ERROR_CODES } from '../../src/index.js';
import { ALL_TARGETS, expectToolError, type TestServer } from '../../src/testing/index.js';
import { guardedServer, startAuthServer } from './helpers.js';

const TOKEN = 'stdio-token-1f3e5a7c9b2d4f6e8a0c2e4a6c8e0b2d';
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

describe.each(ALL_TARGETS.filter((t) => t.transport === 'stdio'))('stdio authentication on $label', (target) => {
  it('without a token: the local user, trusted, may use what requires scopes', async () => {
    const calls: string[] = [];
    const s = await startAuthServer(guardedServer(calls), target, {});
    servers.push(s);
    const client = await s.connect();
    expect(getJsonFromResult(await client.callTool({ name: 'scoped_tool', arguments: {} }))).toMatchObject({ subject: null });
    const desc = JSON.parse(((await client.readResource({ uri: 'use://auth' })).contents[0] as { text: string }).text) as Record<string, unknown>;
    expect(desc).toMatchObject({ required: false, transport: 'stdio' });
    expect(calls).toEqual(['scoped_tool']);
  });

  it('with MCP_AUTH_TOKEN: the token identity and its scopes apply to every request', async () => {
    const calls: string[] = [];
    const s = await startAuthServer(
      guardedServer(calls),
      target,
      { webServer: { auth: { permanentServerTokens: [TOKEN], serverTokenScopes: ['reports:read'] } } },
      { env: { MCP_AUTH_TOKEN: TOKEN } },
    );
    servers.push(s);
    const client = await s.connect();
    expect(getJsonFromResult(await client.callTool({ name: 'open_tool', arguments: {} }))).toMatchObject({ scopes: ['reports:read'] });
    await expectToolError(client.callTool({ name: 'scoped_tool', arguments: {} }), MCP_ERROR_CODES.FORBIDDEN);
    expect(calls).toEqual(['open_tool']);
  });

  it('a token that does not verify stops the start', async () => {
    await expect(
      startAuthServer(guardedServer([]), target, { webServer: { auth: { permanentServerTokens: [TOKEN], stdioToken: `${TOKEN}x` } } }),
    ).rejects.toThrow(/not recognized/);
  });
});
