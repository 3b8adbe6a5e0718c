/**
 * Shared by the commands of `fa-mcp`: line output on the CLI's `CliIo` (./io.ts), a commander
 * action wrapper, and the exit codes: 0 fine, 1 a check failed (the contract differs, a budget is
 * exceeded, the configuration is invalid, the version bump is too small), 2 the command could not
 * run (bad options, a file that cannot be read, a server that cannot start).
 */
import type { CliIo } from './io.js';

export type { CliIo } from './io.js';

export const EXIT_OK = 0;
export const EXIT_CHECK_FAILED = 1;
export const EXIT_CANNOT_RUN = 2;

/** An error that stops a command with a plain message (no stack) and exit code 2. */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

const line = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);
/** Writes `text` as whole lines (a final newline is added when missing). */
export const printOut = (io: CliIo, text: string) => io.out(line(text));
export const printErr = (io: CliIo, text: string) => io.err(line(text));

/** Runs a command body and turns its outcome into an exit code (errors become code 2 with their message). */
export async function runCommand(io: CliIo, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (err) {
    printErr(io, `fa-mcp: ${err instanceof Error ? err.message : String(err)}`);
    return EXIT_CANNOT_RUN;
  }
}

/** A commander action around a command body: runs it, then sets the process exit code (never exits abruptly, so output flushes). */
export function action<A extends unknown[]>(io: () => CliIo, body: (io: CliIo, ...args: A) => Promise<number>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    const ctx = io();
    process.exitCode = await runCommand(ctx, () => body(ctx, ...args));
  };
}
