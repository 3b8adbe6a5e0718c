/**
 * The reference page in a real browser (Debian's chromium, headless, through
 * playwright-core): it renders from the package's own assets, lists the
 * declared routes and the tool routes, and "Try it out" reaches the REST route.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initMcpServer, type McpServerHandle } from '../../src/index.js';
import { restServer } from './rest-fixture.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('the /docs reference page in chromium', () => {
  let browser: Browser;
  let handle: McpServerHandle;
  let base: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (scripts/ci/ensure-chromium.sh)`);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    handle = await initMcpServer(restServer(), {
      handleSignals: false,
      config: { webServer: { port: 0, rest: { exposeTools: true } }, logger: { level: 'silent' } },
    });
    base = new URL('/', handle.url!).toString().replace(/\/$/, '');
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await handle?.stop();
  });

  it('shows every route and runs a request from the page', async () => {
    const page = await browser.newPage();
    const external: string[] = [];
    const consoleErrors: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(base)) external.push(req.url());
    });
    page.on('console', (msg) => {
      if (msg.type() === 'error') consoleErrors.push(msg.text());
    });
    await page.goto(`${base}/docs`);
    await page.waitForSelector('.opblock-summary-path', { timeout: 20_000 });
    const paths = await page.$$eval('.opblock-summary-path', (els) => els.map((e) => e.getAttribute('data-path') ?? e.textContent?.trim() ?? ''));
    expect(paths).toEqual(expect.arrayContaining(['/users/{id}', '/users', '/tools/add_numbers', '/admin/report', '/raw/ping']));
    expect(await page.textContent('.info .title')).toContain('REST demo');

    // Expand GET /users/{id}, fill id 1, execute: the answer comes from the server.
    await page.click('#operations-users-getUsersId .opblock-summary');
    // The page opens with "Try it out" already on (tryItOutEnabled).
    await page.fill('#operations-users-getUsersId input[placeholder="id"]', '1');
    await page.click('#operations-users-getUsersId .execute');
    await page.waitForSelector('#operations-users-getUsersId .responses-wrapper .live-responses-table', { timeout: 10_000 });
    const live = (await page.textContent('#operations-users-getUsersId .live-responses-table')) ?? '';
    expect(live).toContain('"name": "Ada"');
    expect(await page.textContent('#operations-users-getUsersId .live-responses-table tbody .response-col_status')).toContain('200');
    if (process.env.DOCS_SCREENSHOT) await page.screenshot({ path: process.env.DOCS_SCREENSHOT, fullPage: false });

    expect(external).toEqual([]);
    expect(consoleErrors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
    await page.close();
  }, 60_000);
});
