/**
 * A stdio client (or a script) that writes its requests and closes stdin gets
 * an answer to every request the server read: on both protocol eras, with the
 * cold front (mcp.fastPath) and without, with stdin closed right after the
 * last line and once a slow call runs. The server waits for the call in flight
 * within the shutdown grace, then exits 0; a call that outlives the grace is
 * answered with a JSON-RPC error and the exit code says so. Real child
 * processes (test/fixtures/child-server.mjs on the built library), and an
 * embedded server on its own streams, which stops without ending the process.
 */
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { initMcpServer, type McpServerHandle } from '../../src/index.js';
import { fixtureServerData } from '../fixtures/server-data.js';
import { exitWithin, killChildFixtures, spawnChildFixture, type ChildFixture } from './child-fixture.js';
import { ERAS, FIXTURES_DIR, LEGACY_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSION, waitFor, type Era } from './helpers.js';

afterAll(killChildFixtures);

type Rpc = { jsonrpc?: string; id?: unknown; method?: string; result?: Record<string, unknown>; error?: { code: number; message: string } };

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'eof-script', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** What a script writes: the era's opening, a list, a slow call, a quick one. Returns the lines and the ids it awaits. */
function script(era: Era, sleepMs: number): { lines: string[]; ids: number[] } {
  const params = (p: Record<string, unknown>) => (era === '2026' ? { ...p, _meta: ENVELOPE } : p);
  const opening =
    era === '2025'
      ? [
          { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LEGACY_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'eof-script', version: '1' } } },
          { jsonrpc: '2.0', method: 'notifications/initialized' },
        ]
      : [];
  const messages = [
    ...opening,
    { jsonrpc: '2.0', id: 2, method: 'tools/list', params: params({}) },
    { jsonrpc: '2.0', id: 3, method: 'tools/call', params: params({ name: 'sleep', arguments: { ms: sleepMs } }) },
    { jsonrpc: '2.0', id: 4, method: 'tools/call', params: params({ name: 'echo', arguments: { text: 'quick' } }) },
  ];
  return { lines: messages.map((m) => JSON.stringify(m)), ids: era === '2025' ? [1, 2, 3, 4] : [2, 3, 4] };
}

const parsed = (lines: string[]): Rpc[] => lines.map((l) => JSON.parse(l) as Rpc);

/** Every stdout line is one JSON-RPC 2.0 message; each awaited id is answered exactly once. */
function expectAnsweredOnce(fixture: ChildFixture, ids: number[]): Map<unknown, Rpc> {
  for (const line of fixture.stdoutLines) expect(() => JSON.parse(line), `not JSON-RPC on stdout: ${line}`).not.toThrow();
  const messages = parsed(fixture.stdoutLines);
  for (const m of messages) expect(m.jsonrpc).toBe('2.0');
  const answers = messages.filter((m) => m.method === undefined);
  expect(answers.map((m) => m.id).sort()).toEqual(ids);
  return new Map(answers.map((m) => [m.id, m]));
}

const sleepStarted = (fixture: ChildFixture) => fixture.stderr().includes('"tool":"sleep"');

describe.each(ERAS)('stdio, era %s: the client closes stdin', (era) => {
  describe.each([true, false])('mcp.fastPath %s', (fastPath) => {
    it.each(['right after the last line', 'while the slow call runs'] as const)('closed %s: every request is answered, then exit 0', async (when) => {
      const fixture = spawnChildFixture('stdio', { MCP_FAST_PATH: String(fastPath), FIXTURE_GRACE_MS: '10000' });
      const { lines, ids } = script(era, 600);
      fixture.child.stdin.write(lines.map((l) => `${l}\n`).join(''));
      if (when === 'while the slow call runs') await waitFor(() => sleepStarted(fixture), 10_000, 'the sleep call to run');
      fixture.child.stdin.end();

      expect(await exitWithin(fixture, 15_000), fixture.stderr()).toBe(0);
      const byId = expectAnsweredOnce(fixture, ids);
      expect(byId.get(2)?.result?.tools).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'sleep' })]));
      expect(byId.get(3)?.result?.structuredContent).toEqual({ slept: 600 });
      expect(byId.get(4)?.result?.structuredContent).toEqual({ echoed: 'quick' });
      expect(fixture.stderr()).toContain('stdin ended');
    }, 30_000);
  });

  it('a call that outlives the shutdown grace is answered with a JSON-RPC error, and the exit code is 1', async () => {
    const fixture = spawnChildFixture('stdio', { FIXTURE_GRACE_MS: '200' });
    const { lines, ids } = script(era, 10_000);
    fixture.child.stdin.write(lines.map((l) => `${l}\n`).join(''));
    await waitFor(() => sleepStarted(fixture), 10_000, 'the sleep call to run');
    fixture.child.stdin.end();

    expect(await exitWithin(fixture, 8_000)).toBe(1);
    const byId = expectAnsweredOnce(fixture, ids);
    expect(byId.get(3)?.error).toEqual({ code: -32603, message: 'The server stopped before the request finished' });
    expect(byId.get(4)?.result?.structuredContent).toEqual({ echoed: 'quick' });
  }, 30_000);
});

