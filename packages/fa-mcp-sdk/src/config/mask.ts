/**
 * Secret masking: the one rule for everything the server shows or writes, in one place, so no
 * surface can drift from the others. `fa-mcp config print` (maskConfig), the values `config
 * validate` quotes (displayValue), every log line (ops/logger.ts: maskedView and
 * maskSecretsInString), /ready (ops/health.ts), the trace file, the audit trail's masked arguments
 * (audit/audit-arguments.ts) and `maskSecrets()` all call it.
 *
 * 1. A property whose name names a credential (`isSecretKey`), and every `headers` map, hides its
 *    value: a string or a number becomes `***`; inside an object or an array every string and
 *    number does (the names stay); booleans and null stay, they never are the secret.
 * 2. In every other string: the userinfo of a URL (`scheme://user:password@host` ->
 *    `scheme://***@host`), `Bearer …` / `Basic …` credentials, and the value of `name=value` and
 *    `"name": "value"` whose name names a credential (`?access_token=…`, `password=…` of a
 *    connection string, a JSON body in an error message) become `***`.
 * 3. Guided by a configuration schema: a value marked `x-secret` is `***` whatever it is, and a
 *    declared section (`webServer.auth.jwtToken`) is judged key by key rather than hidden for its name.
 */
import { isPlainObject, isSection, type SchemaNode } from './schema-node.js';

export const MASK = '***';

/** Last words of a property name that make it a credential (compared in lower case). */
const CREDENTIAL_WORDS = new Set([
  'password', 'passwords', 'passwd', 'pwd', 'pass', 'passphrase',
  'secret', 'secrets', 'token', 'tokens', 'bearer',
  'authorization', 'cookie', 'cookies', 'credential', 'credentials',
  'apikey', 'apikeys', 'headers',
]);
/** `…Key` is a credential after one of these words (`apiKey`, `x-api-key`, `privateKey`); not `publicKey`, `idempotencyKey`. */
const KEY_QUALIFIERS = new Set(['api', 'private', 'secret', 'access', 'encrypt', 'encryption', 'signing', 'client', 'master', 'session', 'auth', 'hmac', 'shared']);
/** A cheap first look: a name without any of these is no credential. */
const MAYBE_SECRET = /pass|pwd|secret|token|bearer|authori|cookie|credential|key|headers/i;
const MAX_DEPTH = 32;

/**
 * True when the value of a property of this name is hidden: its last word names a credential
 * (`password`, `clientSecret`, `refresh_token`, `Authorization`, `set-cookie`, `apiKey`,
 * `x-api-key`, `privateKey` …), or it is a `headers` map. `tokenCheck`, `secretEnv`,
 * `passingOnly`, `publicKey` and a bare `key` are not.
 */
export function isSecretKey(key: string): boolean {
  if (!MAYBE_SECRET.test(key)) return false;
  const words = key
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
  const last = words[words.length - 1];
  if (last === undefined) return false;
  if (CREDENTIAL_WORDS.has(last)) return true;
  const before = words[words.length - 2];
  return (last === 'key' || last === 'keys') && before !== undefined && KEY_QUALIFIERS.has(before);
}

/** `scheme://userinfo@`: the authority up to its last `@` (a password may hold an unescaped one). */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#]+@/gi;
const AUTH_SCHEME = /\b(Bearer|Basic)(\s+)([A-Za-z0-9\-._~+/]+=*)/gi;
/** A credential is not a plain lower-case word ("Basic authentication", "Bearer token"). */
const LOOKS_LIKE_CREDENTIAL = /[0-9A-Z\-._~+/=]/;
const NAME_VALUE = /([A-Za-z][A-Za-z0-9_.-]*)=([^\s&;,'"()<>[\]{}]+)/g;
const JSON_PAIR = /"([^"\\]{1,64})"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g;

/** Masks the credentials inside free text (rule 2). */
export function maskSecretsInString(text: string): string {
  let out = text;
  if (out.includes('://')) out = out.replace(URL_USERINFO, `$1${MASK}@`);
  if (/bearer|basic/i.test(out)) {
    out = out.replace(AUTH_SCHEME, (match: string, scheme: string, space: string, value: string) => (LOOKS_LIKE_CREDENTIAL.test(value) ? `${scheme}${space}${MASK}` : match));
  }
  if (out.includes('=')) out = out.replace(NAME_VALUE, (match: string, name: string) => (isSecretKey(name) ? `${name}=${MASK}` : match));
  if (out.includes('":')) out = out.replace(JSON_PAIR, (match: string, name: string, colon: string) => (isSecretKey(name) ? `"${name}"${colon}"${MASK}"` : match));
  return out;
}

interface Walk {
  /** Copy every object and array (maskSecrets, maskConfig), or only those where something was masked (maskedView). */
  copy: boolean;
  seen: WeakSet<object>;
}

function childNode(node: SchemaNode | undefined, key: string): SchemaNode | undefined {
  if (!node) return undefined;
  const declared = node.properties?.[key];
  if (declared) return declared;
  if (isPlainObject(node.additionalProperties)) return node.additionalProperties as SchemaNode;
  return undefined;
}

