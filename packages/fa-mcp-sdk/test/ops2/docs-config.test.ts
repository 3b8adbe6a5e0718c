/**
 * The configuration examples of the operations docs load as they are written, and the label values
 * the metrics table of 07 names are the ones the server counts.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/index.js';
import { AUTH_FAILURE_REASONS } from '../../src/core/telemetry.js';

const page = (name: string) => readFileSync(fileURLToPath(new URL(`../../../../FA-MCP-SDK-DOC/${name}`, import.meta.url)), 'utf8');

function yamlUnder(text: string, heading: string): string {
  const section = text.slice(text.indexOf(heading));
  const yaml = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
  if (!yaml) throw new Error(`no yaml block under ${heading}`);
  return yaml;
}

function load(yaml: string, env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'fa-mcp-ops-docs-'));
  try {
    mkdirSync(join(dir, 'config'));
    writeFileSync(join(dir, 'config', 'default.yaml'), yaml);
    return loadConfig({ cwd: dir, env }).config;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('operations docs', () => {
  it('the Consul example of 06-utilities loads, with the token from the environment', () => {
    const config = load(yamlUnder(page('06-utilities.md'), '## Consul'), { CONSUL_HTTP_TOKEN: 'acl' });
    expect(config.consul).toMatchObject({ enabled: true, agent: { port: 8500, token: 'acl' }, service: { name: 'weather-mcp', tags: ['mcp', 'v1'] } });
    expect(config.consul.accessPoints.users).toEqual({ service: 'users-api', tag: 'v2' });
  });

  it('the trace sink example of 06-utilities loads', () => {
    expect(load(yamlUnder(page('06-utilities.md'), '## Trace sink')).mcp.debug).toMatchObject({ logFile: '/var/log/my-server/mcp-trace.jsonl', maxEntryBytes: 16384 });
  });

  it('the metrics example of 07-testing-and-operations loads', () => {
    expect(load(yamlUnder(page('07-testing-and-operations.md'), '## Metrics')).webServer.metrics).toEqual({
      enabled: true,
      path: '/metrics',
      token: '',
      separatePort: true,
      port: 9464,
      processMetrics: true,
    });
  });

  it('the reasons of mcp_auth_failures_total in 07-testing-and-operations are the label values counted', () => {
    const row = page('07-testing-and-operations.md').split('\n').find((line) => line.startsWith('| `mcp_auth_failures_total` |'));
    const listed = [...(/`reason` one of (.*)\|/.exec(row ?? '')?.[1] ?? '').matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
    expect(listed).toEqual([...AUTH_FAILURE_REASONS]);
  });
});
