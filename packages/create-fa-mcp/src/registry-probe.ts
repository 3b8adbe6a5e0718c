/**
 * Whether the registry the user's npm is configured with (`.npmrc`, `npm_config_registry`) has
 * an fa-mcp-sdk for the dependency the project will declare: `npm view fa-mcp-sdk@<spec> version`,
 * with a short timeout. Asked before offering the install, so an install that cannot succeed is
 * not started (issue 24, item 6).
 */
import { spawn } from 'node:child_process';

export type RegistryStatus =
  | { status: 'found'; version: string }
  | { status: 'missing'; detail: string }
  | { status: 'unknown'; detail: string };

export type RegistryProbe = (spec: string) => Promise<RegistryStatus>;

export const REGISTRY_PROBE_TIMEOUT_MS = 8000;

/** Reads `npm view`'s answer: versions as JSON (a string or an array), or an E404. */
export function parseNpmView(code: number | null, stdout: string, stderr: string): RegistryStatus {
  const text = stdout.trim();
  if (code === 0 && text) {
    try {
      const parsed = JSON.parse(text) as unknown;
      const versions = Array.isArray(parsed) ? parsed : [parsed];
      const last = versions.filter((v): v is string => typeof v === 'string').pop();
      if (last) return { status: 'found', version: last };
    } catch {
      return { status: 'found', version: text.split('\n').pop() ?? text };
    }
  }
  if (code === 0) return { status: 'missing', detail: 'no version matches' };
  if (/E404|404 Not Found|is not in this registry/i.test(`${stdout}\n${stderr}`)) return { status: 'missing', detail: 'not in the registry' };
  const reason = /"summary":\s*"([^"]+)"/.exec(stdout)?.[1] ?? stderr.trim().split('\n').find((l) => /ERR!/.test(l)) ?? `npm view exited ${code}`;
  return { status: 'unknown', detail: reason.replace(/^npm ERR!\s*/, '') };
}

export function npmRegistryProbe(options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): RegistryProbe {
  return (spec) =>
    new Promise((resolve) => {
      const child = spawn('npm', ['view', `fa-mcp-sdk@${spec}`, 'version', '--json', '--no-update-notifier'], {
        env: options.env ?? process.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const timeoutMs = options.timeoutMs ?? REGISTRY_PROBE_TIMEOUT_MS;
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve({ status: 'unknown', detail: `no answer within ${Math.round(timeoutMs / 1000)} s` });
      }, timeoutMs);
      child.once('error', (err) => {
        clearTimeout(timer);
        resolve({ status: 'unknown', detail: err.message });
      });
      child.once('close', (code) => {
        clearTimeout(timer);
        resolve(parseNpmView(code, stdout, stderr));
      });
    });
}
