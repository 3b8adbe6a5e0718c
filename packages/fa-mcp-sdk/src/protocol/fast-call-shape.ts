/**
 * What the 2026-07-28 fast path takes and what it writes itself. It takes only
 * requests the SDK path would accept without a word (the SDK's own classifier
 * decides the era and checks the `_meta` envelope; everything else is held to
 * a plain shape the SDK's checks pass unchanged), and gives the handler the
 * params the SDK would give it. It writes only plain answers, built the way
 * the SDK encodes them; any other answer the SDK's codec encodes (sdk-codec.ts).
 * test/fast-path/ proves the two paths answer alike.
 */
import {
  classifyInboundRequest,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
} from '@modelcontextprotocol/server';
import type { JsonObject } from '../core/types.js';
import type { HeaderReader } from './request-context-builder.js';
import { MODERN_REVISION as FAST_PATH_REVISION } from './sdk-codec.js';
import { FAST_METHODS, hasOnlyKeys, isPlainObject, readMethodParams, type FastMethod, type MethodParams } from './fast-call-params.js';

/** A request the fast path serves (tools/call, prompts/get, resources/read, completion/complete), read as the SDK path reads it. */
export interface FastCall {
  method: FastMethod;
  id: string | number;
  /** The tool or prompt name, the resource URI ('' for a completion): what Mcp-Name mirrors and the tool checks read. */
  name: string;
  /** The params as they arrived (what the wire tap observes). */
  wireParams: Record<string, unknown>;
  /** The params the SDK's handler gets: envelope lifted, `_meta` first, as its schema outputs them. */
  params: JsonObject;
  /** The request's `_meta` envelope: protocol version, client info, client capabilities, log level. */
  envelope: Record<string, unknown>;
  progressToken?: string | number;
}

const ENVELOPE_KEYS = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY]);
const BODY_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

export { isPlainObject };

/**
 * `meta` with its progress token as 0 (the key of its envelope). The copy has the key already, so
 * setting it keeps the copy cheap (SPREAD_FIRST in client-channel.ts); a spread keeps a `__proto__` key of the client's as data.
 */
function withProgressTokenZero(meta: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...meta };
  copy.progressToken = 0;
  return copy;
}

/** Reads fast calls; undefined sends the request to the SDK path. */
export type FastCallReader = (body: unknown, headers: HeaderReader) => FastCall | undefined;

/** Envelopes the SDK's classifier accepted, keyed by their JSON without the progress token. */
const MAX_REMEMBERED_ENVELOPES = 512;

/**
 * A reader that remembers which `_meta` envelopes the SDK's classifier
 * accepted: a client sends the same envelope on every request, and checking
 * it again gives the same verdict (the rest of what the classifier reads is
 * held fixed by readFastCall; the progress token, which changes per request,
 * is checked here as the SDK's schema checks it).
 */
export function createFastCallReader(): FastCallReader {
  const accepted = new Set<string>();
  return (body, headers) =>
    readFastCall(body, headers, (key) => accepted.has(key), (key) => {
      if (accepted.size >= MAX_REMEMBERED_ENVELOPES) accepted.clear();
      accepted.add(key);
    });
}

/** The body's method and params, when it is a plain JSON-RPC request of a method the fast paths serve. */
function readRequest(body: unknown): { method: FastMethod; id: string | number; params: Record<string, unknown>; read: MethodParams } | undefined {
  if (!isPlainObject(body) || !hasOnlyKeys(body, BODY_KEYS) || body.jsonrpc !== '2.0' || typeof body.method !== 'string' || !FAST_METHODS.has(body.method)) return undefined;
  const { id, params } = body;
  if (!(typeof id === 'string' || Number.isSafeInteger(id)) || !isPlainObject(params)) return undefined;
  const method = body.method as FastMethod;
  const read = readMethodParams(method, params);
  return read && { method, id: id as string | number, params, read };
}

