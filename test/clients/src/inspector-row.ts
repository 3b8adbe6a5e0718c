/**
 * Rows of the MCP Inspector CLI (`inspector --cli`), 0.22 (on the workspace's
 * Node) and 2.x (on .tools/node22's Node 22): one process per request, the
 * result as JSON on stdout; a failed request exits non-zero with the error on
 * stderr. 2.x with `--format json` wraps them: `{"result": …}` on stdout (also
 * for a tool error, exit 5) and `{"error": {"code", "message"}}` on stderr.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseJson, runProcess } from './cli-process.js';
import type { ClientSurface, ToolResult } from './demo-checks.js';

export interface InspectorCli {
  /** The Node that runs it. */
  node: string;
  /** The CLI's entry script. */
  path: string;
  version: string;
  /** 2.x: `--format json` envelopes and exit code 5 for a tool error. */
  envelope: boolean;
  env?: NodeJS.ProcessEnv;
}

/** `inspector --cli` of a package folder: the CLI bundled in it (it reads the package's own package.json). */
export function inspectorCli(pkgDir: string, node = process.execPath, env?: NodeJS.ProcessEnv): InspectorCli {
  const version = (JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string }).version;
  const root = realpathSync(pkgDir);
  const v2 = Number(version.split('.')[0]) >= 2;
  return { node, path: v2 ? join(root, 'clients', 'cli', 'build', 'index.js') : join(root, 'cli', 'build', 'index.js'), version, envelope: v2, env };
}

/** The Inspector 0.22 of this package's node_modules. */
export const INSPECTOR_022 = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '@modelcontextprotocol', 'inspector');

async function run(cli: InspectorCli, target: string[], args: string[]): Promise<unknown> {
  // 2.x: a connect timeout past its 15 s default, for a busy machine.
  const flags = cli.envelope ? ['--format', 'json', '-q', '--connect-timeout', '60000'] : [];
  const ran = await runProcess(cli.node, [cli.path, ...target, ...flags, ...args], { env: cli.env, timeoutMs: 45_000 });
  if (cli.envelope) {
    // A tool error (exit 5) still prints its result; anything else non-zero is an error envelope.
    if (ran.stdout.trim() && (ran.code === 0 || ran.code === 5)) return (parseJson(ran.stdout, 'inspector') as { result: unknown }).result;
    const env = ran.stderr.trim().startsWith('{') ? (parseJson(ran.stderr.trim().split('\n').pop()!, 'inspector') as { error?: { message?: string } }) : undefined;
    throw new Error(env?.error?.message ?? `exit ${ran.code}: ${(ran.stderr || ran.stdout).trim().slice(0, 200)}`);
  }
  if (ran.code !== 0) throw new Error(`${ran.stderr || ran.stdout || `exit ${ran.code}`}`.trim());
  return parseJson(ran.stdout, 'inspector');
}

/** `target`: the URL and `--transport …` (and 2.x's `--protocol-era …`), or the stdio command. */
export function inspectorSurface(cli: InspectorCli, target: string[]): ClientSurface {
  const toolArgs = (args: Record<string, unknown>) => Object.entries(args).flatMap(([k, v]) => ['--tool-arg', `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`]);
  return {
    listTools: () => run(cli, target, ['--method', 'tools/list']) as never,
    listPrompts: () => run(cli, target, ['--method', 'prompts/list']) as never,
    listResources: () => run(cli, target, ['--method', 'resources/list']) as never,
    listResourceTemplates: () => run(cli, target, ['--method', 'resources/templates/list']) as never,
    callTool: async (name, args) => (await run(cli, target, ['--method', 'tools/call', '--tool-name', name, ...toolArgs(args)])) as ToolResult,
    getPrompt: (name, args) => run(cli, target, ['--method', 'prompts/get', '--prompt-name', name, ...Object.entries(args).flatMap(([k, v]) => ['--prompt-args', `${k}=${v}`])]) as never,
    readResource: (uri) => run(cli, target, ['--method', 'resources/read', '--uri', uri]) as never,
  };
}
