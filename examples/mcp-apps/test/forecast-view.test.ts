/**
 * The forecast card in a real browser (Debian's Chromium through
 * playwright-core): the view is read from the server's ui:// resource with the
 * official MCP client, embedded by a host page served on loopback, handed a tool
 * result over the MCP Apps postMessage bridge (AppBridge of
 * @modelcontextprotocol/ext-apps), and must render it; its °C/°F switch calls the
 * app-only tool through the host and renders that answer too.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { build } from 'esbuild';
import { APP_EXTENSION_ID, APP_MIME_TYPE, initMcpServer, type McpServerHandle } from 'fa-mcp-sdk';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forecast, table } from '../src/forecast.mjs';
import { forecastServer, VIEW_URI } from '../src/server-data.mjs';
import { assertSdkBuildIsCurrent } from '../../../scripts/test-kit/sdk-build.mjs';

// These tests run the built fa-mcp-sdk (its package exports point at dist/): a stale build would prove old code.
beforeAll(assertSdkBuildIsCurrent);

const ROOT = join(__dirname, '..');
/** Generous: a loaded CI machine takes seconds to start Chromium and lay out a frame. */
const WAIT_MS = 30_000;
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

type ToolResult = { content: Array<{ type: string; text?: string }>; structuredContent?: Record<string, unknown>; isError?: boolean };

async function connect(url: string, views: boolean): Promise<Client> {
  const client = new Client(
    { name: views ? 'browser-test-host' : 'plain-client', version: '1.0.0' },
    views ? { capabilities: { extensions: { [APP_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] } } } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** Serves the host page (AppBridge bundled in) on 127.0.0.1. */
async function serveHostPage(): Promise<{ server: Server; url: string }> {
  const bundle = await build({ entryPoints: [join(__dirname, 'host', 'host-page.ts')], bundle: true, write: false, format: 'esm', platform: 'browser', target: 'es2022', minify: true, logLevel: 'warning' });
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>test host</title></head><body><script type="module">${bundle.outputFiles[0]!.text.replaceAll('</script', '<\\/script')}</script></body></html>`;
  const server = createServer((req, res) => {
    if (req.url === '/favicon.ico') return void res.writeHead(204).end();
    if (req.url !== '/') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

const cellsOf = (page: Page, frame: string) =>
  page.frameLocator(`iframe#${frame}`).locator('[data-testid=day]').evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll('td'), (td) => td.textContent)));

describe('forecast card in Chromium', { timeout: 60_000 }, () => {
  let mcp: McpServerHandle;
  let host: Client;
  let hostPage: { server: Server; url: string };
  let browser: Browser;
  let page: Page;
  let html: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-view.mjs')], { stdio: 'pipe' });
    mcp = await initMcpServer(forecastServer(), {
      cwd: ROOT,
      handleSignals: false,
      config: { webServer: { host: '127.0.0.1', port: 0 }, logger: { level: 'silent' } },
    });
    host = await connect(mcp.url as string, true);
    hostPage = await serveHostPage();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    page = await browser.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    page.on('console', (msg) => {
      if (msg.type() === 'error') pageErrors.push(msg.text());
    });
    // The view's tool calls arrive here through the host's AppBridge, and go to the server over MCP.
    await page.exposeFunction('hostCallTool', (params: { name: string; arguments?: Record<string, unknown> }) => host.callTool(params));
    await page.goto(hostPage.url);
    ({ html } = await readView());
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await new Promise((resolve) => hostPage?.server.close(resolve));
    await mcp?.stop('test finished');
  });

  async function readView(): Promise<{ html: string }> {
    const { tools } = await host.listTools();
    const uri = (tools.find((t) => t.name === 'show_forecast')?._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
    expect(uri).toBe(VIEW_URI);
    const { contents } = await host.readResource({ uri: uri as string });
    expect(contents[0]).toMatchObject({ uri: VIEW_URI, mimeType: APP_MIME_TYPE });
    return { html: (contents[0] as { text: string }).text };
  }

  async function mount(id: string, input: Record<string, unknown>, result: ToolResult): Promise<void> {
    await page.evaluate(([i, h, a, r]) => window.mountView(i, h, a, r), [id, html, input, result] as const);
  }

  it('renders the tool result the host sends it', async () => {
    const args = { city: 'Oslo', days: 3 };
    const result = (await host.callTool({ name: 'show_forecast', arguments: args })) as ToolResult;
    await mount('card1', args, result);
    const frame = page.frameLocator('iframe#card1');
    await frame.locator('[data-testid=card]').waitFor({ state: 'visible', timeout: WAIT_MS });
    expect(await frame.locator('[data-testid=city]').textContent()).toBe('Oslo');
    const expected = forecast('Oslo', 3, 'C');
    expect(await cellsOf(page, 'card1')).toEqual(expected.days.map((d) => [d.date, d.sky, `${d.low} °C`, `${d.high} °C`]));
    expect(await frame.locator('[data-testid=status]').isHidden()).toBe(true);
  });

  it('switches units through the app-only tool, called by the view via the host', async () => {
    const frame = page.frameLocator('iframe#card1');
    await frame.locator('[data-testid=unit-switch]').click();
    await frame.locator('[data-testid=unit-switch]', { hasText: 'Show °C' }).waitFor({ timeout: WAIT_MS });
    const expected = forecast('Oslo', 3, 'F');
    expect(await cellsOf(page, 'card1')).toEqual(expected.days.map((d) => [d.date, d.sky, `${d.low} °F`, `${d.high} °F`]));
  });

  it('shows an error result as an error, not as a forecast', async () => {
    await mount('card2', { city: 'Atlantis' }, { content: [{ type: 'text', text: 'No forecast for Atlantis' }], isError: true });
    const status = page.frameLocator('iframe#card2').locator('[data-testid=status].error');
    await status.waitFor({ timeout: WAIT_MS });
    expect(await status.textContent()).toBe('No forecast for Atlantis');
    expect(await page.frameLocator('iframe#card2').locator('[data-testid=card]').isHidden()).toBe(true);
  });

  it('ran without a script error under the host CSP', () => {
    expect(pageErrors).toEqual([]);
  });

  it('answers a client without views with the table, and hides the app-only tool from it', async () => {
    const plain = await connect(mcp.url as string, false);
    try {
      const { tools } = await plain.listTools();
      expect(tools.map((t) => t.name)).toEqual(['show_forecast']);
      expect(tools[0]!._meta).toBeUndefined();
      const result = (await plain.callTool({ name: 'show_forecast', arguments: { city: 'Oslo', days: 2 } })) as ToolResult;
      expect(result.content).toEqual([{ type: 'text', text: table(forecast('Oslo', 2, 'C')) }]);
      expect(result.structuredContent).toBeUndefined();
    } finally {
      await plain.close();
    }
  });
});
