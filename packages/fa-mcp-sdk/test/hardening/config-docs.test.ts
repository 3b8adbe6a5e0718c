/**
 * The hardening example of FA-MCP-SDK-DOC/03-configuration.md is a valid
 * configuration, and the hardening keys have the documented defaults.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/index.js';

const DOC = fileURLToPath(new URL('../../../../FA-MCP-SDK-DOC/03-configuration.md', import.meta.url));

describe('hardening configuration', () => {
  it('the documented example loads as config/production.yaml', () => {
    const page = readFileSync(DOC, 'utf8');
    const section = page.slice(page.indexOf('## Hardening'));
    const yaml = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
    expect(yaml, 'a yaml block under ## Hardening').toBeDefined();
    const dir = mkdtempSync(join(tmpdir(), 'fa-mcp-hardening-'));
    try {
      mkdirSync(join(dir, 'config'));
      writeFileSync(join(dir, 'config', 'production.yaml'), yaml as string);
      const { config } = loadConfig({ cwd: dir, nodeEnv: 'production', env: {} });
      expect(config.webServer.allowedOrigins).toEqual(['https://app.example.com']);
      expect(config.webServer.securityHeaders.hstsMaxAgeSec).toBe(31_536_000);
      expect(config.webServer.timeouts).toEqual({ headersMs: 15_000, bodyMs: 15_000, requestMs: 30_000, keepAliveMs: 65_000 });
      expect(config.mcp.limits.maxJsonDepth).toBe(100);
      expect(config.mcp.rateLimit).toMatchObject({ enabled: true, scope: 'subject', maxConcurrentPerSubject: 4 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('defaults: CORS on without credentials, headers on without HSTS, bounded timeouts', () => {
    const { config } = loadConfig({ cwd: '/nonexistent', env: {} });
    expect(config.webServer.cors).toEqual({ enabled: true, credentials: false, maxAgeSec: 600 });
    expect(config.webServer.securityHeaders).toEqual({ enabled: true, hstsMaxAgeSec: 0 });
    expect(config.webServer.timeouts).toEqual({ headersMs: 15_000, bodyMs: 15_000, requestMs: 30_000, keepAliveMs: 65_000 });
    expect(config.mcp.limits.maxJsonDepth).toBe(100);
  });

  it('environment variables set the hardening keys', () => {
    const { config } = loadConfig({
      cwd: '/nonexistent',
      env: { WEB_SERVER_CORS_CREDENTIALS: 'true', WEB_SERVER_HEADERS_TIMEOUT_MS: '2000', WEB_SERVER_HSTS_MAX_AGE_SEC: '60', MCP_MAX_JSON_DEPTH: '32' },
    });
    expect(config.webServer.cors.credentials).toBe(true);
    expect(config.webServer.timeouts.headersMs).toBe(2_000);
    expect(config.webServer.securityHeaders.hstsMaxAgeSec).toBe(60);
    expect(config.mcp.limits.maxJsonDepth).toBe(32);
  });
});
