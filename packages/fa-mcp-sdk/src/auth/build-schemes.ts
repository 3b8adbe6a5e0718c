/**
 * Builds the verifiers of the configured schemes (cheapest first: permanent
 * server tokens, the JWT mode, Basic) and the signer of the embedded mode,
 * refusing configurations that are unsafe: missing issuer or audience where
 * they are required, symmetric or `none` algorithms, and, in production, weak
 * or sample secrets and an embedded key that would die with the process.
 */
import type { AuthConfig } from '../config/sections/auth-config.js';
import { basicVerifier } from './basic.js';
import { legacyAesCtrVerifier } from './jwt-legacy-aes-ctr.js';
import { allowedAlgorithms, generateSigningKey, importPrivateKey, importPublicKey } from './jwt-keys.js';
import type { JwtSigner } from './jwt-signer.js';
import { acceptsIdJag, resourceIdentifiers } from './oauth-paths.js';
import { staticTokenVerifier, weakSecretReason } from './static-tokens.js';
import { buildTrustedIdps, trustedIdpIssues, type TrustedIdp } from './trusted-idps.js';
import type { Verifier } from './types.js';

export interface Schemes {
  verifiers: Verifier[];
  /** The embedded mode's signer (mints tokens, publishes the JWKS). */
  signer?: JwtSigner;
  /** The audience tokens of this server carry or must carry. */
  audience?: string;
  /** The identity providers whose ID-JAGs /oauth/token takes (`oauth.trustedIdps`, embedded mode). */
  trustedIdps?: TrustedIdp[];
  warnings: string[];
}

// jose is loaded only when a signed JWT mode is on: it costs start-up time.
const loadJwtVerifier = async () => (await import('./jwt-verifier.js')).jwtVerifier;

export class AuthConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid authentication configuration:\n${issues.map((i) => `  - webServer.auth.${i}`).join('\n')}`);
    this.name = 'AuthConfigError';
  }
}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Why a JWKS URL is refused: the keys must come over https; plain http only from this machine, and never in production. */
export function jwksUrlIssue(text: string, production: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'not a URL';
  }
  if (url.protocol === 'https:') return undefined;
  const got = `got ${url.protocol}//${url.host}`;
  if (url.protocol !== 'http:') return `must use https (${got})`;
  if (production) return `must use https in production (${got})`;
  if (!LOOPBACK_HOST.test(url.hostname)) return `must use https; http is allowed only on loopback (localhost, 127.0.0.0/8, [::1]) outside production (${got})`;
  return undefined;
}

