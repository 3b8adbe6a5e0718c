/**
 * What the model reads back from a tool call (a `role: "tool"` message): the
 * text of the result's content, `structuredContent` as JSON when there is no
 * text, short placeholders for images, audio and resources, and an error line
 * when the call failed. Capped, so one large result cannot fill the context.
 */

export const MAX_TOOL_TEXT_CHARS = 20_000;

type Block = Record<string, unknown>;

function blockText(block: Block): string {
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? block.text : '';
    case 'image':
    case 'audio':
      return `[${String(block.type)} ${typeof block.mimeType === 'string' ? block.mimeType : ''}, ${typeof block.data === 'string' ? Math.floor((block.data.length * 3) / 4) : 0} bytes]`;
    case 'resource_link':
      return `[resource link ${String(block.uri)}${typeof block.name === 'string' ? ` "${block.name}"` : ''}]`;
    case 'resource': {
      const r = (block.resource ?? {}) as Block;
      return typeof r.text === 'string' ? r.text : `[resource ${String(r.uri)}${typeof r.mimeType === 'string' ? ` ${r.mimeType}` : ''}]`;
    }
    default:
      return `[${String(block.type)} content]`;
  }
}

function cap(text: string): string {
  return text.length > MAX_TOOL_TEXT_CHARS ? `${text.slice(0, MAX_TOOL_TEXT_CHARS)}\n[… cut at ${MAX_TOOL_TEXT_CHARS} characters]` : text;
}

/** The text of a CallToolResult for the model. */
export function toolResultText(result: Record<string, unknown>): string {
  const content = Array.isArray(result.content) ? (result.content as Block[]) : [];
  let text = content.map(blockText).filter((t) => t !== '').join('\n');
  if (text === '' && result.structuredContent !== undefined) text = JSON.stringify(result.structuredContent);
  if (result.isError === true) text = `Tool error: ${text || '(no message)'}`;
  return cap(text === '' ? '(empty result)' : text);
}

/** The text the model reads when the call did not produce a result. */
export function toolFailureText(message: string): string {
  return cap(`Tool call failed: ${message}`);
}
