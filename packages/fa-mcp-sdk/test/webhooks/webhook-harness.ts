/** A webhook runtime on a manual clock (no timers fire: the test calls runOnce), and secrets for the tests. */
import { randomBytes } from 'node:crypto';
import { afterEach } from 'vitest';
import { createWebhookRuntime, type WebhookRuntimeOptions } from '../../src/webhooks/webhook-runtime.js';
import { schemaDefaults } from '../../src/config/schema-node.js';
import { webhooksSection } from '../../src/config/sections/webhooks.js';
import type { WebhookEndpointConfig, WebhooksConfig } from '../../src/config/sections/webhooks.js';
import type { Scheduler } from '../../src/webhooks/webhook-dispatcher.js';

export const newSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

export interface ManualClock extends Scheduler {
  advance(ms: number): void;
}

// Starts at the real time: receivers refuse a webhook-timestamp more than 5 minutes off.
export function manualClock(start = Date.now()): ManualClock {
  let now = start;
  return { now: () => now, advance: (ms) => void (now += ms), setTimeout: () => undefined, clearTimeout: () => undefined };
}

export const quietLogger = { info: () => undefined, warn: () => undefined, debug: () => undefined };

export function webhooksConfig(endpoints: WebhookEndpointConfig[], over: Partial<WebhooksConfig> = {}): WebhooksConfig {
  return { ...(schemaDefaults(webhooksSection) as unknown as WebhooksConfig), endpoints, ...over };
}

export function manualRuntime(config: WebhooksConfig, clock: ManualClock, more: Partial<WebhookRuntimeOptions> = {}) {
  return createWebhookRuntime({ config, nodeEnv: 'test', logger: quietLogger, scheduler: clock, random: () => 0.5, autoStart: false, ...more });
}

/** Closes what a test opened (runtimes first, then receivers), after each test of the file that calls it. */
export function closeAfterEach(): <T extends { close(): Promise<void> }>(thing: T) => T {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const thing of open.splice(0).reverse()) await thing.close();
  });
  return (thing) => {
    open.push(thing);
    return thing;
  };
}

/** Polls `check` until it is true; fails after `timeoutMs`. */
export async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
