/**
 * The documented tool surface in a consumer's own tests: the same rendering and comparison as
 * `fa-mcp contract docs [--check]`, from an in-process session with the server's data, so a test
 * needs neither a build nor a CLI run to fail when the page drifts from what the server answers.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { McpServerData } from '../init-mcp-server.js';
import { collectSurface } from '../contract/collect-surface.js';
import { checkSurface, renderSurface, spliceSurface, type SurfaceCheck } from '../contract/surface-page.js';
import { connectInMemory, type InMemoryOptions } from './in-memory-client.js';

export interface SurfacePageOptions extends Omit<InMemoryOptions, 'clientOptions' | 'setup'> {
  /** What the instructions are counted against (default: `mcp.instructions.budget` of the loaded configuration). */
  instructionsBudget?: number;
  /** The command a failure message tells the user to run (default `fa-mcp contract docs`). */
  regenerate?: string;
}

/** The generated part of the page (markers excluded) for `data`, read from a live in-process session. */
export async function renderSurfacePage(data: McpServerData, options: SurfacePageOptions = {}): Promise<string> {
  const { instructionsBudget, regenerate: _regenerate, ...init } = options;
  const conn = await connectInMemory(data, init);
  try {
    return renderSurface(await collectSurface(conn.client), instructionsBudget ?? conn.handle.config.mcp.instructions.budget);
  } finally {
    await conn.close();
  }
}

/** Compares the page at `pagePath` with what `data` answers; `ok: false` carries the differing lines. */
export async function checkSurfacePage(data: McpServerData, pagePath: string, options: SurfacePageOptions = {}): Promise<SurfaceCheck> {
  const generated = await renderSurfacePage(data, options);
  const page = existsSync(pagePath) ? readFileSync(pagePath, 'utf8') : undefined;
  return checkSurface(pagePath, page, generated, options.regenerate ? `\`${options.regenerate}\`` : undefined);
}

/** Writes what `data` answers between the markers of the page at `pagePath` (created with a title when missing). */
export async function writeSurfacePage(data: McpServerData, pagePath: string, options: SurfacePageOptions = {}): Promise<void> {
  const generated = await renderSurfacePage(data, options);
  writeFileSync(pagePath, spliceSurface(existsSync(pagePath) ? readFileSync(pagePath, 'utf8') : undefined, generated));
}
