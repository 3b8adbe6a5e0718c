/** Runs a command for a test: captured output, a time limit, and the output in the error when it fails. */
import { spawn, type SpawnOptions } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildIsCurrent } from '../../../scripts/test-kit/ci-checks.mjs';
import { PKG_ROOT, TEMPLATE_DIR } from './helpers.js';

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function run(cmd: string, args: string[], options: SpawnOptions & { timeoutMs?: number; input?: string } = {}): Promise<RunResult> {
  const { timeoutMs = 120_000, input, ...spawnOptions } = options;
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...spawnOptions, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${cmd} ${args.join(' ')} timed out after ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    if (input !== undefined) child.stdin?.end(input);
    else child.stdin?.end();
  });
}

/** Like run, but throws with the output unless the exit code is 0. */
export async function runOk(cmd: string, args: string[], options: Parameters<typeof run>[2] = {}): Promise<RunResult> {
  const result = await run(cmd, args, options);
  if (result.code !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} exited ${result.code ?? result.signal}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`);
  }
  return result;
}

export const CLI = join(PKG_ROOT, 'dist', 'index.js');

/**
 * The built CLI and its bundled template must be current: the tests that run the binary would
 * otherwise prove an old build. `npm test` builds first; alone, run `pnpm --filter create-fa-mcp build`.
 */
export function assertBuildIsCurrent(): void {
  const bundled = join(PKG_ROOT, 'dist', 'template', 'project');
  if (!existsSync(CLI) || !existsSync(bundled)) throw new Error('create-fa-mcp is not built: run pnpm --filter create-fa-mcp build');
  // The CLI itself newer than its sources (the shared check); the bundled template byte for byte below.
  buildIsCurrent({ name: 'create-fa-mcp', built: [CLI], sources: [join(PKG_ROOT, 'src')], rebuild: 'pnpm --filter create-fa-mcp build' });
  const stale: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(TEMPLATE_DIR, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (['node_modules', 'dist', '.env', 'local.yaml'].includes(entry.name)) continue;
      if (entry.isDirectory()) walk(path);
      else {
        const stored = join(bundled, path.replace(/(^|\/)\.gitignore$/, '$1_gitignore'));
        if (!existsSync(stored) || !readFileSync(stored).equals(readFileSync(join(TEMPLATE_DIR, path)))) stale.push(path);
      }
    }
  };
  walk('');
  if (stale.length) throw new Error(`the bundled template is older than cli-template (${stale.join(', ')}): run pnpm --filter create-fa-mcp build`);
}
