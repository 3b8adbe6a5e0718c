/**
 * An enterprise identity provider on loopback for the Enterprise-Managed
 * Authorization tests: a real OpenID provider (oidc-provider, the certified
 * Node.js one) that signs users in with the authorization code flow (PKCE),
 * issues ID tokens, and answers the RFC 8693 token exchange of an ID token for
 * an ID-JAG (a grant type registered on it, as the ID-JAG draft §4.3 and the
 * extension §4 describe) under the admin's policy: which MCP authorization
 * servers, which client id there for each of its own clients, and which
 * scopes each group of users may get. Nothing is mocked: the official client
 * discovers it, exchanges at its token endpoint, and the MCP server fetches
 * its JWKS.
 */
import { createServer, type Server } from 'node:http';
import { createHash, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createLocalJWKSet, exportJWK, jwtVerify, SignJWT, type JWK } from 'jose';
import Provider, { errors, type Configuration, type TokenEndpointGrantContext } from 'oidc-provider';

export const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_JAG_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';
const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';

export interface IdpUser {
  email: string;
  groups: string[];
}

export interface IdpClient {
  /** The client id at the IdP (single sign-on and token exchange). */
  id: string;
  secret: string;
  /** The client id the same application has at the MCP server's authorization server (the IdP stamps it into the ID-JAG). */
  idAtMcpServer: string;
}

export interface IdpPolicy {
  /** The issuer of the MCP server's authorization server: the only audience the IdP issues ID-JAGs for. */
  audience: string;
  /** Scopes each group of users may get there; a user gets the union over its groups, intersected with what was asked. */
  scopesByGroup: Record<string, string[]>;
}

export interface EnterpriseIdp {
  issuer: string;
  jwksUrl: string;
  /** Signs `user` in as a browser would (authorization code flow with PKCE) and returns the ID token the client gets. */
  signIn(user: string, client: IdpClient): Promise<string>;
  /** An ID-JAG signed with the IdP's key as it stands, with `claims` over those of a normal one (what the IdP would have issued another time). */
  sign(claims: Record<string, unknown>, header?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/** The scopes `groups` may get under `policy`, among `asked` (all of them when nothing was asked). */
function grantedScopes(policy: IdpPolicy, groups: string[], asked: string[] | undefined): string[] {
  const allowed = new Set(groups.flatMap((g) => policy.scopesByGroup[g] ?? []));
  return asked ? asked.filter((s) => allowed.has(s)) : [...allowed];
}

export async function startEnterpriseIdp(options: { users: Record<string, IdpUser>; clients: IdpClient[]; policy: IdpPolicy }): Promise<EnterpriseIdp> {
  const { users, clients, policy } = options;
  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const redirectUri = `${issuer}/signed-in`; // the client's callback: the sign-in below reads the code off the redirect
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'idp-key-1';
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const signingJwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  const ownKeys = createLocalJWKSet({ keys: [publicJwk] });

  const sign = (claims: Record<string, unknown>, header: Record<string, unknown> = {}) => {
    const now = Math.floor(Date.now() / 1000);
    const payload = Object.fromEntries(Object.entries({ iss: issuer, jti: randomUUID(), iat: now, exp: now + 300, ...claims }).filter(([, v]) => v !== undefined));
    return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid, typ: 'oauth-id-jag+jwt', ...header }).sign(privateKey);
  };

  const configuration: Configuration = {
    jwks: { keys: [signingJwk as never] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    clients: clients.map((c) => ({
      client_id: c.id,
      client_secret: c.secret,
      redirect_uris: [redirectUri],
      response_types: ['code'],
      grant_types: ['authorization_code', TOKEN_EXCHANGE],
      token_endpoint_auth_method: 'client_secret_post',
    })),
    claims: { openid: ['sub'], email: ['email'], groups: ['groups'] },
    scopes: ['openid', 'email', 'groups'],
    features: { devInteractions: { enabled: false } },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => (users[sub] ? { accountId: sub, claims: () => ({ sub, email: users[sub]?.email, groups: users[sub]?.groups }) } : undefined),
    // The enterprise's own applications: signed-in users are not asked to consent.
    loadExistingGrant: async (ctx) => {
      const accountId = ctx.oidc.session?.accountId;
      const clientId = ctx.oidc.client?.clientId;
      if (!accountId || !clientId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId });
      grant.addOIDCScope('openid email groups');
      await grant.save();
      return grant;
    },
  };
  const provider = new Provider(issuer, configuration);

