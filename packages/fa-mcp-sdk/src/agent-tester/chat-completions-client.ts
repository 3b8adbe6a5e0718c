/**
 * A Chat Completions client on plain fetch: POST <baseUrl>/chat/completions
 * with function tools, a time limit per request, and one error type that says
 * what went wrong (endpoint down, non-2xx, malformed answer, timeout). The API
 * key goes into the Authorization header and nowhere else; error texts have it
 * removed.
 */
import type { ChatModel, ChatRequest, ChatResponse, ChatToolCall, ChatUsage } from './chat-types.js';
import { anySignal, deadline, DeadlineReached } from './deadline.js';
import { ModelEndpointError, redact } from './errors.js';

export interface ChatCompletionsClientOptions {
  /** e.g. `https://api.openai.com/v1`; requests go to `<baseUrl>/chat/completions`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Time limit of one request, in ms. */
  timeoutMs: number;
  /** `max_tokens` of every request (0 or undefined: not sent). */
  maxTokens?: number;
  /** For tests and proxies; default the global fetch. */
  fetch?: typeof fetch;
}

const BODY_EXCERPT = 500;

function endpointOf(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
}

function causeText(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message ?? String(err);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseToolCalls(raw: unknown): ChatToolCall[] | undefined {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) return undefined;
  const calls: ChatToolCall[] = [];
  for (const item of raw) {
    if (!isObject(item) || !isObject(item.function) || typeof item.function.name !== 'string') return undefined;
    const args = item.function.arguments;
    calls.push({
      id: typeof item.id === 'string' && item.id !== '' ? item.id : `call_${calls.length + 1}`,
      type: 'function',
      function: { name: item.function.name, arguments: typeof args === 'string' ? args : args === undefined ? '' : JSON.stringify(args) },
    });
  }
  return calls;
}

function parseUsage(raw: unknown): ChatUsage | undefined {
  if (!isObject(raw)) return undefined;
  const usage: ChatUsage = {};
  for (const key of ['prompt_tokens', 'completion_tokens', 'total_tokens'] as const) {
    if (typeof raw[key] === 'number' && Number.isFinite(raw[key])) usage[key] = raw[key];
  }
  return usage;
}

/** Checks the shape of a Chat Completions answer; throws `malformed` with what is missing. */
export function parseChatResponse(body: unknown): ChatResponse {
  const malformed = (what: string) => new ModelEndpointError('malformed', `The model endpoint answered 2xx but not a Chat Completions result: ${what}`);
  if (!isObject(body)) throw malformed('the body is not a JSON object');
  if (!Array.isArray(body.choices) || body.choices.length === 0) throw malformed('"choices" is missing or empty');
  const choice: unknown = body.choices[0];
  if (!isObject(choice) || !isObject(choice.message)) throw malformed('"choices[0].message" is missing');
  const content = choice.message.content;
  if (content !== undefined && content !== null && typeof content !== 'string') throw malformed('"message.content" is not a string');
  const toolCalls = parseToolCalls(choice.message.tool_calls);
  if (!toolCalls) throw malformed('"message.tool_calls" is not a list of function calls');
  const usage = parseUsage(body.usage);
  return {
    message: { content: typeof content === 'string' ? content : null, tool_calls: toolCalls },
    finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
    ...(usage ? { usage } : {}),
  };
}

export function createChatCompletionsClient(options: ChatCompletionsClientOptions): ChatModel {
  const doFetch = options.fetch ?? fetch;
  const secrets = options.apiKey ? [options.apiKey] : [];
  const url = endpointOf(options.baseUrl);

  return {
    model: options.model,
    async complete(request, signal) {
      if (!options.baseUrl) throw new ModelEndpointError('not_configured', 'No model endpoint is configured: set agentTester.model.baseUrl (AGENT_TESTER_BASE_URL)');
      const body: ChatRequest = { model: options.model, ...request };
      if (!body.tools || body.tools.length === 0) {
        delete body.tools;
        delete body.tool_choice;
      }
      if (options.maxTokens) body.max_tokens = options.maxTokens;
      const limit = deadline(options.timeoutMs, 'agentTester.model.timeoutMs');
      const linked = anySignal([signal, limit.signal]);
      try {
        let res: Response;
        try {
          res = await doFetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
            body: JSON.stringify(body),
            signal: linked.signal,
          });
        } catch (err) {
          throw failure(err, linked.signal, url, options.timeoutMs, secrets);
        }
        let text: string;
        try {
          text = await res.text();
        } catch (err) {
          throw failure(err, linked.signal, url, options.timeoutMs, secrets);
        }
        if (!res.ok) {
          const excerpt = redact(text.slice(0, BODY_EXCERPT), secrets).trim();
          throw new ModelEndpointError('http', `The model endpoint answered HTTP ${res.status}${excerpt ? `: ${excerpt}` : ''}`, res.status);
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          throw new ModelEndpointError('malformed', `The model endpoint answered HTTP ${res.status} with a body that is not JSON: ${redact(text.slice(0, 120), secrets)}`);
        }
        return parseChatResponse(parsed);
      } finally {
        limit.clear();
        linked.dispose();
      }
    },
  };
}

function failure(err: unknown, signal: AbortSignal, url: string, timeoutMs: number, secrets: string[]): ModelEndpointError {
  if (err instanceof ModelEndpointError) return err;
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    if (reason instanceof DeadlineReached) {
      const which = reason.limit === 'agentTester.model.timeoutMs' ? `within ${timeoutMs} ms (agentTester.model.timeoutMs)` : `before the ${reason.limit} (${reason.ms} ms) ran out`;
      return new ModelEndpointError('timeout', `The model endpoint did not answer ${which}`);
    }
    return new ModelEndpointError('aborted', 'The model request was cancelled');
  }
  return new ModelEndpointError('unreachable', `The model endpoint ${redact(url, secrets)} is unreachable: ${redact(causeText(err), secrets)}`);
}
