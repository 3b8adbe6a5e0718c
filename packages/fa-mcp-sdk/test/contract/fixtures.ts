import { formatToolResult, TimeoutError, ToolExecutionError, type ITool, type McpServerData } from '../../src/index.js';

export interface CallLog {
  calls: string[];
  aborted: string[];
}

export function contractServer(log: CallLog): McpServerData {
  const tools: ITool[] = [
    {
      name: 'add',
      title: 'Add two numbers',
      description: 'Adds a and b.',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
        additionalProperties: false,
      },
      outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
      annotations: { readOnlyHint: true },
      _meta: { 'example.com/cost': 1 },
      handler: ({ arguments: a }) => {
        log.calls.push('add');
        return formatToolResult({ sum: (a.a as number) + (a.b as number) });
      },
    },
    {
      name: 'broken_output',
      description: 'Returns output that violates its own schema.',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
      handler: () => formatToolResult({ n: 'not a number' }),
    },
    {
      name: 'sleepy',
      description: 'Sleeps until aborted.',
      inputSchema: { type: 'object', properties: { ms: { type: 'integer' } } },
      timeoutMs: 300,
      handler: ({ arguments: a, signal }) =>
        new Promise((resolve, reject) => {
          log.calls.push('sleepy');
          const t = setTimeout(() => resolve(formatToolResult('woke up')), (a.ms as number | undefined) ?? 5000);
          signal.addEventListener('abort', () => {
            clearTimeout(t);
            log.aborted.push(signal.reason instanceof TimeoutError ? 'sleepy' : 'sleepy:cancelled');
            reject(signal.reason);
          });
        }),
    },
    {
      name: 'big',
      description: 'Returns a large text.',
      inputSchema: { type: 'object' },
      handler: () => formatToolResult('é'.repeat(8000)),
    },
    {
      name: 'count',
      description: 'Reports progress 1..5.',
      inputSchema: { type: 'object' },
      handler: async ({ sendProgress }) => {
        for (let i = 1; i <= 5; i++) {
          sendProgress(i, 5, `step ${i}`);
          sendProgress(i - 1, 5); // a smaller value is dropped
        }
        return formatToolResult('counted');
      },
    },
    {
      name: 'fails',
      description: 'Fails in its own work.',
      inputSchema: { type: 'object' },
      handler: () => {
        throw new ToolExecutionError('the upstream said no');
      },
    },
    {
      name: 'crashes',
      description: 'Throws an unexpected error.',
      inputSchema: { type: 'object' },
      handler: () => {
        throw new Error('secret detail at /srv/app/file.ts:12');
      },
    },
    {
      name: 'old_tool',
      description: 'Does the old thing.',
      inputSchema: { type: 'object' },
      deprecated: { until: '2099-01-01', replacedBy: 'add' },
      handler: () => formatToolResult('old'),
    },
    { name: 'hidden_tool', description: 'Excluded by configuration.', inputSchema: { type: 'object' }, handler: () => formatToolResult('x') },
  ];
  return {
    tools,
    prompts: [
      {
        name: 'greet',
        description: 'Greets someone.',
        arguments: [{ name: 'who', required: true, complete: ['alice', 'albert', 'bob'] }],
        content: (args) => `Hello ${args.who}`,
      },
    ],
    resources: [{ uri: 'test://doc', name: 'doc', mimeType: 'text/plain', content: 'the doc' }],
    resourceTemplates: [{ uriTemplate: 'test://item/{id}', name: 'item', read: (_uri, v) => `item ${v.id}` }],
    instructions: {
      opening: 'Start with add.',
      index: [
        { tools: ['add'], text: 'sums: add' },
        { tools: ['hidden_tool'], text: 'secrets: hidden_tool' },
      ],
      close: 'Answer in English.',
    },
    agentBrief: 'A test server.',
  };
}

export const contractConfig = {
  mcp: {
    excludeTools: ['hidden_tool'],
    pagination: { pageSize: 3 },
    limits: { maxToolResultBytes: 4096, toolTimeoutMs: 5000 },
    progress: { throttleMs: 0 },
  },
};
