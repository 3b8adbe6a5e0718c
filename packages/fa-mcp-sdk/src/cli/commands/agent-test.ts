/**
 * `fa-mcp agent-test "prompt"`: one Agent Tester conversation, printed as the
 * JSON trace (or a summary with --pretty). Either starts the consumer's server
 * in this process on 127.0.0.1 and a free port (`--server <module>`, the
 * Agent Tester switched on), or talks to the Agent Tester of a running server
 * (`--url`). Exit code 0 when the model answered, 1 when the conversation
 * ended without an answer (maxTurns, timeout, model or server error), 2 when
 * it could not run.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { runHeadlessTest } from '../../agent-tester/headless-client.js';
import { summarizeTrace } from '../../agent-tester/trace-summary.js';
import type { AgentTrace } from '../../agent-tester/trace-types.js';
import { loadServerModule } from '../../testing/load-server-module.js';
import { startServerOnFreePort } from '../../testing/start-server.js';
import { action, CliUsageError, EXIT_CHECK_FAILED, EXIT_OK, printErr, printOut, type CliIo } from '../cli-io.js';

export interface AgentTestOptions {
  url?: string;
  token?: string;
  server?: string;
  export?: string;
  cwd?: string;
  configDir?: string;
  nodeEnv?: string;
  baseUrl?: string;
  model?: string;
  maxTurns?: string;
  systemPrompt?: string;
  pretty?: boolean;
}

function maxTurnsOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new CliUsageError(`--max-turns must be a positive integer, got "${value}"`);
  return n;
}

async function onStartedServer(io: CliIo, opts: AgentTestOptions, run: (testerUrl: string) => Promise<AgentTrace>): Promise<AgentTrace> {
  const cwd = resolve(io.cwd, opts.cwd ?? '.');
  const loaded = await loadServerModule(opts.server as string, { cwd, ...(opts.export ? { exportName: opts.export } : {}) });
  const model = { ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}), ...(opts.model ? { model: opts.model } : {}) };
  const server = await startServerOnFreePort(loaded.data, {
    cwd,
    ...(opts.configDir ? { configDir: resolve(cwd, opts.configDir) } : {}),
    ...(opts.nodeEnv ? { nodeEnv: opts.nodeEnv } : {}),
    config: { agentTester: { enabled: true, ...(Object.keys(model).length ? { model } : {}) } },
  });
  try {
    return await run(`${server.baseUrl}${server.handle.config.agentTester.path}`);
  } finally {
    await server.stop();
  }
}

export async function agentTest(io: CliIo, prompt: string, opts: AgentTestOptions): Promise<number> {
  if (!prompt || !prompt.trim()) throw new CliUsageError('give the prompt: fa-mcp agent-test "What is the weather in Oslo?"');
  if (!!opts.url === !!opts.server) throw new CliUsageError('say where the server is: --server <module exporting McpServerData> or --url <Agent Tester URL of a running server>');
  if (opts.url && (opts.baseUrl || opts.model)) throw new CliUsageError('--base-url and --model apply to a server started with --server; a running server uses its own configuration');
  const maxTurns = maxTurnsOf(opts.maxTurns);
  const token = opts.token ?? io.env.FA_MCP_TOKEN;
  const run = (testerUrl: string) =>
    runHeadlessTest({
      testerUrl,
      prompt,
      ...(token ? { token } : {}),
      ...(maxTurns !== undefined ? { maxTurns } : {}),
      ...(opts.systemPrompt !== undefined ? { systemPrompt: opts.systemPrompt } : {}),
    });
  const trace = opts.url ? await run(opts.url) : await onStartedServer(io, opts, run);
  printOut(io, opts.pretty ? summarizeTrace(trace) : JSON.stringify(trace, null, 2));
  if (trace.stopReason === 'answer') return EXIT_OK;
  printErr(io, `fa-mcp agent-test: no answer (${trace.stopReason})${trace.error ? `: ${trace.error.message}` : ''}`);
  return EXIT_CHECK_FAILED;
}

export function registerAgentTestCommand(program: Command, io: () => CliIo): Command {
  return program
    .command('agent-test')
    .description("Run one Agent Tester conversation (a model using the server's tools) and print its trace")
    .argument('<prompt>', 'what the user asks the model')
    .option('--url <url>', 'the Agent Tester of a running server, e.g. http://127.0.0.1:3000/agent-tester')
    .option('--token <token>', 'bearer token when the server has auth on (default: env FA_MCP_TOKEN)')
    .option('--server <module>', 'module exporting McpServerData (built .js): started in this process with the Agent Tester on')
    .option('--export <name>', 'export to read from --server (default: default, serverData, mcpServerData, createServerData)')
    .option('--cwd <dir>', 'project folder: config/ and package.json are read from here')
    .option('--config-dir <dir>', 'configuration folder (default <cwd>/config)')
    .option('--node-env <name>', 'selects config/<name>.yaml (default NODE_ENV or development)')
    .option('--base-url <url>', 'with --server: the Chat Completions base URL (instead of agentTester.model.baseUrl)')
    .option('--model <name>', 'with --server: the model name (instead of agentTester.model.model)')
    .option('--max-turns <n>', "most model requests (at most the server's agentTester.limits.maxTurns)")
    .option('--system-prompt <text>', 'system message for this run')
    .option('--pretty', 'print a readable summary instead of the JSON trace')
    .action(action(io, (ctx, prompt: string, opts: AgentTestOptions) => agentTest(ctx, prompt, opts)));
}
