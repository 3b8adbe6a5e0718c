/**
 * The tool contract, run on every transport and protocol era the server speaks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { MCP_ERROR_CODES, TRUNCATION_MARKER } from '../../src/index.js';
import { ALL_TARGETS, expectToolError, startTestServer, type TestServer } from '../../src/testing/index.js';
import { contractConfig, contractServer, type CallLog } from './fixtures.js';

describe.each(ALL_TARGETS)('tool contract on $label', (target) => {
  let server: TestServer;
  let client: Client;
  const log: CallLog = { calls: [], aborted: [] };

  beforeAll(async () => {
    server = await startTestServer(contractServer(log), { target, config: contractConfig, cwd: __dirname });
    client = await server.connect();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('keeps $schema, additionalProperties, title, annotations and _meta on the wire', async () => {
    const { tools } = await client.listTools();
    const add = tools.find((t) => t.name === 'add');
    expect(add?.inputSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(add?.inputSchema.additionalProperties).toBe(false);
    expect(add?.title).toBe('Add two numbers');
    expect(add?.annotations?.readOnlyHint).toBe(true);
    expect(add?._meta?.['example.com/cost']).toBe(1);
  });

  it('paginates tools with opaque cursors and refuses a foreign cursor', async () => {
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      // listTools() aggregates every page; ask page by page on the wire.
      const page = await client.request({ method: 'tools/list', params: cursor ? { cursor } : {} });
      names.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(names).toEqual(['add', 'broken_output', 'sleepy', 'big', 'count', 'fails', 'crashes', 'old_tool']);
    await expectToolError(client.request({ method: 'tools/list', params: { cursor: 'not-ours' } }), MCP_ERROR_CODES.INVALID_PARAMS);
  });

  it('hides excluded tools from lists, calls and instructions', async () => {
    await expectToolError(client.callTool({ name: 'hidden_tool', arguments: {} }), MCP_ERROR_CODES.INVALID_PARAMS);
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toContain('sums: add');
    expect(instructions).not.toContain('secrets: hidden_tool');
    expect(instructions).toContain('Not available on this server: hidden_tool.');
  });

  it('marks deprecated tools in the list', async () => {
    const all = (await client.listTools()).tools;
    expect(all.find((t) => t.name === 'old_tool')?.description).toBe('[DEPRECATED until 2099-01-01, use add] Does the old thing.');
  });

  it('validates arguments before the handler runs (an isError result with field and reason; argument-errors.test.ts has both forms)', async () => {
    const before = log.calls.length;
    const missing = await client.callTool({ name: 'add', arguments: { a: 1 } });
    expect(missing).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Invalid arguments for tool add: b is required' }] });
    expect(missing._meta?.['fa-mcp/validation']).toEqual({ field: 'b', reason: 'is required' });
    const extra = await expectToolError(client.callTool({ name: 'add', arguments: { a: 1, b: 2, c: 3 } }), MCP_ERROR_CODES.INVALID_PARAMS);
    expect(extra.data).toMatchObject({ field: 'c', reason: 'is not allowed' });
    expect(log.calls.length).toBe(before);
  });

  it('returns structuredContent mirrored into content[0].text', async () => {
    const res = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    expect(res.structuredContent).toEqual({ sum: 5 });
    expect(res.content).toEqual([{ type: 'text', text: '{"sum":5}' }]);
  });

  it('answers -32603 when a tool breaks its own outputSchema', async () => {
    await expectToolError(client.callTool({ name: 'broken_output', arguments: {} }), MCP_ERROR_CODES.INTERNAL_ERROR, 'outputSchema');
  });

  it('times out with -32004 and aborts the handler', async () => {
    await expectToolError(client.callTool({ name: 'sleepy', arguments: {} }), MCP_ERROR_CODES.TIMEOUT);
    expect(log.aborted).toContain('sleepy');
  });

  it('truncates an oversized result with a visible marker', async () => {
    const res = await client.callTool({ name: 'big', arguments: {} });
    const texts = (res.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '');
    expect(texts[texts.length - 1]).toBe(TRUNCATION_MARKER);
    expect(Buffer.byteLength(JSON.stringify(res.content))).toBeLessThanOrEqual(4096);
  });

  it.skipIf(target.transport === 'sse')('sends monotonic progress and never loses the final value (legacy SSE: see legacy-sse-wire.test.ts)', async () => {
    const seen: number[] = [];
    const res = await client.callTool({ name: 'count', arguments: {} }, { onprogress: (p) => seen.push(p.progress) });
    expect(res.content).toEqual([{ type: 'text', text: 'counted' }]);
    // The 2026-07-28 per-request path upgrades to SSE once progress precedes the result.
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  /** Calls sleepy on `on`, aborts once its handler runs, and returns how the client's call ended. */
  async function cancelSleepy(on: Client, seen: CallLog): Promise<unknown> {
    const controller = new AbortController();
    const started = seen.calls.filter((c) => c === 'sleepy').length;
    const call = on.callTool({ name: 'sleepy', arguments: {} }, { signal: controller.signal }).catch((err: unknown) => err);
    await expect.poll(() => seen.calls.filter((c) => c === 'sleepy').length, { timeout: 10_000 }).toBe(started + 1);
    controller.abort('the caller gave up');
    return call;
  }

  it.skipIf(target.transport === 'stateless')('aborts the handler when the client cancels the call', async () => {
    // sleepy times out at 300 ms on the shared server: too short for a cancellation to cross a busy machine,
    // so this case runs where the configured timeout (30 s) cannot be what aborts it.
    const patientLog: CallLog = { calls: [], aborted: [] };
    const patient = await startTestServer(contractServer(patientLog), {
      target,
      config: { ...contractConfig, mcp: { ...contractConfig.mcp, limits: { ...contractConfig.mcp.limits, toolTimeouts: { sleepy: 30_000 } } } },
      cwd: __dirname,
    });
    try {
      // The SDK client ends the call at once with the abort reason (the code is the client's own, not the server's).
      expect(await cancelSleepy(await patient.connect(), patientLog)).toMatchObject({ name: 'SdkError', code: 'REQUEST_TIMEOUT', message: 'the caller gave up' });
      await expect.poll(() => patientLog.aborted, { timeout: 10_000 }).toEqual(['sleepy:cancelled']);
    } finally {
      await patient.stop();
    }
  });

  // Stateless 2025 HTTP has no channel that ties a cancellation to its call: the SDK client's notifications/cancelled
  // arrives as a request of its own, and the server cannot know which call it means. Pinned: the client's call ends,
  // the handler is not aborted by the cancellation and runs on until its own timeout (sleepy's 300 ms) ends it.
  it.runIf(target.transport === 'stateless')('a cancelled call on stateless HTTP ends on the client, and the handler runs until its timeout', async () => {
    const before = log.aborted.length;
    expect(await cancelSleepy(client, log)).toMatchObject({ name: 'SdkError', code: 'REQUEST_TIMEOUT', message: 'the caller gave up' });
    await expect.poll(() => log.aborted.length, { timeout: 10_000 }).toBe(before + 1);
    expect(log.aborted.at(-1)).toBe('sleepy'); // the timeout, not 'sleepy:cancelled'
  });

  it('turns a ToolExecutionError into an isError result', async () => {
    const res = await client.callTool({ name: 'fails', arguments: {} });
    expect(res.isError).toBe(true);
    expect(res.content).toEqual([{ type: 'text', text: 'the upstream said no' }]);
  });

  it('sanitizes unexpected errors (no stack, no path) and names the request id', async () => {
    const err = await expectToolError(client.callTool({ name: 'crashes', arguments: {} }), MCP_ERROR_CODES.INTERNAL_ERROR);
    expect(err.message).not.toContain('/srv/app');
    expect(err.message).toMatch(/request id/);
  });

  it('refuses an unknown tool with -32602', async () => {
    await expectToolError(client.callTool({ name: 'nope', arguments: {} }), MCP_ERROR_CODES.INVALID_PARAMS);
  });

  it('serves prompts with completion, resources, templates and the built-ins', async () => {
    const prompt = await client.getPrompt({ name: 'greet', arguments: { who: 'ann' } });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Hello ann' });
    const completion = await client.complete({ ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: 'al' } });
    expect(completion.completion.values).toEqual(['alice', 'albert']);
    const doc = await client.readResource({ uri: 'test://doc' });
    expect(doc.contents[0]).toMatchObject({ uri: 'test://doc', text: 'the doc' });
    const item = await client.readResource({ uri: 'test://item/42' });
    expect(item.contents[0]).toMatchObject({ text: 'item 42' });
    const version = await client.readResource({ uri: 'project://version' });
    expect(JSON.parse((version.contents[0] as { text: string }).text)).toMatchObject({ sdk: { name: 'fa-mcp-sdk' } });
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toContain('agent_brief');
  });

  it('answers an unknown resource with -32602 and the URI in data', async () => {
    // The SDK's wire codecs of both eras encode -32002 as -32602 (SEP-2164); clients read either as not found.
    const err = await expectToolError(client.readResource({ uri: 'test://missing' }), MCP_ERROR_CODES.INVALID_PARAMS);
    expect(err.data).toMatchObject({ uri: 'test://missing' });
  });
});
