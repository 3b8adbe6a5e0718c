/** Shared fixtures of the operations tests: a tool set with every outcome, and a /metrics reader. */
import { ForbiddenError, formatToolResult, ToolExecutionError, type ITool, type McpServerData, type PipelineStep } from '../../src/index.js';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function outcomeTools(started: string[] = []): ITool[] {
  return [
    {
      name: 'ok_tool',
      description: 'Echoes its text.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
      handler: ({ arguments: a }) => formatToolResult({ echoed: a.text }),
    },
    {
      name: 'fail_tool',
      description: 'Fails as a tool.',
      inputSchema: { type: 'object' },
      handler: () => {
        throw new ToolExecutionError('failed on purpose');
      },
    },
    {
      name: 'slow_tool',
      description: 'Waits for `ms` (honours cancellation).',
      inputSchema: { type: 'object', properties: { ms: { type: 'integer' } } },
      timeoutMs: 400,
      handler: async ({ arguments: a, signal }) => {
        started.push('slow_tool');
        await new Promise<void>((resolve, reject) => {
          const t = setTimeout(resolve, (a.ms as number | undefined) ?? 10);
          signal.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)), { once: true });
        });
        return formatToolResult('done');
      },
    },
    {
      name: 'hang_tool',
      description: 'Waits until the call is cancelled (a timeout far beyond any test), so a cancellation never races the clock.',
      inputSchema: { type: 'object' },
      timeoutMs: 120_000,
      handler: async ({ signal }) => {
        started.push('hang_tool');
        await new Promise<void>((_resolve, reject) => {
          if (signal.aborted) reject(signal.reason);
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
        return formatToolResult('never');
      },
    },
    {
      name: 'secret_tool',
      description: 'Refused by a consumer step.',
      inputSchema: { type: 'object' },
      handler: () => formatToolResult('never'),
    },
  ];
}

export const denySecret: PipelineStep = {
  name: 'deny-secret',
  methods: ['tools/call'],
  async run(op, next) {
    if (op.tool?.name === 'secret_tool') throw new ForbiddenError('not for you');
    return next();
  },
};

export function outcomeServer(started: string[] = []): McpServerData {
  return { serverInfo: { name: 'ops-test', version: '1.0.0' }, tools: outcomeTools(started), steps: [denySecret] };
}

/** The value of one sample line of the exposition text, or undefined when absent. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const found: Record<string, string> = {};
    for (const part of (m[3] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) found[part[1] as string] = part[2] as string;
    if (Object.entries(labels).every(([k, v]) => found[k] === v) && Object.keys(found).length === Object.keys(labels).length) return Number(m[4]);
  }
  return undefined;
}

export async function scrape(url: string, token?: string): Promise<{ status: number; text: string; contentType: string | null }> {
  const res = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  return { status: res.status, text: await res.text(), contentType: res.headers.get('content-type') };
}

export function metricsUrl(mcpUrl: string, path = '/metrics'): string {
  return new URL(path, mcpUrl).toString();
}
