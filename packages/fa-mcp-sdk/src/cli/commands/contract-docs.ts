/**
 * `fa-mcp contract docs`: writes the documented tool surface (contract/surface-page.ts) into a
 * markdown page between its markers, from a live in-process session with the server; with
 * `--check`, fails (exit 1) with a summary of the differing lines where the page and the server
 * differ.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../config/index.js';
import { checkSurface, collectSurface, renderSurface, spliceSurface } from '../../contract/index.js';
import { action, CliUsageError, EXIT_CHECK_FAILED, EXIT_OK, printErr, printOut, type CliIo } from '../cli-io.js';
import { addServerSourceOptions, openServer, type ServerSourceOptions } from '../server-source.js';

export const DEFAULT_SURFACE_PAGE = 'docs/tools.md';

interface DocsOptions extends ServerSourceOptions {
  out?: string;
  check?: boolean;
  instructionsBudget?: string;
}

function budgetOf(io: CliIo, opts: DocsOptions): number | undefined {
  if (opts.instructionsBudget !== undefined) {
    const n = Number(opts.instructionsBudget);
    if (!Number.isInteger(n) || n <= 0) throw new CliUsageError(`--instructions-budget must be a positive integer, got "${opts.instructionsBudget}"`);
    return n;
  }
  if (!opts.server) return undefined;
  const cwd = resolve(io.cwd, opts.cwd ?? '.');
  return loadConfig({ cwd, ...(opts.configDir ? { configDir: opts.configDir } : {}), ...(opts.nodeEnv ? { nodeEnv: opts.nodeEnv } : {}) }).config.mcp.instructions.budget;
}

export async function contractDocs(io: CliIo, opts: DocsOptions): Promise<number> {
  const file = resolve(io.cwd, opts.out ?? DEFAULT_SURFACE_PAGE);
  const budget = budgetOf(io, opts);
  const server = await openServer({ ...opts, endpoints: false }, io.cwd);
  let generated: string;
  try {
    generated = renderSurface(await collectSurface(server.client), budget);
  } finally {
    await server.close();
  }
  const page = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  if (opts.check) {
    const result = checkSurface(file, page, generated);
    if (result.ok) printOut(io, result.message);
    else printErr(io, result.message);
    return result.ok ? EXIT_OK : EXIT_CHECK_FAILED;
  }
  writeFileSync(file, spliceSurface(page, generated));
  printOut(io, `wrote the surface of ${server.label} to ${file}`);
  return EXIT_OK;
}

export function registerContractDocsCommand(program: Command, io: () => CliIo): Command {
  const contract = program.commands.find((c) => c.name() === 'contract') ?? program.command('contract');
  return addServerSourceOptions(contract.command('docs').description(`Write what the server answers into a markdown page between markers (default ${DEFAULT_SURFACE_PAGE}); --check fails where they differ`))
    .option('-o, --out <file>', `the page (default ${DEFAULT_SURFACE_PAGE})`)
    .option('--check', 'do not write: exit 1 with the differing lines when the page and the server differ')
    .option('--instructions-budget <chars>', 'the budget the instructions are counted against (default: mcp.instructions.budget of the configuration)')
    .action(action(io, (ctx, opts: DocsOptions) => contractDocs(ctx, opts)));
}
