/** Shared by the create-fa-mcp tests: repository paths, sample answers, temporary folders. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Answers } from '../src/answers.js';

export const PKG_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const REPO_ROOT = join(PKG_ROOT, '..', '..');
export const TEMPLATE_DIR = join(REPO_ROOT, 'cli-template');
export const DOCS_DIR = join(REPO_ROOT, 'FA-MCP-SDK-DOC');
export const SDK_ROOT = join(REPO_ROOT, 'packages', 'fa-mcp-sdk');

export function sampleAnswers(overrides: Partial<Answers> = {}): Answers {
  return {
    name: 'weather-mcp',
    description: 'Weather "forecasts" for agents: it\'s a test.',
    productName: "Weather MCP (O'Brien edition)",
    port: 4123,
    transport: 'http',
    author: 'Ada Lovelace <ada@example.com>',
    auth: false,
    database: 'none',
    databaseUrl: '',
    consul: false,
    install: false,
    packageManager: 'npm',
    ...overrides,
  };
}

/** A fresh temporary folder, removed by the returned cleanup. */
export function tempDir(prefix = 'create-fa-mcp-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }) };
}

/** Every file under `root`, relative, with forward slashes. */
export function listFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.push(relative(root, full).split('\\').join('/'));
    }
  };
  walk(root);
  return out.sort();
}

export function readText(root: string, rel: string): string {
  return readFileSync(join(root, rel), 'utf8');
}

/** The customConfigSchema of the template (imported at run time: the template is not compiled with this package). */
export async function templateExtraSchema(): Promise<Record<string, unknown>> {
  const mod = (await import(join(TEMPLATE_DIR, 'src', 'custom-config.ts'))) as { customConfigSchema: Record<string, unknown> };
  return mod.customConfigSchema;
}
