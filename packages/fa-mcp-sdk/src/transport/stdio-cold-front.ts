/**
 * Reads a stdio connection's first lines before the SDK is loaded and answers
 * those protocol/cold-answers.ts takes (a 2025-era initialize, ping, the core's
 * lists), one at a time, in order. At the first line it does not take (or
 * a line it cannot read as surely as the line guard would: too long, not
 * UTF-8, too deep, not JSON), or when it is told to, it stops reading and hands
 * over every byte it has not answered, from the start of that line: the line
 * guard and the SDK then read them as they read any line (stdio-sdk.ts).
 *
 * The end of the input stops nothing that was read: the lines already read
 * are answered or handed over (with the end), and only then is the end told.
 */
import type { Readable, Writable } from 'node:stream';
import type { ColdAnswers } from '../protocol/cold-answers.js';
import { readColdMessage, type ColdRequest } from '../protocol/cold-message.js';
import { decideRoute } from '../protocol/route.js';
import { checkRawMessage } from './raw-message-check.js';

export interface ColdFrontOptions {
  input: Readable;
  output: Writable;
  answers: ColdAnswers;
  /** mcp.limits.maxPayloadBytes */
  maxLineBytes: number;
  /** mcp.limits.maxJsonDepth */
  maxJsonDepth: number;
  /** Called after each answer is written (notifications included). */
  answered?(message: ColdRequest): void;
  /** Called once, when the SDK is to take the connection: the bytes read and not answered, and whether the input has ended. */
  handOver(rest: Buffer, inputEnded: boolean): void;
  /** The input ended (or failed) while the cold front had it, and every line it carried was answered here. */
  ended(): void;
}

export interface ColdFront {
  /** Hands over as soon as the line being answered (if any) is written. */
  handOverSoon(): void;
  /** Stops reading, without handing over (the server stops). */
  detach(): void;
}

const NEWLINE = 0x0a;

/**
 * The line's message when its route (protocol/route.ts) is the cold front's own: one it reads as
 * surely as the line guard would, and one it answers (cold-answers.ts). Any other line's route is the SDK's.
 */
function coldMessage(raw: Buffer, opts: ColdFrontOptions): ColdRequest | undefined {
  if (raw.length > opts.maxLineBytes || checkRawMessage(raw, opts.maxJsonDepth)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
  const message = readColdMessage(parsed);
  const route = decideRoute({ transport: 'stdio', sdkServes: false, cold: message !== undefined && opts.answers.takes(message) });
  return route === 'core.stdio-cold' ? message : undefined;
}

export function startColdFront(opts: ColdFrontOptions): ColdFront {
  const { input, output } = opts;
  let buffered: Buffer = Buffer.alloc(0);
  let busy = false;
  let handOverWanted = false;
  /** Listening to the input: until its end (or an error), a hand-over or detach. */
  let reading = true;
  let inputEnded = false;
  /** Handed over, ended or detached: nothing more to do. */
  let done = false;

  const stopReading = () => {
    reading = false;
    input.off('data', onData);
    input.off('end', onEnd);
    input.off('close', onEnd);
    input.off('error', onEnd);
  };

  const handOver = () => {
    if (done) return;
    done = true;
    if (reading) stopReading();
    const rest = buffered;
    buffered = Buffer.alloc(0);
    opts.handOver(rest, inputEnded);
  };

  /** The input ended: a last line without its newline goes to the SDK's side (the line guard reads it); otherwise all is answered. */
  const finish = () => {
    if (buffered.toString('latin1').trim() !== '') return handOver();
    done = true;
    opts.ended();
  };

  /** Answers complete lines one at a time; hands over at the first it does not take. */
  const pump = async () => {
    if (busy || done) return;
    busy = true;
    try {
      for (;;) {
        // Once the input ended, nothing is gained by loading the SDK for lines answered here.
        if (handOverWanted && !inputEnded) return handOver();
        const nl = buffered.indexOf(NEWLINE);
        if (nl === -1) {
          if (buffered.length > opts.maxLineBytes) return handOver(); // the line guard refuses it
          if (inputEnded) return finish();
          return;
        }
        let raw = buffered.subarray(0, nl);
        if (raw.length > 0 && raw[raw.length - 1] === 0x0d) raw = raw.subarray(0, raw.length - 1);
        if (raw.toString('latin1').trim() === '') {
          buffered = buffered.subarray(nl + 1); // the line guard skips a blank line too
          continue;
        }
        const message = coldMessage(raw, opts);
        if (!message) return handOver();
        buffered = buffered.subarray(nl + 1);
        const answer = await opts.answers.answer(message);
        if (answer !== undefined && !output.writableEnded && !output.destroyed) output.write(answer);
        opts.answered?.(message);
        if (done) return;
      }
    } finally {
      busy = false;
    }
  };

  const onData = (chunk: Buffer | string) => {
    const data = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    buffered = buffered.length === 0 ? data : Buffer.concat([buffered, data]);
    void pump();
  };
  const onEnd = () => {
    if (!reading) return;
    stopReading();
    inputEnded = true;
    void pump(); // answers (or hands over) what was read; a pump under way goes on to the end
  };
  input.on('data', onData);
  input.once('end', onEnd);
  input.once('close', onEnd);
  input.once('error', onEnd);

  return {
    handOverSoon() {
      handOverWanted = true;
      void pump();
    },
    detach() {
      if (done) return;
      done = true;
      if (reading) stopReading();
      if (input.listenerCount('data') === 0) input.pause();
    },
  };
}
