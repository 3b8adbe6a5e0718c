/**
 * What stdio's cold front (cold-answers.ts) may answer without the SDK: only
 * messages whose reading by the SDK's schemas is certain, so the answer cannot
 * differ. A plain JSON-RPC 2.0 request or notification (no member beyond
 * jsonrpc, id, method, params; an id the SDK accepts), and params the method's
 * schema surely accepts. Anything unusual (a `_meta`, which may claim the
 * 2026-07-28 revision; a capability of an unknown shape) is left to the SDK:
 * being conservative here costs a slower first answer, never a different one.
 */
import type { JsonObject } from '../core/types.js';

export interface ColdRequest {
  /** Absent for a notification. */
  id?: string | number;
  method: string;
  params?: JsonObject;
}

export interface ColdInitialize {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  clientInfo: { name: string; version: string; title?: string };
  [key: string]: unknown;
}

const MEMBERS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const onlyKeys = (o: Record<string, unknown>, allowed: readonly string[]): boolean => Object.keys(o).every((k) => allowed.includes(k));

/** The message of a parsed line, when it is a plain request or notification. */
export function readColdMessage(value: unknown): ColdRequest | undefined {
  if (!isPlainObject(value) || value.jsonrpc !== '2.0' || typeof value.method !== 'string') return undefined;
  if (!Object.keys(value).every((k) => MEMBERS.has(k))) return undefined;
  const { id, params } = value;
  if (params !== undefined && !isPlainObject(params)) return undefined;
  if (id !== undefined && typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  return value as unknown as ColdRequest;
}

/** Capability members a 2025-era client declares, each an object of objects (roots: its listChanged flag). */
const CLIENT_CAPABILITIES = ['roots', 'sampling', 'elicitation', 'experimental', 'tasks', 'extensions'];

/** Objects nested in objects, to a small depth: the shape every member of these capabilities has. */
function isObjectTree(v: unknown, depth: number): boolean {
  return isPlainObject(v) && depth > 0 && Object.values(v).every((child) => isObjectTree(child, depth - 1));
}

function isColdCapabilities(v: unknown): v is Record<string, unknown> {
  if (!isPlainObject(v) || !onlyKeys(v, CLIENT_CAPABILITIES)) return false;
  return Object.entries(v).every(([name, member]) => {
    if (name !== 'roots') return isObjectTree(member, 4);
    return isPlainObject(member) && onlyKeys(member, ['listChanged']) && (member.listChanged === undefined || typeof member.listChanged === 'boolean');
  });
}

/** The params of an initialize the cold front answers: version, capabilities, client name/version/title as strings. */
export function coldInitializeParams(params: JsonObject | undefined): ColdInitialize | undefined {
  if (!params || !onlyKeys(params, ['protocolVersion', 'capabilities', 'clientInfo'])) return undefined;
  const { protocolVersion, capabilities, clientInfo } = params;
  if (typeof protocolVersion !== 'string' || !isColdCapabilities(capabilities) || !isPlainObject(clientInfo)) return undefined;
  if (!onlyKeys(clientInfo, ['name', 'version', 'title']) || Object.values(clientInfo).some((v) => typeof v !== 'string')) return undefined;
  if (typeof clientInfo.name !== 'string' || typeof clientInfo.version !== 'string') return undefined;
  return params as ColdInitialize;
}

/** A ping without params (or with empty ones). */
export const isColdPing = (params: JsonObject | undefined): boolean => params === undefined || Object.keys(params).length === 0;

/** List params: none, or a string cursor. */
export const coldListParams = (params: JsonObject | undefined): boolean =>
  params === undefined || (onlyKeys(params, ['cursor']) && (params.cursor === undefined || typeof params.cursor === 'string'));
