/**
 * The one runner of `prompts/get`, `resources/read` and `completion/complete`:
 * what the SDK path's handlers (server-factory.ts) and both fast paths
 * (modern-fast-call.ts, session-fast-call.ts) run for such a request — the
 * era's client channel (prompts and resources may ask the client for input),
 * `core.pipeline.run(op, terminal)` with the method's terminal, deprecation
 * notices, the error mapping (2026-07-28 answers an unknown resource as
 * -32602 with its `uri`). As tool-call-run.ts is for tools/call: a rule added
 * here holds on every path; the paths differ only in how the request reached
 * them and how its answer is written.
 */
import { complete, completionTarget, hasCompletions, type CompletionRequest } from '../core/completions.js';
import type { Core } from '../core/core.js';
import { ResourceNotFoundError, ValidationError } from '../core/errors.js';
import type { LazyAbort } from '../core/lazy-abort.js';
import { runOperation, type OperationInput } from '../core/operation.js';
import type { McpMethod, Operation, OperationTarget } from '../core/pipeline.js';
import { renderPrompt } from '../core/prompts.js';
import type { ProtocolEra, RequestContext } from '../core/request-context.js';
import { readMatch, resourceOf } from '../core/resources.js';
import type { IClientChannel, JsonObject } from '../core/types.js';
import { readCacheFields } from './cache-fields.js';
import { runWithClientInput, type ClientInputRun } from './client-input-adapter.js';
import { toProtocolError } from './errors.js';
import type { CallOutcome } from './tool-call-run.js';

/** The methods this runner serves. */
export type RunMethod = 'prompts/get' | 'resources/read' | 'completion/complete';

export interface MethodRun {
  rc: RequestContext;
  /** The request's params as the SDK's schema outputs them (`_meta` first, then the method's fields). */
  params: JsonObject;
  /** Aborts the request: the request's signal (SDK path) or a LazyAbort (fast paths). */
  abort: LazyAbort | AbortSignal;
  /** The era's side of client input (legacySide, modernSide or the SDK's context, and the shared settings). */
  clientInput: Omit<ClientInputRun, 'rc' | 'binding' | 'validator'>;
}

/** The 2026-07-28 revision answers an unknown resource with -32602 and the URI (SEP-2164). */
export const unknownResourceAsInvalidParams = (err: unknown): unknown =>
  err instanceof ResourceNotFoundError ? new ValidationError(err.message, { uri: err.data?.uri }) : err;

/** Errors as the era's SDK path maps them before they become protocol errors. */
export const eraError = (era: ProtocolEra, err: unknown): unknown => (era === '2026' ? unknownResourceAsInvalidParams(err) : err);

/** Whether this server serves `method` at all (the SDK path registers no handler otherwise: -32601). */
export function servesMethod(core: Core, method: RunMethod): boolean {
  const { registry } = core;
  if (method === 'prompts/get') return registry.prompts.size > 0;
  if (method === 'resources/read') return registry.hasResources;
  return hasCompletions(registry);
}

/** servesMethod of each method, decided once (the registry is fixed at start): what the fast paths ask per request. */
export function servedMethods(core: Core): Record<RunMethod, boolean> {
  return { 'prompts/get': servesMethod(core, 'prompts/get'), 'resources/read': servesMethod(core, 'resources/read'), 'completion/complete': servesMethod(core, 'completion/complete') };
}

export function runMethod(core: Core, method: RunMethod, run: MethodRun): Promise<CallOutcome> {
  if (method === 'prompts/get') return runPromptGet(core, run);
  if (method === 'resources/read') return runResourceRead(core, run);
  return runCompletion(core, run);
}

export function runPromptGet(core: Core, run: MethodRun): Promise<CallOutcome> {
  const { params } = run;
  const name = params.name as string;
  const args = (params.arguments ?? {}) as Record<string, string>;
  const binding = { method: 'prompts/get', name, arguments: args };
  return outcomeOf(core, run, () =>
    withClientInput(core, run, binding, (client) =>
      runOperation(core, operationInput(run, 'prompts/get', { kind: 'prompt', name }, client), async () => {
        const prompt = core.registry.prompts.get(name);
        if (!prompt) throw new ValidationError(`Unknown prompt: ${name}`, { field: 'name', reason: 'unknown prompt' });
        core.deprecations.used('prompt', prompt.name, prompt.deprecated);
        return renderPrompt(prompt, args, run.rc);
      }),
    ),
  );
}

export function runResourceRead(core: Core, run: MethodRun): Promise<CallOutcome> {
  const uri = run.params.uri as string;
  const binding = { method: 'resources/read', name: uri };
  const { registry } = core;
  return outcomeOf(core, run, () =>
    withClientInput(core, run, binding, (client) =>
      runOperation(core, operationInput(run, 'resources/read', { kind: 'resource', name: uri }, client), async (op) => {
        // What the authorize step found for the URI (static, a function's, a template, the session's).
        const match = await resourceOf(registry, op);
        if (match?.kind !== 'template' && match?.def.deprecated) core.deprecations.used('resource', uri, match.def.deprecated);
        // 2026-07-28: the resource's or template's own cache hint (cache-fields.ts).
        return { contents: await readMatch(uri, match, run.rc), ...readCacheFields(run.rc.era, run.clientInput.modern, match?.def) };
      }),
    ),
  );
}

/** A prompt or template the caller may not use answers as an unknown one: an empty completion (authorize step). */
export function runCompletion(core: Core, run: MethodRun): Promise<CallOutcome> {
  const request = run.params as unknown as CompletionRequest;
  return outcomeOf(core, run, () =>
    runOperation(core, operationInput(run, 'completion/complete', completionTarget(request), undefined), async (op: Operation) => {
      const answer = await complete(core.registry, request, { request: op.ctx, signal: op.signal });
      return { completion: { values: answer.values, total: answer.total, hasMore: answer.hasMore } };
    }),
  );
}

function operationInput(run: MethodRun, method: McpMethod, target: OperationTarget, client: IClientChannel | undefined): OperationInput {
  const input: OperationInput = { method, target, ctx: run.rc, params: run.params, signal: run.abort };
  if (client) input.client = client;
  return input;
}

function withClientInput<T>(core: Core, run: MethodRun, binding: ClientInputRun['binding'], body: (client: IClientChannel) => Promise<T>) {
  const input = run.clientInput;
  // Field by field, not `{ ...input, rc, … }`: SPREAD_FIRST in client-channel.ts.
  const clientRun: ClientInputRun = { ctx: input.ctx, legacySide: input.legacySide, modernSide: input.modernSide, modern: input.modern, rc: run.rc, binding, validator: core.registry.validator };
  return runWithClientInput(clientRun, body);
}

async function outcomeOf(core: Core, run: MethodRun, body: () => Promise<unknown>): Promise<CallOutcome> {
  const { rc } = run;
  try {
    return { result: await body() };
  } catch (err) {
    return { error: toProtocolError(eraError(rc.era, err), rc.requestId, rc.logger ?? core.logger) };
  }
}
