/**
 * The everything server on 2026-07-28 over Streamable HTTP, driven from outside its process by
 * the official v2 client pinned to that revision (no initialize, no session): tools by era,
 * in-band client input (input_required rounds and the signed requestState), Mcp-Param-*
 * headers, per-request log levels, subscriptions/listen streams, minted resources, cache hints;
 * the failure paths with the raw 2026 wire where an official client would not send them.
 */
import { gunzipSync } from 'node:zlib';
import { connectWire2026, WireError } from 'fa-mcp-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_TEXT, ROOTS } from './helpers/answers.js';
import { ALL_CAPABILITIES, v2Http, type V2 } from './helpers/clients.js';
import { rejection } from './helpers/errors.js';
import { FRAMEWORK_TEMPLATES, themedIcons } from './helpers/icons.js';
import { BOTH_ERAS, expectTools, ONLY_2025, ONLY_2026 } from './helpers/seed.js';
import { startEverything, type EverythingProcess } from './helpers/server-process.js';
import { waitUntil } from './helpers/wait.js';

type Block = { type: string; text?: string; uri?: string; name?: string; resource?: Record<string, unknown> };
type Result = { content: Block[]; structuredContent?: Record<string, unknown>; isError?: boolean };
type Contents = Array<{ uri: string; text?: string; blob?: string; mimeType?: string }>;

let server: EverythingProcess;
let full: V2;

const call = async (c: V2, name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>): Promise<Result> =>
  (await c.client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) })) as Result;
const structured = async (c: V2, name: string, args: Record<string, unknown> = {}) => {
  const r = await call(c, name, args);
  expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
  return r.structuredContent as Record<string, unknown>;
};
const text = (r: Result) => r.content.map((b) => b.text ?? '').join('\n');
const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';

beforeAll(async () => {
  server = await startEverything({ MCP_REQUEST_STATE_SECRET: 'an-everything-test-secret-of-32-characters' });
  full = await v2Http(server.mcpUrl, ALL_CAPABILITIES as Record<string, unknown>);
}, 60_000);

afterAll(async () => {
  await full?.close();
  await server?.stop();
});

describe('tools by era (2026-07-28)', () => {
  it('lists the both-era tools and the 2026-07-28 task tools to any client, whatever it declared, never the 2025-era toggles', async () => {
    const bare = await v2Http(server.mcpUrl, {});
    try {
      expectTools((await bare.client.listTools()).tools.map((t) => t.name), [...BOTH_ERAS, ...ONLY_2026], ONLY_2025);
      expectTools((await full.client.listTools()).tools.map((t) => t.name), [...BOTH_ERAS, ...ONLY_2026], ONLY_2025);
    } finally {
      await bare.close();
    }
  });

  it('refuses a call whose client capability the request did not declare with -32021, naming what is missing', async () => {
    const bare = await v2Http(server.mcpUrl, {});
    const formOnly = await v2Http(server.mcpUrl, { elicitation: { form: {} } });
    try {
      const sampling = await rejection(bare.client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'hi' } }));
      expect([sampling.code, sampling.data?.requiredCapabilities]).toEqual([-32021, { sampling: {} }]);
      const roots = await rejection(bare.client.callTool({ name: 'get-roots-list', arguments: {} }));
      expect([roots.code, roots.data?.requiredCapabilities]).toEqual([-32021, { roots: {} }]);
      const url = await rejection(formOnly.client.callTool({ name: 'trigger-url-elicitation', arguments: {} }));
      expect([url.code, url.data?.requiredCapabilities]).toEqual([-32021, { elicitation: { url: {} } }]);
    } finally {
      await bare.close();
      await formOnly.close();
    }
  });

  it('get-header-params: the client mirrors region into Mcp-Param-Region and the tool returns both', async () => {
    expect(await structured(full, 'get-header-params', { region: 'eu-west' })).toEqual({ region: 'eu-west', header: 'eu-west' });
  });

  it('a call whose Mcp-Param-Region disagrees with the body, or lacks it, is refused with -32020 and HTTP 400', async () => {
    const mismatched = connectWire2026({ url: server.mcpUrl }, { headers: { 'mcp-param-region': 'us-east' } });
    const err = await rejection(mismatched.request('tools/call', { name: 'get-header-params', arguments: { region: 'eu-west' } }));
    expect(err.code).toBe(-32020);
    expect(err.data?.mismatch).toMatchObject({ header: 'Mcp-Param-Region' });
    const matching = await mismatched.request('tools/call', { name: 'get-header-params', arguments: { region: 'us-east' } });
    expect(matching.structuredContent).toEqual({ region: 'us-east', header: 'us-east' });
    const without = connectWire2026({ url: server.mcpUrl });
    const none = await without.request('tools/call', { name: 'get-header-params', arguments: { region: 'eu-west' } }).catch((e: unknown) => e);
    expect(none).toBeInstanceOf(WireError);
    expect([(none as WireError).code, (none as WireError).status]).toEqual([-32020, 400]);
  });
});

