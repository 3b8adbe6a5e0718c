/**
 * Every documented example that starts a server (a ```typescript block of FA-MCP-SDK-DOC/ or of
 * a README that calls initMcpServer at its top level) keeps stdout for JSON-RPC when it is run
 * for stdio: each is run with Node against the built package with `MCP_TRANSPORT_TYPE=stdio`,
 * sent `initialize` and `tools/list`, then its stdin is closed; every line it wrote to stdout
 * must be a JSON-RPC message, and it must exit 0. A server that runs on (it does not stop itself)
 * must answer both requests.
 *
 * The console diversion (`mcp.stdio.consoleToStderr`) is switched off here: the examples
 * themselves must print nothing to stdout under stdio, since readers copy them. An example
 * that pins `mcp.transportType: 'http'` is an HTTP server and is not run, nor one marked
 * `<!-- not-over-stdio: <reason> -->` (it needs files only a real project has).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_URL } from '../db/pg-env.js';
import { blocksOf, DIST, PAGES, PKG, runnableModule, type Block } from './doc-blocks.js';

const WORK = join(PKG, 'node_modules', '.cache', 'docs-examples-stdio');

/** Whether the block calls initMcpServer outside any function (it starts a server when run), and calls stop() there too. */
function serverStart(block: Block): { starts: boolean; stops: boolean } {
  const source = ts.createSourceFile('block.ts', block.code, ts.ScriptTarget.ES2022, true);
  let starts = false;
  let stops = false;
  const visit = (node: ts.Node, inFunction: boolean): void => {
    if (ts.isFunctionLike(node)) inFunction = true;
    if (!inFunction && ts.isCallExpression(node)) {
      const callee = node.expression;
      if (ts.isIdentifier(callee) && callee.text === 'initMcpServer') starts = true;
      if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'stop') stops = true;
    }
    node.forEachChild((child) => visit(child, inFunction));
  };
  visit(source, false);
  return { starts, stops };
}

const blocks = PAGES.flatMap((page) => blocksOf(page, WORK));
const servers = blocks
  .filter((b) => b.fragment === undefined && b.notOverStdio === undefined && !/transportType:\s*['"]http['"]/.test(b.code))
  .map((b) => ({ block: b, ...serverStart(b) }))
  .filter((s) => s.starts);

beforeAll(() => {
  if (!existsSync(join(DIST, 'index.d.ts'))) throw new Error('packages/fa-mcp-sdk/dist is missing: run `pnpm run build` at the repository root first');
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  writeFileSync(join(WORK, 'package.json'), '{ "type": "module" }');
});
afterAll(() => rmSync(WORK, { recursive: true, force: true }));

interface Run {
  stdout: string[];
  stderr(): string;
  send(message: object): void;
  end(): void;
  /** Resolves when `check` holds on the stdout lines, or once the process exited (then false). */
  until(check: (lines: string[]) => boolean, timeoutMs: number): Promise<boolean>;
  exited: Promise<number | null>;
}

function run(file: string): Run {
  const env: Record<string, string> = { MCP_TRANSPORT_TYPE: 'stdio', MCP_STDIO_CONSOLE_TO_STDERR: 'false', DB_MAIN_URL: PG_URL };
  for (const key of ['PATH', 'HOME', 'TMPDIR']) if (process.env[key] !== undefined) env[key] = process.env[key] as string;
  const child = spawn(process.execPath, [file], { cwd: WORK, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const stdout: string[] = [];
  let partial = '';
  let stderr = '';
  let exitCode: number | null | undefined;
  const waiters = new Set<() => void>();
  const poke = () => waiters.forEach((w) => w());
  child.stdout.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString('utf8')).split('\n');
    partial = parts.pop() ?? '';
    stdout.push(...parts.filter((l) => l !== ''));
    poke();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.on('error', () => undefined); // an example that stopped by itself closed its end
  const exited = new Promise<number | null>((resolve) =>
    child.once('close', (code) => {
      if (partial !== '') stdout.push(partial);
      exitCode = code;
      poke();
      resolve(code);
    }),
  );
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  void exited.then(() => clearTimeout(killer));
  return {
    stdout,
    stderr: () => stderr,
    send: (message) => void child.stdin.write(`${JSON.stringify(message)}\n`),
    end: () => child.stdin.end(),
    exited,
    until(check, timeoutMs) {
      return new Promise((resolve) => {
        const done = (value: boolean) => {
          waiters.delete(waiter);
          clearTimeout(timer);
          resolve(value);
        };
        const waiter = () => {
          if (check(stdout)) done(true);
          else if (exitCode !== undefined) done(false);
        };
        const timer = setTimeout(() => done(false), timeoutMs);
        waiters.add(waiter);
        waiter();
      });
    },
  };
}

const answered = (id: number) => (lines: string[]) =>
  lines.some((l) => {
    try {
      return (JSON.parse(l) as { id?: unknown }).id === id;
    } catch {
      return false;
    }
  });

describe('documented servers, run over stdio', () => {
  it('finds the examples that start a server; every not-over-stdio marker gives a reason', () => {
    expect(servers.length).toBeGreaterThan(10);
    expect(blocks.filter((b) => b.notOverStdio === '').map((b) => `${b.page}:${b.line}`)).toEqual([]);
  });

  for (const { block, stops } of servers) {
    it(`${block.page}:${block.line} writes only JSON-RPC to stdout`, async () => {
      const file = block.file.replace(/\.ts$/, '.mjs');
      writeFileSync(file, runnableModule(block));
      const server = run(file);
      server.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'docs', version: '1' } } });
      const initialized = await server.until(answered(1), 30_000);
      server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      server.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      const listed = await server.until(answered(2), 30_000);
      server.end();
      const code = await server.exited;
      const where = `${block.page}:${block.line}\nstdout:\n${server.stdout.join('\n')}\nstderr:\n${server.stderr()}`;

      for (const line of server.stdout) {
        let message: { jsonrpc?: unknown } | undefined;
        try {
          message = JSON.parse(line) as { jsonrpc?: unknown };
        } catch {
          message = undefined;
        }
        expect(message?.jsonrpc, `a line on stdout that is not JSON-RPC: ${line}\n${where}`).toBe('2.0');
      }
      expect(code, where).toBe(0);
      // A server that runs on answers; one that stops itself may have stopped before the client spoke.
      if (!stops) expect({ initialized, listed }, where).toEqual({ initialized: true, listed: true });
    }, 90_000);
  }
});
