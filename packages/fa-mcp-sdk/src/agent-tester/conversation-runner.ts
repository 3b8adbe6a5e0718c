/**
 * One conversation turn of the Agent Tester: connect to this server as an MCP
 * client, offer its tools to the model, and loop model -> tool calls -> tool
 * results until the model answers or a limit ends it; return the structured
 * trace and the message history to continue from.
 */
import type { ChatMessage, ChatModel } from './chat-types.js';
import { appCallOf, createViewReader } from './app-calls.js';
import { anySignal, deadline, DeadlineReached } from './deadline.js';
import { ModelEndpointError } from './errors.js';
import { connectToSelf, type SelfConnection, type SelfConnectionEra } from './mcp-connection.js';
import { readServerContext, type ServerContext } from './server-context.js';
import { invokeTool } from './tool-invoker.js';
import type { AgentStopReason, AgentTrace } from './trace-types.js';

export interface ConversationSettings {
  /** Most model requests for this user message. */
  maxTurns: number;
  /** Time limit of the whole turn, in ms. */
  conversationTimeoutMs: number;
  /** System message; empty: the built-in one. */
  systemPrompt: string;
}

export interface RunConversationInput {
  /** The server's own MCP endpoint (loopback). */
  mcpUrl: string;
  /** The caller's credentials for that endpoint. */
  headers?: Record<string, string>;
  era?: SelfConnectionEra;
  model: ChatModel;
  settings: ConversationSettings;
  prompt: string;
  /** Earlier messages of the session, without the system message. */
  history?: ChatMessage[];
  /** Aborts the conversation (the caller went away). */
  signal?: AbortSignal;
}

export interface ConversationOutcome {
  trace: AgentTrace;
  /** Everything but the system message, to continue the session from. */
  history: ChatMessage[];
}

const NOT_RUN = 'Not run: the conversation reached its maxTurns limit before this call.';

function stopOf(err: unknown, signal: AbortSignal): { reason: AgentStopReason; error: NonNullable<AgentTrace['error']> } {
  const message = (err as Error)?.message ?? String(err);
  if (err instanceof ModelEndpointError) {
    const reason: AgentStopReason = err.kind === 'timeout' ? 'timeout' : err.kind === 'aborted' ? 'aborted' : 'modelError';
    return { reason, error: { message, kind: err.kind, ...(err.status !== undefined ? { status: err.status } : {}) } };
  }
  if (signal.aborted) return { reason: signal.reason instanceof DeadlineReached ? 'timeout' : 'aborted', error: { message: abortText(signal) } };
  return { reason: 'serverError', error: { message: `MCP connection to this server failed: ${message}`, kind: 'server' } };
}

function abortText(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof DeadlineReached ? `The conversation ran out of time: ${reason.message}` : 'The conversation was cancelled';
}

export async function runAgentConversation(input: RunConversationInput): Promise<ConversationOutcome> {
  const { settings, model } = input;
  const startedAt = new Date();
  const t0 = performance.now();
  const limit = deadline(settings.conversationTimeoutMs, 'agentTester.limits.conversationTimeoutMs');
  const linked = anySignal([input.signal, limit.signal]);
  const signal = linked.signal;
  const user: ChatMessage = { role: 'user', content: input.prompt };
  const trace: AgentTrace = {
    prompt: input.prompt,
    model: model.model,
    stopReason: 'answer',
    finalAnswer: null,
    messages: [...(input.history ?? []), user],
    toolCalls: [],
    appCalls: [],
    modelCalls: [],
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0, unreported: 0 },
    startedAt: startedAt.toISOString(),
    durationMs: 0,
    server: { tools: [], prompts: [], resources: [] },
  };
  const stop = (reason: AgentStopReason, error?: AgentTrace['error']) => {
    trace.stopReason = reason;
    if (error) trace.error = error;
  };

  let connection: SelfConnection | undefined;
  try {
    let context: ServerContext;
    try {
      connection = await connectToSelf({ url: input.mcpUrl, era: input.era ?? '2025', ...(input.headers ? { headers: input.headers } : {}) });
      context = await readServerContext(connection.client, settings.systemPrompt, signal);
    } catch (err) {
      const s = stopOf(err, signal);
      stop(s.reason, s.error);
      return finish();
    }
    trace.server = {
      ...(context.name ? { name: context.name } : {}),
      ...(context.version ? { version: context.version } : {}),
      ...(context.protocolVersion ? { protocolVersion: context.protocolVersion } : {}),
      tools: context.functions.tools.map((t) => context.functions.mcpName(t.function.name) as string),
      prompts: context.prompts.map((p) => p.name),
      resources: context.resources.map((r) => r.uri),
    };
    const messages = (trace.messages = [context.system, ...trace.messages]);
    const readView = createViewReader(connection.client, signal);

    for (let turn = 1; ; turn++) {
      const began = performance.now();
      let answer;
      try {
        answer = await model.complete({ messages, tools: context.functions.tools, tool_choice: 'auto' }, signal);
      } catch (err) {
        const s = stopOf(err, signal);
        stop(s.reason, s.error);
        break;
      }
      const calls = answer.message.tool_calls;
      const usage = answer.usage;
      trace.modelCalls.push({
        turn,
        durationMs: Math.round(performance.now() - began),
        finishReason: answer.finishReason,
        toolCalls: calls.length,
        ...(usage ? { usage: { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens, totalTokens: usage.total_tokens } } : {}),
      });
      if (usage && usage.total_tokens !== undefined) {
        trace.usage.promptTokens += usage.prompt_tokens ?? 0;
        trace.usage.completionTokens += usage.completion_tokens ?? 0;
        trace.usage.totalTokens += usage.total_tokens;
      } else trace.usage.unreported++;
      messages.push({ role: 'assistant', content: answer.message.content, ...(calls.length ? { tool_calls: calls } : {}) });

      if (calls.length === 0) {
        const text = answer.message.content ?? '';
        if (text.trim() === '') stop('modelError', { message: 'The model answered with neither text nor tool calls', kind: 'malformed' });
        else trace.finalAnswer = text;
        break;
      }
      if (turn >= settings.maxTurns) {
        // The history stays valid for the next message: every tool call gets an answer.
        for (const call of calls) messages.push({ role: 'tool', tool_call_id: call.id, content: NOT_RUN });
        stop('maxTurns', { message: `The model still asked for tools after ${settings.maxTurns} requests (agentTester.limits.maxTurns)` });
        break;
      }
      for (const request of calls) {
        const remaining = settings.conversationTimeoutMs - (performance.now() - t0);
        const done = await invokeTool({ client: connection.client, functions: context.functions, request, turn, signal, timeoutMs: remaining });
        trace.toolCalls.push(done.call);
        messages.push({ role: 'tool', tool_call_id: request.id, content: done.text });
        const app = await appCallOf(done.call, context.tools.get(done.call.name), readView);
        if (app) trace.appCalls.push(app);
      }
      if (signal.aborted) {
        stop(signal.reason instanceof DeadlineReached ? 'timeout' : 'aborted', { message: abortText(signal) });
        break;
      }
    }
    return finish();
  } finally {
    limit.clear();
    linked.dispose();
    await connection?.close();
  }

  function finish(): ConversationOutcome {
    trace.durationMs = Math.round(performance.now() - t0);
    const history = trace.messages.filter((m) => m.role !== 'system');
    return { trace, history };
  }
}