describe('asking the client in-band (2026-07-28: input_required rounds)', () => {
  it('trigger-elicitation-request asks a form of every field type in an input_required round', async () => {
    const answer = await structured(full, 'trigger-elicitation-request');
    expect(answer.action).toBe('accept');
    expect(answer.content).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com', pets: ['cat', 'dog'] });
    expect(full.answers.asked.at(-1)?.params).toMatchObject({ mode: 'form' });
  });

  it('trigger-multi-step-elicitation carries the name to the colour round in the signed requestState', async () => {
    const before = full.answers.asked.length;
    expect(await structured(full, 'trigger-multi-step-elicitation')).toMatchObject({ name: 'Ada Lovelace', color: 'blue', resumed: true });
    expect(full.answers.asked.slice(before).map((a) => String(a.params.message))).toEqual(['What is your name?', expect.stringMatching(/^Ada Lovelace, what is your favourite colour/)]);
  });

  it('a tampered requestState is refused with -32602; the untampered one resumes with the first answer', async () => {
    const wire = connectWire2026({ url: server.mcpUrl }, { capabilities: { elicitation: { form: {} } } });
    const first = await wire.request('tools/call', { name: 'trigger-multi-step-elicitation', arguments: {} });
    expect(first.resultType).toBe('input_required');
    expect(Object.keys(first.inputRequests as object)).toEqual(['name']);
    const state = String(first.requestState);
    const tampered = state.slice(0, -6) + (state.endsWith('AAAAAA') ? 'BBBBBB' : 'AAAAAA');
    const answer = { name: { action: 'accept', content: { name: 'Grace' } } };
    const err = await rejection(wire.request('tools/call', { name: 'trigger-multi-step-elicitation', arguments: {}, inputResponses: answer, requestState: tampered }));
    expect(err.code).toBe(-32602);
    const second = await wire.request('tools/call', { name: 'trigger-multi-step-elicitation', arguments: {}, inputResponses: answer, requestState: state });
    const colour = (second.inputRequests as Record<string, { params: { message: string } }>).color;
    expect(colour?.params.message).toMatch(/^Grace, what is your favourite colour/);
  });

  it('trigger-url-elicitation elicits in-band with no elicitationId', async () => {
    expect(await structured(full, 'trigger-url-elicitation', { url: 'https://example.com/connect', errorPath: true })).toEqual({
      action: 'accept',
      url: 'https://example.com/connect',
      elicitationId: null,
      path: 'in-band',
    });
    const asked = full.answers.asked.at(-1)?.params;
    expect(asked).toMatchObject({ mode: 'url', url: 'https://example.com/connect' });
    expect(asked).not.toHaveProperty('elicitationId');
  });

  it('trigger-sampling-request and get-roots-list ask in-band', async () => {
    expect(text(await call(full, 'trigger-sampling-request', { prompt: 'Say hi' }))).toContain(ANSWER_TEXT);
    expect(await structured(full, 'get-roots-list')).toMatchObject({ count: 2, roots: ROOTS });
  });
});

describe('logging (2026-07-28: the level each request names)', () => {
  it('trigger-log-messages sends the levels at or above the _meta level, and none to a request that names none', async () => {
    const c = await v2Http(server.mcpUrl, {});
    try {
      await call(c, 'trigger-log-messages');
      await call(c, 'trigger-log-messages', {}, { [LOG_LEVEL]: 'critical' });
      await waitUntil(() => c.inbox.logs.length >= 3, 10_000, 'the log messages');
      expect(c.inbox.logs.map((l) => l.level)).toEqual(['critical', 'alert', 'emergency']);
      expect(c.inbox.logs.every((l) => l.logger === 'trigger-log-messages')).toBe(true);
    } finally {
      await c.close();
    }
  });
});

describe('subscriptions/listen streams (2026-07-28)', () => {
  it('trigger-resource-update and trigger-list-changed reach the streams whose filter names them, and no others', async () => {
    const c = await v2Http(server.mcpUrl, {});
    const other = await v2Http(server.mcpUrl, {});
    try {
      const watched = 'demo://resource/dynamic/text/9';
      const resources = await c.client.listen({ resourceSubscriptions: [watched] });
      const lists = await c.client.listen({ toolsListChanged: true });
      const otherStream = await other.client.listen({ promptsListChanged: true });
      await structured(c, 'trigger-resource-update', { uri: 'demo://resource/dynamic/text/10' });
      await structured(c, 'trigger-list-changed', { list: 'resources' });
      await structured(c, 'trigger-resource-update', { uri: watched });
      await structured(c, 'trigger-list-changed', { list: 'tools' });
      await structured(other, 'trigger-list-changed', { list: 'prompts' });
      // The last of each stream arrived: everything published before it has too.
      await waitUntil(() => c.inbox.updated.includes(watched) && c.inbox.listChanged.includes('tools') && other.inbox.listChanged.includes('prompts'), 10_000, 'the notifications');
      expect(c.inbox.updated).toEqual([watched]);
      expect(c.inbox.listChanged).toEqual(['tools']);
      expect(other.inbox.listChanged).toEqual(['prompts']);
      expect(other.inbox.updated).toEqual([]);
      await Promise.all([resources.close(), lists.close(), otherStream.close()]);
    } finally {
      await c.close();
      await other.close();
    }
  });
});

