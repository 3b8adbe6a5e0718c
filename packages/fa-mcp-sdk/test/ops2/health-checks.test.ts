/**
 * Built-in readiness checks: JWKS reachability (with per-check status and
 * timing, no URL or secret in the outcome) and the shutting-down answer.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwksReadinessCheck } from '../../src/ops/jwks-check.js';
import { runReadiness } from '../../src/ops/health.js';

let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/ok') return void res.setHeader('content-type', 'application/json'), res.end(JSON.stringify({ keys: [{ kty: 'EC', kid: 'k1' }] }));
    if (req.url === '/empty') return void res.end(JSON.stringify({ keys: [] }));
    if (req.url === '/slow') return void setTimeout(() => res.end('{}'), 2000);
    res.statusCode = 500;
    res.end('boom');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('JWKS readiness check', () => {
  it('passes with keys, fails (timed, masked) otherwise', async () => {
    const report = await runReadiness([
      jwksReadinessCheck(`${base}/ok`),
      { ...jwksReadinessCheck(`${base}/empty`), name: 'jwks_empty' },
      { ...jwksReadinessCheck(`${base}/down`), name: 'jwks_down' },
      { ...jwksReadinessCheck(`${base}/slow`, 100), name: 'jwks_slow' },
    ]);
    expect(report.status).toBe('not_ready');
    expect(report.checks.jwks).toEqual({ status: 'ok', durationMs: expect.any(Number) });
    expect(report.checks.jwks_empty).toMatchObject({ status: 'fail', error: 'JWKS holds no keys' });
    expect(report.checks.jwks_down).toMatchObject({ status: 'fail', error: 'JWKS answered HTTP 500' });
    expect(report.checks.jwks_slow).toMatchObject({ status: 'fail', error: 'timed out after 100 ms' });
    expect(report.checks.jwks_slow!.durationMs).toBeGreaterThanOrEqual(90);
    expect(JSON.stringify(report)).not.toContain('127.0.0.1');
  });
});
