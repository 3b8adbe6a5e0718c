/**
 * `fa-mcp tools measure`: what each tools/list entry weighs on the wire (UTF-8 bytes of its JSON,
 * and an estimate of tokens), what the whole list weighs, sorted heaviest first; and the
 * instructions against `mcp.instructions.budget`. Budgets make the command fail (exit 1).
 */
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { loadConfig } from '../../config/index.js';
import { action, CliUsageError, EXIT_CHECK_FAILED, EXIT_OK, printErr, printOut, type CliIo } from '../cli-io.js';
import { addServerSourceOptions, openServer, type ServerSourceOptions } from '../server-source.js';
import { measureTools, renderMeasurement, type Budgets } from '../tool-weights.js';

interface MeasureOptions extends ServerSourceOptions {
  budget?: string;
  toolBudget?: string;
  instructionsBudget?: string;
  charsPerToken: string;
  json?: boolean;
}

function positive(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new CliUsageError(`${name} must be a positive number, got "${value}"`);
  return n;
}

export async function toolsMeasure(io: CliIo, opts: MeasureOptions): Promise<number> {
  const charsPerToken = positive('--chars-per-token', opts.charsPerToken) as number;
  const budgets: Budgets = {};
  const total = positive('--budget', opts.budget);
  const perTool = positive('--tool-budget', opts.toolBudget);
  if (total !== undefined) budgets.totalTokens = total;
  if (perTool !== undefined) budgets.toolTokens = perTool;
  let instructionsBudget = positive('--instructions-budget', opts.instructionsBudget);
  if (instructionsBudget === undefined && opts.server) {
    const cwd = resolve(io.cwd, opts.cwd ?? '.');
    instructionsBudget = loadConfig({ cwd, ...(opts.configDir ? { configDir: opts.configDir } : {}), ...(opts.nodeEnv ? { nodeEnv: opts.nodeEnv } : {}) }).config.mcp.instructions.budget;
  }
  if (instructionsBudget !== undefined) budgets.instructionsChars = instructionsBudget;

  const server = await openServer(opts, io.cwd);
  let measurement;
  try {
    const { tools } = await server.client.listTools();
    measurement = measureTools(tools, server.client.getInstructions(), charsPerToken, budgets);
  } finally {
    await server.close();
  }
  printOut(io, opts.json ? JSON.stringify(measurement, null, 2) : renderMeasurement(measurement));
  if (measurement.overBudget.length > 0) {
    printErr(io, `over budget:\n${measurement.overBudget.map((o) => `  ${o}`).join('\n')}`);
    return EXIT_CHECK_FAILED;
  }
  return EXIT_OK;
}

export function registerToolsMeasureCommand(program: Command, io: () => CliIo): Command {
  const tools = program.commands.find((c) => c.name() === 'tools') ?? program.command('tools').description('Inspect the tools a server exposes');
  return addServerSourceOptions(tools.command('measure').description('Bytes and estimated tokens of every tools/list entry and of the instructions'))
    .option('--budget <tokens>', 'fail when the whole tools/list weighs more (estimated tokens)')
    .option('--tool-budget <tokens>', 'fail when one tool weighs more (estimated tokens)')
    .option('--instructions-budget <chars>', 'fail when the instructions are longer (default: mcp.instructions.budget of the configuration)')
    .addOption(new Option('--chars-per-token <n>', 'characters per token of the estimate').default('4'))
    .option('--json', 'print the measurement as JSON')
    .action(action(io, (ctx, opts: MeasureOptions) => toolsMeasure(ctx, opts)));
}
