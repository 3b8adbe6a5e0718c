/** The version of fa-mcp-sdk itself, from its package.json (read once). */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readPackageInfo } from './package-info.js';

let sdkVersionCache: string | undefined;
export function sdkVersion(): string {
  if (!sdkVersionCache) {
    const here = typeof __dirname === 'string' ? __dirname : dirname(fileURLToPath(import.meta.url));
    sdkVersionCache = readPackageInfo(here).version ?? '0.0.0';
  }
  return sdkVersionCache;
}
