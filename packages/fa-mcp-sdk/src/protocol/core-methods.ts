/**
 * The request methods the core serves through an SDK server instance's handlers
 * (server-factory.ts), in the order they are registered, and the registration of
 * a 2025-era instance's handlers on the first request of each method.
 *
 * The SDK wraps every registered handler in closures of its own, per instance
 * (its request check, the input_required seam): about 0.3 KB a method, held for
 * the connection's whole life whether the method is ever called or not. A
 * 2025-era connection (a session, stdio, legacy SSE) registers a handler when
 * its method is first requested, before the SDK dispatches that request, so an
 * idle connection holds none of them and a busy one those it uses.
 */
import type { Core } from '../core/core.js';
import { CORE_HANDLED_METHODS } from '../core/methods.js';

/** The core's methods, in the order they are registered (core/methods.ts). */
export const CORE_METHODS = CORE_HANDLED_METHODS;

export type CoreMethod = (typeof CORE_METHODS)[number];

/** Each method's bit in an instance's record of what it registered (a number, not a Set per connection). */
const BITS: ReadonlyMap<string, number> = new Map(CORE_METHODS.map((method, i) => [method, 1 << i]));

/**
 * An extension method of the same name, registered at build, was registered after the core's handler
 * (and so won) for every method but completion/complete: it keeps winning.
 */
export function claimedByExtension(core: Core, method: CoreMethod): boolean {
  return method !== 'completion/complete' && core.extensions.some((extension) => extension.methods?.[method] !== undefined);
}

/**
 * What to call with the method of every request before the SDK dispatches it: registers the core's
 * handler of a core method the first time it is requested (`install` does nothing for a method the
 * instance does not serve, so the SDK answers it as before: method not found).
 */
export function onFirstRequest(core: Core, install: (method: CoreMethod) => void): (method: string) => void {
  let registered = 0;
  return (method) => {
    const bit = BITS.get(method);
    if (bit === undefined || (registered & bit) !== 0) return;
    registered |= bit;
    if (!claimedByExtension(core, method as CoreMethod)) install(method as CoreMethod);
  };
}