export async function buildSchemes(auth: AuthConfig, production: boolean): Promise<Schemes> {
  const issues: string[] = [];
  const warnings: string[] = [];
  const verifiers: Verifier[] = [];
  const weak = (path: string, secret: string, min?: number) => {
    const reason = weakSecretReason(secret, min);
    if (!reason) return;
    if (production) issues.push(`${path}: ${reason} (refused in production)`);
    else warnings.push(`webServer.auth.${path}: ${reason}; the server will refuse it in production`);
  };

  const tokens = auth.permanentServerTokens.filter((t) => t !== '');
  tokens.forEach((t, i) => weak(`permanentServerTokens[${i}]`, t));
  if (tokens.length > 0) verifiers.push(staticTokenVerifier(tokens, auth.serverTokenScopes));

  const jwt = auth.jwtToken;
  const claimNames = { subjectClaim: jwt.subjectClaim, scopeClaim: jwt.scopeClaim, groupsClaim: jwt.groupsClaim };
  const common = { clockToleranceSec: jwt.clockToleranceSec, verifyCacheMs: jwt.verifyCacheMs, claimNames };
  let signer: JwtSigner | undefined;
  let audience: string | undefined;
  try {
    switch (jwt.mode) {
      case 'legacyAesCtr':
        weak('jwtToken.encryptKey', jwt.encryptKey);
        verifiers.push(legacyAesCtrVerifier({ secret: jwt.encryptKey, acceptUnsigned: jwt.legacyAcceptUnsigned, ...common }));
        break;
      case 'embedded': {
        if (!jwt.issuer) issues.push('jwtToken.issuer: required in embedded mode (the issuer comes from configuration, never from the request)');
        if (!jwt.privateKey) {
          if (production) issues.push('jwtToken.privateKey: required in production in embedded mode (a generated key dies with the process)');
          else warnings.push('webServer.auth.jwtToken.privateKey is empty: a key pair was generated; its tokens die with this process');
        }
        const key = jwt.privateKey ? importPrivateKey(jwt.privateKey) : generateSigningKey();
        const algorithms = allowedAlgorithms(jwt.algorithms, key, []);
        audience = jwt.audience || jwt.issuer;
        const { JwtSigner } = await import('./jwt-signer.js');
        signer = await JwtSigner.create(key, { issuer: jwt.issuer, audience, scopeClaim: jwt.scopeClaim, groupsClaim: jwt.groupsClaim }, algorithms[0]);
        // A token minted from an ID-JAG is audience-restricted to the resource it named: one of this server's.
        const audiences = acceptsIdJag(auth) ? [audience, ...resourceIdentifiers(auth)] : audience;
        verifiers.push((await loadJwtVerifier())({ name: 'jwtToken:embedded', key: signer.publicKeyObject, algorithms, issuer: jwt.issuer, audience: audiences, ...common }));
        break;
      }
      case 'localKey': {
        if (!jwt.publicKey) {
          issues.push('jwtToken.publicKey: required in localKey mode');
          break;
        }
        const key = importPublicKey(jwt.publicKey);
        const algorithms = allowedAlgorithms(jwt.algorithms, key, []);
        if (!jwt.issuer || !jwt.audience) warnings.push('webServer.auth.jwtToken: set issuer and audience so tokens of other services are refused');
        audience = jwt.audience || undefined;
        verifiers.push((await loadJwtVerifier())({ name: 'jwtToken:localKey', key, algorithms, ...(jwt.issuer ? { issuer: jwt.issuer } : {}), ...(audience ? { audience } : {}), ...common }));
        break;
      }
      case 'remoteJwks': {
        if (!jwt.jwksUrl) issues.push('jwtToken.jwksUrl: required in remoteJwks mode');
        if (!jwt.issuer) issues.push('jwtToken.issuer: required in remoteJwks mode');
        if (!jwt.audience) issues.push('jwtToken.audience: required in remoteJwks mode (an issuer signs tokens for many services)');
        if (!jwt.jwksUrl) break;
        const urlIssue = jwksUrlIssue(jwt.jwksUrl, production);
        if (urlIssue) {
          issues.push(`jwtToken.jwksUrl: ${urlIssue}`);
          break;
        }
        const algorithms = allowedAlgorithms(jwt.algorithms, undefined, ['RS256', 'ES256']);
        const { remoteJwksResolver } = await import('./jwt-remote-jwks.js');
        const key = remoteJwksResolver({
          url: jwt.jwksUrl,
          cooldownMs: jwt.jwksCooldownMs,
          cacheMaxAgeMs: jwt.jwksCacheMaxAgeMs,
          timeoutMs: jwt.jwksTimeoutMs,
        });
        audience = jwt.audience;
        verifiers.push((await loadJwtVerifier())({ name: 'jwtToken:remoteJwks', key, algorithms, issuer: jwt.issuer, audience: jwt.audience, ...common }));
        break;
      }
      case 'none':
        break;
    }
  } catch (err) {
    issues.push(`jwtToken: ${(err as Error).message}`);
  }

  if (auth.basic.username) {
    if (!auth.basic.password) issues.push('basic.password: required when basic.username is set');
    else weak('basic.password', auth.basic.password, 12);
    verifiers.push(basicVerifier(auth.basic));
  }

  auth.oauth.clients.forEach((c, i) => weak(`oauth.clients[${i}].clientSecret`, c.clientSecret));
  issues.push(...trustedIdpIssues(auth, (url) => jwksUrlIssue(url, production)));
  if (acceptsIdJag(auth) && !auth.publicUrl) warnings.push('webServer.auth.oauth.trustedIdps: publicUrl is empty; the resource identifiers an ID-JAG must name are taken from jwtToken.issuer');
  if (auth.oauth.clients.length > 0 && jwt.mode !== 'embedded') warnings.push('webServer.auth.oauth.clients are used only in embedded mode');
  const mint = auth.mintEndpoint;
  if (mint.enabled) {
    if (jwt.mode !== 'embedded' && jwt.mode !== 'legacyAesCtr') issues.push('mintEndpoint: needs jwtToken.mode embedded or legacyAesCtr');
    if (mint.requiredScopes.length === 0 && mint.requiredGroups.length === 0) issues.push('mintEndpoint: set requiredScopes or requiredGroups (the endpoint must be protected)');
  }

  if (issues.length > 0) throw new AuthConfigError(issues);
  const trustedIdps = acceptsIdJag(auth) ? await buildTrustedIdps(auth) : undefined;
  return { verifiers, ...(signer ? { signer } : {}), ...(audience ? { audience } : {}), ...(trustedIdps ? { trustedIdps } : {}), warnings };
}
