/** A server whose tools, prompt and resource ask the client for input, for the cross-era tests. */
import type { Client } from '@modelcontextprotocol/client';
import { formatToolResult, type JsonObject, type McpServerData } from '../../src/index.js';

export interface InputLog {
  /** One entry per handler run (the replay model runs a handler again on each round). */
  runs: string[];
}

const nameForm = {
  type: 'object',
  properties: { name: { type: 'string', minLength: 1 } },
  required: ['name'],
};

const textOf = (sample: JsonObject) => String((sample.content as { text?: string } | undefined)?.text ?? '');

export function inputServer(log: InputLog): McpServerData {
  return {
    capabilities: { logging: true, listChanged: true, subscribe: true },
    tools: [
      {
        name: 'greet_user',
        description: 'Asks for a name and greets it.',
        inputSchema: { type: 'object', properties: { salutation: { type: 'string' } } },
        handler: async ({ arguments: args, client }) => {
          log.runs.push('greet_user');
          const reply = await client.elicit({ mode: 'form', message: 'What is your name?', requestedSchema: nameForm }, { key: 'user_name' });
          const name = (reply.content as { name?: string } | undefined)?.name ?? 'nobody';
          return formatToolResult(`${String(args.salutation ?? 'Hello')}, ${name}! (${reply.action}, resumed=${client.resumed})`);
        },
      },
      {
        name: 'two_steps',
        description: 'Asks for a name, then for a colour addressed by that name.',
        inputSchema: { type: 'object' },
        handler: async ({ client }) => {
          log.runs.push('two_steps');
          const first = await client.elicit({ message: 'Name?', requestedSchema: nameForm });
          const name = (first.content as { name: string }).name;
          const second = await client.elicit({
            message: `${name}, favourite colour?`,
            requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
          });
          return formatToolResult(`${name} likes ${(second.content as { color: string }).color}`);
        },
      },
      {
        name: 'gather',
        description: 'Asks for a name, a sampled greeting and the roots at once.',
        inputSchema: { type: 'object' },
        handler: async ({ client }) => {
          log.runs.push('gather');
          const [who, greeting, roots] = await Promise.all([
            client.elicit({ message: 'Name?', requestedSchema: nameForm }),
            client.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 20 }),
            client.listRoots(),
          ]);
          const rootList = (roots.roots as Array<{ uri: string }>).map((r) => r.uri).join(',');
          return formatToolResult(`${textOf(greeting)} ${(who.content as { name: string }).name} [${rootList}]`);
        },
      },
      {
        name: 'needs_sampling',
        description: 'Asks the client model; refused without the sampling capability.',
        inputSchema: { type: 'object' },
        handler: async ({ client }) => {
          log.runs.push('needs_sampling');
          const answer = await client.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 5 });
          return formatToolResult(textOf(answer));
        },
      },
      {
        name: 'swallows_signal',
        description: 'Catches the input signal and returns anyway; the framework still asks.',
        inputSchema: { type: 'object' },
        handler: async ({ client }) => {
          log.runs.push('swallows_signal');
          try {
            const reply = await client.elicit({ message: 'Name?', requestedSchema: nameForm });
            return formatToolResult(`got ${(reply.content as { name: string }).name}`);
          } catch {
            return formatToolResult('gave up');
          }
        },
      },
      {
        name: 'log_levels',
        description: 'Logs once at each of four levels.',
        inputSchema: { type: 'object' },
        handler: async ({ client }) => {
          for (const level of ['debug', 'info', 'warning', 'error'] as const) await client.log(level, `at ${level}`);
          return formatToolResult('logged');
        },
      },
    ],
    prompts: [
      {
        name: 'contextual',
        description: 'Asks what context the prompt should use.',
        content: async (_args, ctx) => {
          log.runs.push('contextual');
          const reply = await ctx.client!.elicit(
            { message: 'Context?', requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] } },
            { key: 'user_context' },
          );
          return `Use this context: ${(reply.content as { context: string }).context}`;
        },
      },
    ],
    resources: [{ uri: 'test://plain', name: 'plain', mimeType: 'text/plain', content: 'plain text' }],
  };
}

/** Client capabilities and handlers answering every kind of input. */
export const fullCapabilities = { capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} } };

export function answerEverything(client: Client, answers: { names?: string[] } = {}): { asked: string[] } {
  const names = [...(answers.names ?? ['Ada', 'Grace', 'Linus'])];
  const asked: string[] = [];
  client.setRequestHandler('elicitation/create', async (req): Promise<{ action: 'accept'; content: Record<string, string> }> => {
    const message = String((req.params as { message?: string }).message);
    asked.push(message);
    if (message.includes('colour')) return { action: 'accept', content: { color: 'teal' } };
    if (message.startsWith('Context')) return { action: 'accept', content: { context: 'tests' } };
    return { action: 'accept', content: { name: names.shift() ?? 'Zed' } };
  });
  client.setRequestHandler('sampling/createMessage', async () => {
    asked.push('sampling');
    return { role: 'assistant', content: { type: 'text', text: 'Hi' }, model: 'test-model', stopReason: 'endTurn' };
  });
  client.setRequestHandler('roots/list', async () => {
    asked.push('roots');
    return { roots: [{ uri: 'file:///work', name: 'work' }] };
  });
  return { asked };
}
