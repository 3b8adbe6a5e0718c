/**
 * Runs test/fixtures/child-server.mjs (which imports the built dist/) as a
 * child process, with its stdout split into lines and its stderr collected.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { assertSdkBuildIsCurrent } from '../../../../scripts/test-kit/sdk-build.mjs';
import { waitFor } from './helpers.js';

export const CHILD_FIXTURE = fileURLToPath(new URL('../fixtures/child-server.mjs', import.meta.url));

/** The child fixture runs the built library: fail early and clearly when it is missing or older than src/. */
export function assertLibraryBuilt(): void {
  assertSdkBuildIsCurrent();
}

/** The environment of a child fixture: only what node needs, plus the fixture's own switches. */
export function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'SYSTEMROOT', 'TMPDIR']) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return { ...env, ...extra };
}

export interface ChildFixture {
  child: ChildProcessWithoutNullStreams;
  /** Complete stdout lines so far. */
  stdoutLines: string[];
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Resolves with the exit code (or the signal name) once the child has exited. */
  exited: Promise<number | string>;
  /** Writes one JSON-RPC message as a line on the child's stdin. */
  send(message: unknown): void;
  /** SIGKILLs the child if it still runs (cleanup). */
  kill(): void;
}

const running = new Set<ChildFixture>();

export function spawnChildFixture(transport: 'stdio' | 'http', env: Record<string, string> = {}): ChildFixture {
  assertLibraryBuilt();
  const child = spawn(process.execPath, [CHILD_FIXTURE], {
    env: childEnv({ FIXTURE_TRANSPORT: transport, ...env }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stdoutLines: string[] = [];
  let partial = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    partial += chunk;
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    stdoutLines.push(...lines.filter((l) => l !== ''));
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  const fixture: ChildFixture = {
    child,
    stdoutLines,
    stderr: () => stderr,
    exited,
    send: (message) => void child.stdin.write(`${JSON.stringify(message)}\n`),
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
  running.add(fixture);
  void exited.then(() => running.delete(fixture));
  return fixture;
}

/** Kills every child fixture still running. */
export function killChildFixtures(): void {
  for (const f of running) f.kill();
  running.clear();
}

/** Waits for the HTTP child's `FIXTURE_READY <url>` line and returns the URL. */
export async function waitForHttpChild(fixture: ChildFixture, timeoutMs = 10_000): Promise<URL> {
  const url = await waitFor(() => /FIXTURE_READY (\S+)/.exec(fixture.stderr())?.[1], timeoutMs, 'the HTTP child to listen');
  return new URL(url);
}

/** Resolves with the exit code, or rejects when the child is still running after `timeoutMs`. */
export function exitWithin(fixture: ChildFixture, timeoutMs: number): Promise<number | string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the child did not exit within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([fixture.exited, timeout]).finally(() => clearTimeout(timer));
}
