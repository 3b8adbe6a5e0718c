/**
 * /metrics after known traffic: exact counts by tool and outcome, by method and
 * outcome, histograms, sessions, tasks, auth failures, on both protocol eras;
 * the bearer token, the separate port, and one registry per server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { initMcpServer, MCP_ERROR_CODES, type McpServerHandle } from '../../src/index.js';
import { expectToolError, startTestServer, type TestServer, type TestTarget } from '../../src/testing/index.js';
import { answerEverything, fullCapabilities, inputServer } from '../era2026/fixtures.js';
import { metricsUrl, outcomeServer, sample, scrape } from './helpers.js';

const TARGETS: TestTarget[] = [
  { transport: 'http', era: '2025', label: 'http-session/2025' },
  { transport: 'http', era: '2026', label: 'http/2026' },
];

describe.each(TARGETS)('metrics on $label', (target) => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('counts every tool outcome exactly, with unknown names as `unknown`', async () => {
    const started: string[] = [];
    server = await startTestServer(outcomeServer(started), {
      target,
      config: { mcp: { rateLimit: { perTool: { ok_tool: { maxRequests: 3 } } } } },
    });
    const client = await server.connect();
    for (let i = 0; i < 3; i++) await client.callTool({ name: 'ok_tool', arguments: { text: `hi ${i}` } });
    await expectToolError(client.callTool({ name: 'ok_tool', arguments: { text: 'over' } }), MCP_ERROR_CODES.RATE_LIMITED);
    const failed = await client.callTool({ name: 'fail_tool', arguments: {} });
    expect(failed.isError).toBe(true);
    // Invalid arguments answer an isError result (mcp.validation.argumentErrors: result) and still count as invalid_params below.
    const invalid = await client.callTool({ name: 'slow_tool', arguments: { ms: 'x' } });
    expect(invalid).toMatchObject({ isError: true, _meta: { 'fa-mcp/validation': { field: 'ms' } } });
    await expectToolError(client.callTool({ name: 'slow_tool', arguments: { ms: 2000 } }), MCP_ERROR_CODES.TIMEOUT);
    await expectToolError(client.callTool({ name: 'no_such_tool_xyz', arguments: {} }), MCP_ERROR_CODES.INVALID_PARAMS);
    await expectToolError(client.callTool({ name: 'secret_tool', arguments: {} }), MCP_ERROR_CODES.FORBIDDEN);
    // A cancelled call: the client aborts while the handler waits (for the abort only: no clock to race).
    const controller = new AbortController();
    const cancelled = client.callTool({ name: 'hang_tool', arguments: {} }, { signal: controller.signal }).catch((e: unknown) => e);
    // Abort only once the handler runs, so the server has seen the call.
    await expect.poll(() => started.includes('hang_tool'), { timeout: 10_000 }).toBe(true);
    controller.abort('test cancels');
    await cancelled;
    // The handler ends (and is counted) after the client's call did: wait for the count, not for a guessed time.
    const cancelledCount = async () => sample((await scrape(metricsUrl(server!.handle.url!))).text, 'mcp_tool_calls_total', { tool: 'hang_tool', outcome: 'cancelled' });
    await expect.poll(cancelledCount, { timeout: 10_000 }).toBe(1);
    await client.listTools();

    const { status, text, contentType } = await scrape(metricsUrl(server.handle.url!));
    expect(status).toBe(200);
    expect(contentType).toContain('text/plain');
    const calls = (tool: string, outcome: string) => sample(text, 'mcp_tool_calls_total', { tool, outcome });
    expect(calls('ok_tool', 'ok')).toBe(3);
    expect(calls('ok_tool', 'rate_limited')).toBe(1);
    expect(calls('fail_tool', 'tool_error')).toBe(1);
    expect(calls('slow_tool', 'invalid_params')).toBe(1);
    expect(calls('slow_tool', 'timeout')).toBe(1);
    expect(calls('hang_tool', 'cancelled')).toBe(1);
    expect(calls('unknown', 'invalid_params')).toBe(1);
    expect(calls('secret_tool', 'forbidden')).toBe(1);
    // The requested name of an unknown tool never becomes a label.
    expect(text).not.toContain('no_such_tool_xyz');
    expect(sample(text, 'mcp_rate_limit_refusals_total', { tool: 'ok_tool', limit: 'window' })).toBe(1);
    expect(sample(text, 'mcp_tool_call_duration_seconds_count', { tool: 'ok_tool' })).toBe(4);
    expect(sample(text, 'mcp_tool_call_duration_seconds_count', { tool: 'slow_tool' })).toBe(2);
    expect(sample(text, 'mcp_tool_call_duration_seconds_count', { tool: 'hang_tool' })).toBe(1);
    expect(sample(text, 'mcp_tool_result_bytes_count', { tool: 'ok_tool' })).toBe(3);
    expect(sample(text, 'mcp_tool_arguments_bytes_count', { tool: 'ok_tool' })).toBe(4);
    expect(sample(text, 'mcp_tool_arguments_bytes_sum', { tool: 'ok_tool' })).toBe(4 * Buffer.byteLength('{"text":"hi 0"}'));

    const requests = (method: string, outcome: string) => sample(text, 'mcp_requests_total', { method, outcome });
    expect(requests('tools/call', 'ok')).toBe(3);
    expect(requests('tools/call', 'tool_error')).toBe(1);
    expect(requests('tools/call', 'rate_limited')).toBe(1);
    expect(requests('tools/call', 'invalid_params')).toBe(2);
    expect(requests('tools/call', 'timeout')).toBe(1);
    expect(requests('tools/call', 'forbidden')).toBe(1);
    expect(requests('tools/call', 'cancelled')).toBe(1);
    expect(requests('tools/list', 'ok')).toBeGreaterThanOrEqual(1);
    if (target.era === '2025') {
      expect(requests('initialize', 'ok')).toBe(1);
      expect(sample(text, 'mcp_active_sessions', { era: '2025', transport: 'http' })).toBe(1);
      expect(sample(text, 'mcp_notifications_total', { direction: 'in', method: 'notifications/initialized' })).toBe(1);
    } else {
      expect(requests('initialize', 'ok')).toBeUndefined();
    }
    // Process metrics come with it.
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
  });

  it('counts a 2026-07-28 input_required round as its own outcome, never internal_error', async () => {
    server = await startTestServer(inputServer({ runs: [] }), { target });
    const client = await server.connect(fullCapabilities, (c) => void answerEverything(c));
    const res = await client.callTool({ name: 'greet_user', arguments: { salutation: 'Hi' } });
    expect(res.isError).toBeFalsy();
    const { text } = await scrape(metricsUrl(server.handle.url!));
    const calls = (outcome: string) => sample(text, 'mcp_tool_calls_total', { tool: 'greet_user', outcome });
    expect(calls('ok')).toBe(1);
    expect(calls('input_required')).toBe(target.era === '2026' ? 1 : undefined);
    expect(calls('internal_error')).toBeUndefined();
  });
});

describe('metrics endpoint and registry', () => {
  const handles: McpServerHandle[] = [];
  afterEach(async () => {
    await Promise.all(handles.splice(0).map((h) => h.stop('test finished')));
  });

  async function start(config: Record<string, unknown>): Promise<McpServerHandle> {
    const handle = await initMcpServer(outcomeServer(), {
      handleSignals: false,
      config: { webServer: { port: 0 }, logger: { level: 'silent' }, ...config },
    });
    handles.push(handle);
    return handle;
  }

  it('requires the bearer token when one is configured', async () => {
    const handle = await start({ webServer: { port: 0, metrics: { token: 'scrape-secret' } } });
    const url = metricsUrl(handle.url!);
    expect((await scrape(url)).status).toBe(401);
    expect((await scrape(url, 'wrong')).status).toBe(401);
    const ok = await scrape(url, 'scrape-secret');
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('mcp_tool_calls_total');
  });

  it('serves a separate port and nothing on the main one', async () => {
    const handle = await initMcpServer(outcomeServer(), {
      handleSignals: false,
      config: { webServer: { port: 0, metrics: { separatePort: true, port: 0 } }, logger: { level: 'silent' } },
    });
    handles.push(handle);
    const main = await fetch(metricsUrl(handle.url!));
    expect(main.status).toBe(404);
    await main.body?.cancel();
    const res = await fetch(`http://127.0.0.1:${new URL(handle.url!).port}/health`);
    expect(res.status).toBe(200);
    const sep = await scrape(String(handle.metricsUrl));
    expect(sep.status).toBe(200);
    expect(sep.text).toContain('mcp_requests_total');
  });

  it('keeps one registry per server, counts auth failures by fixed reasons, and reads task counts at scrape time', async () => {
    const a = await start({});
    const b = await start({});
    a.core.telemetry.authFailure('expired');
    a.core.telemetry.authFailure('expired');
    a.core.telemetry.authFailure('made up by a client');
    a.metrics!.observeTasks(() => ({ working: 2, completed: 5 }));
    const ta = (await scrape(metricsUrl(a.url!))).text;
    const tb = (await scrape(metricsUrl(b.url!))).text;
    expect(sample(ta, 'mcp_auth_failures_total', { reason: 'expired' })).toBe(2);
    expect(sample(ta, 'mcp_auth_failures_total', { reason: 'other' })).toBe(1);
    expect(sample(tb, 'mcp_auth_failures_total', { reason: 'expired' })).toBeUndefined();
    expect(sample(ta, 'mcp_tasks', { status: 'working' })).toBe(2);
    expect(sample(ta, 'mcp_tasks', { status: 'completed' })).toBe(5);
    expect(sample(tb, 'mcp_tasks', { status: 'working' })).toBeUndefined();
  });

  it('is off when webServer.metrics.enabled is false', async () => {
    const handle = await start({ webServer: { port: 0, metrics: { enabled: false } } });
    expect(handle.metrics).toBeUndefined();
    const res = await fetch(metricsUrl(handle.url!));
    expect(res.status).toBe(404);
    await res.body?.cancel();
  });
});
