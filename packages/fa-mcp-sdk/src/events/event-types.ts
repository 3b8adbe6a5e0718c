/**
 * What a server author declares in `McpServerData.events`: one entry per event type, as
 * easy as a tool — a name, a description, the subscription arguments (`inputSchema`), the
 * payload (`payloadSchema`), the delivery modes, whether it replays, who may see it.
 */
import type { IAccessRequirements } from '../core/item-types.js';
import type { JsonObject } from '../core/json-object.js';
import type { AuthInfo } from '../core/request-context.js';

/** How a client may receive an event type: `events/poll`, `events/stream`, `events/subscribe` (signed webhooks). */
export type TEventDeliveryMode = 'poll' | 'push' | 'webhook';

/** What a matcher learns of the subscription besides its arguments. */
export interface IEventMatchContext {
  /** The subscriber (the principal of its poll, stream or webhook subscription); undefined when anonymous. */
  auth?: Pick<AuthInfo, 'subject' | 'scopes' | 'groups'>;
  mode: TEventDeliveryMode;
}

export interface IEventTypeData extends IAccessRequirements {
  /** The name clients subscribe to (`incident.created`, `clock-tick`): 1-128 of A-Z a-z 0-9 _ - . / */
  name: string;
  title?: string;
  /** What the event means and when it fires (what an agent reads to decide to subscribe). */
  description?: string;
  /**
   * JSON Schema of the subscription arguments (filters, options), checked with ajv on every
   * poll, stream and subscribe like tool arguments (-32602 naming the field). Default: an
   * object with no declared properties.
   */
  inputSchema?: JsonObject;
  /** JSON Schema of each occurrence's `data`: an emitted payload that breaks it is refused at emit. */
  payloadSchema: JsonObject;
  /** The modes offered; default `['poll', 'push']` (webhook needs an authenticated caller). */
  delivery?: TEventDeliveryMode[];
  /**
   * Whether occurrences are kept and a cursor replays them (default true): a poll, stream or
   * subscribe with a cursor gets what happened since, within `mcp.events.retention`. false: an
   * emit-only type, delivered to whoever listens now; its cursor is always null.
   */
  replay?: boolean;
  /**
   * Whether a subscription with these arguments receives this payload (default: every
   * subscription of the type does). Applied on every mode, also to replayed occurrences.
   */
  matcher?: (subscriptionArgs: JsonObject, payload: JsonObject, context: IEventMatchContext) => boolean;
  _meta?: JsonObject;
}
