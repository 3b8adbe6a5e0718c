// Locates a pnpm 10 binary: the one on PATH when it is version 10, otherwise a
// copy installed with npm into ./.tools (corepack is not used: its download
// fails its signature check on some machines).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const WANTED = '10.34.9';

function versionOf(cmd, prefix = []) {
  try {
    return execFileSync(cmd, [...prefix, '--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/**
 * `output`: where npm's output goes when it installs pnpm (a file descriptor of bootstrap's log, or
 * 'inherit'); `say` tells the user that it does.
 */
export function resolvePnpm(root, { output = 'inherit', say = (line) => console.error(`[bootstrap] ${line}`) } = {}) {
  const onPath = versionOf('pnpm');
  if (onPath && onPath.startsWith('10.')) return { cmd: 'pnpm', prefix: [] };
  const toolsDir = join(root, '.tools');
  const entry = join(toolsDir, 'node_modules', 'pnpm', 'bin', 'pnpm.cjs');
  if (!existsSync(entry)) {
    mkdirSync(toolsDir, { recursive: true });
    say(`pnpm 10 not found on PATH; installing pnpm@${WANTED} into .tools/ with npm`);
    execFileSync('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', toolsDir, `pnpm@${WANTED}`], {
      stdio: ['ignore', output, output],
    });
  }
  return { cmd: process.execPath, prefix: [entry], binDir: join(toolsDir, 'node_modules', '.bin') };
}

/** The environment for running pnpm, so scripts that call `pnpm` themselves find the same copy. */
export function pnpmEnv(pnpm) {
  if (!pnpm.binDir) return process.env;
  return { ...process.env, PATH: `${pnpm.binDir}${process.platform === 'win32' ? ';' : ':'}${process.env.PATH ?? ''}` };
}
