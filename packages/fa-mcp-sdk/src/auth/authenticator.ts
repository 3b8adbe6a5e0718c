/**
 * Authentication of one request: find the credentials, let the verifiers try
 * them (cheapest first: static tokens, JWT, Basic), then the consumer's
 * validator, then add LDAP groups and check revocation. The result is the
 * caller's AuthInfo, or an AuthError saying why not.
 */
import type { CoreLogger } from '../core/core.js';
import { AuthError } from '../core/auth-error.js';
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
   *
   * Written with `then` rather than `async`/`await` down to the verifier: every request of an
   * authenticated server comes through here, and each async layer cost it a promise and a turn of
   * the microtask queue (about half of the promises authentication made per request).
   */
  authenticate(request: AuthRequestInfo): Promise<AuthInfo> {
    if (this.opts.throttle) return this.authenticateThrottled(this.opts.throttle, request);
    let credentials: Credentials | undefined;
    try {
      credentials = extractCredentials(request, this.opts.allowQueryToken);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.identify(request, credentials);
  }

  private authenticateThrottled(throttle: FailureThrottle, request: AuthRequestInfo): Promise<AuthInfo> {
    let credentials: Credentials | undefined;
    let signed = false;
    // Basic names its user in the credentials (a token's subject is known only once verified): a name over its budget from every address slows every answer to it.
    const named = () => credentials?.scheme === 'basic';
    const refused = async (err: unknown): Promise<never> => {
      const user = credentials?.scheme === 'basic' ? credentials.username : err instanceof AuthError ? err.subject : undefined;
      throw await throttle.refused(err, { address: request.remoteAddress, user }, this.opts.custom !== undefined, named());
    };
    let identified: Promise<AuthInfo>;
    try {
      credentials = extractCredentials(request, this.opts.allowQueryToken);
      identified = this.identify(request, credentials, (verifier) => (signed = verifier.signed === true));
    } catch (err) {
      return refused(err);
    }
    return identified.then((auth) => {
      // A right guess while blocked is refused like a wrong one; a verified signature is no guess.
      if (signed) return auth;
      return throttle.assertOpen({ address: request.remoteAddress, user: credentials?.scheme === 'basic' ? credentials.username : auth.subject }, named()).then(() => auth);
    }, refused);
  }

  /** `accepted` learns which built-in verifier took the credentials (the throttled path's question). */
  private identify(request: AuthRequestInfo, credentials: Credentials | undefined, accepted?: (verifier: Verifier) => void): Promise<AuthInfo> {
    if (!credentials) return Promise.resolve(undefined).then(() => this.afterVerifiers(request, credentials, undefined, undefined));
    let verified: Promise<AuthInfo | undefined>;
    try {
      verified = accepted ? this.verifyInTurn(this.opts.verifiers, credentials, accepted) : this.verifyBuiltIn(credentials);
    } catch (err) {
      verified = Promise.reject(err);
    }
    return verified.then(
      (auth) => this.afterVerifiers(request, credentials, auth, undefined),
      (err: unknown) => {
        if (!(err instanceof AuthError)) throw err;
        return this.afterVerifiers(request, credentials, undefined, err);
      },
    );
  }

  /** What the built-in verifiers left: their caller, else the consumer's validator's, else the refusal. */
  private afterVerifiers(request: AuthRequestInfo, credentials: Credentials | undefined, auth: AuthInfo | undefined, failure: AuthError | undefined): AuthInfo | Promise<AuthInfo> {
    if (auth) return this.finish(auth, credentials);
    if (!this.opts.custom) throw failure ?? refusalFor(credentials);
    return this.runCustom({ ...request, ...(credentials ? { credentials } : {}) }).then((custom) => {
      if (!custom) throw failure ?? refusalFor(credentials);
      return this.finish(custom, credentials);
    });
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

  private verifyInTurn(verifiers: readonly Verifier[], credentials: Credentials, accepted?: (verifier: Verifier) => void): Promise<AuthInfo | undefined> {
    // One scheme (the usual case): its answer, without a loop of our own around it.
    const only = verifiers.length === 1 ? (verifiers[0] as Verifier) : undefined;
    if (!only) return this.verifyEach(verifiers, credentials, accepted);
    return only.verify(credentials).then((auth) => {
      if (auth) accepted?.(only);
      return auth;
    });
  }

  private async verifyEach(verifiers: readonly Verifier[], credentials: Credentials, accepted?: (verifier: Verifier) => void): Promise<AuthInfo | undefined> {
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
    // Object.assign, not `{ ...auth, groups }`: SPREAD_FIRST in protocol/client-channel.ts (the keys are the AuthInfo's own).
    return this.checked(Object.assign({}, auth, { groups }), credentials);
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
