/**
 * Is a version bump big enough for a set of changes? Semantic Versioning, with the usual reading
 * of 0.x releases (as npm's caret ranges and Cargo read them): below 1.0.0 the minor number is
 * the breaking one, so a MAJOR change needs 0.(y+1).0 and a MINOR change needs at least a patch bump.
 */
import { bumpRank, type Bump } from './change.js';

export interface SemVer {
  major: number;
  minor: number;
  patch: number;
  prerelease: string;
}

const PATTERN = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

export function parseSemver(text: string): SemVer {
  const m = PATTERN.exec(text.trim());
  if (!m) throw new Error(`"${text}" is not a semantic version (x.y.z)`);
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), prerelease: m[4] ?? '' };
}

function compareCore(a: SemVer, b: SemVer): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

/** The kind of bump from `current` to `next`; throws when `next` is older. */
export function bumpBetween(current: string, next: string): Bump {
  const a = parseSemver(current);
  const b = parseSemver(next);
  const order = compareCore(a, b);
  if (order > 0) throw new Error(`next version ${next} is older than ${current}`);
  if (order === 0) {
    if (a.prerelease === b.prerelease) return 'none';
    // 1.2.3-rc.1 -> 1.2.3 (or -rc.2) moves along the same line: the smallest bump.
    if (a.prerelease && (!b.prerelease || b.prerelease > a.prerelease)) return 'patch';
    throw new Error(`next version ${next} is older than ${current}`);
  }
  if (b.major !== a.major) return 'major';
  return b.minor !== a.minor ? 'minor' : 'patch';
}

/** What `bump` counts as under the 0.x reading: below 1.0.0, minor acts as major and patch as minor. */
function effective(bump: Bump, current: SemVer): Bump {
  if (current.major > 0) return bump;
  if (bump === 'minor') return 'major';
  if (bump === 'patch') return 'minor';
  return bump;
}

export interface BumpCheck {
  ok: boolean;
  /** The bump the versions make. */
  actual: Bump;
  /** The bump the changes need. */
  required: Bump;
  /** The smallest version that would be enough. */
  suggested: string;
  message: string;
}

function smallestFor(required: Bump, v: SemVer): string {
  const zero = v.major === 0;
  if (required === 'none') return `${v.major}.${v.minor}.${v.patch}`;
  if (required === 'major') return zero ? `0.${v.minor + 1}.0` : `${v.major + 1}.0.0`;
  if (required === 'minor') return zero ? `0.${v.minor}.${v.patch + 1}` : `${v.major}.${v.minor + 1}.0`;
  return `${v.major}.${v.minor}.${v.patch + 1}`;
}

export function checkBump(current: string, next: string, required: Bump): BumpCheck {
  const cur = parseSemver(current);
  const actual = bumpBetween(current, next);
  const ok = bumpRank(effective(actual, cur)) >= bumpRank(required);
  const suggested = smallestFor(required, cur);
  const zeroNote = cur.major === 0 ? ' (below 1.0.0 the minor number is the breaking one)' : '';
  const message = ok
    ? `${current} -> ${next} is a ${actual.toUpperCase()} bump: enough for ${required.toUpperCase()} changes${zeroNote}`
    : `${current} -> ${next} is ${actual === 'none' ? 'no bump' : `a ${actual.toUpperCase()} bump`}, but the changes need ${required.toUpperCase()}: release ${suggested} or later${zeroNote}`;
  return { ok, actual, required, suggested, message };
}
