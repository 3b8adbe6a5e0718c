/**
 * Verifies an Identity Assertion JWT Authorization Grant (ID-JAG,
 * draft-ietf-oauth-identity-assertion-authz-grant §3 and §4.4.1; the MCP
 * Enterprise-Managed Authorization extension §5.1) presented to this
 * authorization server: `iss` a trusted IdP; the signature against that IdP's
 * keys with its algorithms (never `none`); `typ` `oauth-id-jag+jwt`; `aud`
 * this server's issuer, alone; `exp`, `iat`, `jti`, `client_id` present;
 * not expired, not issued in the future, no longer-lived nor older than the
 * limit; no key binding (`cnf`) it cannot check; and the mapped subject,
 * e-mail, groups, scopes and resources read. Each failure is a TokenRefusal
 * naming the check. What the request adds (the client, the resource, the
 * scope, the one use of `jti`) is the grant's (grant-id-jag.ts).
 */
import { decodeJwt, errors, jwtVerify, type JWTPayload } from 'jose';
import { UpstreamUnavailableError } from '../core/errors.js';
import { parseGroups } from './jwt-claims.js';
import { TokenRefusal } from './token-refusal.js';
import type { TrustedIdp } from './trusted-idps.js';

export const ID_JAG_TYP = 'oauth-id-jag+jwt';

export interface VerifiedIdJag {
  idp: TrustedIdp;
  claims: JWTPayload;
  jti: string;
  /** Seconds since the epoch. */
  exp: number;
  /** The client the IdP issued the grant to act for (`client_id`). */
  clientId: string;
  subject: string;
  email?: string;
  groups: string[];
  /** The `scope` claim, split. */
  scopes: string[];
  /** The `resource` claim as a list; undefined when the ID-JAG names none. */
  resources?: string[];
}

export interface IdJagVerifierOptions {
  idps: readonly TrustedIdp[];
  /** This authorization server's issuer: the one `aud` accepted. */
  audience: string;
  clockToleranceSec: number;
  maxLifetimeSec: number;
  now?: () => number;
}

const invalid = (message: string, reason: string, check: string, facts: Record<string, unknown> = {}) => new TokenRefusal('invalid_grant', message, reason, check, facts);

const REQUIRED = ['exp', 'iat', 'jti', 'client_id'];

export class IdJagVerifier {
  private readonly byIssuer: Map<string, TrustedIdp>;

  constructor(private readonly opts: IdJagVerifierOptions) {
    this.byIssuer = new Map(opts.idps.map((idp) => [idp.issuer, idp]));
  }

