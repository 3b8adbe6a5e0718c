/**
 * The structured trace of one Agent Tester conversation: what the headless
 * API and `fa-mcp agent-test` return, and what the page renders.
 */
import type { ChatMessage } from './chat-types.js';
import type { ModelErrorKind } from './errors.js';

/**
 * Why the conversation ended. answer: the model answered without asking for tools;
 * maxTurns: `agentTester.limits.maxTurns` model requests were used; timeout: a model
 * request or the whole conversation ran out of time; modelError: the model endpoint
 * failed or answered nothing usable; serverError: the MCP connection to this server
 * failed; aborted: the caller went away.
 */
export type AgentStopReason = 'answer' | 'maxTurns' | 'timeout' | 'modelError' | 'serverError' | 'aborted';

/** A CallToolResult as the server sent it (content, structuredContent, isError, _meta). */
export type AgentToolResult = Record<string, unknown>;

export interface AgentToolCall {
  /** The id the model gave the call. */
  id: string;
  /** The model request (1-based) that asked for it. */
  turn: number;
  /** The MCP tool name. */
  name: string;
  /** The arguments as parsed from the model's JSON (the raw text when it was not JSON). */
  arguments: unknown;
  /** The tool result; absent when the call failed before one came back. */
  result?: AgentToolResult;
  /** True for a result with `isError: true` and for calls that failed. */
  isError: boolean;
  durationMs: number;
  /** Why the call failed: unknown tool, arguments not JSON, a protocol error (-32602 …), a timeout. */
  error?: string;
}

/** The view a tool with an MCP Apps view renders, read from its `ui://` resource. */
export interface AgentAppView {
  uri: string;
  mimeType?: string;
  /** The view document as the server serves it. */
  html: string;
  /** `_meta` of the resource content (`ui.csp`, `ui.permissions`, `ui.prefersBorder`). */
  meta?: Record<string, unknown>;
  /** The Content-Security-Policy the Agent Tester page applies to the view (from `_meta.ui.csp`). */
  csp: string;
}

export interface AgentAppCall {
  toolCallId: string;
  toolName: string;
  resourceUri: string;
  arguments: unknown;
  result?: AgentToolResult;
  isError: boolean;
  view?: AgentAppView;
  /** Why the view could not be read. */
  viewError?: string;
}

export interface AgentModelCall {
  turn: number;
  durationMs: number;
  finishReason: string | null;
  toolCalls: number;
  usage?: { promptTokens?: number; completionTokens?: number; totalTokens?: number };
}

export interface AgentTokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Model answers that reported no usage (their tokens are not counted). */
  unreported: number;
}

export interface AgentTrace {
  prompt: string;
  /** The model name of the configuration. */
  model: string;
  stopReason: AgentStopReason;
  /** The model's last text answer; null when it gave none. */
  finalAnswer: string | null;
  /** What went wrong, for every stop reason except answer and maxTurns. */
  error?: { message: string; kind?: ModelErrorKind | 'server'; status?: number };
  /** The whole conversation as sent to the model: system, earlier turns of the session, this turn. */
  messages: ChatMessage[];
  toolCalls: AgentToolCall[];
  appCalls: AgentAppCall[];
  modelCalls: AgentModelCall[];
  usage: AgentTokenUsage;
  startedAt: string;
  durationMs: number;
  /** What the model was offered. */
  server: { name?: string; version?: string; protocolVersion?: string; tools: string[]; prompts: string[]; resources: string[] };
}
