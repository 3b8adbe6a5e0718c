import { afterEach, describe, expect, it, vi } from 'vitest';
import { InternalError, RequestCancelledError, TimeoutError, ToolExecutionError, ValidationError } from '../../src/core/errors.js';
import { createToolExecutor, type ToolHandler } from '../../src/core/tool-executor.js';
import type { IToolHandlerParams, TToolHandlerResponse } from '../../src/core/types.js';
import { caught, makeCtx, makeOp, tool } from './helpers.js';

const ok: TToolHandlerResponse = { content: [{ type: 'text', text: 'ok' }] };
const executor = (handler?: ToolHandler, timeoutMs = 1_000) =>
  createToolExecutor({ ...(handler ? { defaultHandler: handler } : {}), configuredTimeoutMs: () => undefined, defaultTimeoutMs: timeoutMs });

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason);
    });
  });
}

describe('tool executor', () => {
  // The time-dependent cases run on vitest's fake clock: a timeout fires when the test moves the clock, never because the machine was slow.
  afterEach(() => {
    vi.useRealTimers();
  });
  it('the handler receives name, arguments, signal, sendProgress, client, context and headers', async () => {
    let seen: IToolHandlerParams | undefined;
    const sendProgress = vi.fn();
    const ctx = makeCtx({ requestId: 'r-42', clientCapabilities: { sampling: {} }, headers: { 'x-tenant': 'acme' } });
    const op = makeOp({ name: 'echo', arguments: { msg: 'hi' } }, { tool: tool('echo'), ctx, sendProgress });
    const out = await executor((p) => {
      seen = p;
      p.sendProgress(1, 2, 'half');
      return ok;
    })(op);
    expect(out).toEqual(ok);
    expect(seen?.name).toBe('echo');
    expect(seen?.arguments).toEqual({ msg: 'hi' });
    expect(seen?.signal).toBeInstanceOf(AbortSignal);
    expect(seen?.signal.aborted).toBe(false);
    expect(seen?.client).toBe(op.client);
    expect(seen?.context).toBe(ctx);
    expect(seen?.clientCapabilities).toEqual({ sampling: {} });
    expect(seen?.headers).toEqual({ 'x-tenant': 'acme' });
    expect(sendProgress).toHaveBeenCalledWith(1, 2, 'half');
  });

  it('absent arguments arrive as {}', async () => {
    let args: unknown;
    await executor((p) => {
      args = p.arguments;
      return ok;
    })(makeOp({ name: 'echo' }, { tool: tool('echo') }));
    expect(args).toEqual({});
  });

  it("a tool's own handler wins over the default handler", async () => {
    const fallback = vi.fn(() => ok);
    const mine: TToolHandlerResponse = { content: [{ type: 'text', text: 'from own' }] };
    const own = tool('own', { handler: () => mine });
    expect(await executor(fallback)(makeOp({ name: 'own' }, { tool: own }))).toBe(mine);
    expect(fallback).not.toHaveBeenCalled();
  });

  it('no handler at all, or no resolved tool, is an InternalError', async () => {
    await expect(executor()(makeOp({ name: 'x' }, { tool: tool('x') }))).rejects.toBeInstanceOf(InternalError);
    await expect(executor(() => ok)(makeOp({ name: 'x' }))).rejects.toBeInstanceOf(InternalError);
  });

  it('a timeout answers TimeoutError -32004 without waiting for the handler, and aborts the handler signal with it', async () => {
    let openGate!: () => void;
    const gate = new Promise<void>((r) => (openGate = r));
    let abortedInside: boolean | undefined;
    let reasonInside: unknown;
    const handler: ToolHandler = async ({ signal }) => {
      await gate; // ignores the signal on purpose, then looks at it
      abortedInside = signal.aborted;
      reasonInside = signal.reason;
      return ok;
    };
    vi.useFakeTimers();
    const running = executor(handler, 30)(makeOp({ name: 'slow' }, { tool: tool('slow') }));
    const answered = caught(() => running); // resolves while the handler still waits at the gate
    await vi.advanceTimersByTimeAsync(30);
    const err = await answered;
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as TimeoutError).code).toBe(-32004);
    expect((err as TimeoutError).httpStatus).toBe(504);
    expect((err as TimeoutError).data).toMatchObject({ tool: 'slow', timeoutMs: 30 });
    expect(abortedInside).toBeUndefined();
    openGate();
    await vi.advanceTimersByTimeAsync(0);
    expect(abortedInside).toBe(true);
    expect(reasonInside).toBe(err);
  });

  it('a handler that listens to its signal stops its work at the timeout', async () => {
    const work = vi.fn();
    const handler: ToolHandler = async ({ signal }) => {
      for (let i = 0; i < 50; i++) {
        await sleep(10, signal);
        work(i);
      }
      return ok;
    };
    vi.useFakeTimers();
    const stopped = expect(executor(handler, 25)(makeOp({ name: 'loop' }, { tool: tool('loop') }))).rejects.toBeInstanceOf(TimeoutError);
    await vi.advanceTimersByTimeAsync(25);
    await stopped;
    expect(work.mock.calls.length).toBe(2); // at 10 and 20 ms
    await vi.advanceTimersByTimeAsync(60);
    expect(work.mock.calls.length).toBe(2);
  });

  it('a per-tool timeoutMs overrides the default', async () => {
    const handler: ToolHandler = async () => {
      await sleep(60);
      return ok;
    };
    vi.useFakeTimers();
    const patient = tool('patient', { timeoutMs: 5_000 });
    const patientAnswer = executor(handler, 20)(makeOp({ name: 'patient' }, { tool: patient }));
    await vi.advanceTimersByTimeAsync(60);
    expect(await patientAnswer).toEqual(ok);
    const hasty = tool('hasty', { timeoutMs: 20 });
    const refused = expect(executor(handler, 5_000)(makeOp({ name: 'hasty' }, { tool: hasty }))).rejects.toMatchObject({
      code: -32004,
      data: { timeoutMs: 20 },
    });
    await vi.advanceTimersByTimeAsync(20);
    await refused;
  });

  it('the configured timeout is asked with the tool name and wins over the tool default', async () => {
    const configuredTimeoutMs = vi.fn((name: string) => (name === 'named' ? 20 : undefined));
    const handler: ToolHandler = async () => {
      await sleep(60);
      return ok;
    };
    const exec = createToolExecutor({ defaultHandler: handler, configuredTimeoutMs, defaultTimeoutMs: 5_000 });
    vi.useFakeTimers();
    const refused = expect(exec(makeOp({ name: 'named' }, { tool: tool('named', { timeoutMs: 5_000 }) }))).rejects.toMatchObject({ code: -32004, data: { timeoutMs: 20 } });
    await vi.advanceTimersByTimeAsync(20);
    await refused;
    expect(configuredTimeoutMs).toHaveBeenCalledWith('named');
  });

  it('client cancellation (op.signal aborted) aborts the handler signal', async () => {
    const client = new AbortController();
    let handlerSignal: AbortSignal | undefined;
    const handler: ToolHandler = async ({ signal }) => {
      handlerSignal = signal;
      await sleep(1_000, signal);
      return ok;
    };
    const running = executor(handler, 5_000)(makeOp({ name: 'c' }, { tool: tool('c'), signal: client.signal }));
    await expect.poll(() => handlerSignal).toBeDefined(); // the handler runs
    expect(handlerSignal?.aborted).toBe(false);
    const reason = new Error('cancelled by client');
    client.abort(reason);
    // Named as a cancellation (logged at info, not as an unexpected error), with what the handler threw as its cause.
    const err = await running.then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(RequestCancelledError);
    expect(err).toMatchObject({ reason: 'cancelled by client', cause: reason });
    expect(handlerSignal?.aborted).toBe(true);
    expect(handlerSignal?.reason).toBe(reason);
  });

  it('an op.signal already aborted gives the handler an aborted signal', async () => {
    const client = new AbortController();
    client.abort('gone');
    let aborted: boolean | undefined;
    await executor(({ signal }) => {
      aborted = signal.aborted;
      return ok;
    })(makeOp({ name: 'c' }, { tool: tool('c'), signal: client.signal }));
    expect(aborted).toBe(true);
  });

  it('a handler that first looks at its signal after a cancellation sees it aborted, with its reason', async () => {
    const client = new AbortController();
    const reason = new Error('cancelled while busy');
    let seen: { aborted: boolean; reason: unknown } | undefined;
    vi.useFakeTimers();
    const running = executor(async (p) => {
      await sleep(30); // busy, not listening
      seen = { aborted: p.signal.aborted, reason: p.signal.reason };
      return ok;
    }, 5_000)(makeOp({ name: 'c' }, { tool: tool('c'), signal: client.signal }));
    await vi.advanceTimersByTimeAsync(5);
    client.abort(reason);
    await vi.advanceTimersByTimeAsync(30);
    await running;
    expect(seen).toEqual({ aborted: true, reason });
  });

  it('a signal first read after the call is not aborted by a cancellation that came later', async () => {
    const client = new AbortController();
    let params: IToolHandlerParams | undefined;
    await executor((p) => {
      params = p;
      return ok;
    })(makeOp({ name: 'c' }, { tool: tool('c'), signal: client.signal }));
    client.abort('late');
    expect(params?.signal.aborted).toBe(false);
  });

  it('the params behave as a plain object: spread keeps the signal, and it can be replaced', async () => {
    let copy: Record<string, unknown> | undefined;
    let replaced: unknown;
    let derived: unknown;
    const other = new AbortController().signal;
    await executor((p) => {
      copy = { ...p };
      derived = (Object.create(p) as IToolHandlerParams).signal;
      p.signal = other;
      replaced = p.signal;
      return ok;
    })(makeOp({ name: 'c' }, { tool: tool('c') }));
    expect(Object.keys(copy ?? {})).toContain('signal');
    expect(Object.getOwnPropertySymbols(copy ?? {})).toEqual([]);
    expect(copy?.signal).toBeInstanceOf(AbortSignal);
    expect(replaced).toBe(other);
    expect(derived).toBe(copy?.signal);
  });

  it('a ToolExecutionError becomes { isError: true, content: [text: message] }', async () => {
    const out = await executor(() => {
      throw new ToolExecutionError('City "Atlantis" not found');
    })(makeOp({ name: 'w' }, { tool: tool('w') }));
    expect(out).toEqual({ isError: true, content: [{ type: 'text', text: 'City "Atlantis" not found' }] });
  });

  it('a ToolExecutionError with data also carries it as structuredContent', async () => {
    const out = await executor(async () => {
      throw new ToolExecutionError('quota exceeded', { quota: 10 });
    })(makeOp({ name: 'w' }, { tool: tool('w') }));
    expect(out).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'quota exceeded' }],
      structuredContent: { error: 'quota exceeded', quota: 10 },
    });
  });

  it('errors of the family and unexpected errors propagate as thrown', async () => {
    const v = new ValidationError('bad', { field: 'q' });
    await expect(
      executor(() => {
        throw v;
      })(makeOp({ name: 'w' }, { tool: tool('w') })),
    ).rejects.toBe(v);
    const plain = new Error('db exploded');
    await expect(
      executor(async () => {
        throw plain;
      })(makeOp({ name: 'w' }, { tool: tool('w') })),
    ).rejects.toBe(plain);
  });

  it('a handler returning a string becomes a text result', async () => {
    // a JavaScript consumer returning a bare string; the type says a result object
    const handler = (() => 'plain words') as unknown as ToolHandler;
    expect(await executor(handler)(makeOp({ name: 's' }, { tool: tool('s') }))).toEqual({
      content: [{ type: 'text', text: 'plain words' }],
    });
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a number', 42],
    ['an object without content', { text: 'x' }],
    ['content that is not an array', { content: 'x' }],
  ])('a handler returning %s is an InternalError naming the tool', async (_label, value) => {
    const handler = (() => value) as unknown as ToolHandler; // deliberately not a tool result
    const err = await caught(() => executor(handler)(makeOp({ name: 'bad_result' }, { tool: tool('bad_result') })));
    expect(err).toBeInstanceOf(InternalError);
    expect((err as InternalError).code).toBe(-32603);
    expect((err as Error).message).toContain('bad_result');
  });

  it('a fast result clears the timer: no late abort of the handler signal', async () => {
    let signal: AbortSignal | undefined;
    vi.useFakeTimers();
    await executor(({ signal: s }) => {
      signal = s;
      return ok;
    }, 20)(makeOp({ name: 'f' }, { tool: tool('f') }));
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(40);
    expect(signal?.aborted).toBe(false);
  });
});
