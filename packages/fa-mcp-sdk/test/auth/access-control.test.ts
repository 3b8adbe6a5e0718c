/**
 * Scopes and groups on tools, prompts and resources, enforced the same way on
 * every HTTP transport and both protocol eras; the verified caller reaches the
 * handler as `context.auth`; with `hideUnauthorized`, lists leave out what the
 * caller may not use.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { getJsonFromResult, MCP_ERROR_CODES } from '../../src/index.js';
import { ALL_TARGETS, expectToolError, type TestServer } from '../../src/testing/index.js';
import { bearer, connectWith, guardedServer, rsaKeyPair, signJwt, startAuthServer, type KeyPair } from './helpers.js';

const ISS = 'https://idp.example.test';
const AUD = 'mcp-access-control';

describe.each(ALL_TARGETS.filter((t) => t.transport !== 'stdio'))('access control on $label', (target) => {
  const calls: string[] = [];
  let rsa: KeyPair;
  let plain: TestServer;
  let hiding: TestServer;
  const clients: Client[] = [];
  const tokenFor = (sub: string, scope: string, groups: string[]) => signJwt(rsa.privateKey, { iss: ISS, aud: AUD, sub, claims: { scope, groups } });
  const connect = async (server: TestServer, token: string) => {
    const c = await connectWith(server, bearer(token));
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    rsa = await rsaKeyPair();
    const auth = { enabled: true, jwtToken: { mode: 'localKey', publicKey: rsa.publicPem, issuer: ISS, audience: AUD } };
    plain = await startAuthServer(guardedServer(calls), target, { webServer: { auth } });
    hiding = await startAuthServer(guardedServer(calls), target, { webServer: { auth: { ...auth, hideUnauthorized: true } } });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await plain?.stop();
    await hiding?.stop();
  });
  beforeEach(() => {
    calls.length = 0;
  });

  it('a caller with the scope and the group uses everything, and the handler sees who it is', async () => {
    const alice = await connect(plain, await tokenFor('alice', 'reports:read reports:write', ['MCP-Admins']));
    const scoped = getJsonFromResult(await alice.callTool({ name: 'scoped_tool', arguments: {} }));
    expect(scoped).toEqual({ ran: 'scoped_tool', subject: 'alice', scopes: ['reports:read', 'reports:write'], groups: ['MCP-Admins'] });
    await alice.callTool({ name: 'group_tool', arguments: {} });
    const prompt = await alice.getPrompt({ name: 'scoped_prompt' });
    expect(JSON.stringify(prompt.messages)).toContain('secret prompt');
    const res = await alice.readResource({ uri: 'test://grouped' });
    expect(res.contents[0]).toMatchObject({ text: 'group doc' });
    expect((await alice.readResource({ uri: 'test://reports/7' })).contents[0]).toMatchObject({ text: 'report 7' });
    expect(calls).toEqual(['scoped_tool', 'group_tool', 'scoped_prompt', 'grouped_resource', 'report_template']);
  });

  it('a caller without them is refused with -32001 and nothing runs', async () => {
    const bob = await connect(plain, await tokenFor('bob', 'reports:read', ['mcp-users']));
    const noScope = await expectToolError(bob.callTool({ name: 'scoped_tool', arguments: {} }), MCP_ERROR_CODES.FORBIDDEN);
    expect(noScope.data).toMatchObject({ error: 'insufficient_scope', scope: 'reports:write' });
    const noGroup = await expectToolError(bob.callTool({ name: 'group_tool', arguments: {} }), MCP_ERROR_CODES.FORBIDDEN);
    expect(noGroup.data).toMatchObject({ error: 'forbidden', requiredGroups: ['mcp-admins'] });
    await expectToolError(bob.getPrompt({ name: 'scoped_prompt' }), MCP_ERROR_CODES.FORBIDDEN);
    await expectToolError(bob.readResource({ uri: 'test://grouped' }), MCP_ERROR_CODES.FORBIDDEN);
    await expectToolError(bob.readResource({ uri: 'test://reports/7' }), MCP_ERROR_CODES.FORBIDDEN);
    expect(calls).toEqual([]);
    // what is open stays open
    expect(getJsonFromResult(await bob.callTool({ name: 'open_tool', arguments: {} }))).toMatchObject({ subject: 'bob' });
  });

  it('lists show everything by default, and hide what the caller may not use when hideUnauthorized is on', async () => {
    const bobToken = await tokenFor('bob', '', []);
    const bobPlain = await connect(plain, bobToken);
    expect((await bobPlain.listTools()).tools.map((t) => t.name)).toEqual(['open_tool', 'scoped_tool', 'group_tool']);
    const bob = await connect(hiding, bobToken);
    expect((await bob.listTools()).tools.map((t) => t.name)).toEqual(['open_tool']);
    expect((await bob.listPrompts()).prompts.map((p) => p.name)).toEqual(['open_prompt']);
    expect((await bob.listResources()).resources.map((r) => r.uri)).not.toContain('test://grouped');
    expect((await bob.listResourceTemplates()).resourceTemplates).toEqual([]);
    const alice = await connect(hiding, await tokenFor('alice', 'reports:write', ['mcp-admins']));
    expect((await alice.listTools()).tools.map((t) => t.name)).toEqual(['open_tool', 'scoped_tool', 'group_tool']);
    expect((await alice.listResources()).resources.map((r) => r.uri)).toContain('test://grouped');
    // the requirements themselves are not part of the wire shape
    const listed = (await alice.listTools()).tools.find((t) => t.name === 'scoped_tool') as Record<string, unknown>;
    expect(listed.requiredScopes).toBeUndefined();
  });
});
