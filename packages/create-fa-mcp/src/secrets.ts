/** Strong secrets for generated projects: 256 bits from node:crypto, URL-safe base64 (43 characters). */
import { randomBytes } from 'node:crypto';

export function generateSecret(bytes = 32): string {
  if (!Number.isInteger(bytes) || bytes < 16) throw new RangeError('a secret needs at least 16 random bytes');
  return randomBytes(bytes).toString('base64url');
}
