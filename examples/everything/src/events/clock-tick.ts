/**
 * clock-tick (poll and push, replayable): tick k happens at k × the tick period since the Unix
 * epoch. Every instance emits the tick it sees with the eventId `tick-<k>`, so several instances
 * on one store record each tick once, and a cursor replays the ticks still retained
 * (`mcp.events.retention`): a client that was away longer gets `truncated: true`.
 */
import type { IEventTypeData, McpServerHandle } from 'fa-mcp-sdk';

export const CLOCK_TICK_MS = 5000;

export const clockTick: IEventTypeData = {
  name: 'clock-tick',
  title: 'Clock tick',
  description: `A tick of the server clock, every ${CLOCK_TICK_MS / 1000} s. Replayable: poll or stream from a cursor to get the ticks since.`,
  delivery: ['poll', 'push'],
  inputSchema: {
    type: 'object',
    properties: { every: { type: 'integer', minimum: 1, maximum: 60, description: 'Only every n-th tick (tick number divisible by n).' } },
    additionalProperties: false,
  },
  payloadSchema: {
    type: 'object',
    properties: { tick: { type: 'integer' }, at: { type: 'string', format: 'date-time' } },
    required: ['tick', 'at'],
  },
  matcher: (args, payload) => typeof args.every !== 'number' || (payload.tick as number) % args.every === 0,
};

/** Emits a tick at every period boundary until the server stops; returns the stop function. */
export function startClock(handle: McpServerHandle, periodMs = CLOCK_TICK_MS): () => void {
  let timer: NodeJS.Timeout | undefined;
  const next = () => {
    const now = Date.now();
    timer = setTimeout(tick, periodMs - (now % periodMs));
    timer.unref();
  };
  const tick = () => {
    if (handle.stopped) return;
    const k = Math.floor(Date.now() / periodMs);
    handle.events
      ?.emit('clock-tick', { tick: k, at: new Date(k * periodMs).toISOString() }, { eventId: `tick-${k}`, timestamp: new Date(k * periodMs) })
      .catch((err: unknown) => handle.logger.warn({ err }, 'clock-tick not emitted'));
    next();
  };
  next();
  return () => clearTimeout(timer);
}
