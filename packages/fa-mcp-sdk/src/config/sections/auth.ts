/**
 * The authentication keys of the `webServer` section: `webServer.auth` (schemes,
 * JWT modes, OAuth clients, groups, revocation) and `webServer.tokenCheck`.
 * The logic that reads them lives in `src/auth/`.
 */
import type { SchemaNode } from '../schema-node.js';

const strings = (description: string, env: string[], secret = false): SchemaNode => ({
  type: 'array',
  items: { type: 'string' },
  default: [],
  description,
  'x-env': env,
  ...(secret ? { 'x-secret': true } : {}),
});

const text = (description: string, env: string[], def = '', secret = false): SchemaNode => ({
  type: 'string',
  default: def,
  description,
  'x-env': env,
  ...(secret ? { 'x-secret': true } : {}),
});

const jwtTokenNode: SchemaNode = {
  type: 'object',
  description: 'JWT authentication: one of four modes.',
  additionalProperties: false,
  properties: {
    mode: {
      type: 'string',
      enum: ['none', 'legacyAesCtr', 'embedded', 'localKey', 'remoteJwks'],
      default: 'none',
      description:
        'none; legacyAesCtr (shared-secret tokens of older deployments); embedded (the server holds a key pair, issues tokens, publishes its JWKS); localKey (verify with publicKey); remoteJwks (verify against jwksUrl).',
      'x-env': ['AUTH_JWT_MODE'],
    },
    encryptKey: text('legacyAesCtr: the shared secret (at least 16 characters).', ['AUTH_JWT_ENCRYPT_KEY'], '', true),
    legacyAcceptUnsigned: {
      type: 'boolean',
      default: false,
      description: 'legacyAesCtr: also accept tokens minted without the integrity tag (older deployments; AES-CTR alone does not detect tampering).',
      'x-env': ['AUTH_JWT_LEGACY_ACCEPT_UNSIGNED'],
    },
    issuer: text('Expected `iss`; in embedded mode the issuer of minted tokens and of the OAuth metadata (required there and for remoteJwks).', ['AUTH_JWT_ISSUER']),
    audience: text('Expected `aud` (embedded mode: minted `aud`; defaults to the issuer). Required for remoteJwks.', ['AUTH_JWT_AUDIENCE']),
    algorithms: strings('Accepted signature algorithms; empty: derived from the key (embedded, localKey) or RS256 and ES256 (remoteJwks). `none` and HS* are refused.', [
      'AUTH_JWT_ALGORITHMS',
    ]),
    clockToleranceSec: {
      type: 'integer',
      minimum: 0,
      maximum: 300,
      default: 30,
      description: 'Clock skew accepted on exp, nbf and iat, in seconds.',
      'x-env': ['AUTH_JWT_CLOCK_TOLERANCE_SEC'],
    },
    verifyCacheMs: {
      type: 'integer',
      minimum: 0,
      maximum: 300_000,
      default: 30_000,
      description:
        'How long a verified token is taken as verified again without checking its signature, in ms (never past its `exp`; revocation is still checked on every request). A removed signing key stays accepted this long. 0 verifies every request.',
      'x-env': ['AUTH_JWT_VERIFY_CACHE_MS'],
    },
    publicKey: text('localKey: the verification key, PEM (SPKI) or a JWK as JSON.', ['AUTH_JWT_PUBLIC_KEY']),
    privateKey: text('embedded: the signing key, PEM (PKCS#8); empty generates a key pair at start (tokens then die with the process).', ['AUTH_JWT_PRIVATE_KEY'], '', true),
    jwksUrl: text('remoteJwks: the issuer JWKS URL.', ['AUTH_JWT_JWKS_URL']),
    jwksCooldownMs: {
      type: 'integer',
      minimum: 0,
      default: 30_000,
      description: 'remoteJwks and oauth.trustedIdps: minimum time between two JWKS fetches triggered by an unknown key id, in ms.',
      'x-env': ['AUTH_JWT_JWKS_COOLDOWN_MS'],
    },
    jwksCacheMaxAgeMs: {
      type: 'integer',
      minimum: 1000,
      default: 600_000,
      description: 'remoteJwks and oauth.trustedIdps: how long a fetched JWKS is used before it is fetched again, in ms.',
      'x-env': ['AUTH_JWT_JWKS_CACHE_MAX_AGE_MS'],
    },
    jwksTimeoutMs: {
      type: 'integer',
      minimum: 100,
      default: 5000,
      description: 'remoteJwks and oauth.trustedIdps: time limit of one JWKS fetch, in ms.',
      'x-env': ['AUTH_JWT_JWKS_TIMEOUT_MS'],
    },
    subjectClaim: text('Claim naming the caller (legacyAesCtr tokens use `user`).', ['AUTH_JWT_SUBJECT_CLAIM'], 'sub'),
    scopeClaim: text('Claim holding scopes: a space-separated string or an array (`scp` is read too).', ['AUTH_JWT_SCOPE_CLAIM'], 'scope'),
    groupsClaim: text('Claim holding group names.', ['AUTH_JWT_GROUPS_CLAIM'], 'groups'),
    maxTtlSec: {
      type: 'integer',
      minimum: 60,
      default: 3600,
      description: 'Longest lifetime of a token minted by POST /oauth/token, in seconds.',
      'x-env': ['AUTH_JWT_MAX_TTL_SEC'],
    },
  },
};