  async verify(assertion: string): Promise<VerifiedIdJag> {
    let unverified: JWTPayload;
    try {
      unverified = decodeJwt(assertion);
    } catch {
      throw invalid('The assertion is not a JWT', 'malformed', 'format');
    }
    // The issuer picks the keys; only then is anything the assertion says believed.
    const idp = typeof unverified.iss === 'string' ? this.byIssuer.get(unverified.iss) : undefined;
    if (!idp) throw invalid('The ID-JAG issuer is not a trusted identity provider', 'wrong_issuer', 'iss');
    const facts = { issuer: idp.issuer };
    const now = this.opts.now?.() ?? Date.now();
    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(assertion, idp.keys, {
        algorithms: idp.algorithms,
        issuer: idp.issuer,
        audience: this.opts.audience,
        typ: ID_JAG_TYP,
        clockTolerance: this.opts.clockToleranceSec,
        maxTokenAge: this.opts.maxLifetimeSec,
        requiredClaims: REQUIRED,
        currentDate: new Date(now),
      }));
    } catch (err) {
      throw this.refusalOf(err, facts);
    }
    return this.read(idp, claims, facts);
  }

  private read(idp: TrustedIdp, claims: JWTPayload, facts: Record<string, unknown>): VerifiedIdJag {
    // An audience list is accepted only as the one element naming this server (the draft's §4.4.1).
    if (Array.isArray(claims.aud) && claims.aud.length !== 1) throw invalid(`The ID-JAG audience must be this authorization server alone (${this.opts.audience})`, 'wrong_audience', 'aud', facts);
    const exp = claims.exp as number;
    const iat = claims.iat as number;
    if (exp - iat > this.opts.maxLifetimeSec) {
      throw invalid(`The ID-JAG lives longer than the ${this.opts.maxLifetimeSec} s this server accepts (oauth.idJagMaxLifetimeSec)`, 'malformed', 'exp', facts);
    }
    const jti = claims.jti;
    const clientId = claims.client_id;
    if (typeof jti !== 'string' || jti === '' || jti.length > 512) throw invalid('The ID-JAG jti must be a non-empty string', 'malformed', 'jti', facts);
    if (typeof clientId !== 'string' || clientId === '') throw invalid('The ID-JAG client_id must be a non-empty string', 'malformed', 'client_id', facts);
    if (claims.cnf !== undefined) throw invalid('The ID-JAG is bound to a key (cnf); proof of possession (DPoP) is not supported here', 'malformed', 'cnf', facts);
    const subject = claims[idp.claims.subject];
    if (typeof subject !== 'string' || subject.trim() === '') throw invalid(`The ID-JAG has no "${idp.claims.subject}" claim (the subject)`, 'malformed', 'sub', facts);
    if (claims.scope !== undefined && typeof claims.scope !== 'string') throw invalid('The ID-JAG scope must be a space-separated string', 'malformed', 'scope', facts);
    const resources = resourcesOf(claims.resource);
    if (resources === null) throw invalid('The ID-JAG resource must be a URI or a list of URIs', 'malformed', 'resource', facts);
    const email = claims[idp.claims.email];
    return {
      idp,
      claims,
      jti,
      exp,
      clientId,
      subject,
      ...(typeof email === 'string' && email !== '' ? { email } : {}),
      groups: parseGroups(claims[idp.claims.groups]),
      scopes: typeof claims.scope === 'string' ? claims.scope.split(/\s+/).filter(Boolean) : [],
      ...(resources ? { resources } : {}),
    };
  }

  /** jose's verdicts as refusals naming the check; an IdP whose keys cannot be fetched is a 503. */
  private refusalOf(err: unknown, facts: Record<string, unknown>): Error {
    if (err instanceof UpstreamUnavailableError) return new TokenRefusal('temporarily_unavailable', 'The identity provider keys cannot be fetched right now; try again later', 'jwks_unavailable', 'jwks', facts);
    if (err instanceof errors.JWTExpired) {
      return err.claim === 'iat'
        ? invalid(`The ID-JAG was issued more than ${this.opts.maxLifetimeSec} s ago (oauth.idJagMaxLifetimeSec)`, 'expired', 'iat', facts)
        : invalid('The ID-JAG has expired', 'expired', 'exp', facts);
    }
    if (err instanceof errors.JWTClaimValidationFailed) {
      switch (err.claim) {
        case 'typ':
          return invalid(`The assertion is not an ID-JAG (typ must be ${ID_JAG_TYP})`, 'wrong_type', 'typ', facts);
        case 'aud':
          return invalid(`The ID-JAG audience is not this authorization server (${this.opts.audience})`, 'wrong_audience', 'aud', facts);
        case 'iss':
          return invalid('The ID-JAG issuer is not a trusted identity provider', 'wrong_issuer', 'iss', facts);
        case 'iat':
          return invalid('The ID-JAG was issued in the future', 'not_yet_valid', 'iat', facts);
        case 'nbf':
          return invalid('The ID-JAG is not valid yet', 'not_yet_valid', 'nbf', facts);
        default:
          return invalid(`The ID-JAG has no valid "${err.claim}" claim`, 'malformed', err.claim, facts);
      }
    }
    if (err instanceof errors.JOSEAlgNotAllowed || err instanceof errors.JOSENotSupported) {
      return invalid('The ID-JAG is unsigned or signed with an algorithm not accepted for its identity provider', 'invalid_signature', 'alg', facts);
    }
    if (err instanceof errors.JWSSignatureVerificationFailed) return invalid('The ID-JAG signature does not verify with the keys of its identity provider', 'invalid_signature', 'signature', facts);
    if (err instanceof errors.JWKSNoMatchingKey || err instanceof errors.JWKSMultipleMatchingKeys) {
      return invalid('No key of the identity provider matches the ID-JAG', 'unknown_key', 'signature', facts);
    }
    return invalid('The ID-JAG is malformed or cannot be verified', 'malformed', 'format', facts);
  }
}

/** The `resource` claim as a list of strings; undefined when absent, null when malformed. */
function resourcesOf(value: unknown): string[] | undefined | null {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && value !== '') return [value];
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string' && v !== '')) return value as string[];
  return null;
}
