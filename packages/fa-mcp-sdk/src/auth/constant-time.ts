/**
 * Secret comparisons that take the same time whatever the inputs: both sides
 * are hashed to fixed-length digests first, so neither the length nor the
 * first differing byte shows in the timing.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

/** Index of the candidate equal to `value`, or -1; always compares against every candidate. */
export function safeIndexOf(value: string, candidates: readonly string[]): number {
  let hit = -1;
  candidates.forEach((candidate, i) => {
    if (safeEqual(value, candidate) && hit < 0) hit = i;
  });
  return hit;
}

/** SHA-256 hex of a token: how a token is named in logs and in `revoked.tokenIds` without revealing it. */
export function tokenFingerprint(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
