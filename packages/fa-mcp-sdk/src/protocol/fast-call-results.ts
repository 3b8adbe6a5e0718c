/**
 * The results the fast paths write themselves, per method, built the way the
 * SDK encodes them: the result schema's fields in its order, then on
 * 2026-07-28 (given the server's identity) what the SDK's codec stamps —
 * `resultType`, for resources/read the cache fields, and `_meta` with the
 * server's identity. A result of any other shape gives undefined: the SDK
 * then checks and encodes it (sdk-codec.ts).
 */
import type { CacheHints } from './modern-era.js';
import { isPlainObject } from './fast-call-params.js';
import type { FastMethod } from './fast-call-params.js';
import { encodePlainResult } from './fast-call-shape.js';
import { SERVER_INFO_META_KEY } from '@modelcontextprotocol/server';

/** How a 2026-07-28 result is stamped: the server's identity, and the configured cache hints (undefined: the SDK's defaults). */
export interface ResultStamp {
  serverInfo: Record<string, unknown>;
  cacheHints: CacheHints | undefined;
}

/** The encoded result of `method`, or undefined when only the SDK may encode it. `stamp` is given on 2026-07-28 only. */
export function encodeFastResult(method: FastMethod, result: unknown, stamp?: ResultStamp): Record<string, unknown> | undefined {
  if (method === 'tools/call') return encodePlainResult(result, stamp?.serverInfo);
  if (!isPlainObject(result)) return undefined;
  const encoded = method === 'prompts/get' ? encodePrompt(result) : method === 'resources/read' ? encodeRead(result) : encodeCompletion(result);
  if (!encoded || !stamp) return encoded; // 2025-era results carry no stamp
  // A read's own cache fields (cache-fields.ts) keep their place after `contents`, as the SDK keeps a handler's.
  const own = 'ttlMs' in encoded;
  encoded.resultType = 'complete';
  if (method === 'resources/read' && !own) {
    const hint = stamp.cacheHints?.['resources/read'];
    encoded.ttlMs = hint?.ttlMs ?? 0;
    encoded.cacheScope = hint?.cacheScope ?? 'private';
  }
  encoded._meta = { [SERVER_INFO_META_KEY]: stamp.serverInfo };
  return encoded;
}

const hasOnly = (o: Record<string, unknown>, ...keys: string[]) => Object.keys(o).every((k) => keys.includes(k));

/** `{ type: 'text', text }` and nothing else. */
const isTextBlock = (item: unknown): item is { type: 'text'; text: string } =>
  isPlainObject(item) && item.type === 'text' && typeof item.text === 'string' && Object.keys(item).length === 2;

/** A prompt of text messages, with its description. */
function encodePrompt(result: Record<string, unknown>): Record<string, unknown> | undefined {
  const { description, messages } = result;
  if (!hasOnly(result, 'description', 'messages') || (description !== undefined && typeof description !== 'string') || !Array.isArray(messages)) return undefined;
  const out: Array<{ role: string; content: { type: 'text'; text: string } }> = [];
  for (const message of messages as unknown[]) {
    if (!isPlainObject(message) || !hasOnly(message, 'role', 'content') || (message.role !== 'user' && message.role !== 'assistant') || !isTextBlock(message.content)) return undefined;
    out.push({ role: message.role, content: { type: 'text', text: message.content.text } });
  }
  const encoded: Record<string, unknown> = {};
  if (description !== undefined) encoded.description = description;
  encoded.messages = out;
  return encoded;
}

/** Both cache fields, valid (as cache-fields.ts sets them), or neither. */
const ownCacheFields = (result: Record<string, unknown>): boolean =>
  Number.isSafeInteger(result.ttlMs) && (result.ttlMs as number) >= 0 && (result.cacheScope === 'private' || result.cacheScope === 'public');

/** Text contents (`uri`, `mimeType`, `text`), with the read's own cache fields when it has them; blobs are the SDK's to check. */
function encodeRead(result: Record<string, unknown>): Record<string, unknown> | undefined {
  const { contents } = result;
  const cached = 'ttlMs' in result || 'cacheScope' in result;
  if (cached && !ownCacheFields(result)) return undefined;
  if (!(cached ? hasOnly(result, 'contents', 'ttlMs', 'cacheScope') : hasOnly(result, 'contents')) || !Array.isArray(contents)) return undefined;
  const out: Array<Record<string, string>> = [];
  for (const item of contents as unknown[]) {
    if (!isPlainObject(item) || !hasOnly(item, 'uri', 'mimeType', 'text') || typeof item.uri !== 'string' || typeof item.text !== 'string') return undefined;
    if (item.mimeType !== undefined && typeof item.mimeType !== 'string') return undefined;
    const entry: Record<string, string> = { uri: item.uri };
    if (item.mimeType !== undefined) entry.mimeType = item.mimeType;
    entry.text = item.text;
    out.push(entry);
  }
  return cached ? { contents: out, ttlMs: result.ttlMs, cacheScope: result.cacheScope } : { contents: out };
}

/** At most 100 values (the schema's limit), an integer total, hasMore. */
function encodeCompletion(result: Record<string, unknown>): Record<string, unknown> | undefined {
  const { completion } = result;
  if (!hasOnly(result, 'completion') || !isPlainObject(completion) || !hasOnly(completion, 'values', 'total', 'hasMore')) return undefined;
  const { values, total, hasMore } = completion;
  if (!Array.isArray(values) || values.length > 100 || !values.every((v) => typeof v === 'string')) return undefined;
  if ((total !== undefined && !Number.isSafeInteger(total)) || (hasMore !== undefined && typeof hasMore !== 'boolean')) return undefined;
  const out: Record<string, unknown> = { values: [...(values as string[])] };
  if (total !== undefined) out.total = total;
  if (hasMore !== undefined) out.hasMore = hasMore;
  return { completion: out };
}