const oauthNode: SchemaNode = {
  type: 'object',
  description: 'OAuth surface of the embedded mode: clients of POST /oauth/token and the enterprise identity providers it trusts.',
  additionalProperties: false,
  properties: {
    clients: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['clientId', 'clientSecret'],
        properties: {
          clientId: { type: 'string', minLength: 1 },
          clientSecret: { type: 'string', minLength: 1 },
          scopes: { type: 'array', items: { type: 'string' } },
          groups: { type: 'array', items: { type: 'string' } },
          maxTtlSec: { type: 'integer', minimum: 60 },
        },
      },
      default: [],
      description:
        'Clients of POST /oauth/token (client_credentials, and ID-JAGs of oauth.trustedIdps): `{ clientId, clientSecret, scopes, groups?, maxTtlSec? }`; scopes are the most a token for the client may carry; env value is a JSON array.',
      'x-env': ['AUTH_OAUTH_CLIENTS'],
      'x-secret': true,
    },
    scopesSupported: strings('Scopes advertised in the OAuth metadata documents.', ['AUTH_OAUTH_SCOPES_SUPPORTED']),
    trustedIdps: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['issuer', 'jwksUrl', 'clientIds'],
        properties: {
          issuer: { type: 'string', minLength: 1 },
          jwksUrl: { type: 'string', minLength: 1 },
          algorithms: { type: 'array', items: { type: 'string' } },
          clientIds: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1 },
          claims: {
            type: 'object',
            additionalProperties: false,
            properties: {
              subject: { type: 'string', minLength: 1 },
              email: { type: 'string', minLength: 1 },
              groups: { type: 'string', minLength: 1 },
            },
          },
        },
      },
      default: [],
      description:
        'Enterprise identity providers whose Identity Assertion JWT Authorization Grants (ID-JAG, grant_type urn:ietf:params:oauth:grant-type:jwt-bearer) POST /oauth/token accepts (embedded mode): `{ issuer, jwksUrl, algorithms?, clientIds, claims?: { subject?, email?, groups? } }`; clientIds are oauth.clients the IdP may act for; claims names the ID-JAG claims of the subject (default sub), e-mail (email) and groups (groups); env value is a JSON array.',
      'x-env': ['AUTH_OAUTH_TRUSTED_IDPS'],
    },
    idJagMaxLifetimeSec: {
      type: 'integer',
      minimum: 30,
      maximum: 86_400,
      default: 600,
      description: 'Longest lifetime (exp - iat) and age an ID-JAG may have, in seconds; a longer-lived or older one is refused.',
      'x-env': ['AUTH_OAUTH_ID_JAG_MAX_LIFETIME_SEC'],
    },
  },
};

