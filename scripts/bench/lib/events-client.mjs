// The bench's side of the MCP Events extension on 2026-07-28 over HTTP (lib/events-cost.mjs): requests
// with the per-request envelope, the `emit_event` tool of the bench server (servers/events.mjs), and a
// subscriber per delivery mode — an open `events/stream` (push), a long-polling `events/poll` loop
// (poll), a signed webhook subscription to a loopback receiver (webhook, the library's own
// startWebhookReceiver, bundled from its sources). Every subscriber hands what arrives to one
// Arrivals record, stamped on arrival with this process's clock.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { BENCH_EVENT, EMIT_TOOL } from '../servers/events.mjs';
import { importSdkSource } from './build.mjs';
import { ERA_2026 } from './mcp-http.mjs';

const META = {
  'io.modelcontextprotocol/protocolVersion': ERA_2026,
  'io.modelcontextprotocol/clientInfo': { name: 'fa-mcp-bench', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
/** This process's high-resolution wall clock (the bench server stamps `emittedAt` the same way). */
export const wallNow = () => performance.timeOrigin + performance.now();

let nextId = 0;

/** Calls `onMessage` with each JSON-RPC message of an SSE body fed in chunks of any size. */
function sseReader(onMessage) {
  let buffer = '';
  return (chunk) => {
    buffer = (buffer + chunk).replace(/\r\n/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trimStart())
        .join('\n');
      if (data) onMessage(JSON.parse(data));
    }
  };
}

function post(server, method, params, signal) {
  const id = `ev-${++nextId}`;
  const res = fetch(server.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': ERA_2026,
      'mcp-method': method,
      ...(method === 'tools/call' ? { 'mcp-name': params.name } : {}),
      ...server.headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } }),
    signal,
  });
  return { id, res };
}

/** One request; resolves with its result, rejects with the error the server answered. */
export async function call(server, method, params, signal) {
  const { id, res: pending } = post(server, method, params, signal);
  const res = await pending;
  const text = await res.text();
  const messages = [];
  if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) sseReader((m) => messages.push(m))(`${text}\n\n`);
  else messages.push(JSON.parse(text));
  const answer = messages.find((m) => m.id === id);
  if (!answer || answer.error) throw new Error(`${method}: HTTP ${res.status} ${JSON.stringify(answer?.error ?? text).slice(0, 300)}`);
  return answer.result;
}

/** Asks the bench server to emit the positions from … from + count - 1; resolves when they are stored. */
export async function emit(server, from, count) {
  const result = await call(server, 'tools/call', { name: EMIT_TOOL, arguments: { from, count, sentAt: performance.now() } });
  if (result.isError || result.structuredContent?.emitted !== count) throw new Error(`${EMIT_TOOL}: ${JSON.stringify(result).slice(0, 300)}`);
}

/**
 * What reached a subscriber, by position (first arrival kept, repeats counted), stamped with this
 * process's monotonic and wall clocks; and waits for a condition on it, checked at each arrival.
 */
export class Arrivals {
  byPosition = new Map();
  duplicates = 0;
  #waiters = new Set();
  #windows = new Set();
  #failure;

