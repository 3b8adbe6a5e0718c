/**
 * Runs a tools/call, prompts/get or resources/read body with the client
 * channel of its era. On 2026-07-28 it restores the answers of earlier rounds
 * from the verified `requestState`, and when the body stopped for missing
 * input it answers `input_required` with every pending request and a freshly
 * signed `requestState` carrying the answers used so far.
 */
import { inputRequired, type InputRequest, type InputRequiredResult, type ServerContext } from '@modelcontextprotocol/server';
import { ClientInputSession, InputRequiredSignal, type PendingInput } from '../core/client-input.js';
import { InternalError } from '../core/errors.js';
import type { RequestContext } from '../core/request-context.js';
import type { SchemaValidator } from '../core/schema-validator.js';
import type { IClientChannel, JsonObject } from '../core/types.js';
import { acceptPayload, mintPayload, type RequestBinding } from '../state/request-state.js';
import { createLegacyClientChannel, createModernClientChannel, sdkPort, type LegacyRequestSide, type RequestPort } from './client-channel.js';
import type { ModernEraSupport } from './modern-era.js';

/** A 2026-07-28 request's side of client input: its port back to the client and the material of earlier rounds. */
export interface ModernRequestSide extends RequestPort {
  /** The round's `requestState`, as received (the serving path verified it before the handler ran). */
  requestState(): unknown;
  /** This round's answers, as the client sent them (untrusted). */
  inputResponses?: Record<string, unknown>;
}

/** The side of a 2026-07-28 request the SDK serves. */
export function sdkModernSide(ctx: ServerContext): ModernRequestSide {
  const port = sdkPort(ctx);
  // Field by field, not `{ ...port, requestState }`: SPREAD_FIRST in client-channel.ts.
  const side: ModernRequestSide = { log: port.log, notify: port.notify, closeSSE: port.closeSSE, requestState: () => ctx.mcpReq.requestState() };
  if (ctx.mcpReq.inputResponses) side.inputResponses = ctx.mcpReq.inputResponses;
  return side;
}

export interface ClientInputRun {
  /** 2026-07-28: the SDK's handler context, when `modernSide` is not given. */
  ctx?: ServerContext;
  /** 2025-era: the request's side (client-channel.ts legacySide). */
  legacySide?: LegacyRequestSide;
  /** 2026-07-28: the request side supplied by the serving path (the fast path); derived from `ctx` when absent. */
  modernSide?: ModernRequestSide;
  rc: RequestContext;
  /** What the request is, so a requestState cannot be replayed on another one. */
  binding: Omit<RequestBinding, 'subject'>;
  modern: ModernEraSupport;
  validator: SchemaValidator;
}

type Params<T> = T extends (p: infer P) => unknown ? P : never;

export function toInputRequest(input: PendingInput): InputRequest {
  if (input.kind === 'roots') return inputRequired.listRoots();
  if (input.kind === 'sampling') return inputRequired.createMessage(input.params as Params<typeof inputRequired.createMessage>);
  if (input.params.mode === 'url') {
    // The 2026-07-28 URL mode has no elicitationId: the requestState correlates the rounds.
    const { mode: _mode, elicitationId: _id, ...rest } = input.params;
    return inputRequired.elicitUrl(rest as Params<typeof inputRequired.elicitUrl>);
  }
  return inputRequired.elicit(input.params as Params<typeof inputRequired.elicit>);
}

export async function runWithClientInput<T>(run: ClientInputRun, body: (client: IClientChannel) => Promise<T>): Promise<T | InputRequiredResult> {
  const { ctx, rc } = run;
  if (rc.era === '2025') {
    if (!run.legacySide) throw new InternalError('A 2025-era request reached client input without its request side');
    rc.client = createLegacyClientChannel(run.legacySide, rc.clientCapabilities);
    return body(rc.client);
  }
  const side = run.modernSide ?? (ctx ? sdkModernSide(ctx) : undefined);
  if (!side) throw new InternalError('A 2026-07-28 request reached client input without its request side');

  const binding: RequestBinding = { ...run.binding, ...(rc.auth?.subject ? { subject: rc.auth.subject } : {}) };
  // The SDK ran the codec's verify (HMAC, expiry) before this handler; -32602 otherwise.
  const raw = side.requestState();
  const state = raw === undefined ? undefined : acceptPayload(raw, binding);
  const round = (state?.r ?? 0) + 1;
  const session = new ClientInputSession({
    carried: state?.a ?? {},
    responses: side.inputResponses ?? {},
    resumed: state !== undefined,
    validate: (schema: JsonObject, value: unknown) => run.validator.validate(schema, value),
  });
  rc.client = createModernClientChannel(side, rc.clientCapabilities, session);

  let result: T | undefined;
  try {
    result = await body(rc.client);
  } catch (err) {
    if (!(err instanceof InputRequiredSignal)) throw err;
  }
  // Pending input wins even when the handler swallowed the signal: its result was made without the answers.
  if (session.pending.size === 0) return result as T;
  if (round > run.modern.maxRounds) {
    throw new InternalError(`This request needed more than ${run.modern.maxRounds} rounds of client input`, { maxRounds: run.modern.maxRounds });
  }
  const inputRequests: Record<string, InputRequest> = {};
  for (const [key, input] of session.pending) inputRequests[key] = toInputRequest(input);
  const requestState = await run.modern.codec.mint(mintPayload(binding, round, session.used));
  return inputRequired({ inputRequests, requestState });
}
