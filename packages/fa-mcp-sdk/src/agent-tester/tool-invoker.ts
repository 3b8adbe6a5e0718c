/**
 * Runs one tool call the model asked for through the MCP client and records
 * it: unknown function names and arguments that are not a JSON object are
 * answered to the model without calling the server; protocol errors (-32602 …)
 * and results with `isError` are recorded and handed back to the model, so the
 * conversation goes on.
 */
import type { Client } from '../protocol/sdk-client.js';
import type { ChatToolCall } from './chat-types.js';
import type { FunctionToolSet } from './function-tools.js';
import { toolFailureText, toolResultText } from './tool-result-text.js';
import type { AgentToolCall, AgentToolResult } from './trace-types.js';

export interface ToolInvocation {
  call: AgentToolCall;
  /** The content of the `role: "tool"` message for the model. */
  text: string;
}

function parseArguments(raw: string): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
  if (raw.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, message: 'the arguments are not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, message: 'the arguments are not a JSON object' };
  return { ok: true, value: value as Record<string, unknown> };
}

function errorMessage(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(err);
  return typeof e?.code === 'number' && !message.includes(String(e.code)) ? `${message} (code ${e.code})` : message;
}

export interface InvokeInput {
  client: Client;
  functions: FunctionToolSet;
  request: ChatToolCall;
  turn: number;
  signal: AbortSignal;
  /** Time left for the conversation, in ms (the call's client-side timeout). */
  timeoutMs: number;
}

export async function invokeTool(input: InvokeInput): Promise<ToolInvocation> {
  const { request, turn } = input;
  const started = performance.now();
  const name = input.functions.mcpName(request.function.name);
  const parsed = parseArguments(request.function.arguments);
  const base = { id: request.id, turn, name: name ?? request.function.name, arguments: parsed.ok ? parsed.value : request.function.arguments };
  const failed = (message: string): ToolInvocation => ({
    call: { ...base, isError: true, durationMs: Math.round(performance.now() - started), error: message },
    text: toolFailureText(message),
  });
  if (name === undefined) return failed(`unknown tool "${request.function.name}": this server has no such tool`);
  if (!parsed.ok) return failed(parsed.message);
  try {
    const result = (await input.client.callTool({ name, arguments: parsed.value }, { signal: input.signal, timeout: Math.max(1, input.timeoutMs) })) as AgentToolResult;
    const isError = result.isError === true;
    return { call: { ...base, result, isError, durationMs: Math.round(performance.now() - started) }, text: toolResultText(result) };
  } catch (err) {
    return failed(errorMessage(err));
  }
}
