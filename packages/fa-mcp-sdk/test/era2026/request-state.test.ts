/**
 * The 2026-07-28 input_required wire: the shape of the result, the signed
 * requestState (tampered, expired, replayed on another request, read by a
 * second instance), answer validation, re-asking and the round limit.
 */
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../src/testing/index.js';
import { inputServer } from './fixtures.js';
import { post2026 } from './wire.js';

const HTTP_2026 = { transport: 'http', era: '2026', label: 'http/2026' } as const;
const SECRET = 'a-shared-secret-of-at-least-32-characters';
const ELICITING = { elicitation: { form: {} } };
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

const servers: TestServer[] = [];
async function start(config: Record<string, unknown> = {}, logs?: string[], nodeEnv?: string): Promise<string> {
  const destination = logs
    ? new Writable({
        write(chunk, _enc, done) {
          logs.push(String(chunk));
          done();
        },
      })
    : undefined;
  const server = await startTestServer(inputServer({ runs: [] }), {
    target: HTTP_2026,
    config,
    ...(destination ? { logDestination: destination } : {}),
    ...(nodeEnv ? { nodeEnv } : {}),
  });
  servers.push(server);
  return server.handle.url as string;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

const greet = (extra: Record<string, unknown> = {}) => ({ name: 'greet_user', arguments: { salutation: 'Hi' }, ...extra });

describe('input_required on the 2026-07-28 wire', () => {
  it('answers with the pending request under its key and a requestState, then completes on the retry', async () => {
    const url = await start({ mcp: { requestState: { secret: SECRET } } });
    const first = await post2026(url, 'tools/call', greet(), { capabilities: ELICITING });
    const result = first.response.result as { resultType: string; requestState: unknown; inputRequests: Record<string, unknown> };
    expect(result.resultType).toBe('input_required');
    expect(Object.keys(result.inputRequests)).toEqual(['user_name']);
    expect(result.inputRequests.user_name).toMatchObject({ method: 'elicitation/create', params: { message: 'What is your name?' } });
    expect(typeof result.requestState).toBe('string');

    const second = await post2026(
      url,
      'tools/call',
      greet({ inputResponses: { user_name: accept({ name: 'Ada' }) }, requestState: result.requestState }),
      { capabilities: ELICITING },
    );
    expect(second.response.result).toMatchObject({ content: [{ type: 'text', text: 'Hi, Ada! (accept, resumed=true)' }] });
  });

  it('re-asks when the retry lacks the answer, and ignores keys it did not ask for', async () => {
    const url = await start();
    const wrong = await post2026(url, 'tools/call', greet({ inputResponses: { other: accept({ name: 'X' }) } }), { capabilities: ELICITING });
    expect(wrong.response.result).toMatchObject({ resultType: 'input_required', inputRequests: { user_name: {} } });
    const extra = await post2026(url, 'tools/call', greet({ inputResponses: { user_name: accept({ name: 'Bo' }), noise: accept({ x: 1 }) } }), {
      capabilities: ELICITING,
    });
    expect(extra.response.result).toMatchObject({ content: [{ text: 'Hi, Bo! (accept, resumed=false)' }] });
  });

  it('refuses an answer that does not match the requestedSchema with -32602', async () => {
    const url = await start();
    const bad = await post2026(url, 'tools/call', greet({ inputResponses: { user_name: accept({ name: 42 }) } }), { capabilities: ELICITING });
    expect(bad.response.error).toMatchObject({ code: -32602, data: { key: 'user_name' } });
  });

  it('refuses a tampered requestState, and one issued for other arguments, with -32602', async () => {
    const url = await start();
    const first = await post2026(url, 'tools/call', greet(), { capabilities: ELICITING });
    const state = (first.response.result as { requestState: string }).requestState;
    const answers = { user_name: accept({ name: 'Ada' }) };
    const tampered = await post2026(url, 'tools/call', greet({ inputResponses: answers, requestState: `${state}x` }), { capabilities: ELICITING });
    expect(tampered.response.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    const elsewhere = await post2026(
      url,
      'tools/call',
      { name: 'greet_user', arguments: { salutation: 'Yo' }, inputResponses: answers, requestState: state },
      { capabilities: ELICITING },
    );
    expect(elsewhere.response.error).toMatchObject({ code: -32602, data: { reason: 'invalid_request_state' } });
  });

  it('refuses an expired requestState with -32602', async () => {
    const url = await start({ mcp: { requestState: { ttlMs: 1000 } } });
    const first = await post2026(url, 'tools/call', greet(), { capabilities: ELICITING });
    const state = (first.response.result as { requestState: string }).requestState;
    await new Promise((r) => setTimeout(r, 2100));
    const late = await post2026(url, 'tools/call', greet({ inputResponses: { user_name: accept({ name: 'Ada' }) }, requestState: state }), {
      capabilities: ELICITING,
    });
    expect(late.response.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
  });

  it('lets a second instance with the same secret read the state; without a secret it cannot, and a warning says so', async () => {
    const a = await start({ mcp: { requestState: { secret: SECRET } } });
    const b = await start({ mcp: { requestState: { secret: SECRET } } });
    const first = await post2026(a, 'tools/call', greet(), { capabilities: ELICITING });
    const state = (first.response.result as { requestState: string }).requestState;
    const retry = greet({ inputResponses: { user_name: accept({ name: 'Ada' }) }, requestState: state });
    expect((await post2026(b, 'tools/call', retry, { capabilities: ELICITING })).response.result).toMatchObject({ content: [{ text: 'Hi, Ada! (accept, resumed=true)' }] });

    const logs: string[] = [];
    // In production the missing secret is worth a warning (request-state-warning.test.ts: only where several instances may serve).
    const c = await start({ logger: { level: 'warn', format: 'json' } }, logs, 'production');
    expect(logs.join('')).toContain('mcp.requestState.secret is not set');
    expect((await post2026(c, 'tools/call', retry, { capabilities: ELICITING })).response.error).toMatchObject({ code: -32602 });
  });

  it('refuses a request that needs more rounds than mcp.requestState.maxRounds', async () => {
    const url = await start({ mcp: { requestState: { maxRounds: 1 } } });
    const first = await post2026(url, 'tools/call', { name: 'two_steps', arguments: {} }, { capabilities: ELICITING });
    const result = first.response.result as { requestState: string; inputRequests: Record<string, unknown> };
    expect(Object.keys(result.inputRequests)).toEqual(['elicitation']);
    const second = await post2026(
      url,
      'tools/call',
      { name: 'two_steps', arguments: {}, inputResponses: { elicitation: accept({ name: 'Ada' }) }, requestState: result.requestState },
      { capabilities: ELICITING },
    );
    expect(second.response.error).toMatchObject({ code: -32603, data: { maxRounds: 1 } });
  });

  it('asks the second question of a flow under its own key and carries the first answer', async () => {
    const url = await start();
    const first = await post2026(url, 'tools/call', { name: 'two_steps', arguments: {} }, { capabilities: ELICITING });
    const r1 = first.response.result as { requestState: string };
    const second = await post2026(
      url,
      'tools/call',
      { name: 'two_steps', arguments: {}, inputResponses: { elicitation: accept({ name: 'Ada' }) }, requestState: r1.requestState },
      { capabilities: ELICITING },
    );
    const r2 = second.response.result as { requestState: string; inputRequests: Record<string, { params: { message: string } }> };
    expect(Object.keys(r2.inputRequests)).toEqual(['elicitation-2']);
    expect(r2.inputRequests['elicitation-2']?.params.message).toBe('Ada, favourite colour?');
    expect(r2.requestState).not.toBe(r1.requestState);
    // Only the new answer travels; the first one comes back from the state. A resent first key cannot override it.
    const third = await post2026(
      url,
      'tools/call',
      {
        name: 'two_steps',
        arguments: {},
        inputResponses: { elicitation: accept({ name: 'Mallory' }), 'elicitation-2': accept({ color: 'red' }) },
        requestState: r2.requestState,
      },
      { capabilities: ELICITING },
    );
    expect(third.response.result).toMatchObject({ content: [{ text: 'Ada likes red' }] });
  });

  it('answers a missing capability with -32021 and HTTP 400, naming it', async () => {
    const url = await start();
    const refused = await post2026(url, 'tools/call', { name: 'needs_sampling', arguments: {} }, { capabilities: {} });
    expect(refused.status).toBe(400);
    expect(refused.response.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
  });
});
