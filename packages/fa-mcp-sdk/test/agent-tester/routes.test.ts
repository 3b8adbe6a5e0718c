/**
 * The Agent Tester's routes: the page, per-user chat sessions (continued, reset, bounded), body
 * validation, the view bridge endpoints, when it is served at all (NODE_ENV rule), auth, and the
 * API key staying on the server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer, answerFromToolResult, askTool, completion, heldAnswer, startScriptedModel, type ScriptedModel } from './scripted-model.js';
import { API_KEY, postJson, startTester, type TesterServer } from './helpers.js';

const cookieOf = (headers: Headers) => headers.get('set-cookie')?.split(';')[0] ?? '';

describe('page, sessions and validation', () => {
  let model: ScriptedModel;
  let server: TesterServer;

  beforeAll(async () => {
    model = await startScriptedModel();
    server = await startTester(model.baseUrl, { agentTester: { limits: { maxSessions: 2, maxPromptChars: 50, maxTurns: 4 } } });
  });
  afterAll(async () => {
    await server?.stop();
    await model?.close();
  });

  it('GET <path> serves one self-contained page with its own policy and without the key or the endpoint', async () => {
    const res = await fetch(server.tester);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'unsafe-inline'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    for (const id of ['prompt-input', 'send-button', 'reset-button', 'turns', 'status', 'tools-list', 'model-name', 'chat-form']) expect(html).toContain(`data-testid="${id}"`);
    expect(html).toContain('data-base="/agent-tester"');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href="(?!data:)/); // nothing loaded from elsewhere
    expect(html).not.toContain(API_KEY);
    expect(html).not.toContain(model.baseUrl);
    expect(html).toContain('sandbox');
  });

  it('GET <path>/api/info lists the model name, tools (with views), prompts and resources, never the key', async () => {
    const res = await fetch(`${server.tester}/api/info`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain(model.baseUrl);
    const info = JSON.parse(text) as { model: string; configured: boolean; tools: Array<{ name: string; view: string | null; model: boolean }>; prompts: Array<{ name: string }> };
    expect(info.model).toBe('scripted-model');
    expect(info.configured).toBe(true);
    expect(info.tools.find((t) => t.name === 'show_card')).toMatchObject({ view: 'ui://fixture/card.html', model: true });
    expect(info.tools.find((t) => t.name === 'card_refresh')).toMatchObject({ model: false });
    expect(info.prompts.map((p) => p.name)).toContain('weather_report');
  });

  it('POST <path>/api/chat keeps a session per cookie: the second message continues the first', async () => {
    model.requests.length = 0;
    model.script([askTool('get_weather', { city: 'Oslo' }), answerFromToolResult(), answer('It was sunny.')]);
    const first = await postJson(`${server.tester}/api/chat`, { message: 'Weather in Oslo?' });
    expect(first.status).toBe(200);
    const cookie = cookieOf(first.headers);
    expect(cookie).toMatch(/^fa_agent_tester=[A-Za-z0-9_-]{43}$/);
    expect(first.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict/);
    expect(first.json).toMatchObject({ session: { turns: 1 }, trace: { stopReason: 'answer' } });
    expect(first.text).not.toContain(API_KEY);

    const second = await postJson(`${server.tester}/api/chat`, { message: 'And was it sunny?' }, { cookie });
    expect(second.status).toBe(200);
    expect(second.json).toMatchObject({ session: { turns: 2 }, trace: { stopReason: 'answer', finalAnswer: 'It was sunny.' } });
    const sent = model.requests[2]!.body.messages.map((m) => m.role);
    expect(sent).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);

    // DELETE forgets it: the next message starts over.
    const del = await fetch(`${server.tester}/api/session`, { method: 'DELETE', headers: { cookie } });
    expect(await del.json()).toEqual({ deleted: true });
    model.script([answer('fresh')]);
    const third = await postJson(`${server.tester}/api/chat`, { message: 'hello' }, { cookie });
    expect(third.json).toMatchObject({ session: { turns: 1 } });
    expect(model.requests[3]!.body.messages.map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('sessions are bounded: a third user drops the least recently used session', async () => {
    const open = async () => {
      model.script([answer('hi')]);
      const res = await postJson(`${server.tester}/api/chat`, { message: 'hi' });
      return cookieOf(res.headers);
    };
    const a = await open();
    const b = await open();
    const c = await open(); // maxSessions: 2 -> a is dropped
    model.requests.length = 0;
    model.script([answer('1'), answer('2'), answer('3')]);
    expect((await postJson(`${server.tester}/api/chat`, { message: 'again' }, { cookie: c })).json).toMatchObject({ session: { turns: 2 } });
    expect((await postJson(`${server.tester}/api/chat`, { message: 'again' }, { cookie: b })).json).toMatchObject({ session: { turns: 2 } });
    expect((await postJson(`${server.tester}/api/chat`, { message: 'again' }, { cookie: a })).json).toMatchObject({ session: { turns: 1 } });
  });

  it('a second message while the session is answering is refused with 409', async () => {
    model.script([() => ({ ...completion({ content: 'slow' }), delayMs: 600 }), answer('x')]);
    const first = await postJson(`${server.tester}/api/chat`, { message: 'one' });
    const cookie = cookieOf(first.headers);
    const held = heldAnswer('slow');
    model.script([held.step]);
    const running = postJson(`${server.tester}/api/chat`, { message: 'two' }, { cookie });
    await held.reached; // the session is answering, and stays so until released
    const busy = await postJson(`${server.tester}/api/chat`, { message: 'three' }, { cookie });
    expect(busy.status).toBe(409);
    expect(busy.json).toMatchObject({ error: 'session_busy' });
    held.release();
    expect((await running).status).toBe(200);
  });

  it('conversations at once are capped (maxConcurrentConversations): one more is 429 with Retry-After, nothing runs for it', async () => {
    const capped = await startTester(model.baseUrl, { agentTester: { limits: { maxConcurrentConversations: 1 } } });
    try {
      const held = heldAnswer('slow');
      model.script([held.step]);
      const running = postJson(`${capped.tester}/api/chat/test`, { prompt: 'one' });
      await held.reached; // one conversation runs until released
      const before = model.requests.length;
      const refused = await postJson(`${capped.tester}/api/chat`, { message: 'two' });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.json).toMatchObject({ error: 'too_many_conversations' });
      expect(model.requests.length).toBe(before); // the refused one never reached the model
      held.release();
      expect((await running).status).toBe(200);
      // the slot is free again
      model.script([answer('again')]);
      expect((await postJson(`${capped.tester}/api/chat/test`, { prompt: 'three' })).status).toBe(200);
    } finally {
      await capped.stop();
    }
  });

  it.each([
    ['no body', undefined, /"message": is required|JSON object/],
    ['a JSON array', [], /JSON object/],
    ['a missing field', {}, /"message": is required/],
    ['an empty message', { message: '' }, /"message"/],
    ['a blank message', { message: '   ' }, /"message"/],
    ['a message over maxPromptChars', { message: 'x'.repeat(51) }, /"message": must NOT have more than 50 characters/],
    ['an unknown field', { message: 'hi', model: 'other' }, /"model": is not allowed/],
    ['a wrong type', { message: 42 }, /"message": must be string/],
  ])('POST /api/chat with %s is 400 invalid_body', async (_name, body, message) => {
    const res = await fetch(`${server.tester}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    expect(res.status).toBe(400);
    const json = (await res.json()) as { error: string; message: string };
    expect(json.error).toBe('invalid_body');
    expect(json.message).toMatch(message);
  });

  it('POST /api/chat/test validates too: maxTurns above the configured limit, broken JSON, text/plain', async () => {
    const over = await postJson(`${server.tester}/api/chat/test`, { prompt: 'hi', maxTurns: 5 });
    expect(over.status).toBe(400);
    expect(over.json.message).toMatch(/"maxTurns": must be <= 4/);
    const broken = await postJson(`${server.tester}/api/chat/test`, '{"prompt": ');
    expect(broken.status).toBe(400);
    expect(broken.json).toMatchObject({ error: 'invalid_json' });
    const plain = await fetch(`${server.tester}/api/chat/test`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' });
    expect(plain.status).toBe(400);
    expect(((await plain.json()) as { error: string }).error).toBe('invalid_body');
    const unknown = await fetch(`${server.tester}/api/nothing`);
    expect(unknown.status).toBe(404);
  });

  it("a view's tools/call and resources/read go through the caller's session", async () => {
    const none = await postJson(`${server.tester}/api/view/tools/call`, { name: 'card_refresh', arguments: { city: 'Oslo' } });
    expect(none.status).toBe(404);
    expect(none.json).toMatchObject({ error: 'no_session' });

    model.script([answer('hi')]);
    const cookie = cookieOf((await postJson(`${server.tester}/api/chat`, { message: 'hi' })).headers);
    const call = await postJson(`${server.tester}/api/view/tools/call`, { name: 'card_refresh', arguments: { city: 'Oslo' } }, { cookie });
    expect(call.status).toBe(200);
    expect(call.json).toMatchObject({ result: { content: [{ type: 'text', text: 'refreshed Oslo' }] } });
    const bad = await postJson(`${server.tester}/api/view/tools/call`, { name: 'card_refresh', arguments: {} }, { cookie });
    expect(bad.json).toMatchObject({ result: { isError: true, _meta: { 'fa-mcp/validation': { reason: 'is required' } } } });
    const read = await postJson(`${server.tester}/api/view/resources/read`, { uri: 'ui://fixture/card.html' }, { cookie });
    expect(read.json).toMatchObject({ result: { contents: [{ uri: 'ui://fixture/card.html' }] } });
    const invalid = await postJson(`${server.tester}/api/view/tools/call`, { arguments: {} }, { cookie });
    expect(invalid.status).toBe(400);
  });

  it('a request from another origin is refused by the DNS-rebinding guard', async () => {
    const res = await postJson(`${server.tester}/api/chat/test`, { prompt: 'hi' }, { origin: 'http://evil.example' });
    expect(res.status).toBe(403);
  });
});

describe('when the Agent Tester is served', () => {
  const status = async (config: Record<string, unknown>, nodeEnv: string): Promise<number> => {
    const server = await startTester('http://127.0.0.1:9/v1', config, nodeEnv);
    try {
      return (await fetch(server.tester)).status;
    } finally {
      await server.stop();
    }
  };

  it('auto: on in development, off (404) in production and in test', async () => {
    expect(await status({}, 'development')).toBe(200);
    expect(await status({}, 'production')).toBe(404);
    expect(await status({}, 'test')).toBe(404);
  });

  it('true turns it on in production; false turns it off in development; the path is configurable', async () => {
    expect(await status({ agentTester: { enabled: true } }, 'production')).toBe(200);
    expect(await status({ agentTester: { enabled: false } }, 'development')).toBe(404);
    const server = await startTester('http://127.0.0.1:9/v1', { agentTester: { path: '/dev/tester' } });
    try {
      expect((await fetch(`${server.base}/dev/tester`)).status).toBe(200);
      expect((await fetch(`${server.base}/agent-tester`)).status).toBe(404);
    } finally {
      await server.stop();
    }
  });

  it('without a model endpoint the page works and chat answers 503 model_not_configured', async () => {
    const server = await startTester('', {});
    try {
      expect((await fetch(server.tester)).status).toBe(200);
      const res = await postJson(`${server.tester}/api/chat/test`, { prompt: 'hi' });
      expect(res.status).toBe(503);
      expect(res.json).toMatchObject({ error: 'model_not_configured', message: expect.stringContaining('agentTester.model.baseUrl') });
    } finally {
      await server.stop();
    }
  });
});

describe('behind the server auth', () => {
  const TOKEN = 'agent-tester-token-0123456789abcdefghij';
  let model: ScriptedModel;
  let server: TesterServer;

  beforeAll(async () => {
    model = await startScriptedModel();
    server = await startTester(model.baseUrl, { webServer: { auth: { enabled: true, permanentServerTokens: [TOKEN] } } });
  });
  afterAll(async () => {
    await server?.stop();
    await model?.close();
  });

  it('every route answers 401 without a token', async () => {
    expect((await fetch(server.tester)).status).toBe(401);
    expect((await fetch(`${server.tester}/api/info`)).status).toBe(401);
    expect((await postJson(`${server.tester}/api/chat/test`, { prompt: 'hi' })).status).toBe(401);
    expect((await postJson(`${server.tester}/api/chat`, { message: 'hi' })).status).toBe(401);
    expect((await fetch(`${server.tester}/api/session`, { method: 'DELETE' })).status).toBe(401);
    expect((await postJson(`${server.tester}/api/chat/test`, { prompt: 'hi' }, { authorization: 'Bearer wrong-token-0123456789abcdefghijkl' })).status).toBe(401);
    expect(model.requests).toHaveLength(0);
  });

  it("with a token, the conversation's MCP connection carries the caller's credentials", async () => {
    model.script([askTool('get_weather', { city: 'Oslo' }), answerFromToolResult()]);
    const res = await postJson(`${server.tester}/api/chat/test`, { prompt: 'weather' }, { authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ stopReason: 'answer', toolCalls: [{ name: 'get_weather', isError: false }] });
    expect(res.text).not.toContain(API_KEY);
    expect((await fetch(server.tester, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });
});
