/**
 * One masking rule on every surface that shows configuration or errors: `fa-mcp config print`
 * (table and --json), the values `fa-mcp config validate` quotes, a running server's log lines,
 * and /health and /ready. A webhook endpoint with credentials in its URL and in its headers is
 * the example: nothing of `hook-pw`, the header values or the secret may appear anywhere.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/cli-io.js';
import { configPrint, configValidate } from '../../src/cli/commands/config.js';
import { formatToolResult, initMcpServer, type McpServerHandle } from '../../src/index.js';
import { connectHttp } from '../../src/testing/index.js';
import { recordingIo } from '../devtools/cli-helpers.js';

const SECRETS = /hook-pw|tok-123|team-456|whsec_c2VjcmV0S2V5|bind-pw-7/;

const ENDPOINT_YAML = `webhooks:
  endpoints:
    - name: hook
      url: http://hook:hook-pw@receiver.example/in
      secret: whsec_c2VjcmV0S2V5
      secretEnv: HOOK_SECRET
      headers:
        Authorization: Bearer tok-123
        X-Team: team-456
webServer:
  auth:
    jwtToken:
      mode: remoteJwks
      jwksUrl: https://idp.example/jwks
    ldap:
      bindPassword: bind-pw-7
`;

function project(yaml: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'fa-mcp-secrets-'));
  mkdirSync(join(dir, 'config'));
  writeFileSync(join(dir, 'config', 'default.yaml'), yaml);
  return dir;
}

describe('fa-mcp config print', () => {
  it('masks URL userinfo, every header value and the secret; shows the rest, including sections named like credentials', async () => {
    const dir = project(ENDPOINT_YAML);
    const io = recordingIo(dir);
    expect(await runCommand(io, () => configPrint(io, { cwd: dir }))).toBe(0);
    expect(io.stdout).not.toMatch(SECRETS);
    const row = io.stdout.split('\n').find((l) => l.startsWith('webhooks.endpoints '));
    expect(row).toContain(
      '[{"name":"hook","url":"http://***@receiver.example/in","secret":"***","secretEnv":"HOOK_SECRET","headers":{"Authorization":"***","X-Team":"***"}}]',
    );
    // jwtToken and tokenCheck are sections, not tokens: their keys are shown one by one.
    expect(io.stdout).toMatch(/^webServer\.auth\.jwtToken\.mode\s+= "remoteJwks"/m);
    expect(io.stdout).toMatch(/^webServer\.auth\.jwtToken\.jwksUrl\s+= "https:\/\/idp\.example\/jwks"/m);
    expect(io.stdout).toMatch(/^webServer\.tokenCheck\.allowQueryToken\s+= false/m);
    expect(io.stdout).toMatch(/^webServer\.auth\.ldap\.bindPassword\s+= "\*\*\*"/m);

    const json = recordingIo(dir);
    expect(await runCommand(json, () => configPrint(json, { cwd: dir, json: true }))).toBe(0);
    expect(json.stdout).not.toMatch(SECRETS);
    const printed = JSON.parse(json.stdout) as { config: { webhooks: { endpoints: Array<Record<string, unknown>> } } };
    expect(printed.config.webhooks.endpoints[0]).toMatchObject({ url: 'http://***@receiver.example/in', headers: { Authorization: '***', 'X-Team': '***' } });
  });
});

describe('fa-mcp config validate', () => {
  it('quotes a bad URL with its userinfo masked, and no header value at all', async () => {
    const dir = project(`webhooks:
  endpoints:
    - name: hook
      url: ftp://hook:hook-pw@receiver.example/in
      secret: whsec_c2VjcmV0S2V5
      headers:
        X-Team: 456
`);
    const io = recordingIo(dir);
    expect(await runCommand(io, () => configValidate(io, { cwd: dir }))).toBe(1);
    expect(io.stderr).toContain('webhooks.endpoints.0.url: must be string matching /^https?:/// (got "ftp://***@receiver.example/in" from');
    expect(io.stderr).toContain('webhooks.endpoints.0.headers.X-Team: must be string (got a hidden value from');
    expect(io.stderr).not.toMatch(/hook-pw|456/);
  });

  it('masks what an environment variable that does not parse would show', async () => {
    const dir = project('');
    const io = recordingIo(dir);
    // the CLI reads the process environment, like the server
    process.env.WEBHOOKS_ENDPOINTS = '[{"name":"h","url":"http://hook:hook-pw@x/in","headers":{"Authorization":"tok-123"}';
    try {
      expect(await runCommand(io, () => configValidate(io, { cwd: dir }))).toBe(1);
    } finally {
      delete process.env.WEBHOOKS_ENDPOINTS;
    }
    expect(io.stderr).toContain('webhooks.endpoints: must be array of object (got "[{\\"name\\":\\"h\\",\\"url\\":\\"http://***@x/in\\"');
    expect(io.stderr).not.toMatch(SECRETS);
  });
});

describe('a running server', () => {
  const handles: McpServerHandle[] = [];
  afterEach(async () => {
    await Promise.all(handles.splice(0).map((h) => h.stop('test finished')));
  });

  it('writes log lines and answers /health and /ready with the same masking', async () => {
    const logs = new PassThrough();
    const chunks: string[] = [];
    logs.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
    const handle = await initMcpServer(
      {
        tools: [
          {
            name: 'call_upstream',
            description: 'Logs what it would send upstream.',
            inputSchema: { type: 'object', properties: {} },
            handler: ({ context }) => {
              context.logger?.warn(
                { upstream: { url: 'http://hook:hook-pw@receiver.example/in', headers: { Authorization: 'Bearer tok-123', 'X-Team': 'team-456' } } },
                'upstream refused http://hook:hook-pw@receiver.example/in',
              );
              return formatToolResult('ok');
            },
          },
        ],
        readinessChecks: [{ name: 'upstream', check: () => Promise.reject(new Error('POST http://hook:hook-pw@receiver.example/in with Authorization: Bearer tok-123 answered 401 (password=bind-pw-7)')) }],
      },
      { handleSignals: false, logDestination: logs, config: { webServer: { port: 0 }, logger: { level: 'info', format: 'json' } } },
    );
    handles.push(handle);
    const base = new URL('/', handle.url!);
    const client = await connectHttp(handle.url!);
    expect((await client.callTool({ name: 'call_upstream', arguments: {} })).isError).toBeFalsy();
    await client.close();
    const deadline = Date.now() + 10_000;
    while (!chunks.join('').includes('upstream refused') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const line = chunks
      .join('')
      .split('\n')
      .filter((l) => l.includes('upstream refused'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)[0];
    expect(line).toMatchObject({
      msg: 'upstream refused http://***@receiver.example/in',
      upstream: { url: 'http://***@receiver.example/in', headers: { Authorization: '***', 'X-Team': '***' } },
    });
    expect(chunks.join('')).not.toMatch(SECRETS);

    const health = await fetch(new URL('/health', base));
    expect(health.status).toBe(200);
    expect(await health.text()).not.toMatch(SECRETS);
    const ready = await fetch(new URL('/ready', base));
    expect(ready.status).toBe(503);
    const body = (await ready.json()) as { checks: Record<string, { error?: string }> };
    expect(body.checks.upstream?.error).toBe('POST http://***@receiver.example/in with Authorization: Bearer *** answered 401 (password=***)');
  });
});
