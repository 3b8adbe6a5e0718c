/**
 * What a 2026-07-28 `requestState` carries between rounds of one request, and
 * the binding that keeps it to that request. The wire string is sealed by an
 * HMAC codec (protocol/request-state-codec.ts): signed, not encrypted, so it
 * holds nothing but the round, the binding digest and the answers the client
 * itself gave.
 */
import { createHash } from 'node:crypto';
import { ValidationError } from '../core/errors.js';
import type { JsonObject } from '../core/types.js';

/** What one request is: the method, the tool/prompt name or resource URI, its arguments, the caller. */
export interface RequestBinding {
  method: string;
  name: string;
  arguments?: unknown;
  subject?: string;
}

export interface RequestStatePayload {
  /** Payload version. */
  v: 1;
  /** Digest of the RequestBinding the state was minted for. */
  b: string;
  /** The round that minted it (1 = the first call). */
  r: number;
  /** Answers consumed so far, by input-request key. */
  a: Record<string, JsonObject>;
}

/** JSON with object keys sorted, so equal values give equal text whatever their key order. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function bindingDigest(binding: RequestBinding): string {
  const text = stableJson([binding.method, binding.name, binding.arguments ?? {}, binding.subject ?? '']);
  return createHash('sha256').update(text).digest('base64url');
}

export function mintPayload(binding: RequestBinding, round: number, answers: Record<string, JsonObject>): RequestStatePayload {
  return { v: 1, b: bindingDigest(binding), r: round, a: answers };
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The payload of a verified requestState, checked against the request it came
 * with. A state minted for another request (other tool, arguments or caller)
 * is refused with -32602, like a tampered one.
 */
export function acceptPayload(value: unknown, binding: RequestBinding): RequestStatePayload {
  const ok =
    isObject(value) && value.v === 1 && typeof value.b === 'string' && Number.isInteger(value.r) && (value.r as number) >= 1 && isObject(value.a);
  if (!ok) throw new ValidationError('Invalid or expired requestState', { reason: 'invalid_request_state' });
  if (value.b !== bindingDigest(binding)) {
    throw new ValidationError('Invalid or expired requestState: it was issued for another request', { reason: 'invalid_request_state' });
  }
  return value as unknown as RequestStatePayload;
}