const mintEndpointNode: SchemaNode = {
  type: 'object',
  description: 'HTTP endpoint for operators to mint tokens (off by default; itself protected).',
  additionalProperties: false,
  properties: {
    enabled: { type: 'boolean', default: false, description: 'Serve POST <path>.', 'x-env': ['AUTH_MINT_ENDPOINT_ENABLED'] },
    path: text('Path of the endpoint.', ['AUTH_MINT_ENDPOINT_PATH'], '/admin/token'),
    requiredScopes: {
      type: 'array',
      items: { type: 'string' },
      default: ['tokens:issue'],
      description: 'Scopes the caller must hold (all of them).',
      'x-env': ['AUTH_MINT_ENDPOINT_REQUIRED_SCOPES'],
    },
    requiredGroups: strings('Groups of which the caller must be in at least one (empty: no group check).', ['AUTH_MINT_ENDPOINT_REQUIRED_GROUPS']),
    allowedScopes: strings('Scopes a minted token may carry; empty: none.', ['AUTH_MINT_ENDPOINT_ALLOWED_SCOPES']),
    maxTtlSec: {
      type: 'integer',
      minimum: 60,
      default: 86_400,
      description: 'Longest lifetime of a minted token, in seconds.',
      'x-env': ['AUTH_MINT_ENDPOINT_MAX_TTL_SEC'],
    },
  },
};

const ldapNode: SchemaNode = {
  type: 'object',
  description: 'Group lookup in Active Directory or LDAP (off while url is empty).',
  additionalProperties: false,
  properties: {
    url: text('LDAP URL, e.g. ldaps://dc1.corp.example:636.', ['AUTH_LDAP_URL']),
    bindDn: text('DN (or user@domain) of the service account used for lookups.', ['AUTH_LDAP_BIND_DN']),
    bindPassword: text('Password of the service account.', ['AUTH_LDAP_BIND_PASSWORD'], '', true),
    baseDn: text('Where users (and groups) are searched.', ['AUTH_LDAP_BASE_DN']),
    userFilter: text('Filter finding the caller; {user} is replaced by the escaped subject.', ['AUTH_LDAP_USER_FILTER'], '(sAMAccountName={user})'),
    groupFilter: text(
      'When set, groups are searched with this filter ({dn}: the user DN), e.g. (&(objectClass=groupOfNames)(member={dn})); otherwise the user memberOf attribute is read.',
      ['AUTH_LDAP_GROUP_FILTER'],
    ),
    groupNameAttribute: text('Attribute naming a group found by groupFilter.', ['AUTH_LDAP_GROUP_NAME_ATTRIBUTE'], 'cn'),
    cacheTtlMs: {
      type: 'integer',
      minimum: 0,
      default: 600_000,
      description: 'How long the groups of one subject are cached, in ms (0: no cache).',
      'x-env': ['AUTH_LDAP_CACHE_TTL_MS'],
    },
    timeoutMs: {
      type: 'integer',
      minimum: 100,
      default: 5000,
      description: 'Time limit of one LDAP lookup, in ms.',
      'x-env': ['AUTH_LDAP_TIMEOUT_MS'],
    },
  },
};

const int = (description: string, env: string, def: number, minimum: number, maximum?: number): SchemaNode => ({
  type: 'integer',
  minimum,
  ...(maximum !== undefined ? { maximum } : {}),
  default: def,
  description,
  'x-env': [env],
});

const failureThrottleNode: SchemaNode = {
  type: 'object',
  description:
    'Throttling of failed authentication (wrong passwords, bad tokens, unknown OAuth clients) on the store of mcp.rateLimit (memory or PostgreSQL, shared by instances): an address, or a user name from one address, over its budget is refused (429 with Retry-After until the block ends); a user name over its budget from all addresses together is only slowed (delayMs), so a guesser cannot lock its owner out. Successful logins do not count.',
  additionalProperties: false,
  properties: {
    enabled: { type: 'boolean', default: true, description: 'Throttle failed authentication.', 'x-env': ['AUTH_FAILURE_THROTTLE_ENABLED'] },
    perAddress: int('Failures one client address may have per window, whatever the user name; the next one is answered 429 and the address blocked.', 'AUTH_FAILURE_THROTTLE_PER_ADDRESS', 30, 1),
    perUserAddress: int(
      'Failures one user name (Basic user, OAuth client id, the subject of an expired or revoked token) may have from one client address per window; the next one is answered 429 and that address blocked for that name (the owner elsewhere is not).',
      'AUTH_FAILURE_THROTTLE_PER_USER_ADDRESS',
      10,
      1,
    ),
    perUser: int(
      'Failures one user name may have per window from all addresses together; past it every attempt naming it, right or wrong, waits delayMs before it is answered (slowed, never refused).',
      'AUTH_FAILURE_THROTTLE_PER_USER',
      20,
      1,
    ),
    windowSec: int('Length of the counting window, in seconds.', 'AUTH_FAILURE_THROTTLE_WINDOW_SEC', 60, 1),
    blockSec: int(
      'How long an address, or a user name from one address, over its budget is refused (429), in seconds; only a verified signed token (a JWT mode) is still accepted, as it cannot be guessed.',
      'AUTH_FAILURE_THROTTLE_BLOCK_SEC',
      300,
      1,
    ),
    delayMs: int('How long the answer to credentials naming a user name over perUser waits, right or wrong, in ms (0: not slowed).', 'AUTH_FAILURE_THROTTLE_DELAY_MS', 2000, 0, 10_000),
    maxDelayed: int(
      'Requests that may wait out delayMs at once in this process; one more (naming a user name over perUser) is answered 429 at once, right or wrong, so waiting requests cannot pile up.',
      'AUTH_FAILURE_THROTTLE_MAX_DELAYED',
      100,
      1,
      10_000,
    ),
  },
};

