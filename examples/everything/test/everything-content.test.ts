/**
 * The everything server's prompts, completions, resources, templates and icons on 2025-11-25
 * sessions over Streamable HTTP, driven from outside its process by the official SDK v1 client
 * (their 2026-07-28 side is in everything-2026.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_CAPABILITIES, v1Http, type V1 } from './helpers/clients.js';
import { rejection } from './helpers/errors.js';
import { FRAMEWORK_RESOURCES, FRAMEWORK_TEMPLATES, themedIcons } from './helpers/icons.js';
import { startEverything, type EverythingProcess } from './helpers/server-process.js';

type Contents = Array<{ uri: string; text?: string; blob?: string; mimeType?: string }>;

let server: EverythingProcess;
let full: V1;

const read = async (c: V1, uri: string): Promise<Contents> => (await c.client.readResource({ uri })).contents as Contents;

beforeAll(async () => {
  server = await startEverything();
  full = await v1Http(server.mcpUrl, ALL_CAPABILITIES);
}, 60_000);

afterAll(async () => {
  await full?.close();
  await server?.stop();
});

describe('prompts and completions (2025-11-25)', () => {
  it('simple-prompt, args-prompt (city required, state optional) and resource-prompt render their messages', async () => {
    expect((await full.client.getPrompt({ name: 'simple-prompt' })).messages).toEqual([{ role: 'user', content: { type: 'text', text: 'This is a simple prompt without arguments.' } }]);
    expect((await full.client.getPrompt({ name: 'args-prompt', arguments: { city: 'Austin', state: 'Texas' } })).messages[0]?.content).toEqual({ type: 'text', text: "What's weather in Austin, Texas?" });
    expect((await full.client.getPrompt({ name: 'args-prompt', arguments: { city: 'Paris' } })).messages[0]?.content).toEqual({ type: 'text', text: "What's weather in Paris?" });
    expect((await rejection(full.client.getPrompt({ name: 'args-prompt', arguments: {} }))).code).toBe(-32602);
    const withResource = await full.client.getPrompt({ name: 'resource-prompt', arguments: { resourceType: 'Text', resourceId: '3' } });
    expect(withResource.messages[1]?.content).toMatchObject({ type: 'resource', resource: { uri: 'demo://resource/dynamic/text/3', mimeType: 'text/plain' } });
    expect((await rejection(full.client.getPrompt({ name: 'resource-prompt', arguments: { resourceType: 'Text', resourceId: 'x' } }))).code).toBe(-32602);
  });

  it('completable-prompt: department completions drive the name suggestions; category and itemId complete', async () => {
    const complete = async (ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }, name: string, value: string, context?: Record<string, string>) =>
      (await full.client.complete({ ref, argument: { name, value }, ...(context ? { context: { arguments: context } } : {}) })).completion.values;
    const prompt = { type: 'ref/prompt' as const, name: 'completable-prompt' };
    expect(await complete(prompt, 'department', 'S')).toEqual(['Sales', 'Support']);
    expect(await complete(prompt, 'name', '', { department: 'Sales' })).toEqual(['David', 'Eve', 'Frank']);
    expect(await complete(prompt, 'name', 'J', { department: 'Support' })).toEqual(['John']);
    expect(await complete({ type: 'ref/prompt', name: 'resource-prompt' }, 'resourceType', 'B')).toEqual(['Blob']);
    expect(await complete({ type: 'ref/resource', uri: 'demo://resource/collection/by-category/{category}' }, 'category', 'ou')).toEqual(['outdoor']);
    expect(await complete({ type: 'ref/resource', uri: 'demo://resource/collection/item/{itemId}' }, 'itemId', 'sun')).toEqual(['sunscreen-spf50', 'sun-hat']);
    const rendered = await full.client.getPrompt({ name: 'completable-prompt', arguments: { department: 'Sales', name: 'Eve' } });
    expect(rendered.messages[0]?.content).toEqual({ type: 'text', text: 'Please promote Eve to the head of the Sales team.' });
  });
});

describe('resources and templates (2025-11-25)', () => {
  it('reads dynamic text and blob resources through their templates', async () => {
    const { resourceTemplates } = await full.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(
      expect.arrayContaining(['demo://resource/dynamic/text/{index}', 'demo://resource/dynamic/blob/{index}', 'demo://resource/collection/by-category/{category}', 'demo://resource/collection/item/{itemId}']),
    );
    const [blob] = await read(full, 'demo://resource/dynamic/blob/12');
    expect(Buffer.from(blob?.blob as string, 'base64').toString()).toMatch(/^Resource 12: This is a base64 blob created at /);
  });

  it('serves each file of docs/ as a static document', async () => {
    const { resources } = await full.client.listResources();
    const docs = resources.filter((r) => r.uri.startsWith('demo://resource/static/document/')).map((r) => r.uri);
    expect(docs).toEqual(['architecture.md', 'extension-points.md', 'features.md'].map((f) => `demo://resource/static/document/${f}`));
    const answer = await full.client.readResource({ uri: 'demo://resource/static/document/features.md' });
    const [doc] = answer.contents as Contents;
    expect(doc).toMatchObject({ mimeType: 'text/markdown' });
    expect(doc?.text).toMatch(/^# Features/);
    // 2025-era answers carry no cache fields.
    expect(Object.keys(answer)).not.toContain('ttlMs');
  });

  it('one read of a collection returns several contents, each under its item URI, which reads back on its own', async () => {
    const specials = await read(full, 'demo://resource/collection/summer-specials');
    const uris = specials.map((c) => c.uri);
    expect(uris).toEqual(['sunscreen-spf50', 'beach-towel', 'sun-hat', 'cooler-box'].map((id) => `demo://resource/collection/item/${id}`));
    expect(await read(full, uris[2] as string)).toEqual([specials[2]]);
    const beach = await read(full, 'demo://resource/collection/by-category/beach');
    expect(beach.map((c) => JSON.parse(c.text as string).id)).toEqual(['sunscreen-spf50', 'beach-towel']);
  });

  it('a read of a resource that does not exist is -32602 with the URI in data', async () => {
    for (const uri of [
      'demo://resource/nowhere',
      'demo://resource/dynamic/text/0',
      'demo://resource/dynamic/blob/abc',
      'demo://resource/collection/by-category/winter',
      'demo://resource/collection/item/snow-shovel',
      'demo://resource/minted/00000000-0000-0000-0000-000000000000/x.gz',
    ]) {
      const err = await rejection(full.client.readResource({ uri }));
      expect([err.code, err.data], uri).toEqual([-32602, { uri }]);
    }
  });
});

describe('icons (2025-11-25)', () => {
  it('serverInfo and every tool, prompt, resource and template carry a light and a dark icon, with a glyph per kind', async () => {
    const glyphs = new Map<string, Set<string>>();
    const seen = (kind: string, glyph: string) => glyphs.set(kind, new Set([...(glyphs.get(kind) ?? []), glyph]));
    seen('server', themedIcons(full.client.getServerVersion() as never, 'serverInfo'));
    for (const t of (await full.client.listTools()).tools) seen('tool', themedIcons(t as never, t.name));
    for (const p of (await full.client.listPrompts()).prompts) seen('prompt', themedIcons(p as never, p.name));
    for (const r of (await full.client.listResources()).resources) if (!FRAMEWORK_RESOURCES.includes(r.uri)) seen('resource', themedIcons(r as never, r.uri));
    for (const t of (await full.client.listResourceTemplates()).resourceTemplates) if (!FRAMEWORK_TEMPLATES.includes(t.uriTemplate)) seen('template', themedIcons(t as never, t.uriTemplate));
    expect([...glyphs.values()].map((g) => g.size)).toEqual([1, 1, 1, 1, 1]);
    expect(new Set([...glyphs.values()].map((g) => [...g][0])).size).toBe(5);
  });
});
