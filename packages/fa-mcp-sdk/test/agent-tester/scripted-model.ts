/**
 * A loopback server that speaks the Chat Completions protocol and answers from a
 * script: each POST /v1/chat/completions takes the next step, a function of the
 * request (so a step can read the tool results the client sent back). It records
 * every request with its headers. No real model is involved anywhere.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequestBody {
  model: string;
  messages: Array<{ role: string; content: string | null; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>; tool_call_id?: string }>;
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters: Record<string, unknown> } }>;
  max_tokens?: number;
}

export interface StepReply {
  status?: number;
  /** JSON body (default: a Chat Completions result built by the helpers below). */
  body?: unknown;
  /** A raw body instead of JSON. */
  raw?: string;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Answer only once this settles: the model stays busy exactly as long as the test needs (a never-settling one never answers). */
  release?: Promise<unknown>;
}

export type Step = (req: ChatRequestBody) => StepReply;

export interface ScriptedModel {
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  requests: Array<{ body: ChatRequestBody; headers: IncomingHttpHeaders }>;
  /** Replaces the remaining script. */
  script(steps: Step[]): void;
  close(): Promise<void>;
}

/** A Chat Completions result. */
export function completion(message: { content?: string | null; tool_calls?: Array<{ name: string; arguments: unknown }> }, usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }): StepReply {
  const calls = message.tool_calls?.map((c) => ({ id: `call_${randomUUID().slice(0, 8)}`, type: 'function', function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) } }));
  return {
    body: {
      id: `chatcmpl-${randomUUID().slice(0, 8)}`,
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: message.content ?? null, ...(calls ? { tool_calls: calls } : {}) }, finish_reason: calls ? 'tool_calls' : 'stop' }],
      usage,
    },
  };
}

/** Step: ask for one tool call. */
export const askTool = (name: string, args: unknown): Step => () => completion({ tool_calls: [{ name, arguments: args }] });

/** Step: answer with the text of the last tool message the client sent, after `prefix`. */
export const answerFromToolResult = (prefix = 'The tool said: '): Step => (req) => {
  const tool = [...req.messages].reverse().find((m) => m.role === 'tool');
  return completion({ content: `${prefix}${tool?.content ?? '(no tool result)'}` });
};

export const answer = (content: string): Step => () => completion({ content });

/** A step that answers `content` when the test calls `release()`; `reached` resolves once the request arrived. */
export function heldAnswer(content: string): { step: Step; reached: Promise<void>; release: () => void } {
  let release!: () => void;
  let reached!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const arrived = new Promise<void>((resolve) => (reached = resolve));
  return {
    step: () => {
      reached();
      return { ...completion({ content }), release: gate };
    },
    reached: arrived,
    release,
  };
}

/** Step: a model that never answers (until the test closes it). */
export const neverAnswers: Step = () => ({ ...completion({ content: 'never sent' }), release: new Promise(() => undefined) });

export async function startScriptedModel(steps: Step[] = []): Promise<ScriptedModel> {
  let queue = [...steps];
  const requests: ScriptedModel['requests'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return void res.writeHead(404).end('not found');
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequestBody;
      requests.push({ body, headers: req.headers });
      const step = queue.shift();
      const reply: StepReply = step ? step(body) : { status: 500, body: { error: { message: 'the script has no more steps' } } };
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
        res.end(reply.raw ?? JSON.stringify(reply.body ?? {}));
      };
      if (reply.release) void reply.release.then(send, send);
      else if (reply.delayMs) setTimeout(send, reply.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (next) => void (queue = [...next]),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (bound and released). */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
