/**
 * MCP Apps on every transport and protocol era: a host that declares the
 * extension sees the view's `_meta.ui` and app-only tools; any other client
 * gets plain tools answered by their fallback, decided per request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import {
  APP_EXTENSION_ID, APP_MIME_TYPE, APP_RESOURCE_URI_META_KEY, AppViewError, appTool, appView, formatToolResult, MCP_ERROR_CODES,
  supportsApps, textContent, type McpServerData,
} from '../../src/index.js';
import { ALL_TARGETS, expectToolError, startTestServer, type TestServer } from '../../src/testing/index.js';

const HTML = '<!doctype html><html><body><main id="forecast">waiting</main></body></html>';
const VIEW_URI = 'ui://weather/forecast.html';
const UI_HOST = { capabilities: { extensions: { [APP_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] } } } };

export function appsServer(): McpServerData {
  const view = appView({ uri: VIEW_URI, title: 'Forecast', html: HTML, csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true });
  return {
    resources: [view.resource],
    tools: [
      appTool({
        name: 'forecast',
        description: 'The forecast of a city',
        view,
        inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        _meta: { 'example.com/owner': 'weather' },
        handler: ({ arguments: args, context }) =>
          formatToolResult({ city: args.city, celsius: 21, rendered: supportsApps(context) ? 'view' : 'text' }),
        fallback: ({ arguments: args }) => ({ content: [textContent(`${String(args.city)}: 21 °C, sunny`)] }),
      }),
      appTool({
        name: 'refresh_forecast',
        description: 'Called by the forecast view only',
        view: VIEW_URI,
        visibility: ['app'],
        inputSchema: { type: 'object' },
        handler: () => formatToolResult({ refreshed: true }),
      }),
      { name: 'ping', inputSchema: { type: 'object' }, handler: () => ({ content: [textContent('pong')] }) },
    ],
  };
}

describe.each(ALL_TARGETS)('MCP Apps on $label', (target) => {
  // One server per client: a stdio server has one connection, and a second initialize would replace the first.
  let hostServer: TestServer;
  let plainServer: TestServer;
  let host: Client;
  let plain: Client;
  // A 2025-era stateless server keeps nothing of initialize, so it cannot know a request comes from a host with views.
  const negotiates = target.transport !== 'stateless';

  beforeAll(async () => {
    [hostServer, plainServer] = await Promise.all([startTestServer(appsServer(), { target }), startTestServer(appsServer(), { target })]);
    host = await hostServer.connect(UI_HOST);
    plain = await plainServer.connect();
  });
  afterAll(async () => {
    await Promise.all([hostServer?.stop(), plainServer?.stop()]);
  });

  it('declares the extension', () => {
    expect(host.getServerCapabilities()?.extensions?.[APP_EXTENSION_ID]).toEqual({});
  });

  it.runIf(negotiates)('shows a host with views the tool meta and the app-only tool', async () => {
    const { tools } = await host.listTools();
    expect(tools.map((t) => t.name)).toEqual(['forecast', 'refresh_forecast', 'ping']);
    const forecast = tools[0]!;
    expect(forecast._meta).toEqual({ 'example.com/owner': 'weather', ui: { resourceUri: VIEW_URI }, [APP_RESOURCE_URI_META_KEY]: VIEW_URI });
    expect(tools[1]!._meta?.ui).toEqual({ resourceUri: VIEW_URI, visibility: ['app'] });
    const result = await host.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
    expect(result.structuredContent).toEqual({ city: 'Oslo', celsius: 21, rendered: 'view' });
    expect((await host.callTool({ name: 'refresh_forecast', arguments: {} })).structuredContent).toEqual({ refreshed: true });
  });

  it.runIf(!negotiates)('answers every request of the stateless mode as for a client without views', async () => {
    const { tools } = await host.listTools();
    expect(tools.map((t) => t.name)).toEqual(['forecast', 'ping']);
    expect((await host.callTool({ name: 'forecast', arguments: { city: 'Oslo' } })).content).toEqual([{ type: 'text', text: 'Oslo: 21 °C, sunny' }]);
  });

  it('serves the view as a ui:// resource with the app MIME type and its _meta.ui', async () => {
    const { resources } = await host.listResources();
    expect(resources.find((r) => r.uri === VIEW_URI)).toMatchObject({ name: 'forecast.html', mimeType: APP_MIME_TYPE, _meta: { ui: { prefersBorder: true } } });
    const read = await host.readResource({ uri: VIEW_URI });
    expect(read.contents).toEqual([
      { uri: VIEW_URI, mimeType: APP_MIME_TYPE, text: HTML, _meta: { ui: { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true } } },
    ]);
  });

  it('gives a client without views plain tools, the fallback answer, and no app-only tool', async () => {
    const { tools } = await plain.listTools();
    expect(tools.map((t) => t.name)).toEqual(['forecast', 'ping']);
    expect(tools[0]!._meta).toEqual({ 'example.com/owner': 'weather' });
    const result = await plain.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
    expect(result.content).toEqual([{ type: 'text', text: 'Oslo: 21 °C, sunny' }]);
    expect(result.structuredContent).toBeUndefined();
    await expectToolError(plain.callTool({ name: 'refresh_forecast', arguments: {} }), MCP_ERROR_CODES.INVALID_PARAMS);
  });

  it('treats a host that declares the extension without the HTML profile as one without views', async () => {
    const server = await startTestServer(appsServer(), { target });
    try {
      const other = await server.connect({ capabilities: { extensions: { [APP_EXTENSION_ID]: { mimeTypes: ['text/x-other'] } } } });
      const { tools } = await other.listTools();
      expect(tools.map((t) => t.name)).toEqual(['forecast', 'ping']);
      expect(tools[0]!._meta?.ui).toBeUndefined();
    } finally {
      await server.stop();
    }
  });
});

describe('MCP Apps at start', () => {
  it('refuses a tool whose view no resource serves', async () => {
    const data = appsServer();
    await expect(startTestServer({ ...data, resources: [] })).rejects.toThrow(AppViewError);
    await expect(startTestServer({ ...data, resources: [] })).rejects.toThrow(/renders the view ui:\/\/weather\/forecast.html, but no resource serves it/);
  });

  it('declares no extension for a server without views', async () => {
    const server = await startTestServer({ tools: [{ name: 'ping', inputSchema: { type: 'object' }, handler: () => ({ content: [textContent('pong')] }) }] });
    try {
      const client = await server.connect(UI_HOST);
      expect(client.getServerCapabilities()?.extensions).toBeUndefined();
    } finally {
      await server.stop();
    }
  });
});
