/**
 * The row of the MCP Inspector 0.22 CLI (`--cli`): one process per request,
 * JSON on stdout; a failed request exits non-zero with the error on stderr.
 */
import { execFile } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClientSurface, ToolResult } from './demo-checks.js';


export function inspectorCli(): { path: string; version: string } {
  const inspector = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '@modelcontextprotocol', 'inspector', 'package.json');
  const version = (JSON.parse(readFileSync(inspector, 'utf8')) as { version: string }).version;
  // What `inspector --cli` runs: the CLI bundled in the inspector package (it reads the package's own package.json).
  return { path: join(dirname(realpathSync(inspector)), 'cli', 'build', 'index.js'), version };
}

function run(target: string[], args: string[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [inspectorCli().path, ...target, ...args], { timeout: 60_000, maxBuffer: 4 << 20 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`${stderr || stdout || err.message}`.trim()));
      try {
        resolve(JSON.parse(stdout));
      } catch {
        reject(new Error(`not JSON: ${stdout.slice(0, 160)}`));
      }
    });
  });
}

/** `target`: the URL and `--transport http`, or the stdio command. */
export function inspectorSurface(target: string[]): ClientSurface {
  const toolArgs = (args: Record<string, unknown>) => Object.entries(args).flatMap(([k, v]) => ['--tool-arg', `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`]);
  return {
    listTools: () => run(target, ['--method', 'tools/list']) as never,
    listPrompts: () => run(target, ['--method', 'prompts/list']) as never,
    listResources: () => run(target, ['--method', 'resources/list']) as never,
    listResourceTemplates: () => run(target, ['--method', 'resources/templates/list']) as never,
    callTool: async (name, args) => (await run(target, ['--method', 'tools/call', '--tool-name', name, ...toolArgs(args)])) as ToolResult,
    getPrompt: (name, args) => run(target, ['--method', 'prompts/get', '--prompt-name', name, ...Object.entries(args).flatMap(([k, v]) => ['--prompt-args', `${k}=${v}`])]) as never,
    readResource: (uri) => run(target, ['--method', 'resources/read', '--uri', uri]) as never,
  };
}
