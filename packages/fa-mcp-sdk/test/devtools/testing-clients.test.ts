/**
 * fa-mcp-sdk/testing clients and server starters, against real servers: in memory, Streamable HTTP
 * on both eras, legacy SSE, a spawned stdio process and a spawned start file on a free port.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectHttp,
  connectInMemory,
  connectLegacySse,
  connectStdio,
  expectToolError,
  getFreePort,
  getJsonFromResult,
  loadServerModule,
  startServerOnFreePort,
  startServerProcess,
  type RunningTestServer,
} from '../../src/testing/index.js';
import { serverData } from './fixtures/server-data.mjs';
import { sdkBuildIsCurrent } from '../../../../scripts/test-kit/sdk-build.mjs';

const FIXTURE_DATA = fileURLToPath(new URL('./fixtures/server-data.mjs', import.meta.url));
const FIXTURE_CHANGED = fileURLToPath(new URL('./fixtures/server-data-changed.mjs', import.meta.url));
const FIXTURE_START = fileURLToPath(new URL('./fixtures/start.mjs', import.meta.url));

describe.each(['2025', '2026'] as const)('connectInMemory (%s)', (era) => {
  it('lists and calls tools with no network, and validates input', async () => {
    const conn = await connectInMemory(serverData, { era });
    try {
      expect(conn.client.getNegotiatedProtocolVersion()).toBe(era === '2026' ? '2026-07-28' : '2025-11-25');
      expect((await conn.client.listTools()).tools.map((t) => t.name)).toEqual(['echo', 'describe_things']);
      expect(getJsonFromResult(await conn.client.callTool({ name: 'echo', arguments: { text: 'hi', upper: true } }))).toEqual({ echoed: 'HI' });
      await expectToolError(conn.client.callTool({ name: 'echo', arguments: {} }), -32602);
      expect(conn.handle.url).toBeUndefined();
    } finally {
      await conn.close();
    }
    expect(conn.handle.stopped).toBe(true);
  });
});

describe('startServerOnFreePort and the HTTP clients', () => {
  let server: RunningTestServer;
  beforeAll(async () => {
    server = await startServerOnFreePort({ module: FIXTURE_DATA });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('listens on 127.0.0.1 and a free port', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(server.baseUrl).toBe(`http://127.0.0.1:${server.port}`);
  });

  it.each([
    ['Streamable HTTP 2025-11-25', () => connectHttp(server.url)],
    ['Streamable HTTP 2026-07-28 (per request)', () => connectHttp(server.url, { era: '2026' })],
    ['legacy HTTP+SSE', () => connectLegacySse(server.url)],
  ])('%s: calls a tool', async (_label, connect) => {
    const client = await connect();
    try {
      expect(getJsonFromResult(await client.callTool({ name: 'echo', arguments: { text: 'x' } }))).toEqual({ echoed: 'x' });
    } finally {
      await client.close();
    }
  });

  it('the 2026 client sends no session and no initialize', async () => {
    const client = await connectHttp(server.url, { era: '2026' });
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect(client.getProtocolEra()).toBe('modern');
    } finally {
      await client.close();
    }
  });

  it('a stopped server refuses connections', async () => {
    const other = await startServerOnFreePort(serverData);
    await other.stop();
    await expect(connectHttp(other.url)).rejects.toThrow();
  });
});

describe('loadServerModule', () => {
  it('finds the default export, a named export, or a function returning the data', async () => {
    expect((await loadServerModule(FIXTURE_DATA)).exportName).toBe('default');
    expect((await loadServerModule(FIXTURE_DATA, { exportName: 'serverData' })).data.tools).toHaveLength(2);
    const changed = await loadServerModule(FIXTURE_CHANGED);
    expect(changed.exportName).toBe('createServerData');
    expect(changed.data.serverInfo?.version).toBe('1.1.0');
  });

  it('says what is wrong with a module that is not a server definition', async () => {
    await expect(loadServerModule(FIXTURE_DATA, { exportName: 'nope' })).rejects.toThrow(/has no export "nope" \(exports: default, serverData\)/);
    await expect(loadServerModule('./missing.mjs', { cwd: __dirname })).rejects.toThrow(/cannot import .*missing\.mjs/);
    await expect(loadServerModule('./fixtures/not-server.mjs', { cwd: __dirname })).rejects.toThrow(/export "default" is not McpServerData/);
  });
});

// Child processes start the built library: generous time limits for loaded CI machines.
describe.skipIf(!sdkBuildIsCurrent())('child processes (built library)', { timeout: 90_000 }, () => {
  it('connectStdio spawns a start file in stdio mode; its logs stay on stderr', async () => {
    const proc = await connectStdio({ command: process.execPath, args: [FIXTURE_START] });
    try {
      expect((await proc.client.listTools()).tools).toHaveLength(2);
      expect(getJsonFromResult(await proc.client.callTool({ name: 'echo', arguments: { text: 'stdio' } }))).toEqual({ echoed: 'stdio' });
      expect(proc.stderr()).toContain('ready on stdio');
    } finally {
      await proc.close();
    }
  });

  it('connectStdio on the 2026 era', async () => {
    const proc = await connectStdio({ command: process.execPath, args: [FIXTURE_START], era: '2026' });
    try {
      expect(proc.client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect(getJsonFromResult(await proc.client.callTool({ name: 'echo', arguments: { text: 'm' } }))).toEqual({ echoed: 'm' });
    } finally {
      await proc.close();
    }
  });

  it('startServerProcess runs a start file on a free port, waits for /health, and stops it', async () => {
    const proc = await startServerProcess({ command: process.execPath, args: [FIXTURE_START] });
    try {
      expect((await fetch(`${proc.baseUrl}/health`)).status).toBe(200);
      const client = await connectHttp(proc.url);
      expect(getJsonFromResult(await client.callTool({ name: 'echo', arguments: { text: 'p' } }))).toEqual({ echoed: 'p' });
      await client.close();
    } finally {
      await proc.stop();
    }
    await expect(fetch(`${proc.baseUrl}/health`)).rejects.toThrow();
  });

  it('startServerProcess reports a start file that dies, with its output', async () => {
    await expect(startServerProcess({ command: process.execPath, args: ['-e', 'console.error("boom: no config"); process.exit(3)'] })).rejects.toThrow(/exited with 3[\s\S]*boom: no config/);
  });
});

describe('getFreePort', () => {
  it('returns a port nothing listens on', async () => {
    const port = await getFreePort();
    expect(port).toBeGreaterThan(0);
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
  });
});
