/**
 * The `fa-mcp` command line: a small router. Each subcommand lives in its own
 * file under ./commands and is listed once in ./commands/index.ts.
 */
import { Command } from 'commander';
import { sdkVersion } from '../prepare-core.js';
import { processIo, type CliIo } from './io.js';
import { COMMANDS } from './commands/index.js';

export function buildProgram(io: () => CliIo = processIo): Command {
  const program = new Command('fa-mcp').description('Tools for servers built on fa-mcp-sdk').version(sdkVersion(), '-v, --version');
  for (const register of COMMANDS) register(program, io);
  return program;
}

/** Runs the command line; resolves with the exit code the command set (0 when it set none). */
export async function runCli(argv: string[], io: () => CliIo = processIo): Promise<number> {
  const before = process.exitCode;
  process.exitCode = undefined;
  try {
    await buildProgram(io).parseAsync(argv);
    return Number(process.exitCode ?? 0);
  } finally {
    process.exitCode = before;
  }
}
