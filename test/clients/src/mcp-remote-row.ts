/**
 * Rows of `mcp-remote`: a stdio↔HTTP bridge. It runs as a child process with
 * the server's URL; an SDK v1 client talks stdio to it. The row's transport is
 * the bridge's side to the server (`--transport http-only` or `sse-only`); its
 * revision 2026-07-28 is `--protocol auto`, which answers the local client's
 * 2025-era handshake itself and rewrites each request into the 2026-07-28 era.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MatrixRow } from './matrix-types.js';
import { connectV1Over, stdioV1, type Connected } from './sdk-rows.js';

const PROXY = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', 'mcp-remote', 'dist', 'proxy.js');

export async function connectMcpRemote(url: string, transport: 'Streamable HTTP' | 'legacy SSE', revision: MatrixRow['revision']): Promise<Connected> {
  // Its OAuth state lives in MCP_REMOTE_CONFIG_DIR: a folder of the row's own, not ~/.mcp-auth.
  const config = mkdtempSync(join(tmpdir(), 'matrix-mcp-remote-'));
  const args = [PROXY, url, '--transport', transport === 'legacy SSE' ? 'sse-only' : 'http-only', '--protocol', revision === '2026-07-28' ? 'auto' : 'legacy', '--silent'];
  try {
    const connected = await connectV1Over(stdioV1(process.execPath, args, { MCP_REMOTE_CONFIG_DIR: config }));
    return {
      surface: connected.surface,
      close: async () => {
        await connected.close();
        rmSync(config, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(config, { recursive: true, force: true });
    throw err;
  }
}