/** Whether the headers name the request as the SDK's entry wants them, as they are (no Base64 sentinel, no whitespace). */
function plainHeaders(headers: HeaderReader, method: FastMethod, name: string | undefined): boolean {
  if (headers.get('mcp-protocol-version') !== FAST_PATH_REVISION || headers.get('mcp-method') !== method) return false;
  // A name in the header's Base64 form (or one that would need it) is left to the SDK's decoding.
  if (name === undefined) return headers.get('mcp-name') === null; // the SDK reads none for the method
  return !name.startsWith('=?') && headers.get('mcp-name') === name;
}

/** The call, when the body and headers are a plain 2026-07-28 request of a fast method; undefined sends the request to the SDK path. */
export function readFastCall(
  body: unknown,
  headers: HeaderReader,
  known: (envelopeKey: string) => boolean = () => false,
  remember: (envelopeKey: string) => void = () => undefined,
): FastCall | undefined {
  const request = readRequest(body);
  if (!request) return undefined;
  const { method, id, params, read } = request;
  const meta = params._meta;
  if (!isPlainObject(meta) || !plainHeaders(headers, method, read.name)) return undefined;
  const token = meta.progressToken;
  if (token !== undefined && typeof token !== 'string' && !Number.isSafeInteger(token)) return undefined;
  const envelopeKey = JSON.stringify(token === undefined ? meta : withProgressTokenZero(meta));
  if (!known(envelopeKey)) {
    const route = classifyInboundRequest({
      httpMethod: 'POST',
      protocolVersionHeader: FAST_PATH_REVISION,
      mcpMethodHeader: method,
      ...(read.name === undefined ? {} : { mcpNameHeader: read.name }),
      body,
    });
    if (route.kind !== 'modern' || route.messageKind !== 'request' || route.classification.revision !== FAST_PATH_REVISION) return undefined;
    remember(envelopeKey);
  }

  const envelope: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(meta)) {
    if (ENVELOPE_KEYS.has(key)) envelope[key] = value;
    else rest[key] = value;
  }
  // Extensions (the tasks extension among them) change what a call may become: the SDK path serves those clients.
  const capabilities = envelope[CLIENT_CAPABILITIES_META_KEY];
  if (isPlainObject(capabilities) && 'extensions' in capabilities) return undefined;

  // The SDK's dispatch schema outputs `_meta` (progressToken first), then the method's fields.
  const dispatchMeta = token === undefined ? rest : { progressToken: token, ...rest };
  return callOf(method, id, params, read, Object.keys(dispatchMeta).length > 0 ? dispatchMeta : undefined, envelope, token);
}

function callOf(
  method: FastMethod,
  id: string | number,
  wireParams: Record<string, unknown>,
  read: MethodParams,
  meta: Record<string, unknown> | undefined,
  envelope: Record<string, unknown>,
  token: unknown,
): FastCall {
  const out: JsonObject = {};
  if (meta) out._meta = meta as JsonObject;
  for (const key of Object.keys(read.fields)) out[key] = read.fields[key] as JsonObject[string];
  const call: FastCall = { method, id, name: read.name ?? '', wireParams, params: out, envelope };
  if (token !== undefined) call.progressToken = token as string | number;
  return call;
}

/** `_meta` keys of the 2026-07-28 envelope and other reserved material: a 2025-era request carrying them is the SDK path's. */
const RESERVED_META_PREFIX = 'io.modelcontextprotocol/';

/**
 * The call, when the body is a plain 2025-era request of a fast method on a
 * session: the shape the SDK's message schema and the method's request schema
 * pass unchanged (no task, no reserved `_meta` keys); undefined sends the
 * request to the SDK path. The params are given as the SDK's schema outputs them.
 */
export function readSessionCall(body: unknown): FastCall | undefined {
  const request = readRequest(body);
  if (!request) return undefined;
  const { method, id, params, read } = request;
  const meta = params._meta;
  if (meta !== undefined && !isPlainObject(meta)) return undefined;
  const token = meta?.progressToken;
  if (token !== undefined && typeof token !== 'string' && !Number.isSafeInteger(token)) return undefined;
  if (meta && Object.keys(meta).some((key) => key.startsWith(RESERVED_META_PREFIX))) return undefined;
  const dispatchMeta = meta && (token === undefined ? { ...meta } : { progressToken: token, ...meta });
  return callOf(method, id, params, read, dispatchMeta, {}, token);
}

