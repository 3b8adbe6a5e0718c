/**
 * Compatibility of two JSON Schemas of a tool. For an input schema a change is breaking when a call
 * that was valid before may be refused now (a new required field, a removed field, a narrower
 * type); for an output schema when a result a client relied on may be missing or different now
 * (a removed field, a field no longer required, a wider type). Everything the rules cannot prove
 * compatible is MAJOR; wording (description, title, examples) is PATCH.
 */
import { jsonEqual, sortKeys } from './canonical-json.js';
import { short, type ChangeLevel, type Emit } from './change.js';

export type SchemaDirection = 'input' | 'output';
type Schema = Record<string, unknown>;

const WORDING = new Set(['description', 'title', 'examples', '$comment', '$schema', 'deprecated', 'readOnly', 'writeOnly']);
const HANDLED = new Set(['type', 'enum', 'const', 'properties', 'required', 'additionalProperties', 'items', 'default']);
/** Bounds where a larger value is looser (max*) or tighter (min*). */
const UPPER = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties']);
const LOWER = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']);

const isObject = (v: unknown): v is Schema => !!v && typeof v === 'object' && !Array.isArray(v);
const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

function typeSet(schema: Schema): Set<string> | undefined {
  const t = schema.type;
  if (t === undefined) return undefined;
  const types = new Set(Array.isArray(t) ? t.map(String) : [String(t)]);
  if (types.has('number')) types.add('integer'); // every integer is a number
  return types;
}

const subset = (a: Set<string>, b: Set<string>) => [...a].every((x) => b.has(x));
const values = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A change that is safe in one direction and breaking in the other. */
function directional(dir: SchemaDirection, looser: boolean): ChangeLevel {
  if (dir === 'input') return looser ? 'minor' : 'major';
  return looser ? 'major' : 'minor';
}

function compareType(a: Schema, b: Schema, dir: SchemaDirection, path: string, emit: Emit): void {
  const before = typeSet(a);
  const after = typeSet(b);
  if (jsonEqual(a.type, b.type)) return;
  const where = join(path, 'type');
  if (!before || !after) {
    // No type means any type: dropping it accepts (input) or may return (output) more.
    emit(directional(dir, !after), where, `type ${short(a.type)} -> ${short(b.type)}`);
    return;
  }
  if (subset(before, after)) emit(directional(dir, true), where, `type widened ${short(a.type)} -> ${short(b.type)}`);
  else if (subset(after, before)) emit(directional(dir, false), where, `type narrowed ${short(a.type)} -> ${short(b.type)}`);
  else emit('major', where, `type changed ${short(a.type)} -> ${short(b.type)}`);
}

function compareEnum(a: Schema, b: Schema, dir: SchemaDirection, path: string, emit: Emit): void {
  for (const key of ['enum', 'const'] as const) {
    if (jsonEqual(a[key], b[key])) continue;
    const where = join(path, key);
    const before = key === 'const' ? (a.const === undefined ? undefined : [a.const]) : a.enum === undefined ? undefined : values(a.enum);
    const after = key === 'const' ? (b.const === undefined ? undefined : [b.const]) : b.enum === undefined ? undefined : values(b.enum);
    if (!before || !after) {
      emit(directional(dir, !after), where, `${key} ${after ? 'added' : 'removed'}: ${short(after ?? before)}`);
      continue;
    }
    const removed = before.filter((v) => !after.some((w) => jsonEqual(v, w)));
    const added = after.filter((v) => !before.some((w) => jsonEqual(v, w)));
    // Input: a removed value refuses calls that worked. Output: a client must cope with new values,
    // which additive releases bring; removed values cannot surprise it.
    if (removed.length) emit(dir === 'input' ? 'major' : 'minor', where, `values removed: ${short(removed)}`);
    if (added.length) emit('minor', where, `values added: ${short(added)}`);
  }
}

