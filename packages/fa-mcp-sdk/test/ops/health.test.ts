import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createHealthRouter, type ReadinessCheck } from '../../src/ops/health.js';

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

interface Setup {
  checks?: ReadinessCheck[];
  shuttingDown?: () => boolean;
  startedAt?: number;
}

async function start(setup: Setup = {}): Promise<string> {
  const app = express();
  app.use(
    createHealthRouter({
      name: 'demo',
      version: '1.2.3',
      startedAt: setup.startedAt ?? Date.now(),
      checks: () => setup.checks ?? [],
      isShuttingDown: setup.shuttingDown ?? (() => false),
    }),
  );
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function get(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('GET /health', () => {
  it('reports liveness with name, version and uptime', async () => {
    const base = await start({ startedAt: Date.now() - 5_500 });
    expect(await get(`${base}/health`)).toEqual({
      status: 200,
      body: { status: 'ok', name: 'demo', version: '1.2.3', uptimeSec: 5 },
    });
  });

  it('stays 200 while shutting down', async () => {
    const base = await start({ shuttingDown: () => true });
    expect((await get(`${base}/health`)).status).toBe(200);
  });
});

describe('GET /ready', () => {
  it('is 200 when every check passes, sync or async', async () => {
    const base = await start({
      checks: [
        { name: 'sync', check: () => undefined },
        { name: 'async', check: async () => new Promise<void>((resolve) => setTimeout(resolve, 10)) },
      ],
    });
    const { status, body } = await get(`${base}/ready`);
    expect(status).toBe(200);
    expect(body.status).toBe('ready');
    expect(body.checks).toEqual({
      sync: { status: 'ok', durationMs: expect.any(Number) },
      async: { status: 'ok', durationMs: expect.any(Number) },
    });
  });

  it('is 200 with no checks at all', async () => {
    const base = await start();
    expect(await get(`${base}/ready`)).toEqual({ status: 200, body: { status: 'ready', checks: {} } });
  });

  it('is 503 when a check fails, reporting only a masked message', async () => {
    const base = await start({
      checks: [
        { name: 'db', check: async () => Promise.reject(new Error('connect to postgres://app:hunter2@db:5432 failed')) },
        { name: 'hook', check: async () => Promise.reject(new Error('POST https://ghp_t0ken@hooks.example/in: 401 {"client_secret":"cs-1"} (host=h password=pw-2)')) },
        {
          name: 'sync-throw',
          check: () => {
            throw new Error('upstream said no to Bearer abc.def.ghi');
          },
        },
        { name: 'ok', check: () => undefined },
      ],
    });
    const { status, body } = await get(`${base}/ready`);
    expect(status).toBe(503);
    expect(body.status).toBe('not_ready');
    const checks = body.checks as Record<string, { status: string; error?: string }>;
    expect(checks.ok?.status).toBe('ok');
    expect(checks.db?.status).toBe('fail');
    expect(checks.db?.error).toBe('connect to postgres://***@db:5432 failed');
    expect(checks.hook?.error).toBe('POST https://***@hooks.example/in: 401 {"client_secret":"***"} (host=h password=***)');
    expect(checks['sync-throw']?.error).toBe('upstream said no to Bearer ***');
    expect(JSON.stringify(body)).not.toMatch(/hunter2|ghp_t0ken|cs-1|pw-2|abc\.def|at .*\.ts/);
  });

  it('times out a hanging check, aborts its signal, and runs checks in parallel', async () => {
    let aborted = false;
    const base = await start({
      checks: [
        {
          name: 'hang',
          timeoutMs: 100,
          check: (signal) =>
            new Promise<void>(() => {
              signal.addEventListener('abort', () => (aborted = true));
            }),
        },
        { name: 'slow-ok', timeoutMs: 1000, check: () => new Promise<void>((resolve) => setTimeout(resolve, 80)) },
      ],
    });
    // The hanging check never settles: only its timeout lets /ready answer (within the test's timeout).
    const { status, body } = await get(`${base}/ready`);
    expect(status).toBe(503);
    const checks = body.checks as Record<string, { status: string; error?: string; durationMs: number }>;
    expect(checks.hang).toEqual({ status: 'fail', durationMs: expect.any(Number), error: 'timed out after 100 ms' });
    expect(checks.hang!.durationMs).toBeGreaterThanOrEqual(90);
    expect(checks['slow-ok']?.status).toBe('ok');
    expect(aborted).toBe(true);
  });

  it('is 503 while shutting down, without running checks', async () => {
    let ran = false;
    const base = await start({
      shuttingDown: () => true,
      checks: [{ name: 'x', check: () => void (ran = true) }],
    });
    const { status, body } = await get(`${base}/ready`);
    expect(status).toBe(503);
    expect(body).toEqual({ status: 'not_ready', checks: {}, reason: 'shutting_down' });
    expect(ran).toBe(false);
  });
});
