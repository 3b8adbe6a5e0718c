/**
 * The params of each method the fast paths serve, held to the shapes the
 * SDK's request schemas pass unchanged (anything else is the SDK path's), and
 * given as those schemas output them: the schema's fields in the schema's
 * order (its objects strip unknown keys and put their own in shape order;
 * records keep the client's order). `_meta` is read by fast-call-shape.ts.
 */
import type { JsonObject } from '../core/types.js';

/** The methods the fast paths serve. */
export type FastMethod = 'tools/call' | 'prompts/get' | 'resources/read' | 'completion/complete';

export const FAST_METHODS: ReadonlySet<string> = new Set<FastMethod>(['tools/call', 'prompts/get', 'resources/read', 'completion/complete']);

/** What a method's params give: the value the `Mcp-Name` header mirrors (undefined: the method has none), and the fields after `_meta`. */
export interface MethodParams {
  name: string | undefined;
  fields: JsonObject;
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

export const hasOnlyKeys = (o: Record<string, unknown>, allowed: ReadonlySet<string>): boolean => Object.keys(o).every((k) => allowed.has(k));

const TOOL_KEYS = new Set(['name', 'arguments', '_meta']);
const RESOURCE_KEYS = new Set(['uri', '_meta']);
const COMPLETION_KEYS = new Set(['ref', 'argument', 'context', '_meta']);
const CONTEXT_KEYS = new Set(['arguments']);

/** An object a copy keeps as it is (a `__proto__` key would become the copy's prototype). */
const isCopyable = (v: unknown): v is Record<string, unknown> => isPlainObject(v) && !Object.hasOwn(v, '__proto__');

/** A record of strings (`z.record(z.string(), z.string())`), copied in the client's order. */
function stringRecord(v: unknown): JsonObject | undefined {
  if (!isCopyable(v)) return undefined;
  for (const key of Object.keys(v)) if (typeof v[key] !== 'string') return undefined;
  return { ...v } as JsonObject;
}

/** The params of `method`, when the SDK's schema passes them unchanged; undefined sends the request to the SDK path. */
export function readMethodParams(method: FastMethod, params: Record<string, unknown>): MethodParams | undefined {
  switch (method) {
    case 'tools/call':
      return toolParams(params);
    case 'prompts/get':
      return promptParams(params);
    case 'resources/read':
      if (!hasOnlyKeys(params, RESOURCE_KEYS) || typeof params.uri !== 'string') return undefined;
      return { name: params.uri, fields: { uri: params.uri } };
    case 'completion/complete':
      return completionParams(params);
  }
}

function toolParams(params: Record<string, unknown>): MethodParams | undefined {
  const { name, arguments: args } = params;
  if (!hasOnlyKeys(params, TOOL_KEYS) || typeof name !== 'string') return undefined;
  if (args !== undefined && !isCopyable(args)) return undefined;
  const fields: JsonObject = { name };
  if (args !== undefined) fields.arguments = { ...args } as JsonObject;
  return { name, fields };
}

function promptParams(params: Record<string, unknown>): MethodParams | undefined {
  const { name, arguments: args } = params;
  if (!hasOnlyKeys(params, TOOL_KEYS) || typeof name !== 'string') return undefined;
  const fields: JsonObject = { name };
  if (args !== undefined) {
    const record = stringRecord(args);
    if (!record) return undefined;
    fields.arguments = record;
  }
  return { name, fields };
}

/** `ref` (a prompt or a resource template, exactly as its schema has it), `argument`, and `context` with its arguments. */
function completionParams(params: Record<string, unknown>): MethodParams | undefined {
  const { ref, argument, context } = params;
  if (!hasOnlyKeys(params, COMPLETION_KEYS) || !isPlainObject(ref) || !isPlainObject(argument)) return undefined;
  if (Object.keys(ref).length !== 2 || Object.keys(argument).length !== 2) return undefined;
  let refOut: JsonObject;
  if (ref.type === 'ref/prompt' && typeof ref.name === 'string') refOut = { type: 'ref/prompt', name: ref.name };
  else if (ref.type === 'ref/resource' && typeof ref.uri === 'string') refOut = { type: 'ref/resource', uri: ref.uri };
  else return undefined;
  if (typeof argument.name !== 'string' || typeof argument.value !== 'string') return undefined;
  const fields: JsonObject = { ref: refOut, argument: { name: argument.name, value: argument.value } };
  if (context !== undefined) {
    if (!isPlainObject(context) || !hasOnlyKeys(context, CONTEXT_KEYS)) return undefined;
    const contextOut: JsonObject = {};
    if (context.arguments !== undefined) {
      const record = stringRecord(context.arguments);
      if (!record) return undefined;
      contextOut.arguments = record;
    }
    fields.context = contextOut;
  }
  return { name: undefined, fields };
}
