/**
 * The package manager the user invoked the scaffolder with (`npm create`, `pnpm create`,
 * `yarn create` set npm_config_user_agent), and the commands the generated project uses with it.
 */
import { spawn } from 'node:child_process';

export const PACKAGE_MANAGERS = ['npm', 'pnpm', 'yarn'] as const;
export type PackageManager = (typeof PACKAGE_MANAGERS)[number];

export function detectPackageManager(userAgent: string | undefined): PackageManager {
  const name = userAgent?.split(' ')[0]?.split('/')[0];
  return (PACKAGE_MANAGERS as readonly string[]).includes(name ?? '') ? (name as PackageManager) : 'npm';
}

export interface PackageManagerCommands {
  /** Install from the lockfile, failing when it is out of date (CI, Docker build stage). */
  ciInstall: string;
  /** Production-only install from the lockfile (Docker runtime stage). */
  prodInstall: string;
  /** Runs a package.json script: `<run> build`. */
  run: string;
  lockfile: string;
  /** A shell command that makes the manager available on a plain Node.js image. */
  setup: string;
  /** The download cache inside the project that CI keeps between jobs (node_modules is not worth caching). */
  ciCacheDir: string;
  /** `ciInstall` with the download cache in `ciCacheDir`. */
  ciCachedInstall: string;
}

export function commandsFor(pm: PackageManager): PackageManagerCommands {
  switch (pm) {
    case 'pnpm':
      return {
        ciInstall: 'pnpm install --frozen-lockfile',
        prodInstall: 'pnpm install --prod --frozen-lockfile',
        run: 'pnpm run',
        lockfile: 'pnpm-lock.yaml',
        setup: 'npm install --global pnpm@10',
        ciCacheDir: '.pnpm-store',
        ciCachedInstall: 'pnpm install --frozen-lockfile --store-dir .pnpm-store',
      };
    case 'yarn':
      return {
        ciInstall: 'yarn install --frozen-lockfile',
        prodInstall: 'yarn install --production --frozen-lockfile',
        run: 'yarn run',
        lockfile: 'yarn.lock',
        setup: 'yarn --version',
        ciCacheDir: '.yarn-cache',
        ciCachedInstall: 'yarn install --frozen-lockfile --cache-folder .yarn-cache',
      };
    default:
      return {
        ciInstall: 'npm ci',
        prodInstall: 'npm ci --omit=dev',
        run: 'npm run',
        lockfile: 'package-lock.json',
        setup: 'npm --version',
        ciCacheDir: '.npm',
        ciCachedInstall: 'npm ci --cache .npm --prefer-offline',
      };
  }
}

export interface InstallOutcome {
  code: number;
  /** What the package manager printed (stdout and stderr, interleaved), for a failure report. */
  output: string;
  elapsedMs: number;
}

/**
 * Runs `<pm> install` in `cwd` with its output captured; `onProgress(elapsedMs)` is called every
 * `everyMs` while it runs, so the caller can show that the step is alive.
 */
export function runInstall(pm: PackageManager, cwd: string, onProgress: (elapsedMs: number) => void = () => {}, everyMs = 1000): Promise<InstallOutcome> {
  return runCaptured(pm, ['install'], cwd, onProgress, everyMs);
}

/** Runs a command of a package manager (`npm pack`, `pnpm install`, …) in `cwd` with its output captured. */
export function runCaptured(cmd: string, args: string[], cwd: string, onProgress: (elapsedMs: number) => void = () => {}, everyMs = 1000): Promise<InstallOutcome> {
  const started = Date.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setInterval(() => onProgress(Date.now() - started), everyMs);
    child.once('error', (err) => {
      clearInterval(timer);
      reject(err);
    });
    child.once('close', (code, signal) => {
      clearInterval(timer);
      resolvePromise({ code: code ?? (signal ? 1 : 0), output, elapsedMs: Date.now() - started });
    });
  });
}
