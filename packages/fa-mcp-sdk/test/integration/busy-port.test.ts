/**
 * A busy port stops the start with one line that names the address and the setting to change
 * (webServer.port, env PORT), not node's EADDRINUSE stack: thrown by initMcpServer, printed once
 * by a consumer's start script, which then exits non-zero with nothing left running.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initMcpServer } from '../../src/index.js';
import { listenFailure } from '../../src/transport/http/listen.js';
import { startTestServer, type TestServer } from '../../src/testing/index.js';
import { assertLibraryBuilt, childEnv } from './child-fixture.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/start-on-port.mjs', import.meta.url));

let first: TestServer;
let port: number;
beforeAll(async () => {
  first = await startTestServer({ tools: [] }, { target: { transport: 'http', era: '2025', label: 'http' } });
  port = Number(new URL(first.handle.url as string).port);
});
afterAll(() => first.stop());

const expected = () =>
  `cannot listen on 127.0.0.1:${port}: port ${port} is already in use by another process; stop that process or choose another port with webServer.port (env PORT)`;

/** Runs the fixture to its exit (a start that left something running would never exit: the deadline fails the test). */
function runFixture(env: Record<string, string>, deadlineMs = 20_000): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FIXTURE], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the fixture did not exit within ${deadlineMs} ms after its failed start:\n${output}`));
    }, deadlineMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('a busy port', () => {
  it('rejects initMcpServer with one line naming the address and webServer.port / PORT', async () => {
    const err = await initMcpServer({ tools: [] }, { env: {}, nodeEnv: 'development', handleSignals: false, config: { webServer: { host: '127.0.0.1', port }, logger: { level: 'silent' } } }).then(
      () => undefined,
      (e: unknown) => e as Error & { code?: string; cause?: unknown },
    );
    expect(err?.message).toBe(expected());
    expect(err?.code).toBe('EADDRINUSE');
    expect((err?.cause as { code?: string } | undefined)?.code).toBe('EADDRINUSE');
  });

  it('a start script run as a process prints that line once, with no stack trace, and exits 1', async () => {
    assertLibraryBuilt();
    const { code, output } = await runFixture({ HOST: '127.0.0.1', PORT: String(port) });
    expect(code, output).toBe(1);
    expect(output).toContain(`The server could not start: ${expected()}`);
    expect(output.split('\n').filter((l) => l.includes('cannot listen on'))).toHaveLength(1);
    expect(output).not.toMatch(/^\s+at /m); // no stack frame, from the library's log or elsewhere
    expect(output).not.toContain('EADDRINUSE');
  });

  it('the same script starts on a free port (the fixture itself works)', async () => {
    assertLibraryBuilt();
    const { code, output } = await runFixture({ HOST: '127.0.0.1', PORT: '0' });
    expect(code, output).toBe(0);
    expect(output).toMatch(/STARTED http:\/\/127\.0\.0\.1:\d+\/mcp/);
  });

  it.each([
    ['EACCES', '0.0.0.0', 80, undefined, 'cannot listen on 0.0.0.0:80: permission denied (ports below 1024 need privileges); choose another port with webServer.port (env PORT)'],
    ['EADDRNOTAVAIL', '10.255.0.9', 3000, undefined, "cannot listen on 10.255.0.9:3000: the address is not one of this machine's; choose another host with webServer.host (env HOST)"],
    ['EADDRINUSE', '::1', 9464, { port: 'webServer.metrics.port', host: 'webServer.host' }, 'cannot listen on [::1]:9464: port 9464 is already in use by another process; stop that process or choose another port with webServer.metrics.port (env METRICS_PORT)'],
  ] as const)('%s on %s:%d names the setting to change', (code, host, p, keys, message) => {
    const cause = Object.assign(new Error(`listen ${code}`), { code });
    const err = listenFailure(cause, host, p, keys) as Error & { code: string };
    expect(err.message).toBe(message);
    expect(err.code).toBe(code);
  });

  it('leaves other listen errors as they are', () => {
    const other = Object.assign(new Error('listen EMFILE'), { code: 'EMFILE' });
    expect(listenFailure(other, '127.0.0.1', 3000)).toBe(other);
  });
});
