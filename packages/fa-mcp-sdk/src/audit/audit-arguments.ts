/**
 * What a record keeps of a request's arguments (`mcp.audit.arguments`): nothing; the SHA-256 of
 * their canonical JSON, so a reviewer holding the arguments can prove they are the ones sent
 * without the trail holding them; or the arguments masked by the one masking rule of the server
 * (config/mask.ts: credential-like names, URL passwords, bearer tokens become `***`).
 */
import type { AuditArgumentsMode } from '../config/sections/audit.js';
import { maskSecrets } from '../config/mask.js';
import { compactCanonicalJson } from '../core/canonical-json.js';
import type { AuditArguments } from './audit-record.js';
import { sha256Hex } from './record-hash.js';

/** The digest of arguments: SHA-256 (hex) of their compact canonical JSON (keys sorted at every depth). */
export function argumentsDigest(args: unknown): string {
  return sha256Hex(compactCanonicalJson(args ?? null));
}

/** The `arguments` field of a record; undefined when the request had none. */
export function auditArguments(mode: AuditArgumentsMode, args: unknown): AuditArguments | undefined {
  if (args === undefined) return undefined;
  switch (mode) {
    case 'none':
      return { mode: 'none' };
    case 'digest':
      return { digest: argumentsDigest(args), mode: 'digest' };
    case 'masked':
      return { masked: maskSecrets(args), mode: 'masked' };
  }
}
