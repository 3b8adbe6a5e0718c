/**
 * How CLI commands reach a consumer's server without a network listener they would have to
 * manage: `--server <module>` loads the module exporting McpServerData (or a function returning it)
 * and runs it in this process over in-memory streams; `--start <file>` spawns the consumer's start
 * file in stdio mode. With `--server` and the HTTP transport configured, the server is also started
 * once on 127.0.0.1 and a free port, to read its HTTP routes, and stopped.
 */
import { resolve } from 'node:path';
import type { Client } from '../protocol/sdk-client.js';
import { Option, type Command } from 'commander';
import { loadConfig } from '../config/index.js';
import { listHttpEndpoints, type RouterLike } from '../contract/http-endpoints.js';
import type { HttpEndpoint } from '../contract/snapshot-types.js';
import type { ClientEra } from '../testing/client-era.js';
import { connectInMemory } from '../testing/in-memory-client.js';
import { loadServerModule } from '../testing/load-server-module.js';
import { connectStdio } from '../testing/remote-clients.js';
import { startServerOnFreePort } from '../testing/start-server.js';
import { CliUsageError } from './cli-io.js';

export interface ServerSourceOptions {
  server?: string;
  export?: string;
  start?: string;
  cwd?: string;
  configDir?: string;
  nodeEnv?: string;
  era?: ClientEra;
  /** commander's negation of --no-endpoints */
  endpoints?: boolean;
}

export interface OpenedServer {
  client: Client;
  /** HTTP routes, when they could be read (`--server` with the HTTP transport). */
  endpoints?: HttpEndpoint[];
  /** Where it came from, for messages. */
  label: string;
  close(): Promise<void>;
}

/** Adds the options every server-reading command shares. */
export function addServerSourceOptions(cmd: Command): Command {
  return cmd
    .option('--server <module>', 'module exporting McpServerData, or a function returning it (built .js)')
    .option('--export <name>', 'export to read from --server (default: default, serverData, mcpServerData, createServerData)')
    .option('--start <file>', "the server's start file, spawned with node in stdio mode (instead of --server)")
    .option('--cwd <dir>', 'project folder: config/ and package.json are read from here')
    .option('--config-dir <dir>', 'configuration folder (default <cwd>/config)')
    .option('--node-env <name>', 'selects config/<name>.yaml (default NODE_ENV or development)')
    .addOption(new Option('--era <era>', 'protocol era to read the surface on').choices(['2025', '2026']).default('2025'));
}

export async function openServer(opts: ServerSourceOptions, baseCwd: string, wantEndpoints = false): Promise<OpenedServer> {
  const cwd = resolve(baseCwd, opts.cwd ?? '.');
  const era = opts.era ?? '2025';
  if (opts.server && opts.start) throw new CliUsageError('give either --server or --start, not both');
  if (opts.start) {
    const file = resolve(cwd, opts.start);
    const proc = await connectStdio({ command: process.execPath, args: [file], cwd, era, env: opts.nodeEnv ? { NODE_ENV: opts.nodeEnv } : {} });
    return { client: proc.client, label: file, close: () => proc.close() };
  }
  if (!opts.server) throw new CliUsageError('say which server to read: --server <module exporting McpServerData> or --start <start file>');

  const loaded = await loadServerModule(opts.server, { cwd, ...(opts.export ? { exportName: opts.export } : {}) });
  const init = { cwd, ...(opts.configDir ? { configDir: opts.configDir } : {}), ...(opts.nodeEnv ? { nodeEnv: opts.nodeEnv } : {}) };
  let endpoints: HttpEndpoint[] | undefined;
  if (wantEndpoints && opts.endpoints !== false && loadConfig(init).config.mcp.transportType === 'http') {
    // The Agent Tester is a development tool, not part of the contract: its routes are never recorded.
    const http = await startServerOnFreePort(loaded.data, { ...init, config: { agentTester: { enabled: false } } });
    try {
      endpoints = listHttpEndpoints((http.handle.http?.app as { router?: RouterLike } | undefined)?.router);
    } finally {
      await http.stop();
    }
  }
  const conn = await connectInMemory(loaded.data, { ...init, era });
  return { client: conn.client, ...(endpoints ? { endpoints } : {}), label: `${loaded.file}#${loaded.exportName}`, close: () => conn.close() };
}