describe('gzip-file-as-resource (2026-07-28: a minted resource)', () => {
  it('mints demo://resource/minted/<id>/<name>, readable by another client, listed only as the template', async () => {
    const data = `data:text/plain;base64,${Buffer.from('minted content').toString('base64')}`;
    const r = await call(full, 'gzip-file-as-resource', { name: 'minted.txt.gz', data });
    const link = r.content[0] as Block;
    expect(link).toMatchObject({ type: 'resource_link', mimeType: 'application/gzip' });
    expect(link.uri).toMatch(/^demo:\/\/resource\/minted\/[0-9a-f-]{36}\/minted\.txt\.gz$/);
    const stranger = await v2Http(server.mcpUrl, {});
    try {
      const [gz] = (await stranger.client.readResource({ uri: link.uri as string })).contents as Contents;
      expect(gunzipSync(Buffer.from(gz?.blob as string, 'base64')).toString()).toBe('minted content');
      expect((await stranger.client.listResources()).resources.map((x) => x.uri)).not.toContain(link.uri);
      expect((await stranger.client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toContain('demo://resource/minted/{id}/{name}');
    } finally {
      await stranger.close();
    }
  });
});

describe('resources, prompts and cache hints (2026-07-28)', () => {
  it('a static document carries a one-hour public cache hint; a dynamic read, the lists and server/discover the configured default', async () => {
    const wire = connectWire2026({ url: server.mcpUrl });
    for (const method of ['server/discover', 'tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']) {
      const answer = await wire.request(method, {});
      expect([answer.ttlMs, answer.cacheScope], method).toEqual([0, 'private']);
    }
    const doc = await wire.request('resources/read', { uri: 'demo://resource/static/document/architecture.md' });
    expect([doc.ttlMs, doc.cacheScope]).toEqual([3_600_000, 'public']);
    const dynamic = await wire.request('resources/read', { uri: 'demo://resource/dynamic/text/1' });
    expect([dynamic.ttlMs, dynamic.cacheScope]).toEqual([0, 'private']);
    const collection = await wire.request('resources/read', { uri: 'demo://resource/collection/by-category/apparel' });
    expect((collection.contents as Contents).map((c) => c.uri)).toEqual(['demo://resource/collection/item/sun-hat', 'demo://resource/collection/item/rain-jacket']);
  });

  it('a read of a resource that does not exist is -32602 with the URI in data', async () => {
    for (const uri of ['demo://resource/nowhere', 'demo://resource/dynamic/text/-1', 'demo://resource/collection/item/snow-shovel']) {
      const err = await rejection(full.client.readResource({ uri }));
      expect([err.code, err.data?.uri], uri).toEqual([-32602, uri]);
    }
  });

  it('serves the prompts and their completions as on 2025-era sessions', async () => {
    expect((await full.client.listPrompts()).prompts.map((p) => p.name)).toEqual(['simple-prompt', 'args-prompt', 'completable-prompt', 'resource-prompt']);
    const got = await full.client.getPrompt({ name: 'resource-prompt', arguments: { resourceType: 'Blob', resourceId: '4' } });
    expect(got.messages[1]?.content).toMatchObject({ type: 'resource', resource: { uri: 'demo://resource/dynamic/blob/4' } });
    const values = await full.client.complete({ ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: { name: 'name', value: '' }, context: { arguments: { department: 'Marketing' } } });
    expect(values.completion.values).toEqual(['Grace', 'Henry', 'Iris']);
  });

  it('keeps at most 100 minted resources, dropping the oldest first', async () => {
    const c = await v2Http(server.mcpUrl, {});
    try {
      const data = `data:text/plain;base64,${Buffer.from('one of many').toString('base64')}`;
      const uris: string[] = [];
      for (let i = 0; i <= 100; i++) uris.push((await call(c, 'gzip-file-as-resource', { name: `m${i}.gz`, data })).content[0]?.uri as string);
      const oldest = await rejection(c.client.readResource({ uri: uris[0] as string }));
      expect([oldest.code, oldest.data?.uri]).toEqual([-32602, uris[0]]);
      expect(((await c.client.readResource({ uri: uris[1] as string })).contents as Contents)[0]?.blob).toEqual(expect.any(String));
      expect(((await c.client.readResource({ uri: uris[100] as string })).contents as Contents)[0]?.blob).toEqual(expect.any(String));
    } finally {
      await c.close();
    }
  }, 60_000);

  it('serverInfo (server/discover) and every tool, prompt and template carry a light and a dark icon', async () => {
    themedIcons(full.client.getServerVersion() as never, 'serverInfo');
    for (const t of (await full.client.listTools()).tools) themedIcons(t as never, t.name);
    for (const p of (await full.client.listPrompts()).prompts) themedIcons(p as never, p.name);
    for (const t of (await full.client.listResourceTemplates()).resourceTemplates) if (!FRAMEWORK_TEMPLATES.includes(t.uriTemplate)) themedIcons(t as never, t.uriTemplate);
  });
});
