/**
 * The dispatcher drains a backlog without waiting for its poll interval between batches. An
 * ordered outbox (the Events extension's webhook subscriptions) hands out one delivery per
 * endpoint at a time, so every batch is short of `concurrency`; a loop that waited the poll
 * interval after each short batch delivered one occurrence per second per subscription once
 * emitting stopped. Here the scheduler is manual: the test runs each timer the dispatcher sets
 * and counts the poll-interval waits it asked for while deliveries were still due.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryWebhookOutbox } from '../../src/webhooks/outbox-memory.js';
import { WebhookDispatcher, type Scheduler } from '../../src/webhooks/webhook-dispatcher.js';
import { WebhookSigner } from '../../src/webhooks/webhook-signer.js';
import type { ResolvedEndpoint } from '../../src/webhooks/webhook-endpoint.js';
import { newSecret, quietLogger } from './webhook-harness.js';

const POLL_MS = 60_000;

/** A scheduler whose timers run only when the test says, recording the delay each asked for. */
function steppedScheduler() {
  const timers: Array<{ fn: () => void; ms: number }> = [];
  const scheduler: Scheduler = {
    now: () => Date.now(),
    setTimeout: (fn, ms) => {
      const t = { fn, ms };
      timers.push(t);
      return t;
    },
    clearTimeout: (h) => {
      const i = timers.indexOf(h as { fn: () => void; ms: number });
      if (i >= 0) timers.splice(i, 1);
    },
  };
  return { scheduler, timers };
}

describe('webhook dispatcher backlog', () => {
  it.each([true, false])('delivers every due delivery (ordered: %s) with no poll-interval wait between batches', async (ordered) => {
    const outbox = new InMemoryWebhookOutbox({ ordered });
    const now = Date.now();
    await outbox.add(Array.from({ length: 12 }, (_, i) => ({ id: `e${i}`, endpoint: 'sub_1', type: 't', body: '{}', now, seq: i + 1 })));
    const endpoint: ResolvedEndpoint = { name: 'sub_1', url: new URL('https://hooks.example.com/in'), signer: new WebhookSigner(newSecret(), 'test.secret'), timeoutMs: 1000, headers: {}, takes: () => true };
    const posted: string[] = [];
    const { scheduler, timers } = steppedScheduler();
    const dispatcher = new WebhookDispatcher({
      outbox,
      endpoints: { get: () => endpoint },
      post: async (attempt) => {
        posted.push(attempt.headers['webhook-id'] as string);
        return { kind: 'response', status: 204 };
      },
      retry: { maxAttempts: 3, initialBackoffMs: 1000, maxBackoffMs: 10_000 },
      owner: 'me',
      leaseMs: 30_000,
      pollIntervalMs: POLL_MS,
      concurrency: 4,
      scheduler,
      random: () => 0.5,
      logger: quietLogger,
      userAgent: 'test',
    });
    dispatcher.start();
    let waitsWhileDue = 0;
    const deadline = Date.now() + 10_000;
    while (posted.length < 12 && Date.now() < deadline) {
      const next = timers.shift();
      if (!next) {
        await new Promise((r) => setImmediate(r));
        continue;
      }
      if (next.ms >= POLL_MS) waitsWhileDue++;
      next.fn();
      // Let the batch the timer started finish (its attempts are promises).
      for (let i = 0; i < 20 && timers.length === 0; i++) await new Promise((r) => setImmediate(r));
    }
    await dispatcher.close();
    expect(posted).toEqual(ordered ? Array.from({ length: 12 }, (_, i) => `e${i}`) : expect.arrayContaining(Array.from({ length: 12 }, (_, i) => `e${i}`)));
    expect(waitsWhileDue).toBe(0);
  });
});
