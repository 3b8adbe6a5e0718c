/**
 * The request bodies of the Agent Tester API, as JSON Schemas checked with
 * the framework's validator; a body that does not match is a 400 naming the
 * field and what is wrong.
 */
import { SchemaValidator } from '../core/schema-validator.js';
import type { JsonObject } from '../core/types.js';
import { AgentTesterRequestError } from './errors.js';

export interface ChatBody {
  message: string;
}

export interface ChatTestBody {
  prompt: string;
  /** At most `agentTester.limits.maxTurns`. */
  maxTurns?: number;
  /** Replaces the configured system text for this run. */
  systemPrompt?: string;
}

export interface ViewToolCallBody {
  name: string;
  arguments?: Record<string, unknown>;
}

export interface ViewResourceReadBody {
  uri: string;
}

export interface BodyLimits {
  maxPromptChars: number;
  maxTurns: number;
}

export interface RequestBodies {
  chat(body: unknown): ChatBody;
  chatTest(body: unknown): ChatTestBody;
  viewToolCall(body: unknown): ViewToolCallBody;
  viewResourceRead(body: unknown): ViewResourceReadBody;
}

const object = (properties: JsonObject, required: string[]): JsonObject => ({ type: 'object', properties, required, additionalProperties: false });

export function createRequestBodies(limits: BodyLimits): RequestBodies {
  const validator = new SchemaValidator();
  const text = (max: number): JsonObject => ({ type: 'string', minLength: 1, maxLength: max, pattern: '\\S' });
  const schemas = {
    chat: object({ message: text(limits.maxPromptChars) }, ['message']),
    chatTest: object(
      { prompt: text(limits.maxPromptChars), maxTurns: { type: 'integer', minimum: 1, maximum: limits.maxTurns }, systemPrompt: { type: 'string', maxLength: 8000 } },
      ['prompt'],
    ),
    viewToolCall: object({ name: { type: 'string', minLength: 1, maxLength: 256 }, arguments: { type: 'object' } }, ['name']),
    viewResourceRead: object({ uri: { type: 'string', minLength: 1, maxLength: 2048 } }, ['uri']),
  };
  const check = <T>(schema: JsonObject, body: unknown): T => {
    if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new AgentTesterRequestError(400, 'invalid_body', 'The body must be a JSON object (Content-Type: application/json)');
    }
    const outcome = validator.validate(schema, body);
    if (!outcome.ok) {
      const issues = outcome.issues.map((i) => `${i.field ? `"${i.field}"` : 'body'}: ${i.reason}`);
      throw new AgentTesterRequestError(400, 'invalid_body', `Invalid request body: ${issues.join('; ')}`);
    }
    return body as T;
  };
  return {
    chat: (body) => check<ChatBody>(schemas.chat, body),
    chatTest: (body) => check<ChatTestBody>(schemas.chatTest, body),
    viewToolCall: (body) => check<ViewToolCallBody>(schemas.viewToolCall, body),
    viewResourceRead: (body) => check<ViewResourceReadBody>(schemas.viewResourceRead, body),
  };
}
