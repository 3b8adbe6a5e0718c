/**
 * The checks every client row runs against examples/demo, written once over a
 * small client surface that each real client is adapted to.
 */
import type { Cell, Feature } from './matrix-types.js';

/** What a row's client can do; a missing method is a feature the client does not offer. */
export interface ClientSurface {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  listPrompts(): Promise<{ prompts: Array<{ name: string }> }>;
  listResources(): Promise<{ resources: Array<{ uri: string }> }>;
  listResourceTemplates(): Promise<{ resourceTemplates: Array<{ uriTemplate: string }> }>;
  callTool(name: string, args: Record<string, unknown>, opts?: { onprogress?: (p: { progress: number; total?: number }) => void; signal?: AbortSignal }): Promise<ToolResult>;
  getPrompt(name: string, args: Record<string, string>): Promise<{ messages: unknown[] }>;
  readResource(uri: string): Promise<{ contents: Array<{ text?: string }> }>;
  complete?(promptName: string, argument: string, value: string): Promise<string[]>;
  /** Progress and cancellation on a call: false when the client has no such option. */
  callOptions?: boolean;
  /** The client answers elicitation/create (with the answer "green"). */
  elicitation?: boolean;
}

export interface ToolResult {
  isError?: boolean;
  content?: unknown;
  structuredContent?: unknown;
}

/** What the demo answers to `amount: 'ten'`. */
const BAD_ARGUMENT_TEXT = 'Invalid arguments for tool convert_currency: amount must be number';

function must(ok: unknown, what: string): void {
  if (!ok) throw new Error(what);
}

type Check = (c: ClientSurface) => Promise<Cell | void>;

export const DEMO_CHECKS: Array<[Feature, Check]> = [
  ['list tools', async (c) => must((await c.listTools()).tools.some((t) => t.name === 'get_time'), 'get_time missing')],
  ['list prompts', async (c) => must((await c.listPrompts()).prompts.some((p) => p.name === 'explain_topic'), 'explain_topic missing')],
  ['list resources', async (c) => must((await c.listResources()).resources.some((r) => r.uri === 'demo://about'), 'demo://about missing')],
  ['list templates', async (c) => must((await c.listResourceTemplates()).resourceTemplates.some((t) => t.uriTemplate === 'demo://rates/{currency}'), 'template missing')],
  [
    'call tool',
    async (c) => {
      const r = await c.callTool('get_time', { timeZone: 'UTC' });
      must(!r.isError && (r.structuredContent as { timeZone?: string } | undefined)?.timeZone === 'UTC', `unexpected result ${JSON.stringify(r).slice(0, 200)}`);
    },
  ],
  [
    'bad argument',
    // Invalid arguments answer a tool result with isError whose text names the field (mcp.validation.argumentErrors: result),
    // so every client that shows a tool result shows the model what to correct.
    async (c) => {
      const r = await c.callTool('convert_currency', { amount: 'ten', from: 'EUR', to: 'USD' });
      must(r.isError === true && JSON.stringify(r.content).includes(BAD_ARGUMENT_TEXT), `not a readable argument error: ${JSON.stringify(r).slice(0, 200)}`);
    },
  ],
  [
    'tool error with outputSchema',
    async (c) => {
      const r = await c.callTool('get_time', { timeZone: 'Mars/Olympus' });
      must(r.isError === true && JSON.stringify(r.content).includes('Unknown time zone'), `not a readable tool error: ${JSON.stringify(r).slice(0, 200)}`);
    },
  ],
  ['get prompt', async (c) => must(JSON.stringify((await c.getPrompt('explain_topic', { topic: 'mcp tools' })).messages).includes('mcp tools'), 'prompt text missing')],
  ['read resource', async (c) => must((await c.readResource('demo://about')).contents[0]?.text, 'no text')],
  [
    'complete',
    async (c) => {
      if (!c.complete) return { state: 'not supported', why: 'no completion command' };
      must((await c.complete('explain_topic', 'topic', 'mcp')).includes('mcp tools'), 'no completion values');
    },
  ],
  [
    'progress',
    async (c) => {
      if (!c.callOptions) return { state: 'not supported', why: 'no progress option' };
      const seen: number[] = [];
      // Steps far apart from each other and from the demo's 50 ms progress throttle, so a busy machine
      // cannot coalesce them: a 30 ms step let notifications 1 and 2 merge under load, and the final one
      // may be lost by SDK clients (page 07) — only one was seen then.
      await c.callTool('slow_report', { steps: 3, stepMs: 250 }, { onprogress: (p) => seen.push(p.progress) });
      // The final notification may be lost by SDK clients (page 07): at least the earlier ones arrive in order.
      must(seen.length >= 2 && seen.every((v, i) => i === 0 || v > (seen[i - 1] as number)), `progress seen: ${JSON.stringify(seen)}`);
    },
  ],
  [
    'cancellation',
    async (c) => {
      if (!c.callOptions) return { state: 'not supported', why: 'no cancel option' };
      const controller = new AbortController();
      const started = Date.now();
      const call = c.callTool('slow_report', { steps: 50, stepMs: 100 }, { signal: controller.signal, onprogress: () => controller.abort('matrix cancels') });
      const outcome = await call.then(
        () => 'answered',
        () => 'rejected',
      );
      must(outcome === 'rejected' && Date.now() - started < 4_000, `cancel: ${outcome} after ${Date.now() - started} ms`);
    },
  ],
  [
    'elicitation',
    async (c) => {
      if (!c.elicitation) return { state: 'not supported', why: 'the client cannot answer elicitation/create' };
      const r = await c.callTool('ask_user', { question: 'Favourite colour?' });
      must((r.structuredContent as { answer?: string } | undefined)?.answer === 'green', `answer: ${JSON.stringify(r).slice(0, 200)}`);
    },
  ],
];

/** Runs every check (or those in `only`); a throw is `fails` with the message. */
export async function runDemoChecks(c: ClientSurface, only?: readonly Feature[]): Promise<Partial<Record<Feature, Cell>>> {
  const cells: Partial<Record<Feature, Cell>> = {};
  for (const [feature, check] of DEMO_CHECKS) {
    if (only && !only.includes(feature)) continue;
    try {
      cells[feature] = (await check(c)) ?? { state: 'works' };
    } catch (err) {
      cells[feature] = { state: 'fails', why: String(err instanceof Error ? err.message : err).split('\n')[0]!.slice(0, 160) };
    }
  }
  return cells;
}
