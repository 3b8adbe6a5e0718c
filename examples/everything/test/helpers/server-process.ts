/**
 * The everything server as a separate process (`node dist/start.js`, as `npm start` runs it),
 * on a free loopback port, with only the environment a test gives it (plus PATH and HOME).
 */
import { createInstance, freePort, type Instance } from '../../../../scripts/cluster/cluster.mjs';
import { everythingDist } from './dist.js';

export interface EverythingProcess {
  readonly mcpUrl: string;
  readonly sseUrl: string;
  readonly inst: Instance;
  /** What the process wrote (stdout and stderr). */
  log(): string;
  /** The JSON log lines the process wrote (LOG_FORMAT=json). */
  logLines(): Array<Record<string, unknown>>;
  stop(): Promise<void>;
}

/** Quiet enough to read, loud enough for the lines tests wait for; no drain time on stop. */
const BASE_ENV = { LOG_LEVEL: 'info', LOG_FORMAT: 'json', SHUTDOWN_DRAIN_MS: '0', NODE_ENV: 'test' };

export async function startEverything(env: Record<string, string> = {}, name = 'everything'): Promise<EverythingProcess> {
  const entry = await everythingDist();
  const port = await freePort();
  const inst = createInstance({ name: `${name}-${port}`, port, entry, env: { ...BASE_ENV, ...env } }).start();
  await inst.waitReady(30_000);
  return {
    mcpUrl: `${inst.url}/mcp`,
    sseUrl: `${inst.url}/sse`,
    inst,
    log: () => inst.log(),
    logLines: () =>
      inst
        .log()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    async stop() {
      await inst.stop('SIGTERM');
    },
  };
}

/** The command line of the server over stdio, for the SDK clients' stdio transports. */
export async function stdioCommand(env: Record<string, string> = {}): Promise<{ command: string; args: string[]; env: Record<string, string> }> {
  return {
    command: process.execPath,
    args: [await everythingDist()],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...BASE_ENV, LOG_LEVEL: 'warn', ...env, MCP_TRANSPORT_TYPE: 'stdio' },
  };
}
