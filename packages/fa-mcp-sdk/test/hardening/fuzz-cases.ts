/**
 * Hostile inputs for the fuzz test, drawn from a seeded PRNG so a failing run
 * can be replayed with FUZZ_SEED=<seed>. Each case is raw bytes plus what a
 * correct server owes it: an answer (a JSON-RPC error, or a result when the
 * message happens to be a valid request) or, for a well-formed notification or
 * response, nothing.
 */

export type Rng = () => number;

/** mulberry32: small, fast, good enough to spread cases; deterministic per seed. */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export interface FuzzCase {
  /** Family of the case, for the summary and failure messages. */
  kind: string;
  body: Buffer;
  /** A request whose params break the method's schema: only an error is a fair answer. */
  mustError?: boolean;
}

export interface FuzzOptions {
  /** Added to object params so 2026-07-28 requests reach the handlers. */
  envelope?: Record<string, unknown>;
  /** The transport's body cap; huge cases straddle it. */
  maxPayloadBytes: number;
}

export const METHODS = [
  'initialize', 'ping', 'tools/list', 'tools/call', 'prompts/list', 'prompts/get', 'resources/list', 'resources/read',
  'resources/templates/list', 'resources/subscribe', 'resources/unsubscribe', 'completion/complete', 'logging/setLevel',
  'server/discover', 'subscriptions/listen', 'tasks/get', 'tasks/list', 'tasks/cancel', 'tasks/result',
  'notifications/initialized', 'notifications/cancelled', 'notifications/progress', 'notifications/roots/list_changed',
] as const;

/** The params each method reads, to give every one of them a wrong type. */
const PARAM_FIELDS: Record<string, string[]> = {
  initialize: ['protocolVersion', 'capabilities', 'clientInfo'],
  'tools/list': ['cursor'],
  'tools/call': ['name', 'arguments', 'task'],
  'prompts/list': ['cursor'],
  'prompts/get': ['name', 'arguments'],
  'resources/list': ['cursor'],
  'resources/read': ['uri'],
  'resources/templates/list': ['cursor'],
  'resources/subscribe': ['uri'],
  'resources/unsubscribe': ['uri'],
  'completion/complete': ['ref', 'argument', 'context'],
  'logging/setLevel': ['level'],
  'tasks/get': ['taskId'],
  'tasks/cancel': ['taskId'],
  'tasks/result': ['taskId'],
  'notifications/cancelled': ['requestId', 'reason'],
  'notifications/progress': ['progressToken', 'progress', 'total'],
};

type JsonKind = 'string' | 'number' | 'object' | 'id';

/** The JSON type each param must have, to pick a value of another type. */
const FIELD_KINDS: Record<string, JsonKind> = {
  protocolVersion: 'string', capabilities: 'object', clientInfo: 'object', cursor: 'string', name: 'string', arguments: 'object',
  task: 'object', uri: 'string', ref: 'object', argument: 'object', context: 'object', level: 'string', taskId: 'string',
  requestId: 'id', reason: 'string', progressToken: 'id', progress: 'number', total: 'number', _meta: 'object',
};

const VALUES_BY_TYPE: Record<string, unknown[]> = {
  null: [null], boolean: [true, false], number: [0, -1, 1.5, 1e308], string: ['', 'x', '\u0000'], array: [[], [1, 'a']],
  object: [{}, { a: 1 }],
};

function typeOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/** A value whose JSON type the field does not accept. */
function wrongTypeFor(rng: Rng, kind: JsonKind): unknown {
  const excluded = kind === 'id' ? ['string', 'number'] : [kind];
  const pool = Object.entries(VALUES_BY_TYPE).filter(([t]) => !excluded.includes(t)).flatMap(([, vs]) => vs);
  const value = pick(rng, pool);
  return excluded.includes(typeOf(value)) ? null : value;
}

/**
 * Every method, every param it reads, each given a value of the wrong JSON type
 * (plus params that are not an object at all): one case each.
 */
export function wrongTypeSweep(rng: Rng, opts: FuzzOptions): FuzzCase[] {
  const out: FuzzCase[] = [];
  for (const method of METHODS) {
    const notification = method.startsWith('notifications/');
    // tools/call's `task` is a 2025-11-25 param; on 2026-07-28 it is an unknown key, rightly ignored.
    const fields = (PARAM_FIELDS[method] ?? ['_meta']).filter((f) => !(opts.envelope && f === 'task'));
    for (const field of fields) {
      const params: Record<string, unknown> = { ...(GOOD_PARAMS[method] ?? {}), [field]: wrongTypeFor(rng, FIELD_KINDS[field] ?? 'object') };
      out.push({ kind: `wrong-type ${method}.${field}`, body: Buffer.from(message(method, params, `sweep-${out.length}`, opts, notification)), mustError: !notification });
    }
    const notAnObject = pick(rng, [5, 'str', [1], true]);
    out.push({ kind: `wrong-type ${method} params`, body: Buffer.from(message(method, notAnObject, `sweep-${out.length}`, opts, notification)), mustError: !notification });
  }
  return out;
}