export const authNode: SchemaNode = {
  type: 'object',
  description: 'Authentication and access control of the HTTP endpoints.',
  additionalProperties: false,
  properties: {
    enabled: {
      type: 'boolean',
      default: false,
      description: 'Require authentication on /mcp, /sse and /messages.',
      'x-env': ['WEB_SERVER_AUTH_ENABLED', 'AUTH_ENABLED'],
    },
    realm: text('Realm of WWW-Authenticate challenges; empty: the server name.', ['AUTH_REALM']),
    publicUrl: text(
      'Public base URL of this server (e.g. https://mcp.example.com) for OAuth metadata; empty: the address the server listens on (never the Host header).',
      ['AUTH_PUBLIC_URL'],
    ),
    hideUnauthorized: {
      type: 'boolean',
      default: false,
      description: 'Leave out of tools/list, prompts/list and resources/list what the caller may not use.',
      'x-env': ['AUTH_HIDE_UNAUTHORIZED'],
    },
    requiredScopes: strings('Scopes every caller of the MCP endpoints must hold (all of them).', ['AUTH_REQUIRED_SCOPES']),
    requiredGroups: strings('Groups of which every caller of the MCP endpoints must be in at least one.', ['AUTH_REQUIRED_GROUPS']),
    permanentServerTokens: strings('Static server tokens (Bearer); in production each must be 32+ characters and not a sample.', ['AUTH_PERMANENT_SERVER_TOKENS'], true),
    serverTokenScopes: strings('Scopes granted to a caller presenting a permanent server token.', ['AUTH_SERVER_TOKEN_SCOPES']),
    basic: {
      type: 'object',
      description: 'HTTP Basic authentication (off while username is empty).',
      additionalProperties: false,
      properties: {
        username: text('User name.', ['AUTH_BASIC_USERNAME']),
        password: text('Password (may contain ":").', ['AUTH_BASIC_PASSWORD'], '', true),
        scopes: strings('Scopes granted to this user.', ['AUTH_BASIC_SCOPES']),
        groups: strings('Groups of this user (LDAP groups are added when configured).', ['AUTH_BASIC_GROUPS']),
      },
    },
    jwtToken: jwtTokenNode,
    oauth: oauthNode,
    mintEndpoint: mintEndpointNode,
    revoked: {
      type: 'object',
      description: 'Refused callers, whatever their credentials say.',
      additionalProperties: false,
      properties: {
        subjects: strings('Revoked subjects (user names, client ids).', ['AUTH_REVOKED_SUBJECTS']),
        tokenIds: strings('Revoked tokens: their `jti`, or the SHA-256 hex of the whole token (printed by `fa-mcp token`).', ['AUTH_REVOKED_TOKEN_IDS']),
      },
    },
    ldap: ldapNode,
    failureThrottle: failureThrottleNode,
    stdioToken: text('stdio only: a token verified at start whose identity every stdio request carries; empty: stdio is trusted as the local user.', ['MCP_AUTH_TOKEN'], '', true),
  },
};

export const tokenCheckNode: SchemaNode = {
  type: 'object',
  description: 'Where a bearer token may come from.',
  additionalProperties: false,
  properties: {
    allowQueryToken: {
      type: 'boolean',
      default: false,
      description: 'Also accept a token in the query string (?token= or ?access_token=); it ends up in access logs, so it is off by default.',
      'x-env': ['WEB_SERVER_ALLOW_QUERY_TOKEN'],
    },
  },
};
