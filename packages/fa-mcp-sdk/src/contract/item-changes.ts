/**
 * Classified differences of one tool, prompt, resource or template between two snapshots.
 * Wording (title, description, icons, _meta) is PATCH; what a client acts on is MINOR or MAJOR.
 */
import { jsonEqual } from './canonical-json.js';
import { short, type Emit } from './change.js';
import { compareSchemas } from './schema-changes.js';
import type { ListKind } from './snapshot-types.js';

type Item = Record<string, unknown>;
const WORDING = new Set(['title', 'description', 'icons', '_meta']);

function isObject(v: unknown): v is Item {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function otherFields(a: Item, b: Item, handled: Set<string>, emit: Emit): void {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of [...keys].sort()) {
    if (handled.has(key) || jsonEqual(a[key], b[key])) continue;
    if (WORDING.has(key)) emit('patch', key, `${key} changed`);
    else emit('minor', key, `${key} ${short(a[key])} -> ${short(b[key])}`);
  }
}

function toolChanges(a: Item, b: Item, emit: Emit): void {
  compareSchemas(a.inputSchema, b.inputSchema, 'input', 'inputSchema', emit);
  if (a.outputSchema === undefined && b.outputSchema !== undefined) emit('minor', 'outputSchema', 'output schema added');
  else if (a.outputSchema !== undefined && b.outputSchema === undefined) emit('major', 'outputSchema', 'output schema removed');
  else compareSchemas(a.outputSchema, b.outputSchema, 'output', 'outputSchema', emit);

  const annA = isObject(a.annotations) ? a.annotations : {};
  const annB = isObject(b.annotations) ? b.annotations : {};
  for (const key of [...new Set([...Object.keys(annA), ...Object.keys(annB)])].sort()) {
    if (jsonEqual(annA[key], annB[key])) continue;
    // Hints change what a client does (confirm before a destructive call, retry an idempotent one).
    emit(key === 'title' ? 'patch' : 'minor', `annotations.${key}`, `${key} ${short(annA[key])} -> ${short(annB[key])}`);
  }
  const taskA = isObject(a.execution) ? a.execution.taskSupport : undefined;
  const taskB = isObject(b.execution) ? b.execution.taskSupport : undefined;
  if (taskA !== taskB) {
    emit(taskB === 'required' ? 'major' : 'minor', 'execution.taskSupport', `task support ${short(taskA)} -> ${short(taskB)}`);
  }
  otherFields(a, b, new Set(['name', 'inputSchema', 'outputSchema', 'annotations', 'execution']), emit);
}

function promptChanges(a: Item, b: Item, emit: Emit): void {
  const args = (item: Item) => new Map((Array.isArray(item.arguments) ? item.arguments : []).filter(isObject).map((arg) => [String(arg.name), arg]));
  const before = args(a);
  const after = args(b);
  for (const [name, arg] of before) {
    const next = after.get(name);
    const where = `arguments.${name}`;
    if (!next) {
      emit('major', where, `argument "${name}" removed`);
      continue;
    }
    if (!arg.required && next.required) emit('major', where, `argument "${name}" is now required`);
    if (arg.required && !next.required) emit('minor', where, `argument "${name}" is no longer required`);
    for (const key of ['title', 'description']) if (!jsonEqual(arg[key], next[key])) emit('patch', `${where}.${key}`, `${key} changed`);
  }
  for (const [name, arg] of after) {
    if (before.has(name)) continue;
    emit(arg.required ? 'major' : 'minor', `arguments.${name}`, `new ${arg.required ? 'required' : 'optional'} argument "${name}"`);
  }
  otherFields(a, b, new Set(['name', 'arguments']), emit);
}

function resourceChanges(a: Item, b: Item, key: string, emit: Emit): void {
  if (!jsonEqual(a.mimeType, b.mimeType)) {
    emit('major', 'mimeType', `content type ${short(a.mimeType)} -> ${short(b.mimeType)} (readers parse by it)`);
  }
  const wording = new Set([key, 'mimeType', 'name', 'size', 'annotations']);
  for (const field of ['name', 'size', 'annotations']) {
    if (!jsonEqual(a[field], b[field])) emit('patch', field, `${field} changed`);
  }
  otherFields(a, b, wording, emit);
}

/** Emits every difference between two versions of the same item. */
export function compareItems(kind: ListKind, key: string, a: Item, b: Item, emit: Emit): void {
  if (kind === 'tools') toolChanges(a, b, emit);
  else if (kind === 'prompts') promptChanges(a, b, emit);
  else resourceChanges(a, b, key, emit);
}
