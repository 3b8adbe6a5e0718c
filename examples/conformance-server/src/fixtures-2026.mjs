// @ts-check
/**
 * The fixtures of the 2026-07-28 requirement scenarios of the conformance suite
 * (0.2.0-alpha.12): multi-round-trip input (input-required-result-*), the
 * server-stateless diagnostics and an x-mcp-header tool (SEP-2243). The
 * handlers use the same client API as on 2025-era sessions: client.elicit(),
 * sample() and listRoots() with the key the scenario expects.
 */
import { formatToolResult, textContent, formatContentResult } from 'fa-mcp-sdk';

/** @typedef {import('fa-mcp-sdk').ITool} ITool */
/** @typedef {import('fa-mcp-sdk').IPromptData} IPromptData */
/** @typedef {import('fa-mcp-sdk').JsonObject} JsonObject */
/** @typedef {{ notifyListChanged(kind: 'tools' | 'prompts' | 'resources'): Promise<void> }} Notifier */

/** @type {import('fa-mcp-sdk').IToolInputSchema} */
const NO_ARGS = { type: 'object', properties: {} };

/** @param {string} field @param {'string' | 'boolean'} type */
const formOf = (field, type = 'string') => ({ type: 'object', properties: { [field]: { type } }, required: [field] });

/** @param {JsonObject} reply @param {string} field */
const accepted = (reply, field) => (reply.action === 'accept' ? /** @type {JsonObject} */ (reply.content ?? {})[field] : undefined);

/** @param {JsonObject} sample */
const sampledText = (sample) => {
  const content = /** @type {{ type?: string, text?: string } | undefined} */ (sample.content);
  return content?.type === 'text' ? String(content.text) : JSON.stringify(content);
};

/** @param {JsonObject} roots */
const rootUris = (roots) => /** @type {Array<{ uri: string }>} */ (roots.roots ?? []).map((r) => r.uri).join(', ');

/** @param {string} text @param {number} maxTokens */
const ask = (text, maxTokens) => ({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens });

/**
 * The tools and prompts; `attach(handle)` hands them the started server, which
 * the list-change triggers notify through.
 * @returns {{ tools: ITool[], prompts: IPromptData[], attach(handle: Notifier): void }}
 */
