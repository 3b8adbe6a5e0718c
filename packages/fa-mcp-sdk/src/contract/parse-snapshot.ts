/** Reads a contract file's text, checking that it is a snapshot this version understands. */
import { SNAPSHOT_FORMAT, type ContractSnapshot } from './snapshot-types.js';

export function parseSnapshot(text: string, source = 'contract file'): ContractSnapshot {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`${source}: not JSON: ${(err as Error).message}`);
  }
  const snap = value as Partial<ContractSnapshot> | null;
  if (!snap || typeof snap !== 'object' || snap.format !== SNAPSHOT_FORMAT) {
    throw new Error(`${source}: not a contract snapshot (expected "format": "${SNAPSHOT_FORMAT}")`);
  }
  for (const key of ['tools', 'prompts', 'resources', 'resourceTemplates'] as const) {
    if (!Array.isArray(snap[key])) throw new Error(`${source}: "${key}" must be an array`);
  }
  return snap as ContractSnapshot;
}
