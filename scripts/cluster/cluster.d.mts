/** Types of cluster.mjs, for the TypeScript tests that import it. */
import type { ChildProcess } from 'node:child_process';

export declare const DEMO_ENTRY: string;
export declare const LOCAL_PG_URL: string;
export declare const SERVED_BY: string;
/** HAProxy's idle time for a client connection, and the keep-alive time it tells clients (below it). */
export declare const CLIENT_KEEP_ALIVE: { idleSec: number; advertisedSec: number };
export declare function findHaproxy(env?: NodeJS.ProcessEnv): string | undefined;
export declare function freePort(): Promise<number>;
export declare function waitUntil<T>(check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs: number, what: string): Promise<T>;
export declare function statusOf(url: string, timeoutMs?: number): Promise<number>;
export declare function createDatabase(adminUrl: string, name: string): Promise<{ url: string; drop(): Promise<void> }>;
export interface ServerEntry {
  name: string;
  port: number;
  host?: string;
}
export declare function haproxyConfig(opts: { listenPort: number; servers: ServerEntry[]; checkMs?: number; fall?: number; rise?: number; host?: string; log?: boolean }): string;
export declare function checkHaproxyConfig(text: string, bin?: string): { ok: boolean; output: string };
export interface RunningHaproxy {
  url: string;
  port: number;
  child: ChildProcess;
  /** The configuration it runs. */
  config: string;
  log(): string;
  stop(): Promise<void>;
}
export declare function startHaproxy(opts: { config: string; port: number; bin?: string; timeoutMs?: number }): Promise<RunningHaproxy>;
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
export declare function createInstance(opts: { name: string; port: number; entry?: string; env?: Record<string, string> }): Instance;
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
  /** HAProxy logs every request and check to its log() (stdout). */
  log?: boolean;
  /** HAProxy's port (0, the default: a free one). */
  haproxyPort?: number;
}): Promise<Cluster>;
export declare function restartInstance(inst: Instance, readyTimeoutMs?: number): Promise<void>;
