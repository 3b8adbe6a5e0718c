/**
 * Small builders shared by the core unit tests: a request context, a client
 * channel that records nothing, an Operation for the pipeline, and a logger
 * that keeps what it was asked to log.
 */
import type { CoreLogger } from '../../src/core/core.js';
import type { Operation } from '../../src/core/pipeline.js';
import type { RequestContext } from '../../src/core/request-context.js';
import type { IClientChannel, ITool, JsonObject } from '../../src/core/types.js';

export function makeCtx(over: Partial<RequestContext> = {}): RequestContext {
  return { requestId: 'req-test-1', era: '2025', transport: 'memory', clientCapabilities: {}, ...over };
}

export const silentClient: IClientChannel = {
  log: async () => undefined,
  elicit: async () => ({}),
  sample: async () => ({}),
  listRoots: async () => ({}),
  notify: async () => undefined,
  resumed: false,
};

export interface OpOptions {
  method?: string;
  tool?: ITool;
  signal?: AbortSignal;
  ctx?: RequestContext;
  sendProgress?: Operation['sendProgress'];
}

export function makeOp(params: JsonObject = {}, opts: OpOptions = {}): Operation {
  const ctx = opts.ctx ?? makeCtx();
  const op: Operation = {
    method: opts.method ?? 'tools/call',
    target: { kind: 'tool', name: typeof params.name === 'string' ? params.name : '' },
    caller: ctx.auth,
    ctx,
    params,
    signal: opts.signal ?? new AbortController().signal,
    client: silentClient,
    sendProgress: opts.sendProgress ?? (() => undefined),
    state: new Map(),
  };
  if (opts.tool) op.tool = opts.tool;
  return op;
}

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  obj: unknown;
  msg: string | undefined;
}

export function recordingLogger(entries: LogEntry[] = []): CoreLogger & { entries: LogEntry[] } {
  const logger = {
    entries,
    debug: (obj: unknown, msg?: string) => void entries.push({ level: 'debug', obj, msg }),
    info: (obj: unknown, msg?: string) => void entries.push({ level: 'info', obj, msg }),
    warn: (obj: unknown, msg?: string) => void entries.push({ level: 'warn', obj, msg }),
    error: (obj: unknown, msg?: string) => void entries.push({ level: 'error', obj, msg }),
    child: () => logger,
  };
  return logger;
}

/** A tool with an object input schema; the overrides replace fields. */
export function tool(name: string, over: Partial<ITool> = {}): ITool {
  return { name, description: `The ${name} tool`, inputSchema: { type: 'object', properties: {} }, ...over };
}

/** Runs `fn` and returns what it threw (fails the test when it did not throw). */
export async function caught(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to throw, it returned');
}

/** Synchronous variant of `caught`. */
export function caughtSync(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to throw, it returned');
}
