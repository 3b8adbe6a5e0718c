/**
 * Checks on a raw message before it is parsed, shared by the HTTP body parser
 * and the stdio line guard: the bytes must be UTF-8 (RFC 8259 §8.1) and must
 * not nest arrays and objects deeper than a limit. A deep value parses fine
 * but overflows the stack of every recursive walker after it (schema checks,
 * serializers), so it is refused here, in one linear pass with no recursion.
 */
import { isUtf8 } from 'node:buffer';

export type RawMessageProblem = 'invalid-utf8' | 'too-deep';

/** Up to this many brackets are counted natively before the byte-by-byte walk (most messages have a handful). */
const FEW_OPENERS = 16;

/** True when the buffer holds at most `most` opening brackets, strings included (counted with native searches). */
function atMostOpeners(buf: Buffer, most: number): boolean {
  let n = 0;
  for (let i = buf.indexOf(0x7b); i !== -1; i = buf.indexOf(0x7b, i + 1)) if (++n > most) return false;
  for (let i = buf.indexOf(0x5b); i !== -1; i = buf.indexOf(0x5b, i + 1)) if (++n > most) return false;
  return true;
}

/** Deepest array/object nesting outside strings, stopping early once past `limit`. */
export function nestingDepthExceeds(bytes: Uint8Array, limit: number): boolean {
  // Nesting never goes deeper than the count of opening brackets: a message with few of them is not walked.
  if (Buffer.isBuffer(bytes) && atMostOpeners(bytes, Math.min(limit, FEW_OPENERS))) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === 0x5c) i++; // backslash: skip the escaped byte
      else if (b === 0x22) inString = false;
      continue;
    }
    if (b === 0x22) inString = true;
    else if (b === 0x5b || b === 0x7b) {
      if (++depth > limit) return true;
    } else if (b === 0x5d || b === 0x7d) depth--;
  }
  return false;
}

export function checkRawMessage(bytes: Uint8Array, maxDepth: number): RawMessageProblem | undefined {
  if (!isUtf8(bytes)) return 'invalid-utf8';
  if (nestingDepthExceeds(bytes, maxDepth)) return 'too-deep';
  return undefined;
}

export function describeRawProblem(problem: RawMessageProblem, maxDepth: number): string {
  return problem === 'invalid-utf8' ? 'Parse error: the message is not valid UTF-8' : `Invalid request: values nest deeper than ${maxDepth} levels`;
}
