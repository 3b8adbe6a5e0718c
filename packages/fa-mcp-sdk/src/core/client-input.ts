/**
 * The replay model of client input on the 2026-07-28 revision. A handler asks
 * with `client.elicit()` / `sample()` / `listRoots()`; each call gets a
 * deterministic key from its kind (or the handler's own key) and its rank
 * among the calls with that key. An answer is looked up under that key: first
 * in the answers carried by the signed `requestState` of earlier rounds, then
 * in this round's `inputResponses`. A missing answer registers a pending input
 * request and rejects with an InputRequiredSignal, which stops the handler;
 * the protocol adapter then answers `input_required` with every pending
 * request. Protocol-free: the adapter builds the wire shapes.
 */
import { ValidationError } from './errors.js';
import type { InputKind } from './client-capabilities.js';
import type { ValidationOutcome } from './schema-validator.js';
import type { JsonObject } from './types.js';

/** Stops a handler whose input is not there yet. Internal: never reaches a client. */
export class InputRequiredSignal extends Error {
  readonly key: string;
  constructor(key: string) {
    super(`Client input "${key}" is required; the request will be answered with input_required`);
    this.name = 'InputRequiredSignal';
    this.key = key;
  }
}

export interface PendingInput {
  kind: InputKind;
  params: JsonObject;
}

export interface ClientInputSessionOptions {
  /** Answers of earlier rounds, from a verified requestState. */
  carried?: Record<string, unknown>;
  /** This round's `inputResponses`, as the client sent them (untrusted). */
  responses?: Record<string, unknown>;
  /** A verified requestState came with this round. */
  resumed?: boolean;
  /** Validates accepted form content against its requestedSchema. */
  validate?: (schema: JsonObject, value: unknown) => ValidationOutcome;
}

const isObject = (v: unknown): v is JsonObject => !!v && typeof v === 'object' && !Array.isArray(v);

/** Whether a response has the shape of an answer to an input request of this kind. */
export function fitsKind(kind: InputKind, answer: unknown): answer is JsonObject {
  if (!isObject(answer)) return false;
  if (kind === 'elicitation') return answer.action === 'accept' || answer.action === 'decline' || answer.action === 'cancel';
  if (kind === 'sampling') return typeof answer.role === 'string' && (isObject(answer.content) || Array.isArray(answer.content));
  return Array.isArray(answer.roots);
}

export class ClientInputSession {
  /** Input requests this run asked for and found no answer to, by key. */
  readonly pending = new Map<string, PendingInput>();
  /** Answers this run consumed, by key: what the next round's requestState must carry. */
  readonly used: Record<string, JsonObject> = {};
  readonly resumed: boolean;
  private readonly ranks = new Map<string, number>();
  private readonly carried: Record<string, unknown>;
  private readonly responses: Record<string, unknown>;
  private readonly validate: ClientInputSessionOptions['validate'];

  constructor(opts: ClientInputSessionOptions = {}) {
    this.carried = opts.carried ?? {};
    this.responses = opts.responses ?? {};
    this.resumed = opts.resumed ?? false;
    this.validate = opts.validate;
  }

  /** The key of the next call with this base key: `base`, then `base-2`, `base-3`... */
  nextKey(base: string): string {
    const rank = (this.ranks.get(base) ?? 0) + 1;
    this.ranks.set(base, rank);
    return rank === 1 ? base : `${base}-${rank}`;
  }

  /**
   * The answer to this input request, or a rejection with InputRequiredSignal
   * after registering it as pending. Registers synchronously, so requests made
   * together (`Promise.all`) all end up in the same `input_required` result.
   */
  ask(kind: InputKind, params: JsonObject, key?: string): Promise<JsonObject> {
    const k = this.nextKey(key ?? kind);
    let answer: JsonObject | undefined;
    try {
      answer = this.answerFor(k, kind, params);
    } catch (err) {
      return Promise.reject(err);
    }
    if (answer) {
      this.used[k] = answer;
      return Promise.resolve(answer);
    }
    this.pending.set(k, { kind, params });
    // Rejects a turn later than a refusal would, as a real request settles later than a
    // local check on 2025: in Promise.all a missing capability wins over a pending question.
    const signal = new InputRequiredSignal(k);
    const stop = new Promise<never>((_, reject) => setImmediate(() => reject(signal)));
    // Marked handled: a handler that never awaits this call must not crash the process.
    stop.catch(() => undefined);
    return stop;
  }

  private answerFor(key: string, kind: InputKind, params: JsonObject): JsonObject | undefined {
    // An answer carried from an earlier round was checked when it arrived.
    const carried = this.carried[key];
    if (fitsKind(kind, carried)) return carried;
    const fresh = this.responses[key];
    if (!fitsKind(kind, fresh)) return undefined;
    const schema = params.requestedSchema;
    if (kind === 'elicitation' && fresh.action === 'accept' && isObject(schema) && this.validate) {
      const outcome = this.validate(schema, fresh.content ?? {});
      if (!outcome.ok) {
        throw new ValidationError(`The answer to input request "${key}" does not match its requestedSchema`, { key, issues: outcome.issues });
      }
    }
    return fresh;
  }
}
