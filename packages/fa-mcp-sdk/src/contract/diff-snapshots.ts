/**
 * Classifies every difference between two contract snapshots by the versioning policy:
 * removing a tool, prompt, resource, template or HTTP endpoint, a new required input field and a
 * removed output field are MAJOR; new items and optional fields are MINOR; wording is PATCH.
 */
import { jsonEqual } from './canonical-json.js';
import { short, verdictOf, type Bump, type ChangeLevel, type ContractChange, type Emit } from './change.js';
import { compareItems } from './item-changes.js';
import { ITEM_KEYS, KIND_NOUN, LIST_KINDS, type ContractSnapshot, type HttpEndpoint } from './snapshot-types.js';

export interface SnapshotDiff {
  changes: ContractChange[];
  verdict: Bump;
}

export interface DiffOptions {
  /** Also report `serverInfo.version` (ignored by default: it is the version, not the contract). */
  includeVersion?: boolean;
}

type Item = Record<string, unknown>;

function emitterFor(out: ContractChange[], subject: string): Emit {
  return (level: ChangeLevel, path: string, message: string) => out.push({ level, subject, path, message });
}

function compareCapabilities(a: unknown, b: unknown, path: string, emit: Emit): void {
  if (jsonEqual(a, b)) return;
  const objA = a && typeof a === 'object' ? (a as Item) : undefined;
  const objB = b && typeof b === 'object' ? (b as Item) : undefined;
  if (!objA || !objB) {
    const removed = b === undefined || b === false;
    emit(removed ? 'major' : 'minor', path, `capability ${removed ? 'removed' : a === undefined ? 'added' : 'changed'}: ${short(a)} -> ${short(b)}`);
    return;
  }
  for (const key of [...new Set([...Object.keys(objA), ...Object.keys(objB)])].sort()) {
    compareCapabilities(objA[key], objB[key], path ? `${path}.${key}` : key, emit);
  }
}

function compareServer(a: ContractSnapshot, b: ContractSnapshot, opts: DiffOptions, out: ContractChange[]): void {
  const emit = emitterFor(out, 'server');
  if (a.protocolVersion !== b.protocolVersion) emit('minor', 'protocolVersion', `${a.protocolVersion} -> ${b.protocolVersion}`);
  compareCapabilities(a.capabilities, b.capabilities, 'capabilities', emit);
  if (!jsonEqual(a.instructions, b.instructions)) emit('patch', 'instructions', a.instructions === undefined ? 'instructions added' : b.instructions === undefined ? 'instructions removed' : 'instructions changed');
  const infoA = a.serverInfo ?? {};
  const infoB = b.serverInfo ?? {};
  for (const key of [...new Set([...Object.keys(infoA), ...Object.keys(infoB)])].sort()) {
    if (jsonEqual(infoA[key], infoB[key])) continue;
    if (key === 'version') {
      if (opts.includeVersion) emit('patch', 'serverInfo.version', `${short(infoA.version)} -> ${short(infoB.version)}`);
      continue;
    }
    emit(key === 'name' ? 'minor' : 'patch', `serverInfo.${key}`, `${key} ${short(infoA[key])} -> ${short(infoB[key])}`);
  }
}

function compareLists(a: ContractSnapshot, b: ContractSnapshot, out: ContractChange[]): void {
  for (const kind of LIST_KINDS) {
    const key = ITEM_KEYS[kind];
    const before = new Map((a[kind] ?? []).map((item) => [String(item[key]), item as Item]));
    const after = new Map((b[kind] ?? []).map((item) => [String(item[key]), item as Item]));
    for (const [id, item] of before) {
      const subject = `${KIND_NOUN[kind]} "${id}"`;
      const next = after.get(id);
      if (!next) out.push({ level: 'major', subject, path: '', message: `${KIND_NOUN[kind]} removed` });
      else compareItems(kind, key, item, next, emitterFor(out, subject));
    }
    for (const id of after.keys()) {
      if (!before.has(id)) out.push({ level: 'minor', subject: `${KIND_NOUN[kind]} "${id}"`, path: '', message: `new ${KIND_NOUN[kind]}` });
    }
  }
}

function compareEndpoints(a: HttpEndpoint[] | undefined, b: HttpEndpoint[] | undefined, out: ContractChange[]): void {
  if (!a || !b) return; // one side was taken without HTTP routes: nothing to compare
  const id = (e: HttpEndpoint) => `${e.method} ${e.path}`;
  const before = new Set(a.map(id));
  const after = new Set(b.map(id));
  for (const e of before) if (!after.has(e)) out.push({ level: 'major', subject: `endpoint ${e}`, path: '', message: 'HTTP endpoint removed' });
  for (const e of after) if (!before.has(e)) out.push({ level: 'minor', subject: `endpoint ${e}`, path: '', message: 'new HTTP endpoint' });
}

const RANK: Record<ChangeLevel, number> = { major: 0, minor: 1, patch: 2 };

export function diffSnapshots(before: ContractSnapshot, after: ContractSnapshot, opts: DiffOptions = {}): SnapshotDiff {
  const changes: ContractChange[] = [];
  compareServer(before, after, opts, changes);
  compareLists(before, after, changes);
  compareEndpoints(before.endpoints, after.endpoints, changes);
  changes.sort((x, y) => RANK[x.level] - RANK[y.level] || x.subject.localeCompare(y.subject, 'en') || x.path.localeCompare(y.path, 'en'));
  return { changes, verdict: verdictOf(changes) };
}
