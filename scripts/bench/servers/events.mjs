// BENCH_EVENTS=1 (lib/events-cost.mjs): the MCP Events extension in the fa-mcp bench server. One event
// type, `bench.tick`, offered on every delivery mode, and a tool, `emit_event`, that emits `count`
// occurrences one after another (each awaited, as a producer would) with the positions `from`…
// `from + count - 1`. Each payload carries the bench's own clock reading taken when it sent the call
// (`sentAt`, handed through unchanged) and this process's high-resolution wall clock just before the
// emit (`emittedAt`, performance.timeOrigin + performance.now()), so the receiving bench measures
// emit → delivery on its own clock and, across the two processes, from the emit() call itself.
import { performance } from 'node:perf_hooks';

export const BENCH_EVENT = 'bench.tick';
export const EMIT_TOOL = 'emit_event';
/** Occurrences one emit_event call may emit. */
export const MAX_EMIT_COUNT = 1000;
/** Occurrences kept per type: mcp.events.retention.maxEvents' default, set here so the bench knows it. */
export const RETENTION = 10_000;

const benchTick = {
  name: BENCH_EVENT,
  description: 'One occurrence per position emitted by the bench (emit_event).',
  delivery: ['poll', 'push', 'webhook'],
  payloadSchema: {
    type: 'object',
    properties: { seq: { type: 'integer' }, sentAt: { type: 'number' }, emittedAt: { type: 'number' } },
    required: ['seq', 'sentAt', 'emittedAt'],
    additionalProperties: false,
  },
};

const emitTool = {
  name: EMIT_TOOL,
  description: `Emits ${BENCH_EVENT} for the positions from … from + count - 1.`,
  inputSchema: {
    type: 'object',
    properties: { from: { type: 'integer', minimum: 0 }, count: { type: 'integer', minimum: 1, maximum: MAX_EMIT_COUNT }, sentAt: { type: 'number' } },
    required: ['from', 'count', 'sentAt'],
    additionalProperties: false,
  },
  handler: async ({ arguments: args, events }) => {
    for (let seq = args.from; seq < args.from + args.count; seq++) {
      await events.emit(BENCH_EVENT, { seq, sentAt: args.sentAt, emittedAt: performance.timeOrigin + performance.now() });
    }
    return { content: [{ type: 'text', text: JSON.stringify({ emitted: args.count }) }], structuredContent: { emitted: args.count } };
  },
};

/**
 * Adds the events configuration to `config`: the memory store with the default retention (RETENTION), swept
 * every second (not every minute) so that a type's log stays at its retention as on a server that has
 * run a while; loopback callbacks allowed although the bench server runs with NODE_ENV=production.
 * Returns what the server declares.
 */
export function benchEvents(config) {
  config.mcp.events = { retention: { maxEvents: RETENTION }, sweepIntervalMs: 1000, webhooks: { allowPrivateNetworks: true } };
  return { tools: [emitTool], events: [benchTick], feature: `MCP Events (${BENCH_EVENT} on poll, push and webhook; memory store)` };
}
