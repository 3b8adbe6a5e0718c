/**
 * Graceful shutdown: in-flight calls finish within the grace period, calls that
 * outlive it are abandoned, new connections are refused, and a child process
 * exits 0 on SIGTERM.
 */
import { request as httpRequest } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { McpServerHandle } from '../../src/index.js';
import { fixtureServerData, sleepRecords } from '../fixtures/server-data.js';
import { exitWithin, killChildFixtures, spawnChildFixture, waitForHttpChild } from './child-fixture.js';
import { baseUrl, connectHttpClient, ERAS, serverUrl, startTestServer, stopAllServers, waitFor } from './helpers.js';

afterEach(stopAllServers);
afterAll(killChildFixtures);

/** Opens a fresh TCP connection (no pooling) and resolves with the status, or rejects with the socket error. */
function freshRequest(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent: false, timeout: 3_000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

/** Waits until the server counts a request in flight and a `sleep` call started after record `since` runs. */
const waitForInFlight = (handle: McpServerHandle, since: number) =>
  waitFor(() => (handle.http?.inFlight() ?? 0) >= 1 && sleepRecords.slice(since).some((r) => !r.finished), 3_000, 'the call to be in flight');

describe.each(ERAS)('graceful stop() with a call in flight, era %s', (era) => {
  it('lets the call finish with its result and resolves with drained: true', async () => {
    const handle = await startTestServer(fixtureServerData(), { webServer: { shutdownGraceMs: 5_000 } });
    const { client } = await connectHttpClient(serverUrl(handle), { era });
    const since = sleepRecords.length;
    const call = client.callTool({ name: 'sleep', arguments: { ms: 500 } });
    await waitForInFlight(handle, since);

    const started = Date.now();
    const stopping = handle.stop('test');
    // While draining, nothing new gets in: the listening socket is closed.
    await expect(freshRequest(`${baseUrl(handle)}/health`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    const [result, outcome] = await Promise.all([call, stopping]);
    expect(result.structuredContent).toEqual({ slept: 500, aborted: false });
    expect(outcome).toMatchObject({ drained: true, abandoned: 0 });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(handle.stopped).toBe(true);
  });

  it('abandons a call that outlives shutdownGraceMs and resolves with drained: false', async () => {
    const handle = await startTestServer(fixtureServerData(), { webServer: { shutdownGraceMs: 200 } });
    const { client } = await connectHttpClient(serverUrl(handle), { era });
    const since = sleepRecords.length;
    // The 2025 client tries to resume a broken SSE stream before giving up, so bound it by its own timeout.
    const call = client.callTool({ name: 'sleep', arguments: { ms: 3_000 } }, { timeout: 2_000 });
    const settled = call.then(
      () => 'resolved',
      () => 'rejected',
    );
    await waitForInFlight(handle, since);

    const started = Date.now();
    const outcome = await handle.stop('test');
    const took = Date.now() - started;
    expect(outcome).toMatchObject({ drained: false, abandoned: 1 });
    expect(took).toBeGreaterThanOrEqual(150);
    expect(took).toBeLessThan(2_000);
    // Closing the connections aborted the handler's signal: the abandoned work stops too.
    const record = await waitFor(() => sleepRecords.slice(since).find((r) => r.finished), 1_000, 'the handler to see its abort');
    expect(record).toMatchObject({ ms: 3_000, aborted: true });
    // The connection was closed under the call: it cannot have completed.
    expect(await settled).toBe('rejected');
  });
});

describe('after stop()', () => {
  it('refuses new connections', async () => {
    const handle = await startTestServer(fixtureServerData());
    const url = serverUrl(handle);
    expect(await freshRequest(`${url.origin}/health`)).toBe(200);
    await expect(handle.stop()).resolves.toMatchObject({ drained: true });

    await expect(freshRequest(`${url.origin}/health`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    const client = new Client({ name: 'late', version: '1.0.0' });
    await expect(client.connect(new StreamableHTTPClientTransport(url))).rejects.toThrow();
  });

  it('is idempotent: a second stop() returns the same outcome', async () => {
    const handle = await startTestServer(fixtureServerData());
    const first = handle.stop();
    const second = handle.stop();
    expect(second).toBe(first);
    await first;
  });
});

describe('SIGTERM on a child process', () => {
  it('stdio: exits with code 0', async () => {
    const fixture = spawnChildFixture('stdio');
    await waitFor(() => fixture.stderr().includes('fixture started'), 10_000, 'the stdio child to start');
    fixture.child.kill('SIGTERM');
    expect(await exitWithin(fixture, 5_000)).toBe(0);
  });

  // SHUTDOWN_DRAIN_MS=0: no drain window, today's behaviour (drain.test.ts covers the window).
  it('http: exits with code 0', async () => {
    const fixture = spawnChildFixture('http', { SHUTDOWN_DRAIN_MS: '0' });
    const url = await waitForHttpChild(fixture);
    expect(await freshRequest(`${url.origin}/health`)).toBe(200);
    fixture.child.kill('SIGTERM');
    expect(await exitWithin(fixture, 5_000)).toBe(0);
    await expect(freshRequest(`${url.origin}/health`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('http: finishes an in-flight call before exiting with code 0', async () => {
    const fixture = spawnChildFixture('http', { SHUTDOWN_DRAIN_MS: '0' });
    const url = await waitForHttpChild(fixture);
    const { client } = await connectHttpClient(url, { era: '2025' });
    const call = client.callTool({ name: 'sleep', arguments: { ms: 500 } });
    await waitFor(() => fixture.stderr().includes('"tool":"sleep"') || fixture.stdoutLines.some((l) => l.includes('"tool":"sleep"')), 3_000, 'the call to start');
    fixture.child.kill('SIGTERM');
    await expect(call).resolves.toMatchObject({ structuredContent: { slept: 500 } });
    expect(await exitWithin(fixture, 5_000)).toBe(0);
  });
});
