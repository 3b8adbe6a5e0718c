/**
 * Every URI of resources/list, page after page through the server's own cursors (the SDK
 * client's listResources() walks the pages itself and caches the aggregate: a test of the
 * pagination asks page by page).
 */
import type { Client } from '@modelcontextprotocol/client';
import { z } from 'zod';

const PAGE = z.object({ resources: z.array(z.object({ uri: z.string() }).passthrough()), nextCursor: z.string().optional() }).passthrough();

export async function resourcePages(client: Client): Promise<{ uris: string[]; pages: number }> {
  const uris: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await client.request({ method: 'resources/list', params: cursor ? { cursor } : {} }, PAGE);
    pages++;
    uris.push(...page.resources.map((r) => r.uri));
    cursor = page.nextCursor;
  } while (cursor);
  return { uris, pages };
}
