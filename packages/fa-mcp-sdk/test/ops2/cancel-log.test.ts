/**
 * A client cancelling a call is normal use: the server logs it at info with
 * the reason, never at error as an unexpected failure. On every transport and era.
 */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_TARGETS, startTestServer, type TestServer } from '../../src/testing/index.js';
import { outcomeServer, sleep } from './helpers.js';

const targets = ALL_TARGETS.filter((t) => t.transport !== 'stateless');

function jsonLines(stream: PassThrough): () => Array<Record<string, unknown>> {
  const chunks: string[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c.toString()));
  return () =>
    chunks
      .join('')
      .split('\n')
      .filter((l) => l.trim().startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe.each(targets)('cancellation log on $label', (target) => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('logs a cancelled call at info with the reason, not as an unexpected error', async () => {
    const started: string[] = [];
    const stream = new PassThrough();
    const lines = jsonLines(stream);
    server = await startTestServer(outcomeServer(started), { target, config: { logger: { level: 'debug', format: 'json' } }, logDestination: stream });
    const client = await server.connect();
    const controller = new AbortController();
    const call = client.callTool({ name: 'hang_tool', arguments: {} }, { signal: controller.signal }).catch((e: unknown) => e);
    await expect.poll(() => started, { timeout: 10_000 }).toEqual(['hang_tool']);
    controller.abort('the user pressed stop');
    await call;
    const deadline = Date.now() + 5_000;
    const cancelled = () => lines().find((l) => l.msg === 'request cancelled by the client');
    while (!cancelled() && Date.now() < deadline) await sleep(10);
    expect(cancelled()).toMatchObject({ level: 30 });
    // Over 2026-07-28 HTTP the client cancels by closing the request's stream: that is the reason the server knows.
    const perRequestHttp = target.transport === 'http' && target.era === '2026';
    expect(String(cancelled()?.reason)).toMatch(perRequestHttp ? /closed/i : /the user pressed stop/);
    expect(lines().filter((l) => Number(l.level) >= 50)).toEqual([]);
  });
});
