import { argumentErrorOf } from '../core/argument-errors.js';
import { MCP_ERROR_CODES } from '../core/errors.js';

/**
 * Asserts that a promise of a tool call fails with a JSON-RPC error of the
 * given code; returns the error. For -32602 it also takes an argument-error
 * result (`mcp.validation.argumentErrors: result`, the default: `isError: true`
 * with `_meta["fa-mcp/validation"]`) and returns it in the same form: its text
 * as `message`, `{ field, reason }` as `data`. So a test of invalid arguments
 * holds under either setting; assert the result itself to pin one down.
 */
export interface ProtocolErrorLike {
  code: number;
  message: string;
  data?: unknown;
}

export async function expectToolError(call: Promise<unknown>, code: number, messageIncludes?: string): Promise<ProtocolErrorLike> {
  let result: unknown;
  try {
    result = await call;
  } catch (err) {
    const e = err as Partial<ProtocolErrorLike>;
    if (typeof e.code !== 'number') throw new Error(`expected a JSON-RPC error ${code}, got ${String(err)}`);
    if (e.code !== code) throw new Error(`expected JSON-RPC error ${code}, got ${e.code}: ${e.message}`);
    return checked(e as ProtocolErrorLike, messageIncludes);
  }
  const issue = code === MCP_ERROR_CODES.INVALID_PARAMS ? argumentErrorOf(result) : undefined;
  if (issue) return checked({ code, message: firstText(result), data: issue }, messageIncludes);
  throw new Error(`expected JSON-RPC error ${code}, but the call succeeded: ${JSON.stringify(result).slice(0, 300)}`);
}

function checked(e: ProtocolErrorLike, messageIncludes: string | undefined): ProtocolErrorLike {
  if (messageIncludes && !String(e.message).includes(messageIncludes)) {
    throw new Error(`expected the error message to include "${messageIncludes}", got "${e.message}"`);
  }
  return e;
}

function firstText(result: unknown): string {
  const content = (result as { content?: unknown }).content;
  const block = Array.isArray(content) ? content.find((c: unknown) => (c as { type?: unknown })?.type === 'text') : undefined;
  return typeof (block as { text?: unknown } | undefined)?.text === 'string' ? (block as { text: string }).text : '';
}
