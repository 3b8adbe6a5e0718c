/**
 * The declared event types, checked at start (names, schemas compiled once with ajv, delivery
 * modes), with what every method needs of them: the `events/list` entry, argument and payload
 * validation naming the field, the matcher, who may see the type.
 */
import { canAccess, type AccessSubject } from '../core/access-check.js';
import { ValidationError } from '../core/errors.js';
import type { JsonObject } from '../core/json-object.js';
import { SchemaValidator } from '../core/schema-validator.js';
import { EventNotFoundError, EventUnsupportedError } from './events-errors.js';
import type { IEventMatchContext, IEventTypeData, TEventDeliveryMode } from './event-types.js';

const NAME = /^[A-Za-z0-9_./-]{1,128}$/;
const MODES: readonly TEventDeliveryMode[] = ['poll', 'push', 'webhook'];
const ANY_OBJECT: JsonObject = { type: 'object' };

export interface EventTypeEntry {
  def: IEventTypeData;
  delivery: TEventDeliveryMode[];
  replay: boolean;
  inputSchema: JsonObject;
}

export class EventRegistry {
  private readonly types = new Map<string, EventTypeEntry>();
  private readonly validator = new SchemaValidator();

  constructor(declared: readonly IEventTypeData[]) {
    for (const def of declared) {
      if (!NAME.test(def.name)) throw new Error(`events: "${def.name}" is not a valid event type name (1-128 of A-Z a-z 0-9 _ . / -)`);
      if (this.types.has(def.name)) throw new Error(`events: the event type ${def.name} is declared twice`);
      const delivery: TEventDeliveryMode[] = [...new Set<TEventDeliveryMode>(def.delivery ?? ['poll', 'push'])];
      if (delivery.length === 0 || delivery.some((m) => !MODES.includes(m))) throw new Error(`events[${def.name}].delivery: a non-empty list of poll, push, webhook`);
      if (def.replay === false && delivery.includes('poll')) throw new Error(`events[${def.name}]: an event type without replay (replay: false) cannot offer poll (a poll needs a cursor to continue from)`);
      if (!def.payloadSchema || typeof def.payloadSchema !== 'object') throw new Error(`events[${def.name}].payloadSchema is required`);
      const inputSchema = def.inputSchema ?? ANY_OBJECT;
      for (const [what, schema] of [['inputSchema', inputSchema], ['payloadSchema', def.payloadSchema]] as const) {
        try {
          this.validator.compile(schema);
        } catch (err) {
          throw new Error(`events[${def.name}].${what} does not compile: ${(err as Error).message}`);
        }
      }
      this.types.set(def.name, { def, delivery, replay: def.replay ?? true, inputSchema });
    }
  }

  get size(): number {
    return this.types.size;
  }

  names(): string[] {
    return [...this.types.keys()];
  }

  /** The type; -32011 when the server declares none of that name. */
  get(name: string): EventTypeEntry {
    const entry = this.types.get(name);
    if (!entry) throw new EventNotFoundError('event', name);
    return entry;
  }

  /** The type for a method of `mode`: -32014 when it does not offer that mode. */
  forMode(name: string, mode: TEventDeliveryMode): EventTypeEntry {
    const entry = this.get(name);
    if (!entry.delivery.includes(mode)) throw new EventUnsupportedError(`The event type ${name} is not delivered by ${mode} (it offers: ${entry.delivery.join(', ')})`, { feature: 'deliveryMode', value: mode });
    return entry;
  }

  /** The types the caller may see, in declaration order. */
  visible(who: AccessSubject): EventTypeEntry[] {
    return [...this.types.values()].filter((e) => canAccess(e.def, who));
  }

  /** Whether a subscriber (of a webhook subscription, checked again at every emit) may receive the type. */
  mayReceive(entry: EventTypeEntry, auth: { subject: string; scopes: string[]; groups: string[] } | undefined): boolean {
    return canAccess(entry.def, { ...(auth ? { auth: { ...auth, claims: {} } } : {}), transport: 'http' });
  }

  /** Checks subscription arguments against the type's inputSchema: -32602 naming the first field that fails. */
  checkArguments(entry: EventTypeEntry, args: unknown): JsonObject {
    const value = args ?? {};
    const outcome = this.validator.validate(entry.inputSchema, value);
    if (!outcome.ok) {
      const first = outcome.issues[0];
      const field = first && first.field !== '(root)' ? `arguments.${first.field}` : 'arguments';
      throw new ValidationError(`Invalid arguments for event ${entry.def.name}: ${field} ${first?.reason ?? 'is invalid'}`, { field, issues: outcome.issues });
    }
    return value as JsonObject;
  }

  /** Checks an emitted payload against the type's payloadSchema (the first failing field named). */
  checkPayload(entry: EventTypeEntry, data: unknown): void {
    const outcome = this.validator.validate(entry.def.payloadSchema, data);
    if (outcome.ok) return;
    const first = outcome.issues[0];
    throw new ValidationError(`The payload of event ${entry.def.name} does not match its payloadSchema: ${first?.field ?? '(root)'} ${first?.reason ?? 'is invalid'}`, {
      field: first ? `data.${first.field}` : 'data',
      issues: outcome.issues,
    });
  }

  /** Whether a subscription with `args` receives `payload` (a matcher that throws says no). */
  matches(entry: EventTypeEntry, args: JsonObject, payload: JsonObject, context: IEventMatchContext): boolean {
    const matcher = entry.def.matcher;
    if (!matcher) return true;
    try {
      return matcher(args, payload, context) === true;
    } catch {
      return false;
    }
  }

  /** The `events/list` entry of a type. */
  describe(entry: EventTypeEntry): JsonObject {
    const { def } = entry;
    return {
      name: def.name,
      ...(def.title ? { title: def.title } : {}),
      ...(def.description ? { description: def.description } : {}),
      delivery: [...entry.delivery],
      inputSchema: entry.inputSchema,
      payloadSchema: def.payloadSchema,
      ...(def._meta ? { _meta: def._meta } : {}),
    };
  }
}