  add(payloads) {
    const at = performance.now();
    const wall = wallNow();
    for (const p of payloads) {
      if (this.byPosition.has(p.seq)) {
        this.duplicates++;
        continue;
      }
      this.byPosition.set(p.seq, { at, wall, sentAt: p.sentAt, emittedAt: p.emittedAt });
      for (const w of this.#windows) {
        if (p.seq >= w.from && p.seq < w.to) {
          w.count++;
          w.lastAt = at;
        }
      }
    }
    for (const w of [...this.#waiters]) w();
  }

  /** A live count of the positions from … to - 1 that arrived, and when the last of them did. */
  window(from, to) {
    const w = { from, to, count: 0, lastAt: 0 };
    for (let seq = from; seq < to; seq++) {
      const a = this.byPosition.get(seq);
      if (a) {
        w.count++;
        w.lastAt = Math.max(w.lastAt, a.at);
      }
    }
    this.#windows.add(w);
    return w;
  }

  /** The arrivals of the positions from … to - 1. */
  in(from, to) {
    const out = [];
    for (let seq = from; seq < to; seq++) {
      const a = this.byPosition.get(seq);
      if (a) out.push(a);
    }
    return out;
  }

  /** The subscriber broke: whoever waits is told at once. */
  fail(err) {
    this.#failure ??= err;
    for (const w of [...this.#waiters]) w();
  }

  /** Resolves true once `done()` holds, false at the deadline; rejects when the subscriber failed. */
  until(done, ms) {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.#failure) finish(() => reject(this.#failure));
        else if (done()) finish(() => resolve(true));
      };
      const timer = setTimeout(() => finish(() => resolve(false)), ms);
      const finish = (settle) => {
        clearTimeout(timer);
        this.#waiters.delete(check);
        settle();
      };
      this.#waiters.add(check);
      check();
    });
  }
}

async function within(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** push: an open events/stream from now; resolved once `notifications/events/active` came. */
async function openPush(server, arrivals) {
  const abort = new AbortController();
  const { res: pending } = post(server, 'events/stream', { name: BENCH_EVENT }, abort.signal);
  const res = await pending;
  if (!(res.headers.get('content-type') ?? '').includes('text/event-stream')) throw new Error(`events/stream: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
  let onActive;
  const active = new Promise((resolve) => (onActive = resolve));
  const feed = sseReader((m) => {
    if (m.method === 'notifications/events/event') arrivals.add([m.params.data]);
    else if (m.method === 'notifications/events/active') onActive();
    else if (m.error || m.result) arrivals.fail(new Error(`events/stream ended: ${JSON.stringify(m).slice(0, 300)}`));
  });
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      feed(decoder.decode(value, { stream: true }));
    }
  })().catch((err) => abort.signal.aborted || arrivals.fail(err));
  try {
    await within(active, 10_000, 'events/stream');
  } catch (err) {
    abort.abort();
    throw err;
  }
  return {
    close: async () => {
      abort.abort();
      await pump;
    },
  };
}

/** poll: one client polling from now with `timeoutMs` (a held poll answers as soon as an event is stored). */
async function openPoll(server, arrivals, { timeoutMs }) {
  const abort = new AbortController();
  let { cursor } = await call(server, 'events/poll', { name: BENCH_EVENT, cursor: null });
  const loop = (async () => {
    while (!abort.signal.aborted) {
      const answer = await call(server, 'events/poll', { name: BENCH_EVENT, cursor, timeoutMs }, abort.signal);
      if (answer.events.length > 0) arrivals.add(answer.events.map((e) => e.data));
      cursor = answer.cursor;
    }
  })().catch((err) => abort.signal.aborted || arrivals.fail(err));
  return {
    close: async () => {
      abort.abort();
      await loop;
    },
  };
}

/** webhook: a loopback receiver (signatures verified; only verified deliveries count), subscribed from now. */
async function openWebhook(server, arrivals) {
  const { startWebhookReceiver } = await importSdkSource('src/testing/webhook-receiver.ts');
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const receiver = await startWebhookReceiver({
    secret,
    respond: (hook) => {
      arrivals.add([JSON.parse(hook.body).data]);
      return { status: 204 };
    },
  });
  const delivery = { mode: 'webhook', url: receiver.url, secret };
  try {
    await call(server, 'events/subscribe', { name: BENCH_EVENT, delivery, ttlMs: 3_600_000 });
  } catch (err) {
    await receiver.close();
    throw err;
  }
  return {
    close: async () => {
      try {
        await call(server, 'events/unsubscribe', { name: BENCH_EVENT, delivery: { url: receiver.url } });
      } finally {
        await receiver.close();
      }
      const unverified = receiver.received.filter((h) => !h.verified).length;
      if (unverified > 0) throw new Error(`webhook: ${unverified} deliveries failed signature verification`);
    },
  };
}

/** Opens the subscriber of one mode; its `close()` ends it. */
export function subscribe(mode, server, arrivals, opts) {
  if (mode === 'push') return openPush(server, arrivals);
  if (mode === 'poll') return openPoll(server, arrivals, opts);
  if (mode === 'webhook') return openWebhook(server, arrivals);
  throw new Error(`unknown delivery mode ${mode}`);
}
