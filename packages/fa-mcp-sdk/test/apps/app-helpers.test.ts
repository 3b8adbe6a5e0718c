/** appView, appTool, the capability check and the per-request tool view, on their own. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createAppToolView } from '../../src/apps/tool-view.js';
import {
  APP_EXTENSION_ID, APP_MIME_TYPE, appTool, appView, AppViewError, getAppCapability, supportsApps, type ITool, type RequestContext,
} from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'fa-apps-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ctx = (clientCapabilities: Record<string, unknown>): RequestContext => ({ requestId: 'r', era: '2025', transport: 'memory', clientCapabilities });
/** What a view's resource serves (its content function takes no arguments it needs). */
const served = (view: { resource: { content: unknown } }) => (view.resource.content as () => Array<{ text: string }>)();
const UI = { extensions: { [APP_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] } } };

describe('appView', () => {
  it('serves inline HTML as a ui:// resource with the app MIME type', async () => {
    const view = appView({ uri: 'ui://demo/view.html', html: '<p>hi</p>', description: 'Demo' });
    expect(view.resource).toMatchObject({ uri: 'ui://demo/view.html', name: 'view.html', mimeType: APP_MIME_TYPE, size: 9, description: 'Demo' });
    expect(view.resource._meta).toBeUndefined();
    const content = served(view);
    expect(content).toEqual([{ uri: 'ui://demo/view.html', mimeType: APP_MIME_TYPE, text: '<p>hi</p>' }]);
    expect(view.toolMeta).toEqual({ ui: { resourceUri: 'ui://demo/view.html' }, 'ui/resourceUri': 'ui://demo/view.html' });
  });

  it('reads a bundled file once, by path or file: URL', () => {
    const file = join(dir, 'view.html');
    writeFileSync(file, '<main>bundled</main>');
    const byPath = appView({ uri: 'ui://demo/a', file });
    const byUrl = appView({ uri: 'ui://demo/b', file: pathToFileURL(file) });
    writeFileSync(file, '<main>changed</main>');
    expect(served(byPath)[0]!.text).toBe('<main>bundled</main>');
    expect(served(byUrl)[0]!.text).toBe('<main>bundled</main>');
  });

  it('carries csp, permissions, domain and border preference as _meta.ui', () => {
    const view = appView({ uri: 'ui://demo/v', html: 'x', csp: { resourceDomains: ['https://cdn.example.com'] }, permissions: { clipboardWrite: {} }, domain: 'abc.example', prefersBorder: false });
    expect(view.resource._meta).toEqual({ ui: { csp: { resourceDomains: ['https://cdn.example.com'] }, permissions: { clipboardWrite: {} }, domain: 'abc.example', prefersBorder: false } });
  });

  it('refuses a URI outside ui://, no or two sources, an empty or missing file', () => {
    expect(() => appView({ uri: 'https://x/view.html', html: 'x' })).toThrow(AppViewError);
    expect(() => appView({ uri: 'ui://', html: 'x' })).toThrow(/must start with "ui:\/\/"/);
    expect(() => appView({ uri: 'ui://a/b' })).toThrow(/exactly one of "html" and "file"/);
    expect(() => appView({ uri: 'ui://a/b', html: 'x', file: 'y' })).toThrow(/exactly one/);
    expect(() => appView({ uri: 'ui://a/b', html: '  ' })).toThrow(/"html" is empty/);
    expect(() => appView({ uri: 'ui://a/b', file: join(dir, 'missing.html') })).toThrow(/cannot read .*missing\.html/);
    writeFileSync(join(dir, 'empty.html'), '\n');
    expect(() => appView({ uri: 'ui://a/b', file: join(dir, 'empty.html') })).toThrow(/is empty/);
  });
});

describe('appTool', () => {
  it('adds _meta.ui and the flat key, keeping the tool\'s own _meta', () => {
    const tool = appTool({ name: 't', inputSchema: { type: 'object' }, view: 'ui://demo/v', visibility: ['model', 'app'], _meta: { 'x.y/z': 1, ui: { keep: true } } });
    expect(tool._meta).toEqual({ 'x.y/z': 1, ui: { keep: true, resourceUri: 'ui://demo/v', visibility: ['model', 'app'] }, 'ui/resourceUri': 'ui://demo/v' });
    expect(Object.keys(tool)).not.toContain('fallback');
    expect(JSON.parse(JSON.stringify(tool))).not.toHaveProperty('view');
  });

  it('refuses a view that is not ui:// and an empty or unknown visibility', () => {
    expect(() => appTool({ name: 't', inputSchema: { type: 'object' }, view: 'https://x' })).toThrow(AppViewError);
    expect(() => appTool({ name: 't', inputSchema: { type: 'object' }, view: 'ui://v', visibility: [] })).toThrow(/visibility/);
    expect(() => appTool({ name: 't', inputSchema: { type: 'object' }, view: 'ui://v', visibility: ['user' as 'app'] })).toThrow(/visibility/);
  });
});

describe('capability negotiation', () => {
  it('finds the extension in client capabilities, a context or handler params', () => {
    expect(supportsApps(UI)).toBe(true);
    expect(supportsApps(ctx(UI))).toBe(true);
    expect(getAppCapability(ctx(UI))).toEqual({ mimeTypes: [APP_MIME_TYPE] });
  });

  it('says no for no extension, another MIME type, a malformed value or the experimental field', () => {
    expect(supportsApps(undefined)).toBe(false);
    expect(supportsApps({})).toBe(false);
    expect(supportsApps({ extensions: { [APP_EXTENSION_ID]: {} } })).toBe(false);
    expect(supportsApps({ extensions: { [APP_EXTENSION_ID]: { mimeTypes: ['text/html'] } } })).toBe(false);
    expect(supportsApps({ extensions: { [APP_EXTENSION_ID]: [APP_MIME_TYPE] } })).toBe(false);
    expect(supportsApps({ experimental: { [APP_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] } } })).toBe(false);
  });
});

describe('per-request tool view', () => {
  const view = createAppToolView();
  const fallback = () => ({ content: [] });
  const handler = () => ({ content: [] });
  const app = appTool({ name: 'a', inputSchema: { type: 'object' }, view: 'ui://v', handler, fallback });
  const appOnly = appTool({ name: 'b', inputSchema: { type: 'object' }, view: 'ui://v', visibility: ['app'], handler });
  const plainTool: ITool = { name: 'c', inputSchema: { type: 'object' } };

  it('keeps every tool as written for a host with views', () => {
    expect(view(app, ctx(UI))).toBe(app);
    expect(view(appOnly, ctx(UI))).toBe(appOnly);
  });

  it('gives other clients a plain variant, made once, answered by the fallback, and hides app-only tools', () => {
    const variant = view(app, ctx({}));
    expect(variant).not.toBe(app);
    expect(variant).toBe(view(app, ctx({})));
    expect(variant?._meta).toBeUndefined();
    expect(variant?.handler).toBe(fallback);
    expect(variant?.inputSchema).toBe(app.inputSchema);
    expect(view(appOnly, ctx({}))).toBeUndefined();
    expect(view(plainTool, ctx({}))).toBe(plainTool);
  });

  it('keeps the tool\'s own handler when it has no fallback', () => {
    const noFallback = appTool({ name: 'd', inputSchema: { type: 'object' }, view: 'ui://v', handler });
    expect(view(noFallback, ctx({}))?.handler).toBe(handler);
  });
});