/** Whether the value under `key` is hidden (rule 1), a declared schema section aside (rule 3). */
function hidesChild(node: SchemaNode | undefined, key: string, child: SchemaNode | undefined, hidden: boolean): boolean {
  if (child !== undefined && node?.properties?.[key] === child && isSection(child)) return false;
  return hidden || isSecretKey(key);
}

function walk(value: unknown, hidden: boolean, node: SchemaNode | undefined, w: Walk, depth: number): unknown {
  if (node?.['x-secret'] === true && value !== undefined) return MASK;
  if (typeof value === 'string') return hidden ? MASK : maskSecretsInString(value);
  if (typeof value === 'number' || typeof value === 'bigint') return hidden ? MASK : value;
  if (value === null || typeof value !== 'object') return value;
  if (w.seen.has(value)) return w.copy ? '[Circular]' : value;
  if (depth >= MAX_DEPTH) return w.copy ? '[Truncated]' : value;
  const isArray = Array.isArray(value);
  const proto = Object.getPrototypeOf(value) as unknown;
  if (!isArray && proto !== Object.prototype && proto !== null) {
    // Instances: the logger's view leaves them to their serializers; a copy makes them plain data.
    if (!w.copy) return value;
    if (value instanceof Date) return new Date(value.getTime());
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return `[Binary ${value.byteLength} bytes]`;
  }
  w.seen.add(value);
  try {
    if (isArray) return walkArray(value, hidden, node?.items, w, depth + 1);
    if (value instanceof Map) {
      const copy = new Map<unknown, unknown>();
      for (const [k, v] of value) copy.set(k, walk(v, hidden || (typeof k === 'string' && isSecretKey(k)), undefined, w, depth + 1));
      return copy;
    }
    if (value instanceof Set) return new Set([...value].map((item) => walk(item, hidden, undefined, w, depth + 1)));
    return walkRecord(value as Record<string, unknown>, hidden, node, w, depth + 1);
  } finally {
    w.seen.delete(value);
  }
}

function walkArray(value: unknown[], hidden: boolean, items: SchemaNode | undefined, w: Walk, depth: number): unknown[] {
  let out: unknown[] | undefined = w.copy ? [] : undefined;
  value.forEach((item, i) => {
    const masked = walk(item, hidden, items, w, depth);
    if (!w.copy && masked === item) return;
    out ??= [...value];
    out[i] = masked;
  });
  return out ?? value;
}

function walkRecord(value: Record<string, unknown>, hidden: boolean, node: SchemaNode | undefined, w: Walk, depth: number): Record<string, unknown> {
  let out: Record<string, unknown> | undefined = w.copy ? {} : undefined;
  if (out && value instanceof Error) {
    // name, message and stack are not enumerable: carried over explicitly.
    out.name = value.name;
    out.message = walk(value.message, hidden, undefined, w, depth);
    if (value.stack !== undefined) out.stack = walk(value.stack, hidden, undefined, w, depth);
  }
  for (const key of Object.keys(value)) {
    const item = value[key];
    const child = childNode(node, key);
    const masked = walk(item, hidesChild(node, key, child, hidden), child, w, depth);
    if (!w.copy && masked === item) continue;
    out ??= { ...value };
    out[key] = masked;
  }
  return out ?? value;
}

/**
 * A masked deep copy of any value; the input is left untouched. Cycles become `[Circular]`,
 * nesting past 32 levels `[Truncated]`, buffers `[Binary N bytes]`; errors become plain objects
 * with their name, message and stack.
 */
export function maskSecrets(value: unknown): unknown {
  return walk(value, false, undefined, { copy: true, seen: new WeakSet() }, 0);
}

/**
 * The same rule for a value about to be logged: the value itself when nothing in it needed
 * masking, else a copy of only the parts that changed. Only plain objects and arrays are entered
 * (instances are left to the logger's serializers).
 */
export function maskedView<T>(value: T): T {
  return walk(value, false, undefined, { copy: false, seen: new WeakSet() }, 0) as T;
}

/**
 * A deep copy of `config` with the rule applied, guided by `schema`: every value marked
 * `x-secret`, every value under a key that names a credential and every header value is `***`.
 */
export function maskConfig<T>(config: T, schema: SchemaNode): T {
  return walk(config, false, schema, { copy: true, seen: new WeakSet() }, 0) as T;
}

/** Whether the value at `path` of a configuration is hidden (x-secret, or rule 1 along the path). */
function hiddenAt(path: readonly string[], schema: SchemaNode | undefined): { hidden: boolean; node: SchemaNode | undefined } {
  let node = schema;
  let hidden = false;
  for (const key of path) {
    const child = childNode(node, key) ?? (/^\d+$/.test(key) ? node?.items : undefined);
    hidden = hidesChild(node, key, child, hidden) || child?.['x-secret'] === true;
    node = child;
  }
  return { hidden, node };
}

/** How a configuration value at `path` is quoted in an error message: masked JSON, or "a hidden value". */
export function displayValue(value: unknown, path: readonly string[], schema?: SchemaNode): string {
  const at = hiddenAt(path, schema);
  if (at.hidden) return 'a hidden value';
  if (value === undefined) return 'undefined';
  const masked = walk(value, false, at.node, { copy: true, seen: new WeakSet() }, 0);
  const text = JSON.stringify(masked) ?? String(masked);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
