/**
 * The everything server on 2025-11-25 sessions over Streamable HTTP, driven from outside its
 * process by the official SDK v1 client: every tool, subscription, log and client request the
 * seed lists for the 2025 era, and their failure paths (prompts, resources and icons:
 * everything-content.test.ts).
 */
import { gunzipSync } from 'node:zlib';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_TEXT, FORM_VALUES, ROOTS } from './helpers/answers.js';
import { ALL_CAPABILITIES, v1Http, type V1 } from './helpers/clients.js';
import { rejection } from './helpers/errors.js';
import { themedIcons } from './helpers/icons.js';
import { FILE_TEXT, startLoopbackFiles, type LoopbackFiles } from './helpers/loopback-files.js';
import { BOTH_ERAS, expectTools, NEEDS, ONLY_2025, ONLY_2026, sorted } from './helpers/seed.js';
import { startEverything, type EverythingProcess } from './helpers/server-process.js';
import { waitUntil } from './helpers/wait.js';

type Block = { type: string; text?: string; uri?: string; name?: string; mimeType?: string; data?: string; annotations?: Record<string, unknown>; resource?: Record<string, unknown> };
type Result = { content: Block[]; structuredContent?: Record<string, unknown>; isError?: boolean };

let server: EverythingProcess;
let files: LoopbackFiles;
let full: V1;

const call = async (c: V1, name: string, args: Record<string, unknown> = {}): Promise<Result> => (await c.client.callTool({ name, arguments: args }, CallToolResultSchema)) as Result;
const structured = async (c: V1, name: string, args: Record<string, unknown> = {}) => {
  const r = await call(c, name, args);
  expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
  return r.structuredContent as Record<string, unknown>;
};
const text = (r: Result) => r.content.map((b) => b.text ?? '').join('\n');
type Contents = Array<{ uri: string; text?: string; blob?: string; mimeType?: string }>;
const read = async (c: V1, uri: string): Promise<Contents> => (await c.client.readResource({ uri })).contents as Contents;

beforeAll(async () => {
  files = await startLoopbackFiles();
  server = await startEverything({ GZIP_ALLOWED_DOMAINS: '127.0.0.1', GZIP_MAX_FETCH_SIZE: '2048', GZIP_MAX_FETCH_TIME_MILLIS: '500', SIMULATED_LOGGING_INTERVAL_MS: '20', SUBSCRIBER_UPDATES_INTERVAL_MS: '20' });
  full = await v1Http(server.mcpUrl, ALL_CAPABILITIES);
}, 60_000);

afterAll(async () => {
  await full?.close();
  await server?.stop();
  await files?.close();
});

describe('tools by era and client capability (2025-11-25)', () => {
  it('lists the both-era tools and the 2025-era toggles, never the 2026-07-28 task tools', async () => {
    const { tools } = await full.client.listTools();
    expectTools(tools.map((t) => t.name), [...BOTH_ERAS, ...ONLY_2025], ONLY_2026);
  });

  it('labels the roots, sampling and logging tools deprecated (SEP-2577) in their descriptions', async () => {
    const { tools } = await full.client.listTools();
    const deprecated = tools.filter((t) => t.description?.includes('Deprecated as of 2026-07-28 (SEP-2577)')).map((t) => t.name);
    expect(sorted(deprecated)).toEqual(sorted(['get-roots-list', 'trigger-sampling-request', 'trigger-log-messages', 'toggle-simulated-logging', 'toggle-subscriber-updates']));
  });

  it('lists a tool that needs a client capability only to a client that declared it at initialize', async () => {
    const bare = await v1Http(server.mcpUrl, {});
    const formOnly = await v1Http(server.mcpUrl, { elicitation: { form: {} } });
    try {
      const needing = [...NEEDS.roots, ...NEEDS.sampling, ...NEEDS.form, ...NEEDS.url];
      expectTools((await bare.client.listTools()).tools.map((t) => t.name), [...BOTH_ERAS, ...ONLY_2025].filter((n) => !needing.includes(n)), [...needing, ...ONLY_2026]);
      const formTools = (await formOnly.client.listTools()).tools.map((t) => t.name);
      expect(formTools).toEqual(expect.arrayContaining(NEEDS.form));
      for (const name of [...NEEDS.url, ...NEEDS.sampling, ...NEEDS.roots]) expect(formTools).not.toContain(name);
      // Not registered for this client: an unknown tool.
      const err = await rejection(bare.client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'hi' } }));
      expect(err.code).toBe(-32602);
    } finally {
      await bare.close();
      await formOnly.close();
    }
  });
});

