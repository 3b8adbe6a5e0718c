/**
 * The SSE wire format the SDK's Streamable HTTP transports write, for the
 * answers the fast paths write themselves (fast-lane.ts, session-exchange.ts):
 * the response headers, the keep-alive comment and its interval, one event,
 * and the last event's data of an SDK answer.
 */

/**
 * No `Connection` header (the SDK's transports set `keep-alive`): node writes it for every response
 * itself, `keep-alive` or `close` as the connection goes, and an explicit `keep-alive` overrode the
 * request front's `Connection: close` while the server drains (request-front.ts).
 */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
};

/** The SDK's keep-alive interval on event streams, and the comment it writes. */
export const KEEP_ALIVE_MS = 15_000;
export const KEEP_ALIVE = ': keepalive\n\n';

/** One `message` event, with its event id when it has one. */
export const sseEvent = (json: string, eventId?: string): string =>
  eventId === undefined ? `event: message\ndata: ${json}\n\n` : `event: message\nid: ${eventId}\ndata: ${json}\n\n`;

/** The data of the last non-empty event of an SSE body (the answer of an SDK event stream). */
export function lastEventData(text: string): string | undefined {
  const data = text.split('\n').filter((line) => line.startsWith('data:') && line.slice(5).trim() !== '');
  return data.length ? (data[data.length - 1] as string).slice(5).trim() : undefined;
}
