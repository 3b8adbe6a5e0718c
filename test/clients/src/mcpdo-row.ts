/**
 * Rows of `mcpdo` (MCP Inspector 2.x's connection CLI, on Node 22): a daemon
 * holds named connections; each command is a process that talks to it. The
 * suite runs a private daemon (`mcpdo private`) with a home of its own, and
 * names each row's connection in a config file of its own.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseJson, runProcess } from './cli-process.js';
import type { ClientSurface, ToolResult } from './demo-checks.js';
import type { Cell, MatrixRow } from './matrix-types.js';
import type { Node22 } from './node22.js';

export interface Mcpdo {
  run(args: string[], timeoutMs?: number): Promise<unknown>;
  stop(): Promise<void>;
}

/** Starts nothing yet: the daemon starts with the first command. */
export async function privateMcpdo(n22: Node22): Promise<Mcpdo> {
  const home = mkdtempSync(join(tmpdir(), 'matrix-mcpdo-'));
  const bin = join(n22.inspector, 'clients', 'mcpdo', 'build', 'mcp-bin.js');
  const env: NodeJS.ProcessEnv = { ...n22.env, HOME: home, MCP_INSPECTOR_SECRET_STORE: 'file' };
  const exports = await runProcess(n22.node, [bin, 'private'], { env, timeoutMs: 30_000 });
  for (const [, key, value] of exports.stdout.matchAll(/export (\w+)='([^']*)'/g)) env[key as string] = value;
  if (!env.MCP_INSPECTOR_DAEMON_DIR) throw new Error(`mcpdo private: ${(exports.stderr || exports.stdout).slice(0, 160)}`);
  const run = async (args: string[], timeoutMs = 45_000): Promise<unknown> => {
    const ran = await runProcess(n22.node, [bin, '--format', 'json', ...args], { env, timeoutMs });
    // A tool error exits 5 with its result on stdout; other failures print {"error": {…}} on stderr.
    if (ran.stdout.trim() && (ran.code === 0 || ran.code === 5)) return parseJson(ran.stdout, 'mcpdo');
    const line = ran.stderr.trim().split('\n').filter((l) => l.startsWith('{')).pop();
    const envelope = line ? (parseJson(line, 'mcpdo') as { error?: { message?: string } }) : undefined;
    throw new Error(envelope?.error?.message ?? `exit ${ran.code}: ${(ran.stderr || ran.stdout).trim().slice(0, 200)}`);
  };
  return {
    run,
    stop: async () => {
      await run(['daemon', 'stop'], 20_000).catch(() => undefined);
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export type McpdoTarget = { url: string; transport: 'http' | 'sse' } | { command: string[] };

/** Connects `name` (a config entry for `target`) on `revision`; the connection's surface. */
export async function connectMcpdo(d: Mcpdo, name: string, target: McpdoTarget, revision: MatrixRow['revision']): Promise<{ surface: ClientSurface; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'matrix-mcpdo-config-'));
  const config = join(dir, 'mcp.json');
  const entry = 'url' in target ? { type: target.transport, url: target.url } : { command: target.command[0], args: target.command.slice(1) };
  writeFileSync(config, JSON.stringify({ mcpServers: { [name]: entry } }));
  await d.run(['connect', name, '--config', config, '--era', revision === '2026-07-28' ? 'modern' : 'legacy', '--connect-timeout', '60000'], 90_000);
  const on = (args: string[], timeoutMs?: number) => d.run(['--connection', name, ...args], timeoutMs);
  const kv = (args: Record<string, unknown>) => Object.entries(args).map(([k, v]) => `${k}:=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  const surface: ClientSurface = {
    listTools: () => on(['tools/list']) as never,
    listPrompts: () => on(['prompts/list']) as never,
    listResources: () => on(['resources/list']) as never,
    listResourceTemplates: () => on(['resources/templates/list']) as never,
    callTool: async (tool, args) => {
      const r = (await on(['tools/call', tool, ...kv(args)])) as ToolResult & { elicitationPending?: { elicitationId: string } };
      // mcpdo parks a call the server asks a question in and returns; the client answers it with elicitation/respond.
      if (r.elicitationPending) return (await on(['elicitation/respond', r.elicitationPending.elicitationId, 'answer:=green'])) as ToolResult;
      return r;
    },
    getPrompt: (prompt, args) => on(['prompts/get', prompt, '--prompt-args', ...Object.entries(args).map(([k, v]) => `${k}=${v}`)]) as never,
    readResource: (uri) => on(['resources/read', uri]) as never,
    complete: async (prompt, argument, value) =>
      ((await on(['prompts/complete', '--complete-ref-type', 'ref/prompt', '--complete-ref', prompt, '--complete-arg-name', argument, '--complete-arg-value', value])) as { values: string[] }).values,
    elicitation: true,
  };
  return {
    surface,
    close: async () => {
      await d.run(['disconnect', name], 20_000).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A task on the task server: `tools/call --task` creates it, waits (polling)
 * and prints its result. mcpdo serves one request per connection at a time and
 * waits for the result, so it cannot cancel the task it waits for.
 */
export async function mcpdoTask(d: Mcpdo, name: string, url: string): Promise<Cell> {
  try {
    const conn = await connectMcpdo(d, name, { url, transport: 'http' }, '2025-11-25');
    try {
      const r = (await d.run(['--connection', name, 'tools/call', 'slow_compute', 'seconds:=0.2', 'label:=matrix', '--task'])) as ToolResult & { _meta?: Record<string, { taskId?: string }> };
      const text = (r.content as Array<{ text?: string }> | undefined)?.[0]?.text;
      if (!r._meta?.['io.modelcontextprotocol/related-task']?.taskId || text !== 'Computed matrix after 0.2 s') throw new Error(`not a task result: ${JSON.stringify(r).slice(0, 160)}`);
      return { state: 'works', note: 'created, polled, result; no cancel: one request per connection while --task waits' };
    } finally {
      await conn.close();
    }
  } catch (err) {
    return { state: 'fails', why: String(err instanceof Error ? err.message : err).slice(0, 160) };
  }
}
