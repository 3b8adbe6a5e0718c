/**
 * Rows of `@apify/mcpc`: `mcpc connect <server> @name` starts a bridge process
 * holding the session; each `mcpc @name <command>` is a process that talks to
 * it. Its home (MCPC_HOME_DIR) is a folder of the suite's own. It speaks
 * Streamable HTTP and stdio (legacy SSE: not supported, its README says), on
 * 2025-11-25 (it is built on SDK v1).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ClientUnavailable, parseJson, runProcess } from './cli-process.js';
import type { ClientSurface, ToolResult } from './demo-checks.js';
import type { Cell } from './matrix-types.js';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '@apify', 'mcpc', 'bin', 'mcpc');

export interface Mcpc {
  home: string;
  run(args: string[], timeoutMs?: number): Promise<unknown>;
  stop(): Promise<void>;
}

export function mcpcHome(): Mcpc {
  const home = mkdtempSync(join(tmpdir(), 'matrix-mcpc-'));
  const env = { ...process.env, MCPC_HOME_DIR: home };
  const run = async (args: string[], timeoutMs = 45_000): Promise<unknown> => {
    const ran = await runProcess(process.execPath, [BIN, '--json', ...args], { env, timeoutMs });
    if (ran.code === 0) return parseJson(ran.stdout, 'mcpc');
    // --json failures: {"error": "…", "code": n} on stdout or stderr.
    const text = (ran.stdout.trim() || ran.stderr.trim()).split('\n').filter((l) => l.trim()).join('\n');
    const envelope = text.startsWith('{') ? (parseJson(text, 'mcpc') as { error?: string }) : undefined;
    throw new Error(envelope?.error ?? `exit ${ran.code}: ${text.slice(0, 200)}`);
  };
  return { home, run, stop: async () => rmSync(home, { recursive: true, force: true }) };
}

/** `server`: a URL, or a stdio command (written into a config file mcpc reads as `file:entry`). */
export async function connectMcpc(m: Mcpc, name: string, server: string | string[]): Promise<{ surface: ClientSurface; close(): Promise<void> }> {
  let target = server as string;
  if (Array.isArray(server)) {
    target = join(m.home, `${name}.json`);
    writeFileSync(target, JSON.stringify({ mcpServers: { demo: { command: server[0], args: server.slice(1) } } }));
    target = `${target}:demo`;
  }
  // mcpc gives its bridge process a fixed 5 s to start; a busy machine can take longer: up to 5 tries.
  for (let attempt = 1; ; attempt++) {
    const failed = await m.run(['connect', target, `@${name}`], 60_000).then(
      () => undefined,
      (err: unknown) => err,
    );
    if (!failed) break;
    if (!String((failed as Error).message).includes('Bridge failed to start')) throw failed;
    if (attempt === 5) throw new ClientUnavailable(`mcpc's bridge did not start within its fixed 5 s, 5 times (a busy machine): ${(failed as Error).message}`);
  }
  const on = (args: string[], timeoutMs?: number) => m.run([`@${name}`, ...args], timeoutMs);
  const kv = (args: Record<string, unknown>) => Object.entries(args).map(([k, v]) => `${k}:=${JSON.stringify(v)}`);
  const surface: ClientSurface = {
    listTools: async () => ({ tools: (await on(['tools-list'])) as Array<{ name: string }> }),
    listPrompts: async () => ({ prompts: (await on(['prompts-list'])) as Array<{ name: string }> }),
    listResources: async () => ({ resources: (await on(['resources-list'])) as Array<{ uri: string }> }),
    listResourceTemplates: async () => ({ resourceTemplates: (await on(['resources-templates-list'])) as Array<{ uriTemplate: string }> }),
    callTool: async (tool, args) => (await on(['tools-call', tool, ...kv(args)])) as ToolResult,
    getPrompt: (prompt, args) => on(['prompts-get', prompt, ...kv(args)]) as never,
    readResource: (uri) => on(['resources-read', uri]) as never,
  };
  return { surface, close: async () => void (await on(['close'], 20_000).catch(() => undefined)) };
}

/** A task created (`--detach`), polled to its result (`tasks-result`), and another cancelled (`tasks-cancel`). */
export async function mcpcTask(m: Mcpc, name: string, url: string): Promise<Cell> {
  let conn: Awaited<ReturnType<typeof connectMcpc>> | undefined;
  try {
    conn = await connectMcpc(m, name, url);
    const on = (args: string[]) => m.run([`@${name}`, ...args]);
    const created = (await on(['tools-call', 'slow_compute', 'seconds:=0.2', 'label:="matrix"', '--detach'])) as { taskId?: string };
    if (!created.taskId) throw new Error(`no task: ${JSON.stringify(created).slice(0, 160)}`);
    const result = (await on(['tasks-result', created.taskId])) as ToolResult;
    const text = (result.content as Array<{ text?: string }> | undefined)?.[0]?.text;
    if (text !== 'Computed matrix after 0.2 s') throw new Error(`result: ${JSON.stringify(result).slice(0, 160)}`);
    const long = (await on(['tools-call', 'slow_compute', 'seconds:=30', '--detach'])) as { taskId: string };
    const cancelled = (await on(['tasks-cancel', long.taskId])) as { status?: string };
    if (cancelled.status !== 'cancelled') throw new Error(`cancel: ${JSON.stringify(cancelled).slice(0, 160)}`);
    return { state: 'works' };
  } catch (err) {
    return { state: 'fails', why: String(err instanceof Error ? err.message : err).slice(0, 160) };
  } finally {
    await conn?.close();
  }
}