export function modernFixtures() {
  /** @type {Notifier | undefined} */
  let server;
  const notifier = () => server;
  /** @type {ITool[]} */
  const tools = [
    {
      name: 'test_input_required_result_elicitation',
      description: 'Asks for a name (input request "user_name") and greets it',
      inputSchema: NO_ARGS,
      handler: async ({ client }) => {
        const reply = await client.elicit({ message: 'What is your name?', requestedSchema: formOf('name') }, { key: 'user_name' });
        return formatToolResult(`Hello, ${String(accepted(reply, 'name') ?? 'stranger')}!`);
      },
    },
    {
      name: 'test_input_required_result_sampling',
      description: 'Asks the client model a question (input request "capital_question")',
      inputSchema: NO_ARGS,
      handler: async ({ client }) => {
        const reply = await client.sample(ask('What is the capital of France?', 100), { key: 'capital_question' });
        return formatToolResult(`The model answered: ${sampledText(reply)}`);
      },
    },
    {
      name: 'test_input_required_result_list_roots',
      description: 'Asks the client for its roots (input request "client_roots")',
      inputSchema: NO_ARGS,
      handler: async ({ client }) => formatToolResult(`Client roots: ${rootUris(await client.listRoots({ key: 'client_roots' }))}`),
    },
    {
      name: 'test_input_required_result_request_state',
      description: 'Asks for a confirmation; the retry must carry the signed requestState',
      inputSchema: NO_ARGS,
      handler: async ({ client }) => {
        const reply = await client.elicit({ message: 'Please confirm', requestedSchema: formOf('ok', 'boolean') }, { key: 'confirm' });
        const verdict = client.resumed ? 'state-ok' : 'no requestState came back';
        return formatToolResult(`Confirmed: ${String(accepted(reply, 'ok'))} (${verdict})`);
      },
    },
    {
      name: 'test_input_required_result_multiple_inputs',
      description: 'Asks for a name, a sampled greeting and the roots in one round',
      inputSchema: NO_ARGS,
      handler: async ({ client }) => {
        const [who, greeting, roots] = await Promise.all([
          client.elicit({ message: 'What is your name?', requestedSchema: formOf('name') }, { key: 'user_name' }),
          client.sample(ask('Generate a greeting', 50), { key: 'greeting' }),
          client.listRoots({ key: 'client_roots' }),
        ]);
        return formatToolResult(`${sampledText(greeting)} ${String(accepted(who, 'name'))} (roots: ${rootUris(roots)})`);
      },
    },
    {
      name: 'test_input_required_result_multi_round',
      description: 'Asks for a name, then a favourite colour, in two rounds',
      inputSchema: NO_ARGS,
      handler: async ({ client }) => {
        const first = await client.elicit({ message: 'Step 1: What is your name?', requestedSchema: formOf('name') }, { key: 'step1' });
        const second = await client.elicit({ message: 'Step 2: What is your favorite color?', requestedSchema: formOf('color') }, { key: 'step2' });
        return formatToolResult(`${String(accepted(first, 'name'))} likes ${String(accepted(second, 'color'))}`);
      },
    },
    {
      name: 'test_input_required_result_tampered_state',
      description: 'Asks for a confirmation; a tampered requestState is refused with -32602',
      inputSchema: NO_ARGS,
      handler: async ({ client }) => {
        const reply = await client.elicit({ message: 'Please confirm', requestedSchema: formOf('ok', 'boolean') }, { key: 'confirm' });
        return formatToolResult(`Confirmed: ${String(accepted(reply, 'ok'))}`);
      },
    },
    {
      name: 'test_input_required_result_capabilities',
      description: 'Asks only with what the client declared: elicitation, else sampling, else roots',
      inputSchema: NO_ARGS,
      handler: async ({ client, clientCapabilities }) => {
        if (clientCapabilities.elicitation) {
          const reply = await client.elicit({ message: 'What is your name?', requestedSchema: formOf('name') }, { key: 'user_name' });
          return formatToolResult(`Hello, ${String(accepted(reply, 'name'))}!`);
        }
        if (clientCapabilities.sampling) return formatToolResult(sampledText(await client.sample(ask('Say hello', 20), { key: 'greeting' })));
        if (clientCapabilities.roots) return formatToolResult(rootUris(await client.listRoots({ key: 'client_roots' })));
        return formatToolResult('The client declared no capability to ask with');
      },
    },
    {
      name: 'test_missing_capability',
      description: 'Needs sampling: a client that did not declare it is refused with -32021',
      inputSchema: NO_ARGS,
      handler: async ({ client }) => formatToolResult(sampledText(await client.sample(ask('Hello', 10)))),
    },
    {
      name: 'test_streaming_elicitation',
      description: 'Asks for input in-band; the response stream carries no server-to-client request',
      inputSchema: NO_ARGS,
      handler: async ({ client }) => {
        await client.log('info', 'asking for a name');
        const reply = await client.elicit({ message: 'What is your name?', requestedSchema: formOf('name') });
        return formatToolResult(`Hello, ${String(accepted(reply, 'name'))}!`);
      },
    },
    {
      name: 'test_logging_tool',
      description: 'Logs at three levels (a request that names no log level gets none)',
      inputSchema: NO_ARGS,
      handler: async ({ client }) => {
        for (const level of /** @type {const} */ (['debug', 'info', 'warning'])) await client.log(level, `a ${level} message`);
        return formatContentResult([textContent('logged')]);
      },
    },
    {
      name: 'test_trigger_tool_change',
      description: 'Announces a change of the tool list (notifications/tools/list_changed)',
      inputSchema: NO_ARGS,
      handler: async () => {
        await notifier()?.notifyListChanged('tools');
        return formatToolResult('tools/list_changed sent');
      },
    },
    {
      name: 'test_trigger_prompt_change',
      description: 'Announces a change of the prompt list (notifications/prompts/list_changed)',
      inputSchema: NO_ARGS,
      handler: async () => {
        await notifier()?.notifyListChanged('prompts');
        return formatToolResult('prompts/list_changed sent');
      },
    },
    {
      name: 'test_header_param',
      description: 'Its region argument is mirrored into the Mcp-Param-Region header (SEP-2243)',
      inputSchema: {
        type: 'object',
        properties: { region: { type: 'string', description: 'A region name', 'x-mcp-header': 'Region' } },
        required: ['region'],
      },
      handler: ({ arguments: args, headers }) =>
        formatToolResult({ region: String(args.region), header: headers?.['mcp-param-region'] ?? null }),
    },
  ];

  /** @type {IPromptData[]} */
  const prompts = [
    {
      name: 'test_input_required_result_prompt',
      description: 'Asks what context to use (input request "user_context"), then renders',
      content: async (_args, ctx) => {
        if (!ctx.client) return 'No client channel';
        const reply = await ctx.client.elicit(
          { message: 'What context should the prompt use?', requestedSchema: formOf('context') },
          { key: 'user_context' },
        );
        return `Answer using this context: ${String(accepted(reply, 'context'))}`;
      },
    },
  ];
  return {
    tools,
    prompts,
    attach: (handle) => {
      server = handle;
    },
  };
}
