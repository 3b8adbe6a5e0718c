/**
 * Result helpers: build the `CallToolResult` shapes a handler returns, and read
 * them back in tests.
 */
import type {
  IAudioContent, IContentBlock, IImageContent, IResourceContents, IResourceLinkContent, ITextContent,
  IToolHandlerStructuredResponse, JsonObject, TToolHandlerResponse,
} from './types.js';

const isPlainObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A successful result. A string becomes one text block; an object becomes
 * `structuredContent` with its JSON mirrored into `content[0].text`; an array or
 * other JSON value becomes a JSON text block.
 */
export function formatToolResult(value: unknown): TToolHandlerResponse {
  if (typeof value === 'string') return { content: [textContent(value)] };
  if (isPlainObject(value)) {
    return { content: [textContent(JSON.stringify(value))], structuredContent: value };
  }
  return { content: [textContent(JSON.stringify(value ?? null))] };
}

/** A tool-level failure the model can read: `isError: true` with the message. */
export function formatToolError(message: string | Error, details?: JsonObject): TToolHandlerResponse {
  const text = typeof message === 'string' ? message : message.message;
  const result: IToolHandlerStructuredResponse = { content: [textContent(text)], isError: true };
  if (details) result.structuredContent = { error: text, ...details };
  return result;
}

export const textContent = (text: string): ITextContent => ({ type: 'text', text });
export const jsonContent = (value: unknown): ITextContent => ({ type: 'text', text: JSON.stringify(value, null, 2) });
export const imageContent = (data: string, mimeType: string): IImageContent => ({ type: 'image', data, mimeType });
export const audioContent = (data: string, mimeType: string): IAudioContent => ({ type: 'audio', data, mimeType });
export const resourceLinkContent = (link: Omit<IResourceLinkContent, 'type'>): IResourceLinkContent => ({ type: 'resource_link', ...link });
export const embeddedResourceContent = (resource: IResourceContents): IContentBlock => ({ type: 'resource', resource });

/** Builds a result from several content blocks. */
export function formatContentResult(content: IContentBlock[], structuredContent?: JsonObject): TToolHandlerResponse {
  return structuredContent ? { content, structuredContent } : { content };
}

/**
 * Reads the JSON a result carries: `structuredContent` when present, otherwise
 * the first text block parsed as JSON. For tests and for clients.
 */
export function getJsonFromResult<T = unknown>(result: unknown): T {
  if (!isPlainObject(result)) throw new TypeError('getJsonFromResult: not a tool result');
  if (isPlainObject(result.structuredContent)) return result.structuredContent as T;
  const content = Array.isArray(result.content) ? result.content : [];
  const first = content.find((c): c is ITextContent => isPlainObject(c) && c.type === 'text');
  if (!first) throw new TypeError('getJsonFromResult: the result has no structuredContent and no text block');
  return JSON.parse(first.text) as T;
}
