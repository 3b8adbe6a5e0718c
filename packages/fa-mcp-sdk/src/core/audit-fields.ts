/**
 * The fields a tool handler adds to the audit record of its own call (`params.audit.set(name,
 * value)`): they land under the record's `extra`, never over the fields the framework writes, and
 * nothing a handler does can keep its call from being recorded. Values are copied as JSON when set,
 * so a later change of the handler's object does not change what is recorded.
 */

/** What a handler sees as `params.audit`. */
export interface IAuditFields {
  /**
   * Adds (or replaces) one field of this call's audit record, under `extra.<name>`. `name`: a
   * letter, then up to 63 letters, digits, `_`, `-` or `.`; `value`: any JSON value (a value
   * JSON cannot hold, such as a function or a cycle, throws), checked the same way whether the
   * audit trail is on or off.
   */
  set(name: string, value: unknown): void;
}

const NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
/** Most fields one call may add; more is a programming error, not a record to drop. */
export const MAX_AUDIT_FIELDS = 64;

/** The bag behind `params.audit`: one per call; the request layer reads `fields()` when it records the call. */
export class AuditFields implements IAuditFields {
  /** Made on the first `set` (most calls add nothing). */
  private values: Map<string, unknown> | undefined;

  set(name: string, value: unknown): void {
    if (!NAME.test(name)) throw new TypeError(`audit field name ${JSON.stringify(name)}: a letter, then letters, digits, _ - . (at most 64 characters)`);
    const values = (this.values ??= new Map());
    if (!values.has(name) && values.size >= MAX_AUDIT_FIELDS) throw new RangeError(`at most ${MAX_AUDIT_FIELDS} audit fields per call`);
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError(`audit field ${name}: the value is not JSON`);
    values.set(name, JSON.parse(text) as unknown);
  }

  /** The framework's measurement of the call's result (core/result-size.ts), so its record does not serialize the result again. */
  private measuredResult: unknown;
  private measuredBytes = -1;

  noteResultSize(result: unknown, bytes: number): void {
    this.measuredResult = result;
    this.measuredBytes = bytes;
  }

  /** The size noted for this very result object; undefined for another (a result replaced after it was measured). */
  resultSizeOf(result: unknown): number | undefined {
    return this.measuredBytes >= 0 && this.measuredResult === result ? this.measuredBytes : undefined;
  }

  /** The fields set so far, or undefined when none was. */
  fields(): Record<string, unknown> | undefined {
    return this.values && this.values.size > 0 ? Object.fromEntries(this.values) : undefined;
  }
}
