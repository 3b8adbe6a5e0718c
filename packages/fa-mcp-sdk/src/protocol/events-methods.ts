/**
 * The methods of the Events extension (`io.modelcontextprotocol/events`, 2026-07-28) on a
 * per-request SDK server: each runs through the core's pipeline (`runOp`) with its target —
 * the `events` list for events/list, the event type for the others — so rate limits, the
 * authorization of the type (events/events-authorize.ts) and consumer steps apply as to any
 * method. `events/stream` is a long-lived request: its notifications go out on the request's
 * own stream (an SSE response on HTTP) until the client goes or the server stops.
 */
import { fromJsonSchema, type McpServer } from '@modelcontextprotocol/server';
import type { EventsMethod, EventsPort } from '../core/event-port.js';
import type { JsonObject } from '../core/types.js';
import type { SdkOperationRunner } from './sdk-operation.js';

const LOOSE = fromJsonSchema({ type: 'object' } as Parameters<typeof fromJsonSchema>[0]);

export function registerEventsMethods(server: McpServer, events: EventsPort, runOp: SdkOperationRunner): void {
  const serve = (method: EventsMethod, body: (params: JsonObject, op: Parameters<Parameters<SdkOperationRunner>[2]>[0], ctx: Parameters<Parameters<McpServer['server']['setRequestHandler']>[2]>[1]) => Promise<JsonObject>) => {
    // The params are checked by the extension itself (-32602 naming the field), inside the pipeline.
    server.server.setRequestHandler(method, { params: LOOSE }, (value, ctx) => {
      const params = (value ?? {}) as JsonObject;
      const target = method === 'events/list' ? { kind: 'list' as const, name: 'events' } : { kind: 'event' as const, name: typeof params.name === 'string' ? params.name : '' };
      return runOp(ctx, { method, target, params }, (op) => body(op.params, op, ctx) as Promise<never>);
    });
  };
  serve('events/list', (params, op) => events.list(params, op.ctx));
  serve('events/poll', (params, op) => events.poll(params, op.ctx, op.signal));
  serve('events/subscribe', (params, op) => events.subscribe(params, op.ctx));
  serve('events/unsubscribe', (params, op) => events.unsubscribe(params, op.ctx));
  serve('events/stream', (params, op, ctx) =>
    events.stream(params, op.ctx, { notify: (method, notifyParams) => ctx.mcpReq.notify({ method, params: notifyParams } as never) }, ctx.mcpReq.signal, ctx.mcpReq.id),
  );
}
