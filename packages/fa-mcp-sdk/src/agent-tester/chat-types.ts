/**
 * The part of the OpenAI Chat Completions wire format the Agent Tester speaks:
 * messages with tool calls, function tools, and the response's choices and usage.
 */

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ChatFunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools?: ChatFunctionTool[];
  tool_choice?: 'auto';
  max_tokens?: number;
}

export interface ChatUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

/** One answer of the model, already checked for shape. */
export interface ChatResponse {
  message: { content: string | null; tool_calls: ChatToolCall[] };
  finishReason: string | null;
  usage?: ChatUsage;
}

/** Anything that answers a Chat Completions request (the HTTP client, or a fake in tests). */
export interface ChatModel {
  /** The model name, for traces. */
  readonly model: string;
  complete(request: Omit<ChatRequest, 'model'>, signal?: AbortSignal): Promise<ChatResponse>;
}
