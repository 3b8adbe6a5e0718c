/**
 * The `agentTester` section: the development page and headless API that let a
 * model (any OpenAI-compatible Chat Completions endpoint) use this server's
 * tools through a real MCP connection. The code lives in `src/agent-tester/`.
 */
import type { SchemaNode } from '../schema-node.js';

const integer = (def: number, minimum: number, description: string, env: string[], maximum?: number): SchemaNode => ({
  type: 'integer',
  minimum,
  ...(maximum !== undefined ? { maximum } : {}),
  default: def,
  description,
  'x-env': env,
});

const modelNode: SchemaNode = {
  type: 'object',
  description: 'The model endpoint: an OpenAI-compatible Chat Completions API with tool calling. Read on the server only; never sent to the browser.',
  additionalProperties: false,
  properties: {
    baseUrl: {
      type: 'string',
      pattern: '^$|^https?://',
      default: '',
      description: 'Base URL of the API; requests go to <baseUrl>/chat/completions (e.g. https://api.openai.com/v1, http://127.0.0.1:11434/v1). Empty: chat answers 503.',
      'x-env': ['AGENT_TESTER_BASE_URL'],
    },
    model: {
      type: 'string',
      default: '',
      description: 'The model name sent in every request (e.g. gpt-4o-mini); required by most endpoints.',
      'x-env': ['AGENT_TESTER_MODEL'],
    },
    apiKey: {
      type: 'string',
      default: '',
      description: 'Sent as "Authorization: Bearer <apiKey>" to the model endpoint only (empty: no header). Never in pages, API answers or logs.',
      'x-env': ['AGENT_TESTER_API_KEY'],
      'x-secret': true,
    },
    timeoutMs: integer(60_000, 100, 'Time limit of one model request, in ms; a request that takes longer ends the conversation with stopReason "timeout".', [
      'AGENT_TESTER_MODEL_TIMEOUT_MS',
    ]),
    maxTokens: integer(0, 0, 'max_tokens sent with every model request (0: not sent, the endpoint decides).', ['AGENT_TESTER_MAX_TOKENS']),
  },
};

const limitsNode: SchemaNode = {
  type: 'object',
  description: 'Bounds of one conversation and of the sessions kept in memory.',
  additionalProperties: false,
  properties: {
    maxTurns: integer(8, 1, 'Most model requests per user message (each tool-call round is one); then stopReason "maxTurns".', ['AGENT_TESTER_MAX_TURNS'], 100),
    conversationTimeoutMs: integer(300_000, 1000, 'Time limit of one user message from the first model request to the answer, tool calls included, in ms.', [
      'AGENT_TESTER_CONVERSATION_TIMEOUT_MS',
    ]),
    maxSessions: integer(20, 1, 'Most chat sessions kept (one per user); the least recently used one is dropped for a new one.', ['AGENT_TESTER_MAX_SESSIONS'], 10_000),
    maxConcurrentConversations: integer(4, 1, 'Conversations running at once (chat and headless together); one more is answered 429 with Retry-After.', ['AGENT_TESTER_MAX_CONCURRENT_CONVERSATIONS'], 1000),
    sessionMaxAgeMs: integer(3_600_000, 1000, 'A session is dropped this long after it was created, in ms.', ['AGENT_TESTER_SESSION_MAX_AGE_MS']),
    sessionIdleMs: integer(900_000, 1000, 'A session is dropped after this long without a request, in ms.', ['AGENT_TESTER_SESSION_IDLE_MS']),
    maxPromptChars: integer(32_000, 1, 'Longest user message accepted, in characters; longer ones are answered 400.', ['AGENT_TESTER_MAX_PROMPT_CHARS']),
  },
};

export const agentTesterSection: SchemaNode = {
  type: 'object',
  description: 'Agent Tester: a chat page and a headless API (development tool) where a model uses this server through a real MCP connection.',
  additionalProperties: false,
  properties: {
    enabled: {
      type: ['boolean', 'string'],
      enum: ['auto', true, false],
      default: 'auto',
      description: 'auto: on only when NODE_ENV is development (the default when NODE_ENV is unset); true: on in any environment (a warning in production); false: off. HTTP transport only.',
      'x-env': ['AGENT_TESTER_ENABLED'],
    },
    path: {
      type: 'string',
      pattern: '^(/[A-Za-z0-9._~-]+)+$',
      default: '/agent-tester',
      description: 'Where the page is served; the API is under <path>/api.',
      'x-env': ['AGENT_TESTER_PATH'],
    },
    systemPrompt: {
      type: 'string',
      default: '',
      description: 'System message of every conversation (empty: a built-in one naming the server); the server instructions and its prompt and resource lists follow it.',
      'x-env': ['AGENT_TESTER_SYSTEM_PROMPT'],
    },
    model: modelNode,
    limits: limitsNode,
  },
};

export interface AgentTesterConfig {
  enabled: 'auto' | boolean;
  path: string;
  systemPrompt: string;
  model: {
    baseUrl: string;
    model: string;
    apiKey: string;
    timeoutMs: number;
    maxTokens: number;
  };
  limits: {
    maxTurns: number;
    conversationTimeoutMs: number;
    maxSessions: number;
    maxConcurrentConversations: number;
    sessionMaxAgeMs: number;
    sessionIdleMs: number;
    maxPromptChars: number;
  };
}