  // RFC 8693: an ID token of this IdP, issued to the authenticated client, for an ID-JAG naming the MCP server.
  provider.registerGrantType(
    TOKEN_EXCHANGE,
    async (ctx: TokenEndpointGrantContext<Record<string, string | undefined>>) => {
      const { params, client } = ctx.oidc;
      if (params.requested_token_type !== ID_JAG_TOKEN_TYPE) throw new errors.InvalidRequest('requested_token_type must be the ID-JAG token type');
      if (params.subject_token_type !== ID_TOKEN_TYPE || !params.subject_token) throw new errors.InvalidRequest('subject_token must be an ID token');
      let sub: string;
      try {
        // The subject token must have been issued to the client asking (the extension §4.1).
        const { payload } = await jwtVerify(params.subject_token, ownKeys, { issuer, audience: client.clientId });
        sub = String(payload.sub);
      } catch {
        throw new errors.InvalidGrant('subject_token is not a valid ID token of this client');
      }
      if (params.audience !== policy.audience) throw new errors.InvalidGrant('Audience validation failed');
      const user = users[sub];
      const app = clients.find((c) => c.id === client.clientId);
      if (!user || !app) throw new errors.InvalidGrant('no policy for this user and client');
      const asked = params.scope ? params.scope.split(' ').filter(Boolean) : undefined;
      const scopes = grantedScopes(policy, user.groups, asked);
      const idJag = await sign({
        sub,
        aud: params.audience,
        client_id: app.idAtMcpServer,
        ...(params.resource ? { resource: params.resource } : {}),
        ...(scopes.length ? { scope: scopes.join(' ') } : {}),
        email: user.email,
        groups: user.groups,
      });
      ctx.body = { issued_token_type: ID_JAG_TOKEN_TYPE, access_token: idJag, token_type: 'N_A', expires_in: 300, ...(scopes.length ? { scope: scopes.join(' ') } : {}) };
    },
    ['subject_token', 'subject_token_type', 'requested_token_type', 'audience', 'resource', 'actor_token', 'actor_token_type'],
    ['audience', 'resource'],
  );

  // The login page: the user of the next sign-in authenticates (the enterprise's MFA and the like are the IdP's business).
  let signingIn: string | undefined;
  const oidc = provider.callback();
  http.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return void oidc(req, res);
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name !== 'login' || !signingIn) throw new Error(`unexpected prompt ${details.prompt.name}`);
      await provider.interactionFinished(req, res, { login: { accountId: signingIn } }, { mergeWithLastSubmission: false });
    })().catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });

  async function signIn(user: string, client: IdpClient): Promise<string> {
    signingIn = user;
    const cookies = new Map<string, string>();
    const browse = async (url: string): Promise<string> => {
      const res = await fetch(url, { redirect: 'manual', headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const eq = (pair ?? '').indexOf('=');
        if (eq > 0) cookies.set((pair as string).slice(0, eq), (pair as string).slice(eq + 1));
      }
      await res.arrayBuffer();
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) throw new Error(`sign-in stopped at ${url}: ${res.status}`);
      return new URL(location, url).toString();
    };
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorize = new URL('/auth', issuer);
    for (const [k, v] of Object.entries({ client_id: client.id, response_type: 'code', scope: 'openid email groups', redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256', state: randomUUID(), nonce: randomUUID() })) {
      authorize.searchParams.set(k, v);
    }
    let at = authorize.toString();
    for (let hop = 0; hop < 10 && !at.startsWith(redirectUri); hop++) at = await browse(at);
    const code = new URL(at).searchParams.get('code');
    if (!code) throw new Error(`no authorization code: ${at}`);
    const token = await fetch(new URL('/token', issuer), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier, client_id: client.id, client_secret: client.secret }),
    });
    const body = (await token.json()) as { id_token?: string; error?: string };
    if (!body.id_token) throw new Error(`no ID token: ${JSON.stringify(body)}`);
    return body.id_token;
  }

  return {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    signIn,
    sign,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
