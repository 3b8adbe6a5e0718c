/**
 * Every client-to-server method runs through the one pipeline (issue 19), on
 * every transport and era, on the fast and the SDK path (ALL_TARGETS twins):
 * a consumer's step (`steps` / `use(step)`) sees each operation with its
 * method and target, and the per-method budgets of `mcp.rateLimit.methods`
 * refuse what exceeds them with the rate-limit error.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { formatToolResult, MCP_ERROR_CODES, type McpServerData, type PipelineStep } from '../../src/index.js';
import { ALL_TARGETS, expectToolError, startTestServer, type TestServer } from '../../src/testing/index.js';

function server(seen: string[]): McpServerData {
  const audit: PipelineStep = {
    name: 'audit',
    run(op, next) {
      seen.push(`${op.method} ${op.target.kind}:${op.target.name}`);
      return next();
    },
  };
  return {
    tools: [{ name: 'ping_tool', description: 'ping', inputSchema: { type: 'object' }, handler: () => formatToolResult('pong') }],
    prompts: [{ name: 'greet', content: 'hello', arguments: [{ name: 'who', complete: ['world', 'wide'] }] }],
    resources: [{ uri: 'test://doc', name: 'doc', content: 'a doc' }],
    steps: [audit],
  };
}

describe.each(ALL_TARGETS)('the pipeline runs every method on $label', (target) => {
  let running: TestServer | undefined;
  afterEach(async () => {
    await running?.stop();
    running = undefined;
  });

  it('a consumer step sees lists, tools/call, prompts/get, resources/read and completion/complete with their targets', async () => {
    const seen: string[] = [];
    running = await startTestServer(server(seen), { target });
    const client = await running.connect();
    seen.length = 0;
    await client.listTools();
    await client.callTool({ name: 'ping_tool', arguments: {} });
    await client.listPrompts();
    await client.getPrompt({ name: 'greet', arguments: { who: 'x' } });
    await client.readResource({ uri: 'test://doc' });
    const completion = await client.complete({ ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: 'wo' } });
    expect(completion.completion.values).toEqual(['world']);
    expect(seen).toEqual([
      'tools/list list:tools',
      'tools/call tool:ping_tool',
      'prompts/list list:prompts',
      'prompts/get prompt:greet',
      'resources/read resource:test://doc',
      'completion/complete prompt:greet',
    ]);
  });

  it('a budget on prompts/get (mcp.rateLimit.methods) answers the rate-limit error, and other methods go on', async () => {
    const seen: string[] = [];
    running = await startTestServer(server(seen), { target, config: { mcp: { rateLimit: { methods: { 'prompts/get': { maxRequests: 1 } } } } } });
    const client = await running.connect();
    await client.getPrompt({ name: 'greet', arguments: { who: 'x' } });
    seen.length = 0;
    const err = await expectToolError(client.getPrompt({ name: 'greet', arguments: { who: 'x' } }), MCP_ERROR_CODES.RATE_LIMITED);
    expect((err.data as { retryAfter: number }).retryAfter).toBeGreaterThanOrEqual(1);
    // refused before the consumer's step (the rate limit runs first)
    expect(seen).toEqual([]);
    expect((await client.readResource({ uri: 'test://doc' })).contents[0]).toMatchObject({ text: 'a doc' });
    await client.callTool({ name: 'ping_tool', arguments: {} });
  });
});
