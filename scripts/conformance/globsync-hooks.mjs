// Module resolve hook (registered by globsync-loader.mjs): `fs` and `node:fs`
// resolve to fs-globsync.mjs, except from that shim itself.
const SHIM = new URL('./fs-globsync.mjs', import.meta.url).href;
const FS = new Set(['fs', 'node:fs']);

export async function resolve(specifier, context, nextResolve) {
  if (FS.has(specifier) && context.parentURL !== SHIM) return { url: SHIM, shortCircuit: true };
  return nextResolve(specifier, context);
}
