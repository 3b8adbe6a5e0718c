/** The server's implementation info as the SDK gets it (and stamps into 2026-07-28 results as `serverInfo`). */
import type { Core } from '../core/core.js';

export function serverImplementation(core: Core) {
  const info = core.serverInfo;
  return {
    name: info.name,
    version: info.version,
    ...(info.title ? { title: info.title } : {}),
    ...(info.description ? { description: info.description } : {}),
    ...(info.websiteUrl ? { websiteUrl: info.websiteUrl } : {}),
    ...(info.icons ? { icons: info.icons } : {}),
  };
}
