/**
 * The runnable example of FA-MCP-SDK-DOC/08-agent-tester-and-headless-api.md ("A conversation in
 * your own test"), through the package's public entry points: runAgentConversation with a stand-in model.
 */
import { expect, it } from 'vitest';
import { formatToolResult, initMcpServer, type ITool } from '../../src/index.js';
import { runAgentConversation, summarizeTrace, type ChatModel } from '../../src/agent-tester/index.js';

it('the documented example runs and produces the documented trace', async () => {
  const greet: ITool = {
    name: 'greet',
    description: 'Returns a greeting for the given name.',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
    handler: ({ arguments: args }) => formatToolResult(`Hello, ${String(args.name)}!`),
  };
  const server = await initMcpServer({ tools: [greet] }, { handleSignals: false, cwd: '/nonexistent-doc-example', config: { webServer: { port: 0 }, logger: { level: 'silent' } } });

  // A stand-in model: asks for the tool once, then answers with what the tool returned.
  const model: ChatModel = {
    model: 'stand-in',
    async complete({ messages, tools }) {
      const last = messages.at(-1);
      if (last?.role === 'tool') return { message: { content: `The server said: ${last.content}`, tool_calls: [] }, finishReason: 'stop' };
      const name = tools?.[0]?.function.name ?? 'greet';
      return { message: { content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name, arguments: '{"name":"Ada"}' } }] }, finishReason: 'tool_calls' };
    },
  };

  const { trace } = await runAgentConversation({
    mcpUrl: server.url as string,
    model,
    prompt: 'Greet Ada',
    settings: { maxTurns: 4, conversationTimeoutMs: 30_000, systemPrompt: '' },
  });
  console.log(summarizeTrace(trace));
  await server.stop();

  expect(trace.stopReason).toBe('answer');
  expect(trace.toolCalls[0]).toMatchObject({ name: 'greet', arguments: { name: 'Ada' }, isError: false });
  expect(trace.finalAnswer).toBe('The server said: Hello, Ada!');
  expect(trace.usage.unreported).toBe(2);
});
