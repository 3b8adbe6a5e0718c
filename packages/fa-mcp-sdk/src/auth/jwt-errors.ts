/**
 * jose's verification errors as refusals a client may read: what failed, never
 * the key or the token.
 */
import { errors } from 'jose';
import { UpstreamUnavailableError } from '../core/errors.js';
import { AuthError } from '../core/auth-error.js';

export function toAuthError(err: unknown): Error {
  if (err instanceof AuthError) return err;
  // Claims are checked after the signature: their subject is the one the issuer signed.
  const signed = err instanceof errors.JWTClaimValidationFailed || err instanceof errors.JWTExpired ? err.payload.sub : undefined;
  const subject = typeof signed === 'string' && signed !== '' ? { subject: signed } : {};
  if (err instanceof errors.JWTExpired) return new AuthError('invalid_token', 'The token has expired', { reason: 'expired', ...subject });
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'nbf') return new AuthError('invalid_token', 'The token is not valid yet', { reason: 'not_yet_valid', ...subject });
    if (err.claim === 'iss') return new AuthError('invalid_token', 'The token was issued by an unexpected issuer', { reason: 'wrong_issuer', ...subject });
    if (err.claim === 'aud') return new AuthError('invalid_token', 'The token is meant for another audience', { reason: 'wrong_audience', ...subject });
    if (err.claim === 'iat') return new AuthError('invalid_token', 'The token was issued in the future', { reason: 'not_yet_valid', ...subject });
    return new AuthError('invalid_token', `The token has an invalid "${err.claim}" claim`, subject);
  }
  if (err instanceof errors.JOSEAlgNotAllowed) return new AuthError('invalid_token', 'The token is signed with an algorithm this server does not accept', { reason: 'invalid_signature' });
  if (err instanceof errors.JWSSignatureVerificationFailed) return new AuthError('invalid_token', 'The token signature is invalid', { reason: 'invalid_signature' });
  if (err instanceof errors.JWKSNoMatchingKey || err instanceof errors.JWKSMultipleMatchingKeys) {
    return new AuthError('invalid_token', 'No key of the issuer matches the token', { reason: 'unknown_key' });
  }
  if (err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid) {
    return new UpstreamUnavailableError('The token issuer keys cannot be fetched right now; try again later');
  }
  if (err instanceof UpstreamUnavailableError) return err;
  // Anything else (a malformed token jose rejected with a TypeError, a key of the wrong type…).
  return new AuthError('invalid_token', 'The token is malformed or cannot be verified', { reason: 'malformed' });
}