describe('simple tools (2025-11-25)', () => {
  it('echo, get-sum, get-tiny-image, get-annotated-message and get-structured-content answer as the seed describes', async () => {
    expect(text(await call(full, 'echo', { message: 'hello' }))).toBe('Echo: hello');
    expect(text(await call(full, 'get-sum', { a: 2, b: 3.5 }))).toBe('The sum of 2 and 3.5 is 5.5.');
    const image = await call(full, 'get-tiny-image');
    expect(image.content.map((b) => b.type)).toEqual(['text', 'image', 'text']);
    const png = Buffer.from(image.content[1]?.data as string, 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(image.content[1]?.mimeType).toBe('image/png');
    const error = await call(full, 'get-annotated-message', { messageType: 'error', includeImage: true });
    expect(error.content[0]?.annotations).toEqual({ priority: 1, audience: ['user', 'assistant'] });
    expect(error.content[1]).toMatchObject({ type: 'image', annotations: { priority: 0.5, audience: ['user'] } });
    expect((await call(full, 'get-annotated-message', { messageType: 'debug' })).content).toEqual([
      expect.objectContaining({ annotations: { priority: 0.3, audience: ['assistant'] } }),
    ]);
    const weather = await call(full, 'get-structured-content', { location: 'Chicago' });
    expect(weather.structuredContent).toEqual({ temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 });
    expect(JSON.parse(weather.content[0]?.text as string)).toEqual(weather.structuredContent);
  });

  it('refuses bad arguments with a tool error that names the field', async () => {
    const r = await call(full, 'get-sum', { a: 'two', b: 3 });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain('Invalid arguments for tool get-sum: a must be number');
    const e = await call(full, 'get-structured-content', { location: 'Paris' });
    expect(e.isError).toBe(true);
    expect(text(e)).toContain('location');
  });

  it('get-header-params returns the region and a null header on a 2025-era connection', async () => {
    expect(await structured(full, 'get-header-params', { region: 'eu-west' })).toEqual({ region: 'eu-west', header: null });
  });

  it('get-resource-links returns an intro and count links, Text for even ids and Blob for odd ids, that read back', async () => {
    const r = await call(full, 'get-resource-links', { count: 4 });
    expect(r.content[0]?.type).toBe('text');
    const links = r.content.slice(1);
    expect(links.map((l) => [l.type, l.uri])).toEqual([
      ['resource_link', 'demo://resource/dynamic/blob/1'],
      ['resource_link', 'demo://resource/dynamic/text/2'],
      ['resource_link', 'demo://resource/dynamic/blob/3'],
      ['resource_link', 'demo://resource/dynamic/text/4'],
    ]);
    const [first] = await read(full, links[1]?.uri as string);
    expect(first).toMatchObject({ uri: 'demo://resource/dynamic/text/2', mimeType: 'text/plain' });
    expect(first?.text).toMatch(/^Resource 2: This is a plaintext resource/);
    expect((await call(full, 'get-resource-links', { count: 11 })).isError).toBe(true);
  });

  it('get-resource-reference returns the resource as an embedded block between explanations', async () => {
    const r = await call(full, 'get-resource-reference', { resourceType: 'blob', resourceId: 7 });
    expect(r.content.map((b) => b.type)).toEqual(['text', 'resource', 'text']);
    const resource = r.content[1]?.resource as { uri: string; blob: string };
    expect(resource.uri).toBe('demo://resource/dynamic/blob/7');
    expect(Buffer.from(resource.blob, 'base64').toString()).toMatch(/^Resource 7: This is a base64 blob/);
    expect((await call(full, 'get-resource-reference', { resourceType: 'text', resourceId: 0 })).isError).toBe(true);
  });
});

describe('asking the client (2025-11-25: real server-to-client requests)', () => {
  it('trigger-elicitation-request asks a form of every field type and returns the answer', async () => {
    const answer = await structured(full, 'trigger-elicitation-request');
    const asked = full.answers.asked.at(-1);
    expect(asked?.method).toBe('elicitation/create');
    const properties = (asked?.params.requestedSchema as { properties: Record<string, { type: string; format?: string; enum?: unknown; oneOf?: unknown; items?: unknown }> }).properties;
    const kinds = new Set(Object.values(properties).map((p) => (p.format ? `string:${p.format}` : p.enum ? 'enum' : p.oneOf ? 'titled enum' : p.type)));
    expect([...kinds].sort()).toEqual(['array', 'boolean', 'enum', 'integer', 'number', 'string', 'string:date', 'string:email', 'string:uri', 'titled enum'].sort());
    expect(answer).toEqual({ action: 'accept', content: Object.fromEntries(Object.keys(properties).map((k) => [k, FORM_VALUES[k]])) });
  });

  it('trigger-multi-step-elicitation asks the name, then the colour addressed by it; a blank name and a colour that is not a choice are asked again', async () => {
    full.answers.queue('name', '   ');
    full.answers.queue('color', 'chartreuse');
    const before = full.answers.asked.length;
    const answer = await structured(full, 'trigger-multi-step-elicitation');
    expect(answer).toMatchObject({ name: 'Ada Lovelace', color: 'blue', resumed: false });
    const messages = full.answers.asked.slice(before).map((a) => String(a.params.message));
    expect(messages).toEqual([
      'What is your name?',
      'A name cannot be blank. What is your name?',
      expect.stringMatching(/^Ada Lovelace, what is your favourite colour/),
      expect.stringMatching(/^That is not one of the choices\. Ada Lovelace, what is your favourite colour/),
    ]);
  });

  it('trigger-url-elicitation sends elicitation/create in URL mode with an elicitationId', async () => {
    const answer = await structured(full, 'trigger-url-elicitation', { url: 'https://example.com/connect', elicitationId: 'e-1' });
    expect(answer).toEqual({ action: 'accept', url: 'https://example.com/connect', elicitationId: 'e-1', path: 'request' });
    expect(full.answers.asked.at(-1)?.params).toMatchObject({ mode: 'url', url: 'https://example.com/connect', elicitationId: 'e-1' });
  });

  it('trigger-url-elicitation with errorPath throws -32042 naming a prerequisite at another URL; the retry of the same call proceeds, once', async () => {
    const args = { url: 'https://example.com/oauth', elicitationId: 'e-2', errorPath: true };
    const err = await rejection(full.client.callTool({ name: 'trigger-url-elicitation', arguments: args }));
    expect(err.code).toBe(-32042);
    const [prerequisite] = (err.data?.elicitations ?? []) as Array<{ mode: string; url: string; elicitationId: string }>;
    expect(prerequisite).toMatchObject({ mode: 'url', url: 'https://modelcontextprotocol.io' });
    expect(prerequisite?.url).not.toBe(args.url);
    expect(prerequisite?.elicitationId).toEqual(expect.any(String));
    // The client satisfied it (or not: the server cannot tell) and retries: the request path, not the error again.
    expect(await structured(full, 'trigger-url-elicitation', args)).toMatchObject({ action: 'accept', path: 'retry after -32042', elicitationId: 'e-2' });
    // The marker was one-shot: the same call again is a first call once more.
    expect((await rejection(full.client.callTool({ name: 'trigger-url-elicitation', arguments: args }))).code).toBe(-32042);
    // Markers are per connection: another session's first call is not a retry.
    const other = await v1Http(server.mcpUrl, ALL_CAPABILITIES);
    try {
      expect((await rejection(other.client.callTool({ name: 'trigger-url-elicitation', arguments: args }))).code).toBe(-32042);
    } finally {
      await other.close();
    }
  });

  it('trigger-sampling-request asks the client model and returns its answer', async () => {
    const r = await call(full, 'trigger-sampling-request', { prompt: 'Say hi', maxTokens: 50 });
    expect(text(r)).toContain(ANSWER_TEXT);
    expect(full.answers.asked.at(-1)).toMatchObject({ method: 'sampling/createMessage', params: { maxTokens: 50 } });
  });

  it('get-roots-list asks roots/list and lists the roots', async () => {
    const roots = await structured(full, 'get-roots-list');
    expect(roots).toMatchObject({ count: 2, roots: ROOTS });
    expect(full.answers.asked.at(-1)?.method).toBe('roots/list');
  });
});

describe('logging (2025-11-25: per session, logging/setLevel)', () => {
  it('trigger-log-messages sends the levels at or above the session level', async () => {
    const c = await v1Http(server.mcpUrl, {});
    try {
      await c.client.setLoggingLevel('error');
      await call(c, 'trigger-log-messages');
      expect(c.inbox.logs.map((l) => l.level)).toEqual(['error', 'critical', 'alert', 'emergency']);
    } finally {
      await c.close();
    }
  });

  it('toggle-simulated-logging sends random levels at the session level after the call, until toggled off', async () => {
    const c = await v1Http(server.mcpUrl, {});
    try {
      await c.client.setLoggingLevel('warning');
      expect(text(await call(c, 'toggle-simulated-logging'))).toMatch(/^Simulated logging started/);
      await waitUntil(() => c.inbox.logs.length >= 12, 10_000, 'twelve simulated log messages');
      expect(text(await call(c, 'toggle-simulated-logging'))).toMatch(/^Simulated logging stopped/);
      const levels = new Set(c.inbox.logs.map((l) => l.level));
      for (const level of levels) expect(['warning', 'error', 'critical', 'alert', 'emergency']).toContain(level);
      expect(c.inbox.logs.every((l) => l.logger === 'simulated-logging')).toBe(true);
    } finally {
      await c.close();
    }
  });

  it('the toggles of a session stop when the session ends', async () => {
    const c = await v1Http(server.mcpUrl, {});
    const transport = c.client.transport as unknown as { sessionId?: string; terminateSession(): Promise<void> };
    await call(c, 'toggle-simulated-logging');
    await call(c, 'toggle-subscriber-updates');
    const id = transport.sessionId as string;
    await transport.terminateSession();
    await c.close();
    const stops = () => server.logLines().filter((l) => l.msg === 'toggle stopped' && l.sessionId === id);
    await waitUntil(() => stops().length === 2, 10_000, 'both toggles of the session to stop');
    expect(stops().map((l) => [l.toggle, l.reason]).sort()).toEqual([
      ['simulated-logging', 'session closed'],
      ['subscriber-updates', 'session closed'],
    ]);
  });
});

describe('subscriptions and list changes (2025-11-25)', () => {
  it('trigger-resource-update reaches this connection only once it subscribed to the URI', async () => {
    const c = await v1Http(server.mcpUrl, {});
    try {
      const uri = 'demo://resource/dynamic/text/5';
      expect(await structured(c, 'trigger-resource-update', { uri })).toMatchObject({ uri, sent: false });
      await c.client.subscribeResource({ uri });
      expect(await structured(c, 'trigger-resource-update', { uri })).toMatchObject({ uri, sent: true });
      await waitUntil(() => c.inbox.updated.includes(uri), 10_000, 'the update');
      await c.client.unsubscribeResource({ uri });
      expect(await structured(c, 'trigger-resource-update', { uri })).toMatchObject({ sent: false });
    } finally {
      await c.close();
    }
  });

  it('toggle-subscriber-updates sends updates for the URIs this connection subscribed to, and to no other connection', async () => {
    const a = await v1Http(server.mcpUrl, {});
    const b = await v1Http(server.mcpUrl, {});
    try {
      await a.client.subscribeResource({ uri: 'demo://resource/dynamic/text/1' });
      await a.client.subscribeResource({ uri: 'demo://resource/collection/summer-specials' });
      await b.client.subscribeResource({ uri: 'demo://resource/dynamic/text/1' });
      expect(text(await call(a, 'toggle-subscriber-updates'))).toMatch(/^Subscriber updates started/);
      await waitUntil(() => a.inbox.updated.length >= 6, 10_000, 'six updates');
      expect(text(await call(a, 'toggle-subscriber-updates'))).toMatch(/^Subscriber updates stopped/);
      expect(new Set(a.inbox.updated)).toEqual(new Set(['demo://resource/dynamic/text/1', 'demo://resource/collection/summer-specials']));
      expect(b.inbox.updated).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('trigger-list-changed sends list_changed for tools, prompts and resources to this connection, unsolicited', async () => {
    const c = await v1Http(server.mcpUrl, {});
    try {
      for (const list of ['tools', 'prompts', 'resources']) expect(await structured(c, 'trigger-list-changed', { list })).toEqual({ list, sent: true });
      await waitUntil(() => c.inbox.listChanged.length === 3, 10_000, 'three list changes');
      expect(c.inbox.listChanged).toEqual(['tools', 'prompts', 'resources']);
    } finally {
      await c.close();
    }
  });
});

describe('progress (2025-11-25)', () => {
  it('trigger-long-running-operation reports progress after each step and answers', async () => {
    const seen: Array<{ progress: number; total?: number }> = [];
    const r = await full.client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 0.6, steps: 3 } }, CallToolResultSchema, {
      onprogress: (p) => void seen.push({ progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}) }),
    });
    expect(text(r as Result)).toBe('Long running operation completed. Duration: 0.6 seconds, Steps: 3.');
    // The last notification may race the answer in SDK clients: the earlier ones arrive, in order, with the total.
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.slice(0, 2)).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
    ]);
  });
});

