/**
 * The client matrix: real, pinned MCP clients (this package's devDependencies,
 * and Inspector 2.x with Node 22 in .tools/node22) against examples/demo (and
 * the task tools of examples/conformance-server), per client × transport ×
 * revision. Every cell must work, or be a feature the client does not offer;
 * the table is written into page 07 between its markers. Rows run concurrently,
 * at most ROWS_AT_ONCE at a time: each has its own connection.
 *
 * Command-line clients start a process per request (and, over stdio, the demo
 * with it), so on their rows past the first transport the suite checks
 * SMOKE, not every feature: the time budget of `npm test`. Set
 * FA_MCP_CLIENT_MATRIX_FULL=1 to check every feature on every row.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest';
import { initMcpServer, type McpServerHandle } from 'fa-mcp-sdk';
import { createDemoServer } from '../../examples/demo/src/server.js';
import { buildDemoDist } from '../../examples/demo/test/demo-dist.js';
// @ts-expect-error an untyped .mjs module of the example
import { taskTools } from '../../examples/conformance-server/src/task-fixtures.mjs';
import { demoStdioCommand } from './src/cli-process.js';
import { runDemoChecks, type ClientSurface } from './src/demo-checks.js';
import { runTaskChecks } from './src/ext-tasks-row.js';
import { INSPECTOR_022, inspectorCli, inspectorSurface } from './src/inspector-row.js';
import { connectMcpRemote } from './src/mcp-remote-row.js';
import { ClientUnavailable } from './src/cli-process.js';
import { connectMcpc, mcpcHome, mcpcTask, type Mcpc } from './src/mcpc-row.js';
import { connectMcpdo, mcpdoTask, privateMcpdo, type Mcpdo } from './src/mcpdo-row.js';
import { writeMatrix } from './src/matrix-doc.js';
import type { Cell, Feature, MatrixRow } from './src/matrix-types.js';
import { ensureNode22 } from './src/node22.js';
import { serviceAvailable } from '../../scripts/test-kit/ci-checks.mjs';
import { connectV1, connectV2, type Endpoint } from './src/sdk-rows.js';

/** The installed version of a pinned client (a missing client fails here, also in CI). */
const versionOf = (pkg: string) => (JSON.parse(readFileSync(join(__dirname, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
const PAGE = join(__dirname, '..', '..', 'FA-MCP-SDK-DOC', '07-testing-and-operations.md');
const NO_TASKS: Cell = { state: 'not supported', why: 'no task API (see the ext-tasks row)' };
const CLI_ONLY: Partial<MatrixRow['cells']> = { task: { state: 'not supported', why: 'the CLI has no option for it' } };
const node22 = ensureNode22();
const FULL = process.env.FA_MCP_CLIENT_MATRIX_FULL === '1';
const SMOKE: readonly Feature[] = ['list tools', 'call tool', 'bad argument', 'tool error with outputSchema'];
/** The features a command-line client's secondary row checks. */
const secondary = FULL ? undefined : SMOKE;
const ROWS_AT_ONCE = 3;

const rows: MatrixRow[] = [];
/** Rows declared; the page is only written when all of them ran (not with -t, nor without Node 22). */
let declared = 0;
let demo: McpServerHandle;
let tasks: McpServerHandle;
let at: Endpoint;
let mcpdo: Mcpdo | undefined;
let mcpc: Mcpc;

beforeAll(async () => {
  const quiet = { handleSignals: false, config: { webServer: { port: 0, host: '127.0.0.1' }, logger: { level: 'silent' } } };
  demo = await createDemoServer(quiet);
  tasks = await initMcpServer({ serverInfo: { name: 'matrix-tasks', version: '1.0.0' }, tools: taskTools }, { ...quiet, config: { ...quiet.config, mcp: { tasks: { enabled: true } } } });
  const mcpUrl = demo.url as string;
  at = { mcpUrl, sseUrl: mcpUrl.replace(/\/mcp$/, '/sse'), stdioStart: buildDemoDist() };
  mcpc = mcpcHome();
  if (node22) mcpdo = await privateMcpdo(node22);
}, 300_000);

afterAll(async () => {
  await mcpdo?.stop();
  await mcpc?.stop();
  await demo?.stop('matrix done');
  await tasks?.stop('matrix done');
  // Rows that did not run (a -t filter, no Node 22, a client that could not start here) keep their line of the page.
  if (rows.length < declared) console.warn(`[client matrix] ${rows.length} of ${declared} rows ran: the others keep their line on page 07`);
  if (rows.length > 0) writeMatrix(PAGE, rows, rows.length < declared);
}, 60_000);

type Started = { surface: ClientSurface; close(): Promise<void> };
type Extra = Partial<MatrixRow['cells']> | (() => Promise<Partial<MatrixRow['cells']>>);

/** A counting semaphore: at most `n` rows at once (vitest starts up to 5 concurrent tests). */
function limiter(n: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await fn();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
const slot = limiter(ROWS_AT_ONCE);

type Ctx = { expect: ExpectStatic; skip: (note?: string) => never };

/** Runs one row (all features, or those in `only`); every cell must work or be unsupported by the client. */
function row(ctx: Ctx, base: Omit<MatrixRow, 'cells'>, connect: () => Promise<Started>, extra: Extra = {}, only?: readonly Feature[]) {
  return slot(() => runRow(ctx, base, connect, extra, only));
}

async function runRow({ expect, skip }: Ctx, base: Omit<MatrixRow, 'cells'>, connect: () => Promise<Started>, extra: Extra, only?: readonly Feature[]) {
  const started = await connect().then(
    (c) => ({ c }),
    (err: unknown) => ({ err }),
  );
  // A client this machine cannot host now (mcpc's fixed bridge start time on a busy machine): skipped, failed in CI.
  if ('err' in started && started.err instanceof ClientUnavailable) {
    serviceAvailable(false, `${base.client} over ${base.transport}`, started.err.message);
    skip(started.err.message);
  }
  let cells: MatrixRow['cells'];
  if ('c' in started) {
    try {
      cells = { connect: { state: 'works' }, ...(await runDemoChecks(started.c.surface, only)), ...(typeof extra === 'function' ? await extra() : extra) };
    } finally {
      await started.c.close();
    }
  } else cells = { connect: { state: 'fails', why: String(started.err).slice(0, 160) } };
  rows.push({ ...base, cells });
  const failures = Object.entries(cells).filter(([, cell]) => cell.state === 'fails');
  expect(failures, `${base.client} ${base.transport} ${base.revision}`).toEqual([]);
}

/** A deadline per row, not a wait: under heavy load (load average ~19 on 2 cores) a full command-line row took 4 minutes. */
const ROW_MS = 420_000;

/** `it` for a row, counted as declared; skipped (with the reason printed once) when `skip`. */
function rowIt(name: string, fn: (ctx: Ctx) => Promise<void>, skip = false) {
  declared++;
  (skip ? it.skip : it)(name, (ctx) => fn(ctx as unknown as Ctx), ROW_MS);
}
const BOTH = ['2025-11-25', '2026-07-28'] as const;

describe('client matrix', { concurrent: true }, () => {
  const v1 = versionOf('@modelcontextprotocol/sdk');
  const v2 = versionOf('@modelcontextprotocol/client');
  for (const transport of ['Streamable HTTP', 'legacy SSE', 'stdio'] as const) {
    rowIt(`SDK v1 over ${transport}`, (ctx) => row(ctx, { client: 'SDK v1 (@modelcontextprotocol/sdk)', version: v1, transport, revision: '2025-11-25' }, () => connectV1(transport, at), { task: NO_TASKS }));
  }
  for (const [transport, revision] of [
    ['Streamable HTTP', '2025-11-25'],
    ['Streamable HTTP', '2026-07-28'],
    ['legacy SSE', '2025-11-25'],
    ['stdio', '2025-11-25'],
    ['stdio', '2026-07-28'],
  ] as const) {
    rowIt(`SDK v2 over ${transport} on ${revision}`, (ctx) => row(ctx, { client: 'SDK v2 (@modelcontextprotocol/client)', version: v2, transport, revision }, () => connectV2(transport, revision, at), { task: NO_TASKS }));
  }

  for (const revision of BOTH) {
    rowIt(`ext-tasks on ${revision}: a task created, polled to its result, and cancelled`, async (ctx) => {
      const task = await runTaskChecks(tasks.url as string, revision);
      rows.push({ client: 'ext-tasks (@modelcontextprotocol/ext-tasks)', version: versionOf('@modelcontextprotocol/ext-tasks'), transport: 'Streamable HTTP', revision, cells: { connect: { state: 'works' }, task } });
      ctx.expect(task).toEqual({ state: 'works' });
    });
  }

  const cli022 = inspectorCli(INSPECTOR_022);
  const cliTargets = (revision: MatrixRow['revision'], era: string[]) => ({
    'Streamable HTTP': [at.mcpUrl, '--transport', 'http', ...era],
    'legacy SSE': [at.sseUrl, '--transport', 'sse', ...era],
    stdio: [...demoStdioCommand(at.stdioStart), ...era],
  });
  for (const transport of ['Streamable HTTP', 'legacy SSE', 'stdio'] as const) {
    rowIt(`MCP Inspector 0.22 CLI over ${transport}`, (ctx) =>
      row(ctx, { client: 'MCP Inspector CLI (@modelcontextprotocol/inspector --cli)', version: cli022.version, transport, revision: '2025-11-25' }, async () => ({ surface: inspectorSurface(cli022, cliTargets('2025-11-25', [])[transport]), close: async () => undefined }), CLI_ONLY, transport === 'Streamable HTTP' ? undefined : secondary));
  }

  const eraRows = [
    ['Streamable HTTP', '2025-11-25'],
    ['Streamable HTTP', '2026-07-28'],
    ['legacy SSE', '2025-11-25'],
    ['stdio', '2025-11-25'],
    ['stdio', '2026-07-28'],
  ] as const;
  for (const [transport, revision] of eraRows) {
    rowIt(`MCP Inspector 2.x CLI over ${transport} on ${revision}`, (ctx) => {
      const cli = inspectorCli(node22!.inspector, node22!.node, node22!.env);
      const era = ['--protocol-era', revision === '2026-07-28' ? 'modern' : 'legacy'];
      return row(ctx, { client: 'MCP Inspector CLI (@modelcontextprotocol/inspector --cli)', version: cli.version, transport, revision }, async () => ({ surface: inspectorSurface(cli, cliTargets(revision, era)[transport]), close: async () => undefined }), CLI_ONLY, transport === 'Streamable HTTP' ? undefined : secondary);
    }, !node22);
    rowIt(`mcpdo over ${transport} on ${revision}`, (ctx) => {
      const name = `matrix-${transport === 'stdio' ? 'stdio' : transport === 'legacy SSE' ? 'sse' : 'http'}-${revision === '2026-07-28' ? 'modern' : 'legacy'}`;
      const target = transport === 'stdio' ? { command: demoStdioCommand(at.stdioStart) } : { url: transport === 'legacy SSE' ? at.sseUrl : at.mcpUrl, transport: transport === 'legacy SSE' ? ('sse' as const) : ('http' as const) };
      // The task server is on Streamable HTTP; the task is checked in the 2025-11-25 HTTP row.
      const task = transport === 'Streamable HTTP' && revision === '2025-11-25' ? async () => ({ task: await mcpdoTask(mcpdo!, `${name}-tasks`, tasks.url as string) }) : {};
      return row(ctx, { client: 'mcpdo (@modelcontextprotocol/inspector)', version: inspectorCli(node22!.inspector).version, transport, revision }, () => connectMcpdo(mcpdo!, name, target, revision), task, transport === 'Streamable HTTP' ? undefined : secondary);
    }, !node22);
  }

  for (const [transport, revision] of [
    ['Streamable HTTP', '2025-11-25'],
    ['Streamable HTTP', '2026-07-28'],
    ['legacy SSE', '2025-11-25'],
  ] as const) {
    rowIt(`mcp-remote over ${transport} on ${revision}`, (ctx) =>
      row(ctx, { client: 'mcp-remote (stdio bridge, SDK v1 client)', version: versionOf('mcp-remote'), transport, revision }, () => connectMcpRemote(transport === 'legacy SSE' ? at.sseUrl : at.mcpUrl, transport, revision), { task: NO_TASKS }));
  }

  for (const transport of ['Streamable HTTP', 'stdio'] as const) {
    rowIt(`mcpc over ${transport}`, (ctx) => {
      const name = transport === 'stdio' ? 'matrix-stdio' : 'matrix-http';
      const task = transport === 'Streamable HTTP' ? async () => ({ task: await mcpcTask(mcpc, 'matrix-tasks', tasks.url as string) }) : {};
      return row(ctx, { client: 'mcpc (@apify/mcpc)', version: versionOf('@apify/mcpc'), transport, revision: '2025-11-25' }, () => connectMcpc(mcpc, name, transport === 'stdio' ? demoStdioCommand(at.stdioStart) : at.mcpUrl), task, transport === 'stdio' ? secondary : undefined);
    });
  }
});
