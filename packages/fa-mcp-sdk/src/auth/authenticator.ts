/**
 * Authentication of one request: find the credentials, let the verifiers try
 * them (cheapest first: static tokens, JWT, Basic), then the consumer's
 * validator, then add LDAP groups and check revocation. The result is the
 * caller's AuthInfo, or an AuthError saying why not.
 */
import type { CoreLogger } from '../core/core.js';
import { AuthError } from './auth-error.js';
import { extractCredentials } from './credentials.js';
import type { FailureThrottle } from './failure-throttle.js';
import type { Revocation } from './revocation.js';
import type { AuthInfo, AuthRequestInfo, Credentials, CustomAuthValidator, Verifier } from './types.js';

export interface GroupSource {
  groupsOf(subject: string): Promise<string[]>;
}

export interface AuthenticatorOptions {
  verifiers: Verifier[];
  custom?: CustomAuthValidator;
  revocation: Revocation;
  groups?: GroupSource;
  allowQueryToken: boolean;
  logger: CoreLogger;
  /** Counts failed credentials and refuses with 429 over a budget (`webServer.auth.failureThrottle`). */
  throttle?: FailureThrottle;
}

export class Authenticator {
  constructor(private readonly opts: AuthenticatorOptions) {}

  get schemes(): string[] {
    return [...this.opts.verifiers.map((v) => v.name), ...(this.opts.custom ? ['customAuthValidator'] : [])];
  }

  /**
   * The caller of an HTTP request; throws AuthError (401/400), UpstreamUnavailableError (503) or,
   * over the failure throttle's budget, AuthThrottledError (429).
   */
  async authenticate(request: AuthRequestInfo): Promise<AuthInfo> {
    if (this.opts.throttle) return this.authenticateThrottled(this.opts.throttle, request);
    return this.identify(request, extractCredentials(request, this.opts.allowQueryToken));
  }

  private async authenticateThrottled(throttle: FailureThrottle, request: AuthRequestInfo): Promise<AuthInfo> {
    let credentials: Credentials | undefined;
    let auth: AuthInfo;
    let signed = false;
    try {
      credentials = extractCredentials(request, this.opts.allowQueryToken);
      auth = await this.identify(request, credentials, (verifier) => (signed = verifier.signed === true));
    } catch (err) {
      const user = credentials?.scheme === 'basic' ? credentials.username : err instanceof AuthError ? err.subject : undefined;
      throw await throttle.refused(err, { address: request.remoteAddress, user }, this.opts.custom !== undefined);
    }
    // A right guess while blocked is refused like a wrong one; a verified signature is no guess.
    if (!signed) await throttle.assertOpen({ address: request.remoteAddress, user: credentials?.scheme === 'basic' ? credentials.username : auth.subject });
    return auth;
  }

  /** `accepted` learns which built-in verifier took the credentials (the throttled path's question). */
  private async identify(request: AuthRequestInfo, credentials: Credentials | undefined, accepted?: (verifier: Verifier) => void): Promise<AuthInfo> {
    let failure: AuthError | undefined;
    let auth: AuthInfo | undefined;
    if (credentials) {
      try {
        auth = await (accepted ? this.verifyInTurn(this.opts.verifiers, credentials, accepted) : this.verifyBuiltIn(credentials));
      } catch (err) {
        if (!(err instanceof AuthError)) throw err;
        failure = err;
      }
    }
    if (!auth && this.opts.custom) {
      auth = await this.runCustom({ ...request, ...(credentials ? { credentials } : {}) });
    }
    if (!auth) throw failure ?? refusalFor(credentials);
    return this.finish(auth, credentials);
  }

  /** Verifies credentials without a request (the stdio token); same checks as HTTP, the custom validator aside. */
  async verifyCredentials(credentials: Credentials): Promise<AuthInfo> {
    const auth = await this.verifyBuiltIn(credentials);
    if (!auth) throw refusalFor(credentials);
    return this.finish(auth, credentials);
  }

  private verifyBuiltIn(credentials: Credentials): Promise<AuthInfo | undefined> {
    const { verifiers } = this.opts;
    // One scheme (the usual case): its answer as it comes, without a loop of our own around it.
    if (verifiers.length === 1) return (verifiers[0] as Verifier).verify(credentials);
    return this.verifyInTurn(verifiers, credentials);
  }

  private async verifyInTurn(verifiers: readonly Verifier[], credentials: Credentials, accepted?: (verifier: Verifier) => void): Promise<AuthInfo | undefined> {
    for (const verifier of verifiers) {
      const auth = await verifier.verify(credentials);
      if (auth) {
        accepted?.(verifier);
        return auth;
      }
    }
    return undefined;
  }

  private async runCustom(request: AuthRequestInfo): Promise<AuthInfo | undefined> {
    const result = await (this.opts.custom as CustomAuthValidator)(request);
    if (!result) return undefined;
    if (typeof result.subject !== 'string' || result.subject === '') throw new Error('customAuthValidator returned an identity without a subject');
    return { subject: result.subject, scopes: result.scopes ?? [], groups: result.groups ?? [], claims: result.claims ?? {} };
  }

  /** The caller with its directory groups, checked for revocation: at once (no promise) when neither needs a wait. */
  private finish(auth: AuthInfo, credentials: Credentials | undefined): AuthInfo | Promise<AuthInfo> {
    if (this.opts.groups) return this.finishWithGroups(this.opts.groups, auth, credentials);
    return this.checked({ ...auth }, credentials);
  }

  private async finishWithGroups(source: GroupSource, auth: AuthInfo, credentials: Credentials | undefined): Promise<AuthInfo> {
    let groups = auth.groups;
    try {
      const found = await source.groupsOf(auth.subject);
      groups = [...new Set([...groups, ...found])];
    } catch (err) {
      // Without the directory only the token's own groups count: group-protected items stay closed.
      this.opts.logger.warn({ err, subject: auth.subject }, 'LDAP group lookup failed');
    }
    return this.checked({ ...auth, groups }, credentials);
  }

  /** Throws when revoked; a promise only when the consumer's revocation check must run. */
  private checked(out: AuthInfo, credentials: Credentials | undefined): AuthInfo | Promise<AuthInfo> {
    const pending = this.opts.revocation.checkNow(out, credentials?.scheme === 'bearer' ? credentials.token : undefined);
    return pending ? pending.then(() => out) : out;
  }
}

function refusalFor(credentials: Credentials | undefined): AuthError {
  if (!credentials) return new AuthError('missing', 'Authentication required');
  if (credentials.scheme === 'basic') return new AuthError('invalid_credentials', 'Basic authentication is not accepted here');
  return new AuthError('invalid_token', 'The token is not recognized');
}