describe('gzip-file-as-resource (2025-11-25: a resource of the session)', () => {
  it('registers demo://resource/session/<name>, listed and read in this session only, and the session hears its list changed', async () => {
    const c = await v1Http(server.mcpUrl, {});
    const other = await v1Http(server.mcpUrl, {});
    try {
      const r = await call(c, 'gzip-file-as-resource', { name: 'fox.txt.gz', data: `${files.base}/file.txt` });
      expect(r.content).toEqual([expect.objectContaining({ type: 'resource_link', uri: 'demo://resource/session/fox.txt.gz', mimeType: 'application/gzip' })]);
      await waitUntil(() => c.inbox.listChanged.includes('resources'), 10_000, 'resources/list_changed');
      const listed = (await c.client.listResources()).resources.find((x) => x.uri === 'demo://resource/session/fox.txt.gz');
      expect(listed).toMatchObject({ name: 'fox.txt.gz', mimeType: 'application/gzip' });
      themedIcons(listed as never, 'the session resource');
      const [gz] = await read(c, 'demo://resource/session/fox.txt.gz');
      expect(gunzipSync(Buffer.from(gz?.blob as string, 'base64')).toString()).toBe(FILE_TEXT);
      // Another session neither lists nor reads it.
      expect((await other.client.listResources()).resources.map((x) => x.uri)).not.toContain('demo://resource/session/fox.txt.gz');
      expect((await rejection(other.client.readResource({ uri: 'demo://resource/session/fox.txt.gz' }))).data).toEqual({ uri: 'demo://resource/session/fox.txt.gz' });
      // Inline: the same content as an embedded resource.
      const inline = await call(c, 'gzip-file-as-resource', { name: 'inline.gz', data: 'data:text/plain;base64,' + Buffer.from('inline data').toString('base64'), outputType: 'resource' });
      const embedded = inline.content[0]?.resource as { uri: string; blob: string; mimeType: string };
      expect(embedded).toMatchObject({ uri: 'demo://resource/session/inline.gz', mimeType: 'application/gzip' });
      expect(gunzipSync(Buffer.from(embedded.blob, 'base64')).toString()).toBe('inline data');
    } finally {
      await c.close();
      await other.close();
    }
  });

  it('refuses a domain that is not allowed, an oversize body and a slow one with a clear tool error', async () => {
    const port = new URL(files.base).port;
    const refused = await call(full, 'gzip-file-as-resource', { name: 'x.gz', data: `http://localhost:${port}/file.txt` });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('Domain localhost is not allowed');
    const big = await call(full, 'gzip-file-as-resource', { name: 'x.gz', data: `${files.base}/big` });
    expect(text(big)).toContain('larger than 2048 bytes');
    const slow = await call(full, 'gzip-file-as-resource', { name: 'x.gz', data: `${files.base}/never` });
    expect(text(slow)).toContain('longer than 500 ms');
    const scheme = await call(full, 'gzip-file-as-resource', { name: 'x.gz', data: 'file:///etc/passwd' });
    expect(text(scheme)).toContain('Unsupported URL scheme file:');
  });
});