function compareProperties(a: Schema, b: Schema, dir: SchemaDirection, path: string, emit: Emit): void {
  const before = isObject(a.properties) ? a.properties : {};
  const after = isObject(b.properties) ? b.properties : {};
  const reqBefore = new Set(values(a.required).map(String));
  const reqAfter = new Set(values(b.required).map(String));
  for (const name of Object.keys(before)) {
    const where = join(path, `properties.${name}`);
    if (!(name in after)) {
      emit('major', where, dir === 'input' ? `input field "${name}" removed (calls that send it break)` : `output field "${name}" removed`);
    } else {
      compareSchemas(before[name], after[name], dir, where, emit);
    }
  }
  for (const name of Object.keys(after)) {
    if (name in before) continue;
    const where = join(path, `properties.${name}`);
    if (dir === 'input' && reqAfter.has(name)) emit('major', where, `new required input field "${name}"`);
    else emit('minor', where, `new ${reqAfter.has(name) ? 'required' : 'optional'} ${dir} field "${name}"`);
  }
  for (const name of reqAfter) {
    if (reqBefore.has(name) || !(name in before)) continue;
    emit(directional(dir, false), join(path, 'required'), `field "${name}" is now required`);
  }
  for (const name of reqBefore) {
    if (reqAfter.has(name) || !(name in after)) continue;
    emit(directional(dir, true), join(path, 'required'), `field "${name}" is no longer required`);
  }
}

function compareAdditional(a: Schema, b: Schema, dir: SchemaDirection, path: string, emit: Emit): void {
  if (jsonEqual(a.additionalProperties, b.additionalProperties)) return;
  const where = join(path, 'additionalProperties');
  const open = (v: unknown) => v === undefined || v === true;
  if (isObject(a.additionalProperties) && isObject(b.additionalProperties)) {
    compareSchemas(a.additionalProperties, b.additionalProperties, dir, where, emit);
  } else if (open(a.additionalProperties) !== open(b.additionalProperties)) {
    const looser = open(b.additionalProperties);
    emit(dir === 'input' ? directional(dir, looser) : 'minor', where, `unknown fields ${looser ? 'now allowed' : 'no longer allowed'}`);
  } else {
    emit(dir === 'input' ? 'major' : 'minor', where, `${short(a.additionalProperties)} -> ${short(b.additionalProperties)}`);
  }
}

function compareBounds(key: string, a: Schema, b: Schema, dir: SchemaDirection, path: string, emit: Emit): void {
  const before = a[key];
  const after = b[key];
  const where = join(path, key);
  if (typeof before === 'number' && typeof after === 'number') {
    const looser = UPPER.has(key) ? after > before : after < before;
    emit(dir === 'input' ? directional(dir, looser) : 'minor', where, `${key} ${before} -> ${after}`);
    return;
  }
  // A bound added tightens; a bound removed loosens.
  const looser = after === undefined;
  emit(dir === 'input' ? directional(dir, looser) : 'minor', where, `${key} ${looser ? 'removed' : 'added'}: ${short(looser ? before : after)}`);
}

/** Emits every difference between schema `a` (before) and `b` (after). */
export function compareSchemas(a: unknown, b: unknown, dir: SchemaDirection, path: string, emit: Emit): void {
  if (jsonEqual(a, b)) return;
  if (!isObject(a) || !isObject(b)) {
    emit('major', path, `schema ${short(a)} -> ${short(b)}`);
    return;
  }
  compareType(a, b, dir, path, emit);
  compareEnum(a, b, dir, path, emit);
  compareProperties(a, b, dir, path, emit);
  compareAdditional(a, b, dir, path, emit);
  if (!jsonEqual(a.items, b.items)) {
    if (a.items !== undefined && b.items !== undefined) compareSchemas(a.items, b.items, dir, join(path, 'items'), emit);
    else emit(directional(dir, b.items === undefined), join(path, 'items'), `items ${b.items === undefined ? 'removed' : 'added'}`);
  }
  if (!jsonEqual(a.default, b.default)) {
    emit(dir === 'input' ? 'minor' : 'patch', join(path, 'default'), `default ${short(a.default)} -> ${short(b.default)}`);
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of [...keys].sort()) {
    if (HANDLED.has(key) || jsonEqual(a[key], b[key])) continue;
    const where = join(path, key);
    if (WORDING.has(key) || key.startsWith('x-')) emit('patch', where, `${key} changed`);
    else if (UPPER.has(key) || LOWER.has(key)) compareBounds(key, a, b, dir, path, emit);
    else {
      // pattern, format, oneOf, $ref, ...: not proven compatible.
      emit(dir === 'input' ? 'major' : 'minor', where, `${key} ${short(sortKeys(a[key]), 60)} -> ${short(sortKeys(b[key]), 60)}`);
    }
  }
}