describe('stdio: a session the cold front answered alone', () => {
  it.each([true, false])('initialize and tools/list, then the end of stdin: both answered, exit 0 (mcp.fastPath %s)', async (fastPath) => {
    const fixture = spawnChildFixture('stdio', { MCP_FAST_PATH: String(fastPath) });
    const { lines } = script('2025', 0);
    fixture.child.stdin.end(lines.slice(0, 3).map((l) => `${l}\n`).join(''));
    expect(await exitWithin(fixture, 10_000), fixture.stderr()).toBe(0);
    expectAnsweredOnce(fixture, [1, 2]);
  }, 20_000);

  it('a last line without its newline is still answered', async () => {
    const fixture = spawnChildFixture('stdio');
    const { lines } = script('2025', 0);
    fixture.child.stdin.end(`${lines.slice(0, 2).join('\n')}\n${lines[3] as string}`);
    expect(await exitWithin(fixture, 10_000), fixture.stderr()).toBe(0);
    const byId = expectAnsweredOnce(fixture, [1, 3]);
    expect(byId.get(3)?.result?.structuredContent).toEqual({ slept: 0 });
  }, 20_000);
});

describe('stdio: what consumer code prints', () => {
  it('console.log in a tool goes to stderr while the server runs (mcp.stdio.consoleToStderr), and to stdout when switched off', async () => {
    const call = (fixture: ChildFixture) => {
      const { lines } = script('2025', 0);
      fixture.child.stdin.end([...lines.slice(0, 2), lines[4] as string].map((l) => `${l}\n`).join(''));
    };
    const diverted = spawnChildFixture('stdio');
    call(diverted);
    expect(await exitWithin(diverted, 10_000)).toBe(0);
    expectAnsweredOnce(diverted, [1, 4]);
    expect(diverted.stderr()).toContain('fixture console.log: echo quick');

    const left = spawnChildFixture('stdio', { MCP_STDIO_CONSOLE_TO_STDERR: 'false' });
    call(left);
    expect(await exitWithin(left, 10_000)).toBe(0);
    expect(left.stdoutLines).toContain('fixture console.log: echo quick');
  }, 30_000);
});

describe('an embedded stdio server on its own streams', () => {
  let handle: McpServerHandle | undefined;
  afterEach(async () => {
    await handle?.stop();
    handle = undefined;
  });

  it.each(ERAS.flatMap((era) => [true, false].map((fastPath) => [era, fastPath] as const)))(
    'era %s, mcp.fastPath %s: answers what it read when its input ends, then stops (the process goes on)',
    async (era, fastPath) => {
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      const out: string[] = [];
      let partial = '';
      stdout.on('data', (chunk: Buffer) => {
        const parts = (partial + chunk.toString('utf8')).split('\n');
        partial = parts.pop() ?? '';
        out.push(...parts.filter(Boolean));
      });
      handle = await initMcpServer(fixtureServerData(), {
        config: { mcp: { transportType: 'stdio', fastPath }, logger: { level: 'silent' }, webServer: { shutdownGraceMs: 10_000 } },
        handleSignals: false,
        cwd: FIXTURES_DIR,
        env: {},
        nodeEnv: 'test',
        stdin,
        stdout,
      });
      const { lines, ids } = script(era, 300);
      stdin.end(lines.map((l) => `${l}\n`).join(''));
      const running = handle;
      await waitFor(() => running.stopped, 10_000, 'the server to stop');
      const answers = parsed(out).filter((m) => m.method === undefined);
      expect(answers.map((m) => m.id).sort()).toEqual(ids);
      expect(answers.find((m) => m.id === 3)?.result?.structuredContent).toEqual({ slept: 300, aborted: false });
    },
    20_000,
  );
});