const isTextBlock = (item: unknown): item is { type: 'text'; text: string } => {
  if (!isPlainObject(item) || item.type !== 'text' || typeof item.text !== 'string') return false;
  const keys = Object.keys(item);
  return keys.length === 2;
};

/**
 * A result `_meta` the SDK's schemas pass as it is: a plain object with none
 * of the keys they know (`progressToken`, the protocol's reserved keys), whose
 * values they leave alone — an argument-error result's `fa-mcp/validation`, a
 * handler's own keys.
 */
const isPlainMeta = (meta: unknown): meta is Record<string, unknown> =>
  isPlainObject(meta) && Object.keys(meta).every((key) => key !== 'progressToken' && !key.startsWith(RESERVED_META_PREFIX));

/**
 * The encoded tools/call result, for results of plain text content (with
 * structuredContent, isError and a plain `_meta` as they come); undefined for
 * anything else, which the SDK then checks and encodes. Key order is the SDK's:
 * the result schema's fields (`_meta` first), then (2026-07-28, given
 * `serverInfo`) `resultType` and the server's identity added to `_meta`.
 */
export function encodePlainResult(result: unknown, serverInfo?: Record<string, unknown>): Record<string, unknown> | undefined {
  if (!isPlainObject(result)) return undefined;
  let hasStructured = false;
  let hasIsError = false;
  let meta: Record<string, unknown> | undefined;
  for (const key of Object.keys(result)) {
    if (key === 'structuredContent') hasStructured = true;
    else if (key === 'isError') {
      if (typeof result.isError !== 'boolean') return undefined;
      hasIsError = true;
    } else if (key === '_meta') {
      if (!isPlainMeta(result._meta)) return undefined;
      meta = result._meta;
    } else if (key !== 'content') return undefined;
  }
  const { content } = result;
  if (!Array.isArray(content) || !content.every(isTextBlock)) return undefined;
  const encoded: Record<string, unknown> = meta ? { _meta: { ...meta } } : {};
  encoded.content = content.map((item) => ({ type: 'text', text: item.text }));
  if (hasStructured) encoded.structuredContent = result.structuredContent;
  if (hasIsError) encoded.isError = result.isError;
  // 2025-era results carry neither (the SDK's 2025 codec never stamps).
  if (!serverInfo) return encoded;
  encoded.resultType = 'complete';
  // The identity joins the result's own `_meta` (in its place) or makes one at the end, as the SDK's stamp does.
  const stamped: Record<string, unknown> = meta ? { ...meta } : {};
  stamped[SERVER_INFO_META_KEY] = serverInfo;
  encoded._meta = stamped;
  return encoded;
}

/** The JSON-RPC error of a thrown ProtocolError, as the SDK's dispatcher writes it. */
export function encodeError(id: string | number, err: { code?: unknown; message?: unknown; data?: unknown }): Record<string, unknown> {
  const thrown = Number.isSafeInteger(err.code) ? (err.code as number) : -32603;
  // Both of the SDK's codecs (2025-era and 2026-07-28) answer -32002 (resource not found) as -32602.
  const code = thrown === -32002 ? -32602 : thrown;
  const error: Record<string, unknown> = { code, message: (err.message as string | undefined) ?? 'Internal error' };
  if (err.data !== undefined) error.data = err.data;
  return { jsonrpc: '2.0', id, error };
}

/**
 * HTTP status of an error answered as a whole JSON body: 400 for the two the protocol answers so
 * whatever their origin, -32021 (the SDK's transport does) and -32020 (an Mcp-Param-* header the
 * pipeline refused: transport/http/status-for-error.ts gives the SDK path's answer the same status).
 */
export function errorStatus(code: number): number {
  return code === -32021 || code === -32020 ? 400 : 200;
}
