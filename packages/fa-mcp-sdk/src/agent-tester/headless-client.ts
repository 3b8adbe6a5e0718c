/**
 * A client of the headless API: POST <tester>/api/chat/test and return the
 * trace. For CI jobs and tests of a running server (and `fa-mcp agent-test
 * --url`).
 */
import { AgentTesterRequestError } from './errors.js';
import type { AgentTrace } from './trace-types.js';

export interface HeadlessTestOptions {
  /** The Agent Tester's URL, e.g. `http://127.0.0.1:3000/agent-tester`. */
  testerUrl: string;
  prompt: string;
  /** Sent as `Authorization: Bearer <token>` when the server has auth on. */
  token?: string;
  /** Lower than the server's `agentTester.limits.maxTurns` for this run. */
  maxTurns?: number;
  systemPrompt?: string;
  fetch?: typeof fetch;
}

function isTrace(value: unknown): value is AgentTrace {
  const v = value as Partial<AgentTrace> | null;
  return !!v && typeof v === 'object' && typeof v.stopReason === 'string' && Array.isArray(v.toolCalls) && Array.isArray(v.messages);
}

/** Runs one conversation; throws AgentTesterRequestError (with the HTTP status) when the API refuses or fails. */
export async function runHeadlessTest(options: HeadlessTestOptions): Promise<AgentTrace> {
  const doFetch = options.fetch ?? fetch;
  const url = `${options.testerUrl.replace(/\/+$/, '')}/api/chat/test`;
  const body = { prompt: options.prompt, ...(options.maxTurns !== undefined ? { maxTurns: options.maxTurns } : {}), ...(options.systemPrompt !== undefined ? { systemPrompt: options.systemPrompt } : {}) };
  let res: Response;
  try {
    res = await doFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
      body: JSON.stringify(body),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
    throw new AgentTesterRequestError(502, 'unreachable', `Cannot reach ${url}: ${cause}`);
  }
  const text = await res.text();
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = undefined;
  }
  if (!res.ok) {
    const d = data as { message?: unknown; error?: unknown; error_description?: unknown } | undefined;
    const message = typeof d?.message === 'string' ? d.message : typeof d?.error_description === 'string' ? d.error_description : text.slice(0, 200) || res.statusText;
    throw new AgentTesterRequestError(res.status, typeof d?.error === 'string' ? d.error : 'http_error', `${url} answered HTTP ${res.status}: ${message}`);
  }
  if (!isTrace(data)) throw new AgentTesterRequestError(502, 'not_a_trace', `${url} answered 200 without a trace (is this an Agent Tester URL?)`);
  return data;
}
