/**
 * Runs a client's command-line process to its end: exit code, stdout and
 * stderr, bounded by a timeout (a hung client is a failed cell, not a hung suite).
 */
import { execFile } from 'node:child_process';

export interface Ran {
  /** The exit code; null when a signal (the timeout) ended it. */
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  cwd?: string;
}

export function runProcess(command: string, args: string[], opts: RunOptions = {}): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(command, args, { env: opts.env ?? process.env, cwd: opts.cwd, timeout: opts.timeoutMs ?? 60_000, maxBuffer: 4 << 20 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** The JSON a client printed, or a throw that says what it printed instead. */
export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${what}: not JSON: ${text.trim().slice(0, 160)}`);
  }
}

/**
 * The demo over stdio, as a client's server command: `env` puts the demo's
 * settings into the child's environment, since these clients start the server
 * with a minimal environment of their own (PATH, HOME …).
 */
export function demoStdioCommand(start: string, node = process.execPath): string[] {
  return ['env', 'MCP_TRANSPORT_TYPE=stdio', 'LOG_LEVEL=warn', node, start];
}

/** A client that could not start on this machine now, for a reason of the client's own (a fixed start timeout). */
export class ClientUnavailable extends Error {}
