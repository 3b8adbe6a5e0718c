/**
 * The client matrix: real, pinned MCP clients (this package's devDependencies)
 * against examples/demo (and the task tools of examples/conformance-server),
 * per client × transport × revision. Every cell must work, or be a feature the
 * client does not offer; the table is written into page 07 between its markers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initMcpServer, type McpServerHandle } from 'fa-mcp-sdk';
import { createDemoServer } from '../../examples/demo/src/server.js';
import { buildDemoDist } from '../../examples/demo/test/demo-dist.js';
// @ts-expect-error an untyped .mjs module of the example
import { taskTools } from '../../examples/conformance-server/src/task-fixtures.mjs';
import { runDemoChecks, type ClientSurface } from './src/demo-checks.js';
import { runTaskChecks } from './src/ext-tasks-row.js';
import { inspectorCli, inspectorSurface } from './src/inspector-row.js';
import { writeMatrix } from './src/matrix-doc.js';
import type { Cell, MatrixRow } from './src/matrix-types.js';
import { connectV1, connectV2, type Connected, type Endpoint } from './src/sdk-rows.js';

/** The installed version of a pinned client (a missing client fails here, also in CI). */
const versionOf = (pkg: string) => (JSON.parse(readFileSync(join(__dirname, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
const PAGE = join(__dirname, '..', '..', 'FA-MCP-SDK-DOC', '07-testing-and-operations.md');
const NO_TASKS: Cell = { state: 'not supported', why: 'no task API (see the ext-tasks row)' };

const rows: MatrixRow[] = [];
let demo: McpServerHandle;
let tasks: McpServerHandle;
let at: Endpoint;

beforeAll(async () => {
  const quiet = { handleSignals: false, config: { webServer: { port: 0, host: '127.0.0.1' }, logger: { level: 'silent' } } };
  demo = await createDemoServer(quiet);
  tasks = await initMcpServer({ serverInfo: { name: 'matrix-tasks', version: '1.0.0' }, tools: taskTools }, { ...quiet, config: { ...quiet.config, mcp: { tasks: { enabled: true } } } });
  const mcpUrl = demo.url as string;
  at = { mcpUrl, sseUrl: mcpUrl.replace(/\/mcp$/, '/sse'), stdioStart: buildDemoDist() };
}, 180_000);

afterAll(async () => {
  await demo?.stop('matrix done');
  await tasks?.stop('matrix done');
  rows.sort((a, b) => `${a.client}${a.transport}${a.revision}`.localeCompare(`${b.client}${b.transport}${b.revision}`));
  if (rows.length > 0) writeMatrix(PAGE, rows);
});

/** Runs one row; every cell must work or be unsupported by the client. */
async function row(base: Omit<MatrixRow, 'cells'>, connect: () => Promise<Connected | { surface: ClientSurface; close(): Promise<void> }>, extra: Partial<MatrixRow['cells']> = {}) {
  const started = await connect().then(
    (c) => ({ c }),
    (err: unknown) => ({ err }),
  );
  const cells: MatrixRow['cells'] = 'c' in started ? { connect: { state: 'works' }, ...(await runDemoChecks(started.c.surface)), ...extra } : { connect: { state: 'fails', why: String(started.err).slice(0, 160) } };
  if ('c' in started) await started.c.close();
  rows.push({ ...base, cells });
  const failures = Object.entries(cells).filter(([, cell]) => cell.state === 'fails');
  expect(failures, `${base.client} ${base.transport} ${base.revision}`).toEqual([]);
}

describe('client matrix', () => {
  const v1 = versionOf('@modelcontextprotocol/sdk');
  const v2 = versionOf('@modelcontextprotocol/client');
  for (const transport of ['Streamable HTTP', 'legacy SSE', 'stdio'] as const) {
    it(`SDK v1 over ${transport}`, () => row({ client: 'SDK v1 (@modelcontextprotocol/sdk)', version: v1, transport, revision: '2025-11-25' }, () => connectV1(transport, at), { task: NO_TASKS }), 120_000);
  }
  for (const [transport, revision] of [
    ['Streamable HTTP', '2025-11-25'],
    ['Streamable HTTP', '2026-07-28'],
    ['legacy SSE', '2025-11-25'],
    ['stdio', '2025-11-25'],
    ['stdio', '2026-07-28'],
  ] as const) {
    it(`SDK v2 over ${transport} on ${revision}`, () => row({ client: 'SDK v2 (@modelcontextprotocol/client)', version: v2, transport, revision }, () => connectV2(transport, revision, at), { task: NO_TASKS }), 120_000);
  }

  it('ext-tasks on 2025-11-25: a task created, polled to its result, and cancelled', async () => {
    const task = await runTaskChecks(tasks.url as string);
    rows.push({ client: 'ext-tasks (@modelcontextprotocol/ext-tasks)', version: versionOf('@modelcontextprotocol/ext-tasks'), transport: 'Streamable HTTP', revision: '2025-11-25', cells: { connect: { state: 'works' }, task } });
    expect(task).toEqual({ state: 'works' });
  }, 120_000);

  it('MCP Inspector CLI over Streamable HTTP', () => {
    const cli = inspectorCli();
    const notOffered: Cell = { state: 'not supported', why: 'the CLI has no option for it' };
    return row(
      { client: 'MCP Inspector CLI (@modelcontextprotocol/inspector --cli)', version: cli.version, transport: 'Streamable HTTP', revision: '2025-11-25' },
      async () => ({ surface: inspectorSurface([at.mcpUrl, '--transport', 'http']), close: async () => undefined }),
      { task: notOffered },
    );
  }, 300_000);
});
