/**
 * Three processes of the everything server on one PostgreSQL database (made for this file and
 * dropped after it), started with DB_MAIN_URL only: the example then keeps sessions, tasks,
 * minted resources and resumability in PostgreSQL and sends over its notification bus. A 2025-era
 * session whose requests go to two instances and whose GET stream is held by the third gets what
 * its toggles send and sees its session resources everywhere; a 2026-07-28 task created on one
 * instance is followed (stages, input, result) on another; a minted resource reads anywhere; an
 * MCP Events alert raised on one instance is polled on another from a third's cursor and pushed
 * to a stream held elsewhere.
 */
import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, LOCAL_PG_URL, pgAnswers } from '../../../scripts/cluster/cluster.mjs';
import { serviceAvailable } from '../../../scripts/test-kit/ci-checks.mjs';
import { FORM_VALUES } from './helpers/answers.js';
import { taskClient, v1Http, v2Http, type V1 } from './helpers/clients.js';
import { startEverything, type EverythingProcess } from './helpers/server-process.js';
import { waitUntil } from './helpers/wait.js';

const PG_URL = process.env.FA_MCP_TEST_PG_URL ?? LOCAL_PG_URL;
const ready = serviceAvailable(await pgAnswers(PG_URL), `PostgreSQL at ${new URL(PG_URL).host}`, 'run scripts/ci/start-postgres.sh, or set FA_MCP_TEST_PG_URL');

/** A Standard Schema that takes any object (the extension's shapes are checked by the assertions). */
const Loose = { '~standard': { version: 1, vendor: 'everything-test', validate: (value: unknown) => ({ value: value as Record<string, unknown> }) } } as const;

type Result = { content: Array<{ type: string; uri?: string; text?: string }>; structuredContent?: Record<string, unknown>; isError?: boolean };

let db: { url: string; drop(): Promise<void> };
let instances: EverythingProcess[] = [];

/**
 * A load balancer without stickiness, in the client: the GET stream to `getTo`, each other
 * request to the next of `postTo`; `served` counts the requests each instance got.
 */
function routed(getTo: number, postTo: number[]) {
  const hosts = instances.map((i) => new URL(i.mcpUrl).host);
  const served = instances.map(() => 0);
  let next = 0;
  const fetchRouted = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    const i = method === 'GET' ? getTo : (postTo[next++ % postTo.length] as number);
    served[i] = (served[i] as number) + 1;
    const target = new URL(input instanceof Request ? input.url : String(input));
    target.host = hosts[i] as string;
    return fetch(target, init);
  };
  return { fetch: fetchRouted, served };
}

