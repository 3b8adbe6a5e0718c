/** Plain-text rendering of a snapshot diff: one line per change, the verdict first. */
import type { ContractChange } from './change.js';
import type { SnapshotDiff } from './diff-snapshots.js';

export function renderChange(c: ContractChange): string {
  const where = c.path ? ` ${c.path}:` : ':';
  return `${c.level.toUpperCase().padEnd(5)}  ${c.subject}${where} ${c.message}`;
}

export function renderDiff(diff: SnapshotDiff): string {
  if (diff.changes.length === 0) return 'Verdict: NONE (no contract changes)\n';
  const count = (level: string) => diff.changes.filter((c) => c.level === level).length;
  const head = `Verdict: ${diff.verdict.toUpperCase()} (${diff.changes.length} change${diff.changes.length === 1 ? '' : 's'}: ${count('major')} major, ${count('minor')} minor, ${count('patch')} patch)`;
  return `${[head, ...diff.changes.map(renderChange)].join('\n')}\n`;
}
