/** `fa-mcp-sdk/agent-tester`: the Agent Tester's public API (FA-MCP-SDK-DOC/08-agent-tester-and-headless-api.md). */
export { runAgentConversation, type ConversationOutcome, type ConversationSettings, type RunConversationInput } from './conversation-runner.js';
export { createChatCompletionsClient, type ChatCompletionsClientOptions } from './chat-completions-client.js';
export type { ChatFunctionTool, ChatMessage, ChatModel, ChatRequest, ChatResponse, ChatToolCall, ChatUsage } from './chat-types.js';
export { AgentTesterRequestError, ModelEndpointError, type ModelErrorKind } from './errors.js';
export { runHeadlessTest, type HeadlessTestOptions } from './headless-client.js';
export { isAgentTesterEnabled } from './enabled.js';
export { summarizeTrace } from './trace-summary.js';
export type {
  AgentAppCall,
  AgentAppView,
  AgentModelCall,
  AgentStopReason,
  AgentTokenUsage,
  AgentToolCall,
  AgentToolResult,
  AgentTrace,
} from './trace-types.js';
export type { AgentTesterConfig } from '../config/sections/agent-tester.js';
