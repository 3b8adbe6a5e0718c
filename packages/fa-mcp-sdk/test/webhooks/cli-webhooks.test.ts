/**
 * `fa-mcp webhooks list | resend` on a real PostgreSQL outbox: a dead event
 * is listed with why it died, re-sent by id it becomes pending (attempts
 * reset) for a running instance to deliver; the memory store is refused with
 * a hint, since that outbox lives in the server process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/cli-io.js';
import { webhooksList, webhooksResend } from '../../src/cli/commands/webhooks.js';
import { PostgresWebhookOutbox } from '../../src/webhooks/outbox-postgres.js';
import { recordingIo } from '../devtools/cli-helpers.js';
import { createTestSchema, type TestSchema } from '../tasks/pg-test-db.js';

let db: TestSchema;
let outbox: PostgresWebhookOutbox;
beforeAll(async () => {
  db = await createTestSchema('webhooks_cli');
  outbox = new PostgresWebhookOutbox(db.pool);
  await outbox.migrate();
});
afterAll(async () => {
  await db.drop();
});

const ioFor = (store = 'postgres') => {
  const io = recordingIo();
  io.env = { WEBHOOKS_STORE: store, DB_MAIN_URL: db.url };
  return io;
};

describe('fa-mcp webhooks', () => {
  it('lists dead events and re-sends one by id', async () => {
    const now = Date.now();
    await outbox.add([{ id: 'msg_dead_1', endpoint: 'orders', type: 'order.created', body: '{}', now }]);
    await outbox.claim('me', now, now + 1000, 10);
    await outbox.record('msg_dead_1', 'orders', 'me', { outcome: 'dead', error: 'HTTP 410', status: 410, now });

    const list = ioFor();
    expect(await runCommand(list, () => webhooksList(list, {}))).toBe(0);
    expect(list.stdout).toMatch(/msg_dead_1 {2}orders {2}order\.created {2}attempts=1 .* HTTP 410/);

    const json = ioFor();
    await runCommand(json, () => webhooksList(json, { json: true }));
    expect(JSON.parse(json.stdout)).toMatchObject([{ id: 'msg_dead_1', status: 'dead', lastStatus: 410 }]);

    const resend = ioFor();
    expect(await runCommand(resend, () => webhooksResend(resend, ['msg_dead_1'], {}))).toBe(0);
    expect(resend.stdout).toContain('1 dead webhook event queued again');
    expect((await outbox.list('pending', 10)).map((d) => [d.id, d.attempts])).toEqual([['msg_dead_1', 0]]);

    const empty = ioFor();
    await runCommand(empty, () => webhooksList(empty, {}));
    expect(empty.stdout).toContain('no dead webhook events');
  });

  it('refuses the memory store and a resend without ids or --all', async () => {
    const mem = ioFor('memory');
    expect(await runCommand(mem, () => webhooksList(mem, {}))).toBe(2);
    expect(mem.stderr).toContain('WEBHOOKS_STORE=postgres');
    const none = ioFor();
    expect(await runCommand(none, () => webhooksResend(none, [], {}))).toBe(2);
  });
});
