/**
 * The headless API end to end: a real server, the Agent Tester's real MCP client connection to it,
 * and a loopback Chat Completions server answering from scripted turns. Asserts the trace and the
 * error paths (model down, 500, malformed, timeout, tool errors, unknown tools, maxTurns).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { answer, answerFromToolResult, askTool, closedPort, completion, neverAnswers, startScriptedModel, type ScriptedModel } from './scripted-model.js';
import { API_KEY, chatTest, startTester, type TesterServer } from './helpers.js';

describe('headless API: POST /agent-tester/api/chat/test', () => {
  let model: ScriptedModel;
  let server: TesterServer;

  beforeAll(async () => {
    model = await startScriptedModel();
    server = await startTester(model.baseUrl);
  });
  afterAll(async () => {
    await server?.stop();
    await model?.close();
  });
  beforeEach(() => void (model.requests.length = 0));

  it('runs model -> tool call -> tool result -> answer and returns the whole trace', async () => {
    model.script([askTool('get_weather', { city: 'Oslo' }), answerFromToolResult('Here it is: ')]);
    const trace = await chatTest(server.tester, { prompt: 'What is the weather in Oslo?' });

    expect(trace.stopReason).toBe('answer');
    // The framework mirrors structuredContent as a text block; the model reads every text block.
    expect(trace.finalAnswer).toBe('Here it is: {"city":"Oslo","temperature":21}\nWeather in Oslo: 21 C, sunny');
    expect(trace.error).toBeUndefined();
    expect(trace.model).toBe('scripted-model');
    expect(trace.toolCalls).toHaveLength(1);
    const [call] = trace.toolCalls;
    expect(call).toMatchObject({ turn: 1, name: 'get_weather', arguments: { city: 'Oslo' }, isError: false });
    expect(call!.result).toMatchObject({ content: expect.arrayContaining([{ type: 'text', text: 'Weather in Oslo: 21 C, sunny' }]), structuredContent: { city: 'Oslo', temperature: 21 } });
    expect(call!.durationMs).toBeGreaterThanOrEqual(0);
    expect(trace.appCalls).toEqual([]);
    expect(trace.modelCalls.map((m) => [m.turn, m.toolCalls, m.finishReason])).toEqual([
      [1, 1, 'tool_calls'],
      [2, 0, 'stop'],
    ]);
    expect(trace.usage).toEqual({ promptTokens: 20, completionTokens: 10, totalTokens: 30, unreported: 0 });
    expect(trace.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    expect(trace.server).toMatchObject({ name: 'agent-tester-fixture', version: '1.2.3', protocolVersion: '2025-11-25' });
    expect(trace.server.tools).toEqual(expect.arrayContaining(['get_weather', 'broken_tool', 'show_card']));
    expect(trace.server.tools).not.toContain('card_refresh'); // app-only: not offered to the model
    expect(trace.durationMs).toBeGreaterThanOrEqual(0);
    expect(Date.parse(trace.startedAt)).not.toBeNaN();

    // What the model endpoint received.
    expect(model.requests).toHaveLength(2);
    const first = model.requests[0]!;
    expect(first.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(first.body.model).toBe('scripted-model');
    expect(first.body.max_tokens).toBeUndefined();
    const fn = first.body.tools?.find((t) => t.function.name === 'get_weather');
    expect(fn).toEqual({ type: 'function', function: { name: 'get_weather', description: 'The current weather of a city.', parameters: expect.objectContaining({ type: 'object', required: ['city'] }) } });
    expect(first.body.tools?.map((t) => t.function.name)).not.toContain('card_refresh');
    const system = first.body.messages[0]!;
    expect(system.role).toBe('system');
    expect(system.content).toContain('agent-tester-fixture');
    expect(system.content).toContain('Weather tools for the Agent Tester tests.');
    expect(system.content).toContain('weather_report');
    expect(system.content).toContain('ui://fixture/card.html');
    const second = model.requests[1]!.body.messages;
    expect(second.at(-1)).toMatchObject({ role: 'tool', tool_call_id: trace.toolCalls[0]!.id, content: expect.stringContaining('Weather in Oslo: 21 C, sunny') });
  });

  it('records app calls with the view document and the policy the page applies', async () => {
    model.script([askTool('show_card', { city: 'Bergen' }), answer('Shown.')]);
    const trace = await chatTest(server.tester, { prompt: 'Show Bergen as a card' });
    expect(trace.stopReason).toBe('answer');
    expect(trace.appCalls).toHaveLength(1);
    const app = trace.appCalls[0]!;
    expect(app).toMatchObject({ toolCallId: trace.toolCalls[0]!.id, toolName: 'show_card', resourceUri: 'ui://fixture/card.html', arguments: { city: 'Bergen' }, isError: false });
    expect(app.result).toMatchObject({ structuredContent: { city: 'Bergen', temperature: 19 } });
    expect(app.view?.mimeType).toBe('text/html;profile=mcp-app');
    expect(app.view?.html).toContain('data-testid="card"');
    expect(app.view?.meta).toMatchObject({ ui: { prefersBorder: true } });
    expect(app.view?.csp).toContain('connect-src https://api.example.com;');
    expect(app.view?.csp).not.toContain('unsafe-eval'); // a crafted entry is dropped
    expect(app.view?.csp).toContain("default-src 'none'");
  });

  it('a tool result with isError is recorded and handed to the model, and the conversation goes on', async () => {
    model.script([askTool('broken_tool', {}), answerFromToolResult()]);
    const trace = await chatTest(server.tester, { prompt: 'Try the broken tool' });
    expect(trace.stopReason).toBe('answer');
    expect(trace.toolCalls[0]).toMatchObject({ name: 'broken_tool', isError: true, result: { isError: true } });
    expect(trace.toolCalls[0]!.error).toBeUndefined();
    expect(trace.finalAnswer).toBe('The tool said: Tool error: the backend is down');
  });

  it('invalid arguments are an isError result naming the field, recorded as a failed call, and the model reads it', async () => {
    model.script([askTool('get_weather', { town: 'Oslo' }), answerFromToolResult()]);
    const trace = await chatTest(server.tester, { prompt: 'weather?' });
    expect(trace.stopReason).toBe('answer');
    const call = trace.toolCalls[0]!;
    expect(call.isError).toBe(true);
    expect(call.error).toBeUndefined();
    expect(call.result).toMatchObject({ isError: true, _meta: { 'fa-mcp/validation': { field: 'city', reason: 'is required' } } });
    expect(trace.finalAnswer).toContain('Invalid arguments for tool get_weather: city is required');
  });

  it('an unknown tool name and arguments that are not JSON are answered without calling the server', async () => {
    model.script([
      () => completion({ tool_calls: [{ name: 'no_such_tool', arguments: {} }, { name: 'get_weather', arguments: '{"city": "Os' }] }),
      answerFromToolResult(),
    ]);
    const trace = await chatTest(server.tester, { prompt: 'do things' });
    expect(trace.stopReason).toBe('answer');
    expect(trace.toolCalls.map((c) => [c.name, c.isError, c.error])).toEqual([
      ['no_such_tool', true, 'unknown tool "no_such_tool": this server has no such tool'],
      ['get_weather', true, 'the arguments are not valid JSON'],
    ]);
    expect(trace.toolCalls[1]!.arguments).toBe('{"city": "Os');
    const toolMessages = model.requests[1]!.body.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(toolMessages).toEqual(['Tool call failed: unknown tool "no_such_tool": this server has no such tool', 'Tool call failed: the arguments are not valid JSON']);
  });

  it('stops with maxTurns when the model keeps asking for tools; unrun calls are answered in the history', async () => {
    model.script([askTool('get_weather', { city: 'A' }), askTool('get_weather', { city: 'B' }), askTool('get_weather', { city: 'C' })]);
    const trace = await chatTest(server.tester, { prompt: 'loop', maxTurns: 2 });
    expect(trace.stopReason).toBe('maxTurns');
    expect(trace.finalAnswer).toBeNull();
    expect(trace.error?.message).toContain('after 2 requests');
    expect(model.requests).toHaveLength(2);
    expect(trace.toolCalls.map((c) => c.arguments)).toEqual([{ city: 'A' }]);
    expect(trace.messages.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('maxTurns') });
  });

  it('a model endpoint answering 500 ends the conversation with modelError and the status', async () => {
    model.script([() => ({ status: 500, body: { error: { message: 'model overloaded' } } })]);
    const trace = await chatTest(server.tester, { prompt: 'hi' });
    expect(trace.stopReason).toBe('modelError');
    expect(trace.error).toMatchObject({ kind: 'http', status: 500 });
    expect(trace.error?.message).toContain('HTTP 500');
    expect(trace.error?.message).toContain('model overloaded');
    expect(trace.finalAnswer).toBeNull();
  });

  it('a 2xx answer that is not a Chat Completions result is modelError / malformed', async () => {
    model.script([() => ({ body: { result: 'hello' } }), () => ({ raw: 'not json at all' })]);
    const a = await chatTest(server.tester, { prompt: 'hi' });
    expect(a.stopReason).toBe('modelError');
    expect(a.error).toMatchObject({ kind: 'malformed', message: expect.stringContaining('"choices"') });
    const b = await chatTest(server.tester, { prompt: 'hi' });
    expect(b.error).toMatchObject({ kind: 'malformed', message: expect.stringContaining('not JSON') });
  });

  it('an answer with neither text nor tool calls is modelError', async () => {
    model.script([() => completion({ content: '  ' })]);
    const trace = await chatTest(server.tester, { prompt: 'hi' });
    expect(trace.stopReason).toBe('modelError');
    expect(trace.error?.message).toContain('neither text nor tool calls');
  });

  it('a model answer without usage is counted as unreported', async () => {
    model.script([() => ({ body: { choices: [{ message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] } })]);
    const trace = await chatTest(server.tester, { prompt: 'hi' });
    expect(trace.stopReason).toBe('answer');
    expect(trace.usage).toEqual({ promptTokens: 0, completionTokens: 0, totalTokens: 0, unreported: 1 });
  });
});

describe('headless API: limits and failures of the model endpoint', () => {
  let model: ScriptedModel;
  beforeAll(async () => void (model = await startScriptedModel()));
  afterAll(async () => void (await model?.close()));

  it('a model endpoint that is down (closed port) is modelError / unreachable', async () => {
    const port = await closedPort();
    const server = await startTester(`http://127.0.0.1:${port}/v1`);
    try {
      const trace = await chatTest(server.tester, { prompt: 'hi' });
      expect(trace.stopReason).toBe('modelError');
      expect(trace.error).toMatchObject({ kind: 'unreachable' });
      expect(trace.error?.message).toContain(`127.0.0.1:${port}`);
      expect(trace.error?.message).toContain('ECONNREFUSED');
    } finally {
      await server.stop();
    }
  });

  it('a model request slower than agentTester.model.timeoutMs ends with stopReason timeout', async () => {
    const server = await startTester(model.baseUrl, { agentTester: { model: { timeoutMs: 300 } } });
    try {
      model.script([neverAnswers]); // only the timeout can end this request
      const started = Date.now();
      const trace = await chatTest(server.tester, { prompt: 'hi' });
      expect(trace.stopReason).toBe('timeout');
      expect(trace.error).toMatchObject({ kind: 'timeout', message: expect.stringContaining('300 ms') });
      expect(Date.now() - started).toBeLessThan(20_000); // ended by the timeout: nothing else ends this request
    } finally {
      await server.stop();
    }
  });

  it('a conversation longer than conversationTimeoutMs (a slow tool) ends with timeout', async () => {
    const server = await startTester(model.baseUrl, { agentTester: { limits: { conversationTimeoutMs: 1000 } } });
    try {
      // The tool would take two minutes: ending well before means the conversation's timeout ended it.
      model.script([askTool('slow_tool', { ms: 120_000 }), answer('never')]);
      const started = Date.now();
      const trace = await chatTest(server.tester, { prompt: 'wait' });
      expect(trace.stopReason).toBe('timeout');
      expect(trace.error?.message).toContain('conversationTimeoutMs');
      expect(trace.toolCalls[0]).toMatchObject({ name: 'slow_tool', isError: true });
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      await server.stop();
    }
  });

  it('sends max_tokens when configured, and no Authorization header without a key', async () => {
    const server = await startTester(model.baseUrl, { agentTester: { model: { apiKey: '', maxTokens: 64 } } });
    try {
      model.requests.length = 0;
      model.script([answer('ok')]);
      await chatTest(server.tester, { prompt: 'hi' });
      expect(model.requests[0]!.body.max_tokens).toBe(64);
      expect(model.requests[0]!.headers.authorization).toBeUndefined();
    } finally {
      await server.stop();
    }
  });

  it('on a stateless server the tester speaks 2026-07-28, so views are still offered', async () => {
    const server = await startTester(model.baseUrl, { mcp: { stateless: true } });
    try {
      model.script([askTool('show_card', { city: 'Oslo' }), answer('done')]);
      const trace = await chatTest(server.tester, { prompt: 'card' });
      expect(trace.server.protocolVersion).toBe('2026-07-28');
      expect(trace.appCalls[0]?.view?.html).toContain('data-testid="card"');
    } finally {
      await server.stop();
    }
  });
});