/** Plausible params, so one wrong field is the only fault. */
const GOOD_PARAMS: Record<string, Record<string, unknown>> = {
  initialize: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
  'tools/call': { name: 'echo', arguments: { text: 'hi' } },
  'prompts/get': { name: 'greet', arguments: { name: 'x' } },
  'resources/read': { uri: 'fuzz://static' },
  'resources/subscribe': { uri: 'fuzz://static' },
  'resources/unsubscribe': { uri: 'fuzz://static' },
  'completion/complete': { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: 'a' } },
  'logging/setLevel': { level: 'info' },
  'tasks/get': { taskId: 't' },
  'tasks/cancel': { taskId: 't' },
  'tasks/result': { taskId: 't' },
  'notifications/cancelled': { requestId: 1 },
  'notifications/progress': { progressToken: 1, progress: 1 },
};

const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;
const int = (rng: Rng, min: number, max: number): number => min + Math.floor(rng() * (max - min + 1));

function nestedArray(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

function nestedObject(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** Values of every JSON type, odd numbers, prototype keys, and a few large ones. */
function wrongValue(rng: Rng): unknown {
  switch (int(rng, 0, 17)) {
    case 0: return null;
    case 1: return true;
    case 2: return 0;
    case 3: return -1;
    case 4: return 1.5;
    case 5: return 1e308;
    case 6: return '';
    case 7: return 'x'.repeat(int(rng, 1, 64));
    case 8: return [];
    case 9: return [1, 'a', null];
    case 10: return {};
    case 11: return { a: { b: { c: [1, 2, 3] } } };
    case 12: return JSON.parse('{"__proto__":{"polluted":"yes"}}');
    case 13: return { constructor: { prototype: { polluted: 'yes' } } };
    case 14: return '\u0000\u202e\ud800';
    case 15: return -0;
    case 16: return Number.MAX_SAFE_INTEGER + 2;
    default: return 'y'.repeat(int(rng, 1_000, 20_000));
  }
}

function idValue(rng: Rng): unknown {
  return pick(rng, [1, 'a', 0, -5, 'id-' + int(rng, 0, 1e6), 1.25, null, true, [], {}, 'z'.repeat(300)]);
}

function withEnvelope(params: unknown, opts: FuzzOptions): unknown {
  if (!opts.envelope || !params || typeof params !== 'object' || Array.isArray(params)) return params;
  const p = params as Record<string, unknown>;
  const own = p._meta;
  if (own !== undefined && (typeof own !== 'object' || own === null || Array.isArray(own))) return p; // a wrong _meta stays wrong
  return { ...p, _meta: { ...opts.envelope, ...((own as object | undefined) ?? {}) } };
}

function message(method: string, params: unknown, id: unknown, opts: FuzzOptions, notification = false): string {
  const body: Record<string, unknown> = { jsonrpc: '2.0', method };
  if (!notification) body.id = id;
  if (params !== undefined) body.params = withEnvelope(params, opts);
  return JSON.stringify(body);
}

/** A valid-looking request with one param of a wrong type. */
function wrongParamType(rng: Rng, opts: FuzzOptions): string {
  const method = pick(rng, METHODS);
  const fields = PARAM_FIELDS[method] ?? ['_meta'];
  const params: Record<string, unknown> = { ...(GOOD_PARAMS[method] ?? {}) };
  params[pick(rng, fields)] = wrongValue(rng);
  if (method === 'tools/call' && rng() < 0.5) params.arguments = { text: wrongValue(rng) };
  return message(method, params, int(rng, 1, 1e6), opts, method.startsWith('notifications/'));
}

function wrongParamsShape(rng: Rng, opts: FuzzOptions): string {
  const method = pick(rng, METHODS);
  return message(method, pick(rng, [5, 'str', [], [1, 2], null, true]), int(rng, 1, 1e6), opts);
}

function wrongEnvelope(rng: Rng, opts: FuzzOptions): string {
  const variants: unknown[] = [
    null, 5, 'x', [], { jsonrpc: '2.0' }, { jsonrpc: '1.0', id: 1, method: 'ping' }, { id: 1, method: 'ping' },
    { jsonrpc: '2.0', id: 1 }, { jsonrpc: '2.0', id: 1, method: 5 }, { jsonrpc: '2.0', id: 1, method: '' },
    { jsonrpc: '2.0', id: idValue(rng), method: 'tools/list', params: withEnvelope({}, opts) },
    { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'x' } },
    { jsonrpc: '2.0', id: 1, error: { code: 'x' } },
    { jsonrpc: 2, id: 1, method: 'ping' },
    [{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' }],
    [1, 2, 3],
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: withEnvelope({ name: 'echo', arguments: { text: 'a' } }, opts), extra: { deep: [1] } },
  ];
  return JSON.stringify(pick(rng, variants));
}

function unknownMethod(rng: Rng, opts: FuzzOptions): string {
  const name = pick(rng, ['', 'x', 'tools/', '/tools/list', 'tools/call/extra', 'TOOLS/LIST', 'rpc.discover', '__proto__', 'constructor',
    'toString', 'hasOwnProperty', 'notifications/../tools/list', 'é/ü', 'm'.repeat(int(rng, 100, 5_000))]);
  return message(name, withEnvelope({}, opts), int(rng, 1, 1e6), opts);
}

function malformedJson(rng: Rng, opts: FuzzOptions): string {
  const valid = message('tools/list', {}, 7, opts);
  switch (int(rng, 0, 9)) {
    case 0: return valid.slice(0, int(rng, 1, valid.length - 1));
    case 1: return valid.replace(/"/g, "'");
    case 2: return `${valid},`;
    case 3: return `{"jsonrpc":"2.0","id":1,"method":"ping",}`;
    case 4: return `{"jsonrpc":"2.0","id":NaN,"method":"ping"}`;
    case 5: return '';
    case 6: return '\u0000\u0001\u0002';
    case 7: return `${valid}${valid}`;
    case 8: return Array.from({ length: int(rng, 1, 200) }, () => String.fromCharCode(int(rng, 32, 126))).join('');
    default: return `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":"\\u12"}}`;
  }
}

function huge(rng: Rng, opts: FuzzOptions): string {
  const cap = opts.maxPayloadBytes;
  switch (int(rng, 0, 4)) {
    case 0: // just under the cap, inside a tool argument
      return message('tools/call', { name: 'echo', arguments: { text: 'h'.repeat(cap - 600) } }, 11, opts);
    case 1: // just over the cap
      return message('tools/call', { name: 'echo', arguments: { text: 'h'.repeat(cap + 10) } }, 12, opts);
    case 2: // many keys
      return message('tools/call', { name: 'echo', arguments: Object.fromEntries(Array.from({ length: Math.floor(cap / 20) }, (_, i) => [`k${i}`, i])) }, 13, opts);
    case 3: // a long array of small values
      return message('tools/list', { cursor: Array.from({ length: Math.floor(cap / 4) }, () => 0) }, 14, opts);
    default: // huge number literal
      return `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"n":1${'0'.repeat(Math.min(cap - 100, 5_000))}}}`;
  }
}

function deeplyNested(rng: Rng, opts: FuzzOptions): string {
  const depth = Math.min(int(rng, 1_000, 20_000), Math.floor(opts.maxPayloadBytes / 6) - 100);
  const meta = opts.envelope ? `,"_meta":${JSON.stringify(opts.envelope)}` : '';
  switch (int(rng, 0, 3)) {
    case 0: return nestedArray(depth);
    case 1: return `{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"echo","arguments":{"text":${nestedArray(depth)}}${meta}}}`;
    case 2: return `{"jsonrpc":"2.0","id":22,"method":"tools/call","params":{"name":"echo","arguments":${nestedObject(depth)}${meta}}}`;
    default: return `{"jsonrpc":"2.0","id":23,"method":"tools/list","params":{"cursor":"c","_meta":${nestedObject(depth)}}}`;
  }
}

const BAD_UTF8: readonly number[][] = [[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xc0, 0xaf], [0xe2, 0x82], [0xfe, 0xff]];

function invalidUtf8(rng: Rng, opts: FuzzOptions): Buffer {
  const bad = Buffer.from(pick(rng, BAD_UTF8));
  const text = message('tools/call', { name: 'echo', arguments: { text: 'AB' } }, 31, opts);
  switch (int(rng, 0, 3)) {
    case 0: { // inside a string value
      const at = text.indexOf('AB') + 1;
      return Buffer.concat([Buffer.from(text.slice(0, at)), bad, Buffer.from(text.slice(at))]);
    }
    case 1: // in the method name
      return Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":32,"method":"tools/'), bad, Buffer.from('list"}')]);
    case 2: // between tokens
      return Buffer.concat([Buffer.from('{"jsonrpc":"2.0",'), bad, Buffer.from('"id":33,"method":"ping"}')]);
    default: // a truncated sequence at the end
      return Buffer.concat([Buffer.from(text), Buffer.from([0xe2, 0x82])]);
  }
}

type Generator = (rng: Rng, opts: FuzzOptions) => string | Buffer;

const GENERATORS: ReadonlyArray<[string, Generator]> = [
  ['malformed-json', malformedJson],
  ['wrong-envelope', wrongEnvelope],
  ['wrong-params-shape', wrongParamsShape],
  ['wrong-param-type', wrongParamType],
  ['unknown-method', unknownMethod],
  ['huge', huge],
  ['deeply-nested', deeplyNested],
  ['invalid-utf8', invalidUtf8],
];

/** `count` cases, every family in turn (so each appears), contents from the PRNG. */
export function generateCases(rng: Rng, count: number, opts: FuzzOptions): FuzzCase[] {
  const out: FuzzCase[] = [];
  for (let i = 0; i < count; i++) {
    const [kind, gen] = GENERATORS[i % GENERATORS.length] as [string, Generator];
    const made = gen(rng, opts);
    out.push({ kind, body: typeof made === 'string' ? Buffer.from(made, 'utf8') : made });
  }
  return out;
}

/** For stdio: one line per message, so a case may not contain a raw newline. */
export const oneLine = (body: Buffer): Buffer => Buffer.from(body.toString('latin1').replace(/[\r\n]/g, ' '), 'latin1');
