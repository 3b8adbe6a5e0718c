/**
 * Start a consumer's server on a free loopback port for a test, and stop it: in this process from
 * its McpServerData (or the module exporting it), or as a child process from its start file.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { initMcpServer, type InitOptions, type McpServerData, type McpServerHandle } from '../init-mcp-server.js';
import { loadServerModule, type LoadServerModuleOptions } from './load-server-module.js';

export interface RunningTestServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** `http://127.0.0.1:<port>`, for /health, /sse and the server's other routes. */
  baseUrl: string;
  port: number;
  stop(): Promise<void>;
}

/** A port nothing listens on right now (bound to 127.0.0.1:0 and released). */
export function getFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export type ServerSource = McpServerData | ({ module: string } & LoadServerModuleOptions);

/** Starts the server in this process on 127.0.0.1 and a free port (logs silenced, no signal handlers). */
export async function startServerOnFreePort(source: ServerSource, options: Omit<InitOptions, 'handleSignals'> = {}): Promise<RunningTestServer & { handle: McpServerHandle }> {
  const data = 'module' in source && typeof source.module === 'string' ? (await loadServerModule(source.module, source)).data : (source as McpServerData);
  const { config = {}, ...init } = options;
  const handle = await initMcpServer(data, {
    ...init,
    handleSignals: false,
    config: {
      ...config,
      logger: { level: 'silent', ...((config.logger as object | undefined) ?? {}) },
      webServer: { ...((config.webServer as object | undefined) ?? {}), host: '127.0.0.1', port: 0 },
      mcp: { ...((config.mcp as object | undefined) ?? {}), transportType: 'http' },
    },
  });
  const url = handle.url as string;
  return { handle, url, baseUrl: new URL(url).origin, port: handle.port as number, stop: async () => void (await handle.stop('test finished')) };
}

export interface ServerProcessOptions {
  /** e.g. `process.execPath` */
  command: string;
  /** e.g. `['dist/start.js']` */
  args?: string[];
  cwd?: string;
  /** Added to this process's environment, after PORT/HOST/MCP_TRANSPORT_TYPE. */
  env?: Record<string, string>;
  /** How long to wait for `GET /health` to answer 200; default 30 s. */
  readyTimeoutMs?: number;
}

export interface RunningServerProcess extends RunningTestServer {
  pid: number;
  output(): { stdout: string; stderr: string };
}

/** Spawns a server's start file with PORT set to a free port and waits until /health answers. */
export async function startServerProcess(options: ServerProcessOptions): Promise<RunningServerProcess> {
  const port = await getFreePort();
  const child = spawn(options.command, options.args ?? [], {
    cwd: options.cwd,
    env: { ...process.env, PORT: String(port), WEB_SERVER_PORT: String(port), HOST: '127.0.0.1', MCP_TRANSPORT_TYPE: 'http', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (c: Buffer) => (out.stdout = (out.stdout + c.toString()).slice(-65_536)));
  child.stderr.on('data', (c: Buffer) => (out.stderr = (out.stderr + c.toString()).slice(-65_536)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server process exited with ${child.exitCode} before it was ready\n${out.stderr || out.stdout}`);
    try {
      const res = await fetch(`${baseUrl}/health`);
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server process did not answer ${baseUrl}/health within ${options.readyTimeoutMs ?? 30_000} ms\n${out.stderr || out.stdout}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url: `${baseUrl}/mcp`, baseUrl, port, pid: child.pid as number, output: () => ({ ...out }), stop };
}
