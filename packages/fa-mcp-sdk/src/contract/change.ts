/** One classified difference between two contract snapshots. */
export type ChangeLevel = 'major' | 'minor' | 'patch';
/** What a release needs: the largest level of its changes, or 'none'. */
export type Bump = ChangeLevel | 'none';

export interface ContractChange {
  level: ChangeLevel;
  /** What changed, e.g. `tool "search"`, `server`, `endpoint POST /mcp`. */
  subject: string;
  /** Where inside the subject, e.g. `inputSchema.properties.limit`; empty for the subject itself. */
  path: string;
  /** Why this level, in words. */
  message: string;
}

export type Emit = (level: ChangeLevel, path: string, message: string) => void;

const ORDER: Record<Bump, number> = { none: 0, patch: 1, minor: 2, major: 3 };

export function maxBump(a: Bump, b: Bump): Bump {
  return ORDER[a] >= ORDER[b] ? a : b;
}

export function bumpRank(b: Bump): number {
  return ORDER[b];
}

/** The bump a list of changes needs. */
export function verdictOf(changes: readonly ContractChange[]): Bump {
  return changes.reduce<Bump>((acc, c) => maxBump(acc, c.level), 'none');
}

export function short(value: unknown, max = 80): string {
  const text = value === undefined ? 'absent' : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
