/**
 * `require()` of a CommonJS package from either build, for code that needs the package
 * synchronously but only on first use (the configuration validator, the metrics registry): a
 * static import would load it with `import('fa-mcp-sdk')`, which stays cheap (issue 24). Only
 * for CommonJS packages, so the module is the same object a static import elsewhere gets.
 */
import { createRequire } from 'node:module';

export function requireCjs<T>(id: string): T {
  // the CJS build has __filename; the ESM build and the sources under vitest have import.meta.url
  return createRequire(typeof __filename === 'string' ? __filename : import.meta.url)(id) as T;
}
