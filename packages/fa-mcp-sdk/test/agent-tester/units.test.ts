/**
 * The Agent Tester's small modules on their own: the Chat Completions client against the scripted
 * loopback server (key handling, errors), the session store's bounds, the function-tool conversion,
 * the view policy, and the readable summary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatCompletionsClient, parseChatResponse } from '../../src/agent-tester/chat-completions-client.js';
import { ModelEndpointError } from '../../src/agent-tester/errors.js';
import { toFunctionTools } from '../../src/agent-tester/function-tools.js';
import { AgentSessionStore } from '../../src/agent-tester/session-store.js';
import { summarizeTrace } from '../../src/agent-tester/trace-summary.js';
import type { AgentTrace } from '../../src/agent-tester/trace-types.js';
import { viewCsp } from '../../src/agent-tester/view-csp.js';
import { isAgentTesterEnabled } from '../../src/agent-tester/mount.js';
import { selfMcpUrl } from '../../src/transport/http/listen.js';
import { answer, askTool, neverAnswers, startScriptedModel, type ScriptedModel } from './scripted-model.js';

const KEY = 'sk-unit-secret-9876543210';

describe('Chat Completions client', () => {
  let model: ScriptedModel;
  beforeAll(async () => void (model = await startScriptedModel()));
  afterAll(async () => void (await model?.close()));

  const client = (extra: Partial<Parameters<typeof createChatCompletionsClient>[0]> = {}) =>
    createChatCompletionsClient({ baseUrl: `${model.baseUrl}/`, model: 'm1', apiKey: KEY, timeoutMs: 2000, ...extra });

  it('posts to <baseUrl>/chat/completions with the key in the header, tools and tool_choice; parses tool calls', async () => {
    model.requests.length = 0;
    model.script([askTool('get_weather', { city: 'Oslo' })]);
    const res = await client().complete({ messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }], tool_choice: 'auto' });
    expect(res.message.tool_calls).toEqual([{ id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }]);
    expect(res.finishReason).toBe('tool_calls');
    expect(res.usage).toEqual({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    const sent = model.requests[0]!;
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.body).toMatchObject({ model: 'm1', tool_choice: 'auto', messages: [{ role: 'user', content: 'hi' }] });
  });

  it('leaves tools and tool_choice out when there are no tools', async () => {
    model.requests.length = 0;
    model.script([answer('plain')]);
    const res = await client().complete({ messages: [{ role: 'user', content: 'hi' }], tools: [], tool_choice: 'auto' });
    expect(res.message).toEqual({ content: 'plain', tool_calls: [] });
    expect(model.requests[0]!.body).not.toHaveProperty('tools');
    expect(model.requests[0]!.body).not.toHaveProperty('tool_choice');
  });

  it('an error body that echoes the key has it removed', async () => {
    model.script([() => ({ status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}` } } })]);
    const err = (await client().complete({ messages: [] }).catch((e: unknown) => e)) as ModelEndpointError;
    expect(err).toBeInstanceOf(ModelEndpointError);
    expect(err.kind).toBe('http');
    expect(err.status).toBe(401);
    expect(err.httpStatus).toBe(502);
    expect(err.message).toContain('Incorrect API key provided: ***');
    expect(err.message).not.toContain(KEY);
  });

  it('an external abort is "aborted", the time limit is "timeout", no base URL is "not_configured"', async () => {
    model.script([neverAnswers]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const aborted = (await client().complete({ messages: [] }, controller.signal).catch((e: unknown) => e)) as ModelEndpointError;
    expect(aborted.kind).toBe('aborted');
    model.script([neverAnswers]);
    const slow = (await client({ timeoutMs: 100 }).complete({ messages: [] }).catch((e: unknown) => e)) as ModelEndpointError;
    expect(slow.kind).toBe('timeout');
    expect(slow.httpStatus).toBe(504);
    const none = (await client({ baseUrl: '' }).complete({ messages: [] }).catch((e: unknown) => e)) as ModelEndpointError;
    expect(none.kind).toBe('not_configured');
  });

  it('parseChatResponse refuses shapes that are not a Chat Completions result', () => {
    const bad = (body: unknown) => () => parseChatResponse(body);
    expect(bad(null)).toThrow(/not a JSON object/);
    expect(bad({ choices: [] })).toThrow(/"choices"/);
    expect(bad({ choices: [{}] })).toThrow(/message/);
    expect(bad({ choices: [{ message: { content: 5 } }] })).toThrow(/content/);
    expect(bad({ choices: [{ message: { content: null, tool_calls: [{ function: {} }] } }] })).toThrow(/tool_calls/);
    // Arguments given as an object (some servers do) are turned into JSON text; a missing id gets one.
    const ok = parseChatResponse({ choices: [{ message: { content: null, tool_calls: [{ type: 'function', function: { name: 'x', arguments: { a: 1 } } }] } }] });
    expect(ok.message.tool_calls[0]).toEqual({ id: 'call_1', type: 'function', function: { name: 'x', arguments: '{"a":1}' } });
  });
});

describe('AgentSessionStore', () => {
  it('drops the least recently used session when full, expired ones by age and by idleness', () => {
    let now = 0;
    const store = new AgentSessionStore({ maxSessions: 2, maxAgeMs: 1000, idleMs: 300, now: () => now });
    store.getOrCreate('a');
    now = 10;
    store.getOrCreate('b');
    now = 20;
    store.get('a'); // a is now the most recent
    store.getOrCreate('c'); // drops b
    expect(store.get('b')).toBeUndefined();
    expect(store.get('a')).toBeDefined();
    expect(store.size).toBe(2);
    now = 400; // c idle since 20 -> gone; a was used at 20 as well
    expect(store.size).toBe(0);
    store.getOrCreate('d');
    for (now = 500; now < 1500; now += 200) store.get('d'); // kept busy with requests
    expect(store.get('d')).toBeUndefined(); // but not past maxAgeMs
  });

  it('a busy session is neither expired nor evicted before idle ones', () => {
    let now = 0;
    const store = new AgentSessionStore({ maxSessions: 2, maxAgeMs: 100, idleMs: 100, now: () => now });
    store.getOrCreate('busy').busy = true;
    now = 1;
    store.getOrCreate('idle');
    now = 2;
    store.getOrCreate('new');
    expect(store.get('idle')).toBeUndefined();
    now = 500;
    expect(store.get('busy')).toBeDefined();
  });
});

describe('function tools', () => {
  it('offers model-visible tools, rewriting names a function cannot carry and mapping them back', () => {
    const set = toFunctionTools([
      { name: 'ok_name', description: 'd', inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: {} } },
      { name: 'dotted.name', inputSchema: { type: 'object' } },
      { name: 'dotted_name', title: 'Taken first', inputSchema: { properties: {} } },
      { name: 'app_only', _meta: { ui: { resourceUri: 'ui://x', visibility: ['app'] } } },
      { name: 'both', _meta: { ui: { resourceUri: 'ui://x', visibility: ['model', 'app'] } } },
    ]);
    const names = set.tools.map((t) => t.function.name);
    expect(names).toEqual(['ok_name', 'dotted_name_2', 'dotted_name', 'both']);
    expect(set.mcpName('dotted_name_2')).toBe('dotted.name');
    expect(set.mcpName('dotted_name')).toBe('dotted_name');
    expect(set.mcpName('app_only')).toBeUndefined();
    expect(set.tools[0]!.function.parameters).toEqual({ type: 'object', properties: {} });
    expect(set.tools[2]!.function).toMatchObject({ description: 'Taken first', parameters: { type: 'object', properties: {} } });
  });

  it('maps every name mcp.tools.nameRule "mcp" allows (dots, up to 128 characters) to a distinct valid function name and back', () => {
    const long = 'a'.repeat(64);
    const names = ['get-sum', 'admin.tools.list', 'admin_tools_list', `${long}.one`, `${long}.two`, `${long}-three`, 'x'.repeat(128), '.', '..', '_', 'A.b-C_9'];
    const set = toFunctionTools(names.map((name) => ({ name, inputSchema: { type: 'object' } })));
    const fnNames = set.tools.map((t) => t.function.name);
    for (const fn of fnNames) expect(fn).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(new Set(fnNames).size).toBe(names.length);
    expect(fnNames.map((fn) => set.mcpName(fn))).toEqual(names);
    // names a function can carry as they are keep them
    expect(fnNames.slice(0, 1)).toEqual(['get-sum']);
    expect(set.mcpName('admin_tools_list')).toBe('admin_tools_list');
  });
});

describe('view policy, enabling rule, loopback URL, summary', () => {
  it('builds the view CSP from declared origins only', () => {
    const csp = viewCsp({ ui: { csp: { connectDomains: ['https://api.example.com', "'unsafe-eval'", 'https://x.com; script-src *'], resourceDomains: ['https://*.cdn.example'], frameDomains: ['javascript:alert(1)'] } } });
    expect(csp).toContain('connect-src https://api.example.com;');
    expect(csp).toContain("script-src 'unsafe-inline' https://*.cdn.example;");
    expect(csp).toContain("frame-src 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(viewCsp(undefined)).toContain("connect-src 'none'");
  });

  it('auto is on only in development', () => {
    expect(isAgentTesterEnabled('auto', 'development')).toBe(true);
    expect(isAgentTesterEnabled('auto', 'production')).toBe(false);
    expect(isAgentTesterEnabled('auto', 'staging')).toBe(false);
    expect(isAgentTesterEnabled(true, 'production')).toBe(true);
    expect(isAgentTesterEnabled(false, 'development')).toBe(false);
  });

  it('connects to a wildcard bind address through loopback', () => {
    expect(selfMcpUrl('http://0.0.0.0:3000/mcp')).toBe('http://127.0.0.1:3000/mcp');
    expect(selfMcpUrl('http://[::]:3000/mcp')).toBe('http://[::1]:3000/mcp');
    expect(selfMcpUrl('http://10.1.2.3:3000/mcp')).toBe('http://10.1.2.3:3000/mcp');
  });

  it('summarizes a trace in a few lines', () => {
    const trace = {
      prompt: 'weather?',
      model: 'm',
      stopReason: 'answer',
      finalAnswer: 'Sunny.',
      messages: [],
      toolCalls: [{ id: 'c1', turn: 1, name: 'get_weather', arguments: { city: 'Oslo' }, isError: false, durationMs: 7, result: { content: [{ type: 'text', text: '21 C' }] } }],
      appCalls: [],
      modelCalls: [{ turn: 1, durationMs: 1, finishReason: 'tool_calls', toolCalls: 1 }, { turn: 2, durationMs: 1, finishReason: 'stop', toolCalls: 0 }],
      usage: { promptTokens: 20, completionTokens: 10, totalTokens: 30, unreported: 0 },
      startedAt: new Date(0).toISOString(),
      durationMs: 42,
      server: { name: 's', version: '1', tools: ['get_weather'], prompts: [], resources: [] },
    } satisfies AgentTrace;
    const text = summarizeTrace(trace);
    expect(text).toContain('stop: answer | 2 model requests | 30 tokens (20 in, 10 out) | 42 ms');
    expect(text).toContain('1. [turn 1] get_weather {"city":"Oslo"} -> ok: 21 C (7 ms)');
    expect(text).toContain('answer:\n  Sunny.');
  });
});
