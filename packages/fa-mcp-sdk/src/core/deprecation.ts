/**
 * Deprecation of tools, prompts and resources: lists carry a visible marker in
 * front of the description, the first use per hour logs a warning, and an
 * item past its `until` date is reported at start.
 */
import type { CoreLogger } from './logger-types.js';
import type { IDeprecation } from './types.js';

const WARN_EVERY_MS = 60 * 60 * 1000;

export function deprecationMarker(d: IDeprecation): string {
  return `[DEPRECATED until ${d.until}${d.replacedBy ? `, use ${d.replacedBy}` : ''}]`;
}

export function withDeprecation(description: string | undefined, d: IDeprecation | undefined): string | undefined {
  if (!d) return description;
  const note = d.note ? ` ${d.note}` : '';
  return `${deprecationMarker(d)}${note}${description ? ` ${description}` : ''}`;
}

export class DeprecationWarnings {
  private readonly lastWarned = new Map<string, number>();

  constructor(
    private readonly logger: CoreLogger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Logs a warning for the first use of a deprecated item per hour; true when it logged. */
  used(kind: string, name: string, d: IDeprecation | undefined): boolean {
    if (!d) return false;
    const key = `${kind}:${name}`;
    const t = this.now();
    const last = this.lastWarned.get(key);
    if (last !== undefined && t - last < WARN_EVERY_MS) return false;
    this.lastWarned.set(key, t);
    this.logger.warn({ kind, name, until: d.until, replacedBy: d.replacedBy }, `deprecated ${kind} "${name}" was used; it will be removed after ${d.until}`);
    return true;
  }
}

/** Items whose removal date has passed; reported at start so operators see them. */
export function overdueDeprecations(items: Array<{ kind: string; name: string; deprecated?: IDeprecation }>, today = new Date()): string[] {
  const day = today.toISOString().slice(0, 10);
  return items.filter((i) => i.deprecated && i.deprecated.until < day).map((i) => `${i.kind} "${i.name}" (until ${i.deprecated?.until})`);
}

export function assertValidDeprecation(kind: string, name: string, d: IDeprecation | undefined): void {
  if (!d) return;
  if (!isCalendarDate(d.until)) {
    throw new Error(`${kind} "${name}": deprecated.until must be a date YYYY-MM-DD (got ${JSON.stringify(d.until)})`);
  }
}

/** YYYY-MM-DD naming a day that exists (Date.parse rolls 2026-02-30 over to March; this does not). */
function isCalendarDate(value: unknown): boolean {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}