describe.runIf(ready)('three instances on one PostgreSQL', () => {
  beforeAll(async () => {
    db = await createDatabase(PG_URL, `fa_mcp_everything_${randomBytes(4).toString('hex')}`);
    const env = {
      DB_MAIN_URL: db.url,
      DB_MAIN_POOL_SIZE: '4',
      // What every instance must share: the requestState key and the pagination cursor key.
      MCP_REQUEST_STATE_SECRET: 'the-secret-every-instance-of-the-example-shares',
      MCP_PAGINATION_CURSOR_SECRET: 'the-cursor-secret-every-instance-shares',
      SIMULATED_LOGGING_INTERVAL_MS: '50',
      SUBSCRIBER_UPDATES_INTERVAL_MS: '50',
    };
    instances = await Promise.all(['a', 'b', 'c'].map((name) => startEverything(env, `everything-${name}`)));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop()));
    await db?.drop();
  }, 60_000);

  it('a 2025-era session: requests on A and C, its GET stream on B, gets the toggles\' messages and its session resources everywhere', async () => {
    const route = routed(1, [0, 2]);
    let c: V1 | undefined;
    try {
      c = await v1Http(instances[0]?.mcpUrl as string, {}, { fetch: route.fetch });
      const client = c;
      const call = async (name: string, args: Record<string, unknown> = {}) => (await client.client.callTool({ name, arguments: args }, CallToolResultSchema)) as Result;
      await client.client.subscribeResource({ uri: 'demo://resource/dynamic/text/1' });
      await client.client.setLoggingLevel('error');
      // The timers run where the calls ran (A or C); what they send reaches the stream on B through the bus.
      expect((await call('toggle-subscriber-updates')).content[0]?.text).toMatch(/^Subscriber updates started/);
      expect((await call('toggle-simulated-logging')).content[0]?.text).toMatch(/^Simulated logging started/);
      await waitUntil(() => client.inbox.updated.length >= 5 && client.inbox.logs.length >= 5, 20_000, 'updates and log messages on the GET stream');
      expect((await call('toggle-subscriber-updates')).content[0]?.text).toMatch(/^Subscriber updates stopped/);
      expect((await call('toggle-simulated-logging')).content[0]?.text).toMatch(/^Simulated logging stopped/);
      expect(new Set(client.inbox.updated)).toEqual(new Set(['demo://resource/dynamic/text/1']));
      for (const log of client.inbox.logs) expect(['error', 'critical', 'alert', 'emergency']).toContain(log.level);

      // A session resource made on one instance is listed and read on the others.
      const data = `data:text/plain;base64,${Buffer.from('shared across instances').toString('base64')}`;
      expect((await call('gzip-file-as-resource', { name: 'shared.gz', data })).content[0]?.uri).toBe('demo://resource/session/shared.gz');
      for (let i = 0; i < 2; i++) {
        expect((await client.client.listResources()).resources.map((r) => r.uri)).toContain('demo://resource/session/shared.gz');
        const [gz] = (await client.client.readResource({ uri: 'demo://resource/session/shared.gz' })).contents as Array<{ blob: string }>;
        expect(gunzipSync(Buffer.from(gz?.blob as string, 'base64')).toString()).toBe('shared across instances');
      }
      // Every instance took part: A and C the requests, B the stream.
      expect(route.served.every((n) => n > 0), JSON.stringify(route.served)).toBe(true);
    } finally {
      await c?.close();
    }
  });

  it('a 2026-07-28 task created on A is followed on B: its stages, its input request (tasks/update on B) and its result', async () => {
    const [a, b] = instances as [EverythingProcess, EverythingProcess];
    const tasks = await taskClient(a.mcpUrl, { elicitation: { form: {} } }, b.mcpUrl);
    try {
      const exec = await tasks.session.callTool('simulate-research-query', { topic: 'mercury', ambiguous: true }, { task: { preference: 'require' } });
      if (exec.kind !== 'task') throw new Error(`expected a task, got ${exec.kind}`);
      const controller = tasks.session.task(exec.handle.taskId);
      const settled = exec.settle();
      // tasks/get on B shows what the handler on A reported.
      const stage = await waitUntil(async () => {
        const view = await controller.snapshot();
        return view.statusMessage?.startsWith('Stage ') ? view.statusMessage : undefined;
      }, 20_000, 'a stage in tasks/get on B');
      expect(stage).toMatch(/^Stage [1-4] of 4: /);
      const result = resultFromTaskOutcome((await settled).outcome) as Result;
      expect(result.structuredContent).toMatchObject({ topic: `mercury (${String(FORM_VALUES.interpretation)})`, clarified: FORM_VALUES.interpretation });
      expect((await controller.snapshot()).status).toBe('completed');
    } finally {
      await tasks.close();
    }
  });

  it('a resource minted on A by a 2026-07-28 client reads on C', async () => {
    const [a, , c] = instances as [EverythingProcess, EverythingProcess, EverythingProcess];
    const minter = await v2Http(a.mcpUrl, {});
    const reader = await v2Http(c.mcpUrl, {});
    try {
      const data = `data:text/plain;base64,${Buffer.from('minted on A').toString('base64')}`;
      const r = (await minter.client.callTool({ name: 'gzip-file-as-resource', arguments: { name: 'a.gz', data } })) as Result;
      const uri = r.content[0]?.uri as string;
      expect(uri).toMatch(/^demo:\/\/resource\/minted\//);
      const [gz] = (await reader.client.readResource({ uri })).contents as Array<{ blob: string }>;
      expect(gunzipSync(Buffer.from(gz?.blob as string, 'base64')).toString()).toBe('minted on A');
    } finally {
      await minter.close();
      await reader.close();
    }
  });

  it('MCP Events: an alert raised on A is polled on C from the cursor B issued, and pushed to a stream held on B', async () => {
    const [a, b, c] = instances as [EverythingProcess, EverythingProcess, EverythingProcess];
    const raiser = await v2Http(a.mcpUrl, {});
    const holder = await v2Http(b.mcpUrl, {});
    const poller = await v2Http(c.mcpUrl, {});
    const abort = new AbortController();
    try {
      type Poll = { events: Array<{ data: { message: string } }>; cursor: string | null };
      const start = (await holder.client.request({ method: 'events/poll', params: { name: 'alert', cursor: null, arguments: { severity: 'critical' } } }, Loose)) as unknown as Poll;
      const pushed: string[] = [];
      let active = false;
      holder.client.setNotificationHandler('notifications/events/active', { params: Loose }, () => void (active = true));
      holder.client.setNotificationHandler('notifications/events/event', { params: Loose }, (p) => void pushed.push(String((p as { data: { message: string } }).data.message)));
      holder.client.request({ method: 'events/stream', params: { name: 'alert', cursor: start.cursor } }, Loose, { signal: abort.signal, timeout: 60_000 }).catch(() => undefined);
      await waitUntil(() => active, 10_000, 'the stream on B to be active');
      await raiser.client.callTool({ name: 'trigger-event', arguments: { message: 'raised on A', severity: 'critical' } });
      await waitUntil(() => pushed.includes('raised on A'), 10_000, 'the alert pushed to the stream on B');
      const polled = (await poller.client.request({ method: 'events/poll', params: { name: 'alert', cursor: start.cursor, arguments: { severity: 'critical' } } }, Loose)) as unknown as Poll;
      expect(polled.events.map((e) => e.data.message)).toEqual(['raised on A']);
      expect(pushed).toEqual(['raised on A']);
    } finally {
      abort.abort();
      await Promise.all([raiser.close(), holder.close(), poller.close()]);
    }
  });
});
