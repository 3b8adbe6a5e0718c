/**
 * How the example declares a tool: the ITool (with the tool icons) and the protocol revisions
 * the seed lists it on. tools/index.ts turns the list into `McpServerData.tools` as a function of
 * the request (its era, the client's capabilities).
 */
import type { ITool } from 'fa-mcp-sdk';
import { ICONS } from '../server/icons.js';

/** `both`, the 2025-era only (initialize and sessions), or 2026-07-28 only. */
export type Eras = 'both' | '2025' | '2026';

export interface EverythingTool {
  eras: Eras;
  tool: ITool;
}

/** A tool of the example, with its icons; built once, so every list hands out the same objects. */
export function defineTool(eras: Eras, tool: Omit<ITool, 'icons'>): EverythingTool {
  return { eras, tool: { ...tool, icons: ICONS.tool } };
}

/** What the descriptions of roots, sampling and logging tools say (SEP-2577). */
export const DEPRECATED = 'Deprecated as of 2026-07-28 (SEP-2577); served on both revisions during the deprecation window.';

export const JSON_SCHEMA_2020 = 'https://json-schema.org/draft/2020-12/schema';
