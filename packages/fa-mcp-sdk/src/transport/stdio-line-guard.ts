/**
 * A guard between stdin and the SDK's stdio transport. The SDK drops a line it
 * cannot read without a word to the client (and closes the connection when a
 * line outgrows its buffer); JSON-RPC owes the sender an error. So each line is
 * checked first, and only sound lines reach the SDK, unchanged:
 *
 * - longer than the payload cap: -32005, and the rest of that line is skipped
 *   as it arrives (never buffered);
 * - not UTF-8, or not JSON: -32700 (id null);
 * - nested deeper than the limit: -32600 (id null);
 * - JSON but not one JSON-RPC message (a batch, a bare value, a broken shape):
 *   -32600, with the message's id when it has a usable one.
 *
 * The end of the input does not end the SDK's side: the SDK's transport closes
 * its connection at the end of its input, dropping the requests still being
 * served. The guard tells its owner instead (`ended`, after a last line
 * without a newline is read as a line), and the owner ends it (`detach`) once
 * what was read is answered (stdio-sdk.ts).
 */
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { isJsonRpcMessage } from '../protocol/sdk-server.js';
import { MCP_ERROR_CODES } from '../core/errors.js';
import { checkRawMessage, describeRawProblem } from './raw-message-check.js';

export interface StdioLineGuardOptions {
  /** Longest accepted line in bytes (mcp.limits.maxPayloadBytes). */
  maxLineBytes: number;
  /** mcp.limits.maxJsonDepth */
  maxJsonDepth: number;
}

const NEWLINE = 0x0a;

type ErrorId = string | number | null;

function usableId(value: unknown): ErrorId {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

export interface LineGuardEvents {
  /** Each message handed to the SDK, before the SDK reads it. */
  line?(message: unknown): void;
  /** The input ended (or failed): every line it carried was handed on or answered. */
  ended?(): void;
}

export interface GuardedStdin {
  /** The stream to hand the SDK transport in place of `input`. */
  stream: Readable;
  /** Stops reading `input` (so a process whose stdin is guarded can exit) and ends `stream`. */
  detach(): void;
}

export function guardStdin(input: Readable, output: Writable, opts: StdioLineGuardOptions, events: LineGuardEvents = {}): GuardedStdin {
  const clean = new PassThrough();
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;

  const reply = (code: number, message: string, id: ErrorId = null, data?: Record<string, unknown>) => {
    if (output.writableEnded || output.destroyed) return;
    output.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message, ...(data ? { data } : {}) } })}\n`);
  };

  const refuseOversize = () =>
    reply(MCP_ERROR_CODES.PAYLOAD_TOO_LARGE, `Message exceeds ${opts.maxLineBytes} bytes`, null, { maxPayloadBytes: opts.maxLineBytes });

  const handleLine = (raw: Buffer) => {
    const line = raw.length > 0 && raw[raw.length - 1] === 0x0d ? raw.subarray(0, raw.length - 1) : raw;
    if (line.toString('latin1').trim() === '') return;
    const problem = checkRawMessage(line, opts.maxJsonDepth);
    if (problem) {
      reply(problem === 'invalid-utf8' ? MCP_ERROR_CODES.PARSE_ERROR : MCP_ERROR_CODES.INVALID_REQUEST, describeRawProblem(problem, opts.maxJsonDepth));
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(line.toString('utf8'));
    } catch {
      reply(MCP_ERROR_CODES.PARSE_ERROR, 'Parse error: the line is not valid JSON');
      return;
    }
    if (!isJsonRpcMessage(parsed)) {
      const what = Array.isArray(parsed) ? 'batches are not supported on stdio' : 'not a JSON-RPC 2.0 message';
      reply(MCP_ERROR_CODES.INVALID_REQUEST, `Invalid request: ${what}`, usableId(parsed));
      return;
    }
    events.line?.(parsed);
    if (!clean.write(Buffer.concat([line, Buffer.from('\n')]))) {
      input.pause();
      clean.once('drain', () => input.resume());
    }
  };

  const onData = (chunk: Buffer | string) => {
    let data = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    for (;;) {
      const nl = data.indexOf(NEWLINE);
      const piece = nl === -1 ? data : data.subarray(0, nl);
      if (!skipping) {
        pending.push(piece);
        pendingBytes += piece.length;
        if (pendingBytes > opts.maxLineBytes) {
          pending = [];
          pendingBytes = 0;
          skipping = true;
          refuseOversize();
        }
      }
      if (nl === -1) return;
      if (!skipping) handleLine(Buffer.concat(pending, pendingBytes));
      pending = [];
      pendingBytes = 0;
      skipping = false;
      data = data.subarray(nl + 1);
    }
  };
  let inputDone = false;
  const stopReading = () => {
    input.off('data', onData);
    input.off('end', onEnd);
    input.off('close', onEnd);
    input.off('error', onEnd);
  };
  const onEnd = () => {
    if (inputDone) return;
    inputDone = true;
    stopReading();
    // A last line without its newline is still a line.
    if (!skipping && pendingBytes > 0) handleLine(Buffer.concat(pending, pendingBytes));
    pending = [];
    pendingBytes = 0;
    events.ended?.();
  };
  input.on('data', onData);
  input.once('end', onEnd);
  input.once('close', onEnd);
  input.once('error', onEnd);
  return {
    stream: clean,
    detach() {
      inputDone = true;
      stopReading();
      if (input.listenerCount('data') === 0) input.pause();
      if (!clean.writableEnded) clean.end();
    },
  };
}
