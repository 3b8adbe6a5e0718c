/**
 * The request headers a context and a handler's params carry, as a record
 * built on first read. Building it (every header in name order, Content-Length
 * of the re-serialized body, as the SDK path gives them) costs a few µs per
 * request on the fast paths, and most handlers never read `headers`: the
 * property is an own enumerable accessor (one shared descriptor, so no
 * function or shape per request), the record made once and the same object on
 * every read. Spreading, listing or serializing the object reads it, as it
 * would read a plain property; assigning replaces it with a plain one.
 */

type HeaderRecord = Record<string, string>;

const SLOT = Symbol('fa-mcp.headers');

/** The builder until the first read, then the record; `replaced` once a plain value was assigned. */
interface Slot {
  build: (() => HeaderRecord) | undefined;
  value: HeaderRecord | undefined;
  replaced: boolean;
}

type WithSlot = { [SLOT]?: Slot };

const LAZY_HEADERS: PropertyDescriptor = {
  get(this: WithSlot): HeaderRecord | undefined {
    const slot = this[SLOT];
    if (!slot) return undefined;
    if (slot.build) {
      const build = slot.build;
      slot.build = undefined;
      slot.value = build();
    }
    return slot.value;
  },
  // Writable, as the plain property it stands for.
  set(this: WithSlot, value: unknown) {
    const slot = this[SLOT];
    if (slot) {
      slot.build = undefined;
      slot.value = undefined;
      slot.replaced = true;
    }
    Object.defineProperty(this, 'headers', { value, writable: true, enumerable: true, configurable: true });
  },
  enumerable: true,
  configurable: true,
};

/** Gives `target` a `headers` property made by `build` when first read. */
export function defineLazyHeaders<T extends object>(target: T, build: () => HeaderRecord): T & { headers: HeaderRecord } {
  const slot: Slot = { build, value: undefined, replaced: false };
  Object.defineProperty(target, SLOT, { value: slot, configurable: true });
  Object.defineProperty(target, 'headers', LAZY_HEADERS);
  return target as T & { headers: HeaderRecord };
}

/**
 * Gives `to` the `headers` of `from` without building them: the same record,
 * made when either is first read. False when `from` has none (nothing given).
 */
export function shareHeaders(from: { headers?: HeaderRecord }, to: object): boolean {
  const slot = (from as WithSlot)[SLOT];
  if (slot && !slot.replaced) {
    if (slot.build) {
      defineLazyHeaders(to, () => from.headers as HeaderRecord);
      return true;
    }
    (to as { headers?: HeaderRecord }).headers = slot.value;
    return slot.value !== undefined;
  }
  const headers = from.headers;
  if (!headers) return false;
  (to as { headers?: HeaderRecord }).headers = headers;
  return true;
}
