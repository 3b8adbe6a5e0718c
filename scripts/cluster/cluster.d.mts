/** Types of cluster.mjs, for the TypeScript tests that import it. */
import type { ChildProcess } from 'node:child_process';

export declare const DEMO_ENTRY: string;
/** Builds examples/demo's dist/ when it is missing or older than a source file; answers DEMO_ENTRY. */
export declare function ensureDemoDist(log?: (line: string) => void): string;
export declare const LOCAL_PG_URL: string;
export declare const SERVED_BY: string;
/** HAProxy's idle time for a client connection, and the keep-alive time it tells clients (below it). */
export declare const CLIENT_KEEP_ALIVE: { idleSec: number; advertisedSec: number };
export declare function findHaproxy(env?: NodeJS.ProcessEnv): string | undefined;
export declare function freePort(): Promise<number>;
export declare function waitUntil<T>(check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs: number, what: string): Promise<T>;
export declare function statusOf(url: string, timeoutMs?: number): Promise<number>;
/** Whether the PostgreSQL of `url` answers (within `timeoutMs`, default 3 s). */
export declare function pgAnswers(url: string, timeoutMs?: number): Promise<boolean>;
export declare function pgRows(url: string, sql: string, values?: unknown[]): Promise<Array<Record<string, unknown>>>;
export declare function createDatabase(adminUrl: string, name: string): Promise<{ url: string; drop(): Promise<void> }>;
export interface ServerEntry {
  name: string;
  port: number;
  host?: string;
}
export declare function haproxyConfig(opts: { listenPort: number; servers: ServerEntry[]; checkMs?: number; fall?: number; rise?: number; host?: string }): string;
export declare function checkHaproxyConfig(text: string, bin?: string): { ok: boolean; output: string };
export interface HaproxyExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** stop() asked it to. */
  requested: boolean;
}
export interface RunningHaproxy {
  url: string;
  port: number;
  child: ChildProcess;
  /** The configuration it runs. */
  config: string;
  /** The file its stdout and stderr (its log) go to. */
  logFile: string;
  /** What it logged so far (the whole file). */
  log(): string;
  exited(): Promise<number | string>;
  stop(): Promise<void>;
}
export declare function startHaproxy(opts: {
  config: string;
  port: number;
  bin?: string;
  timeoutMs?: number;
  /** Where its log goes (default: a file in its temporary directory, removed by stop()). */
  logFile?: string;
  onExit?: (exit: HaproxyExit) => void;
}): Promise<RunningHaproxy>;
export interface Instance {
  readonly name: string;
  readonly port: number;
  readonly url: string;
  readonly pid: number | undefined;
  readonly running: boolean;
  log(): string;
  start(): Instance;
  waitReady(timeoutMs?: number): Promise<Instance>;
  stop(signal?: NodeJS.Signals): Promise<number | string>;
  kill(): Promise<number | string>;
  exited(): Promise<number | string>;
}
export interface InstanceExit {
  pid: number | undefined;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The signal stop() or kill() sent; undefined when something else ended the process. */
  requested: NodeJS.Signals | undefined;
}
export declare function createInstance(opts: {
  name: string;
  port: number;
  entry?: string;
  env?: Record<string, string>;
  /** Called each time its process exits, once its output is read. */
  onExit?: (inst: Instance, exit: InstanceExit) => void;
}): Instance;
/** What became of an instance's process, in words: "mcp2 (pid 123) was killed by SIGKILL". */
export declare function describeExit(name: string, exit: InstanceExit): string;
export declare function sharedStateEnv(dbUrl: string, drainMs: number): Record<string, string>;
export interface Cluster {
  /** The MCP endpoint through HAProxy. */
  url: string;
  baseUrl: string;
  instances: Instance[];
  haproxy: RunningHaproxy;
  stop(): Promise<void>;
}
export declare function startCluster(opts: {
  size?: number;
  dbUrl: string;
  drainMs?: number;
  checkMs?: number;
  env?: Record<string, string>;
  entry?: string;
  haproxyBin?: string;
  readyTimeoutMs?: number;
  /** HAProxy's port (0, the default: a free one). */
  haproxyPort?: number;
  /** Where HAProxy's log goes (every request, every health check change); default: a temporary file. */
  haproxyLogFile?: string;
  onInstanceExit?: (inst: Instance, exit: InstanceExit) => void;
  onHaproxyExit?: (exit: HaproxyExit) => void;
}): Promise<Cluster>;
export declare function restartInstance(inst: Instance, readyTimeoutMs?: number): Promise<void>;
