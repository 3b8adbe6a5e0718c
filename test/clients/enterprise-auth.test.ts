/**
 * Enterprise-Managed Authorization end to end, with real parts only: an
 * enterprise IdP on loopback (oidc-provider: sign-in with the authorization
 * code flow, then the RFC 8693 exchange of the ID token for an ID-JAG), two
 * examples/demo instances configured by this test for embedded auth with the
 * IdP trusted (its default `npm start` stays unauthenticated) sharing
 * PostgreSQL, and the official client's CrossAppAccessProvider doing the whole
 * chain from a bare 401 to a call of the demo's scoped tool. Then each attack,
 * presented with the official client's exchangeJwtAuthGrant, is refused.
 * Needs PostgreSQL: in CI its absence fails; elsewhere the file skips.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, CrossAppAccessProvider, discoverAndRequestJwtAuthGrant, exchangeJwtAuthGrant, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { McpServerHandle } from 'fa-mcp-sdk';
import { createDemoServer } from '../../examples/demo/src/server.js';
import { serviceAvailable } from '../../scripts/test-kit/ci-checks.mjs';
import { assertSdkBuildIsCurrent } from '../../scripts/test-kit/sdk-build.mjs';
import { LOCAL_PG_URL, freePort, pgAnswers } from '../../scripts/cluster/cluster.mjs';
import { startEnterpriseIdp, type EnterpriseIdp, type IdpClient } from './src/enterprise-idp.js';

const PG_URL = process.env.FA_MCP_TEST_PG_URL ?? LOCAL_PG_URL;
const ready = serviceAvailable(await pgAnswers(PG_URL), `PostgreSQL at ${new URL(PG_URL).host}`, 'run scripts/ci/start-postgres.sh, or set FA_MCP_TEST_PG_URL');

type PgClient = { connect(): Promise<void>; query(sql: string): Promise<{ rows: Array<Record<string, unknown>> }>; end(): Promise<void> };
const pg = createRequire(join(import.meta.dirname, '..', '..', 'packages', 'fa-mcp-sdk', 'package.json'))('pg') as { Client: new (o: { connectionString: string }) => PgClient };
async function sql(url: string, text: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

const WIKI: IdpClient = { id: 'wiki', secret: 'wiki-at-idp-secret-0123456789abcdef', idAtMcpServer: 'wiki-app' };
const CHAT: IdpClient = { id: 'chat', secret: 'chat-at-idp-secret-0123456789abcdef', idAtMcpServer: 'chat-app' };
const WIKI_AT_DEMO = { clientId: 'wiki-app', clientSecret: 'wiki-at-demo-secret-0123456789abcd' };
const CHAT_AT_DEMO = { clientId: 'chat-app', clientSecret: 'chat-at-demo-secret-0123456789abcd' };

describe.runIf(ready)('Enterprise-Managed Authorization: IdP → ID-JAG → examples/demo, with the official client', () => {
  let idp: EnterpriseIdp;
  let demoA: McpServerHandle;
  let demoB: McpServerHandle;
  let issuer: string;
  let schema = '';
  /** Every ID-JAG the client obtained from the IdP, in order. */
  const obtained: string[] = [];

  beforeAll(async () => {
    assertSdkBuildIsCurrent();
    schema = `ema_${randomBytes(4).toString('hex')}`;
    await sql(PG_URL, `CREATE SCHEMA "${schema}"`);
    const dbUrl = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    idp = await startEnterpriseIdp({
      users: { alice: { email: 'alice@corp.example', groups: ['engineering'] }, bob: { email: 'bob@corp.example', groups: ['demo:whoami', 'marketing'] } },
      clients: [WIKI, CHAT],
      policy: { audience: issuer, scopesByGroup: { engineering: ['demo:whoami'] } },
    });
    // One server behind one issuer and key, two instances sharing PostgreSQL (the store of mcp.rateLimit keeps each jti).
    const privateKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const config = (listen: number) => ({
      webServer: {
        host: '127.0.0.1',
        port: listen,
        auth: {
          enabled: true,
          jwtToken: { mode: 'embedded', issuer, privateKey },
          oauth: {
            scopesSupported: ['demo:whoami'],
            clients: [
              { ...WIKI_AT_DEMO, scopes: ['demo:whoami'] },
              { ...CHAT_AT_DEMO, scopes: ['demo:whoami'] },
            ],
            trustedIdps: [{ issuer: idp.issuer, jwksUrl: idp.jwksUrl, algorithms: ['RS256'], clientIds: ['wiki-app', 'chat-app'] }],
          },
        },
      },
      mcp: { rateLimit: { store: 'postgres' } },
      db: { postgres: { dbs: { main: { url: dbUrl, poolSize: 2 } } } },
      logger: { level: 'silent' },
    });
    demoA = await createDemoServer({ handleSignals: false, env: {}, config: config(port) });
    demoB = await createDemoServer({ handleSignals: false, env: {}, config: config(0) });
  }, 60_000);

  afterAll(async () => {
    await demoA?.stop('test done');
    await demoB?.stop('test done');
    await idp?.close();
    if (schema) await sql(PG_URL, `DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  });

  /** The official client for `user` signed in to the IdP through `app`, acting at the demo as `demoClient`. */
  async function connectAs(user: string, app: IdpClient, demoClient: { clientId: string; clientSecret: string }) {
    const idToken = await idp.signIn(user, app);
    const authProvider = new CrossAppAccessProvider({
      assertion: async (ctx) => {
        const grant = await discoverAndRequestJwtAuthGrant({
          idpUrl: idp.issuer,
          audience: ctx.authorizationServerUrl,
          resource: ctx.resourceUrl,
          idToken,
          clientId: app.id,
          clientSecret: app.secret,
          ...(ctx.scope ? { scope: ctx.scope } : {}),
          fetchFn: ctx.fetchFn,
        });
        obtained.push(grant.jwtAuthGrant);
        return grant.jwtAuthGrant;
      },
      ...demoClient,
      expectedIssuer: issuer,
    });
    const client = new Client({ name: `${app.id}-for-${user}`, version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(demoA.url as string), { authProvider }));
    return client;
  }

  it('the demo announces the extension, the grant and the profile', async () => {
    const as = (await (await fetch(new URL('/.well-known/oauth-authorization-server', issuer))).json()) as Record<string, unknown>;
    expect(as.grant_types_supported).toContain('urn:ietf:params:oauth:grant-type:jwt-bearer');
    expect(as.authorization_grant_profiles_supported).toEqual(['urn:ietf:params:oauth:grant-profile:id-jag']);
    const prm = (await (await fetch(new URL('/.well-known/oauth-protected-resource/mcp', issuer))).json()) as Record<string, unknown>;
    expect(prm).toMatchObject({ resource: `${issuer}/mcp`, authorization_servers: [issuer] });
  });

  it('signs alice in once, exchanges her ID token for an ID-JAG and that for a token, and calls the scoped tool', async () => {
    const client = await connectAs('alice', WIKI, WIKI_AT_DEMO);
    expect(client.getServerCapabilities()?.extensions).toHaveProperty(['io.modelcontextprotocol/enterprise-managed-authorization']);
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      subject: 'alice',
      email: 'alice@corp.example',
      client: 'wiki-app',
      identityProvider: idp.issuer,
      scopes: ['demo:whoami'],
      groups: ['engineering'],
    });
    await client.close();
    expect(obtained).toHaveLength(1);
  });

  it('a group the IdP passes along grants no scope: bob, in a group named like the scope, is refused the scoped tool', async () => {
    const client = await connectAs('bob', WIKI, WIKI_AT_DEMO);
    await expect(client.callTool({ name: 'whoami', arguments: {} })).rejects.toMatchObject({ code: -32001, message: expect.stringContaining('demo:whoami') });
    const open = await client.callTool({ name: 'get_time', arguments: { timeZone: 'UTC' } });
    expect(open.isError).toBeFalsy();
    await client.close();
  });

  /** Presents `assertion` as the official client does (client_secret_basic), to instance `at`. */
  const present = (assertion: string, at: McpServerHandle = demoA, as = WIKI_AT_DEMO) =>
    exchangeJwtAuthGrant({ tokenEndpoint: new URL('/oauth/token', at.url as string), jwtAuthGrant: assertion, ...as }).then(
      () => 'accepted',
      (err: unknown) => (err as Error).message,
    );
  const now = () => Math.floor(Date.now() / 1000);
  const normal = (claims: Record<string, unknown> = {}) => idp.sign({ sub: 'alice', aud: issuer, client_id: 'wiki-app', resource: `${issuer}/mcp`, scope: 'demo:whoami', ...claims });

  it('the same ID-JAG is not taken twice: not by the instance that took it, not by the other one', async () => {
    const used = obtained[0] as string;
    expect(await present(used)).toMatch(/invalid_grant - The ID-JAG has been used already \(jti\)/);
    expect(await present(used, demoB)).toMatch(/invalid_grant - The ID-JAG has been used already \(jti\)/);
    // a fresh one is taken by instance B once, and then by neither
    const fresh = await normal();
    expect(await present(fresh, demoB)).toBe('accepted');
    expect(await present(fresh, demoA)).toMatch(/used already/);
  });

  it('refuses each attack with the OAuth error naming the check', async () => {
    const rogue = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const { SignJWT } = await import('jose');
    const signedByRogue = (claims: Record<string, unknown>) =>
      new SignJWT({ sub: 'alice', aud: issuer, client_id: 'wiki-app', resource: `${issuer}/mcp`, jti: randomBytes(8).toString('hex'), iat: now(), exp: now() + 300, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: 'idp-key-1', typ: 'oauth-id-jag+jwt' })
        .sign(rogue);
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    // chat's ID-JAG, from the real exchange at the IdP
    const chatIdToken = await idp.signIn('alice', CHAT);
    const chatGrant = await discoverAndRequestJwtAuthGrant({ idpUrl: idp.issuer, audience: issuer, resource: `${issuer}/mcp`, idToken: chatIdToken, clientId: CHAT.id, clientSecret: CHAT.secret });

    const attacks: Array<[string, string, RegExp]> = [
      ["another IdP's key", await signedByRogue({ iss: idp.issuer }), /invalid_grant - The ID-JAG signature does not verify/],
      ['an untrusted issuer', await signedByRogue({ iss: 'https://rogue-idp.example' }), /invalid_grant - The ID-JAG issuer is not a trusted identity provider/],
      ['a wrong audience', await normal({ aud: 'https://another-as.example' }), /invalid_grant - The ID-JAG audience is not this authorization server/],
      ['a wrong resource', await normal({ resource: 'https://another-mcp.example/mcp' }), /invalid_grant - The ID-JAG resource is not this MCP server/],
      ["another client's ID-JAG", chatGrant.jwtAuthGrant, /invalid_grant - The ID-JAG was issued for another client/],
      ['an expired one', await normal({ iat: now() - 600, exp: now() - 300 }), /invalid_grant - The ID-JAG has expired/],
      ['alg: none', `${b64({ alg: 'none', typ: 'oauth-id-jag+jwt' })}.${b64({ iss: idp.issuer, sub: 'alice', aud: issuer, client_id: 'wiki-app', jti: 'x1', iat: now(), exp: now() + 300 })}.`, /invalid_grant - The ID-JAG is unsigned/],
    ];
    for (const [name, assertion, refusal] of attacks) expect(await present(assertion), name).toMatch(refusal);
    // chat's grant is still good for chat: a refusal for another check does not use it up
    expect(await present(chatGrant.jwtAuthGrant, demoA, CHAT_AT_DEMO)).toBe('accepted');
    const kept = await sql(PG_URL, `SELECT count(*)::int AS n FROM "${schema}".fa_mcp_used_assertions`);
    expect(kept[0]?.n).toBe(obtained.length + 2);
  });
});
