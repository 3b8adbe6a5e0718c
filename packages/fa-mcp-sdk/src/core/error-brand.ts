/**
 * The brand of the framework's errors. The package ships two builds (ESM and
 * CommonJS), and a process may load both: a server started from one and a
 * consumer's module that `require`s the other. Each build has its own copy of
 * every class, so `instanceof` by prototype fails across them. The brand does
 * not: every error of the family carries, under the registry symbol
 * `Symbol.for('fa-mcp-sdk.error')`, the kinds of its class chain
 * (`['ConflictError', 'BaseMcpError']`), and each framework class names its
 * kind under the same symbol as a static property. `BaseMcpError`'s static
 * `Symbol.hasInstance` answers `instanceof` from the brand, so the framework's
 * checks and consumers' own `instanceof` work whichever build made the error.
 */

/** The registry symbol both builds (and every copy of the package) share. */
export const ERROR_BRAND: unique symbol = Symbol.for('fa-mcp-sdk.error');

/** A class that may name its kind under the brand (framework classes do; consumers' subclasses need not). */
type MaybeBranded = { readonly [ERROR_BRAND]?: unknown };

/** The kind a class itself names (not one it inherits), or undefined. */
export function ownKind(ctor: unknown): string | undefined {
  if (typeof ctor !== 'function' || !Object.hasOwn(ctor, ERROR_BRAND)) return undefined;
  const kind = (ctor as MaybeBranded)[ERROR_BRAND];
  return typeof kind === 'string' ? kind : undefined;
}

/** The kinds of a class chain, most derived first; classes that name no kind are passed over. */
export function kindsOfClass(ctor: unknown): readonly string[] {
  const kinds: string[] = [];
  for (let c: unknown = ctor; typeof c === 'function'; c = Object.getPrototypeOf(c)) {
    const kind = ownKind(c);
    if (kind !== undefined) kinds.push(kind);
  }
  return Object.freeze(kinds);
}

/** Brands `error` with the kinds of `ctor`'s chain: a hidden, read-only property (not in logs or JSON). */
export function brandError(error: object, ctor: unknown): void {
  Object.defineProperty(error, ERROR_BRAND, { value: kindsOfClass(ctor), enumerable: false, writable: false, configurable: false });
}

/** The kinds a value is branded with (none for anything that is not an error of the family). */
export function errorKinds(value: unknown): readonly string[] {
  if (typeof value !== 'object' || value === null) return [];
  const kinds = (value as MaybeBranded)[ERROR_BRAND];
  return Array.isArray(kinds) ? (kinds as readonly string[]) : [];
}

/** Whether `value` is branded with `kind` (an error of that class or a subclass, from any build). */
export function hasErrorKind(value: unknown, kind: string): boolean {
  return errorKinds(value).includes(kind);
}

/**
 * `value instanceof ctor`: the ordinary prototype check, or, for a class that
 * names a kind, the brand. A consumer's subclass names none and keeps the
 * ordinary check.
 */
export function isBrandedInstance(ctor: unknown, value: unknown): boolean {
  if (typeof ctor !== 'function') return false;
  if (Function.prototype[Symbol.hasInstance].call(ctor, value)) return true;
  const kind = ownKind(ctor);
  return kind !== undefined && hasErrorKind(value, kind);
}
