/**
 * Debugging aids: DEBUG=mcp:* channels, the JSON-lines trace sink (masked,
 * capped), the built-in debug tool with every CallToolResult shape (and its
 * refusal in production), and maskSensitive.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format } from 'node:util';
import createDebug from 'debug';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, initMcpServer, maskSensitive, TRUNCATION_MARKER } from '../../src/index.js';
import { startTestServer, type TestTarget } from '../../src/testing/index.js';
import { outcomeServer, sleep } from './helpers.js';

describe('DEBUG=mcp:* channels', () => {
  const lines: string[] = [];
  const originalLog = createDebug.log;
  beforeAll(() => {
    createDebug.log = (...args: unknown[]) => void lines.push(format(...(args as [string, ...unknown[]])));
    createDebug.enable('mcp:*');
  });
  afterAll(() => {
    createDebug.disable();
    createDebug.log = originalLog;
  });

  it('writes handshake, rpc, tool, resource and notification lines', async () => {
    const server = await startTestServer(
      { ...outcomeServer(), resources: [{ uri: 'demo://a', name: 'a', mimeType: 'text/plain', content: 'A' }] },
      { target: { transport: 'http', era: '2025', label: 'http-session/2025' } },
    );
    try {
      const client = await server.connect();
      await client.callTool({ name: 'ok_tool', arguments: { text: 'x' } });
      await client.readResource({ uri: 'demo://a' });
      await sleep(20);
    } finally {
      await server.stop();
    }
    const has = (channel: string, text: string) => lines.some((l) => l.includes(`mcp:${channel}`) && l.includes(text));
    expect(has('handshake', 'initialize')).toBe(true);
    expect(has('rpc', 'tools/call')).toBe(true);
    expect(has('rpc', 'ok in')).toBe(true);
    expect(has('tool', 'tools/call')).toBe(true);
    expect(has('resource', 'resources/read')).toBe(true);
    expect(has('notification', 'notifications/initialized')).toBe(true);
  });

  it('writes auth failures on mcp:auth', async () => {
    const handle = await initMcpServer(outcomeServer(), { handleSignals: false, config: { webServer: { port: 0 }, logger: { level: 'silent' } } });
    try {
      handle.core.telemetry.authFailure('expired', { subject: 'ada' });
      expect(lines.some((l) => l.includes('mcp:auth') && l.includes('expired'))).toBe(true);
    } finally {
      await handle.stop();
    }
  });
});

describe('JSON-lines trace sink', () => {
  it('records each request and response with secrets masked and sizes capped', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'fa-mcp-trace-')), 'nested', 'trace.jsonl');
    const server = await startTestServer(
      {
        tools: [
          {
            name: 'echo_all',
            inputSchema: { type: 'object' },
            handler: ({ arguments: a }) => ({ content: [{ type: 'text', text: String(a.big ?? 'small') }] }),
          },
        ],
      },
      { target: { transport: 'http', era: '2026', label: 'http/2026' }, config: { mcp: { debug: { logFile: file, maxEntryBytes: 512 } } } },
    );
    try {
      const client = await server.connect();
      await client.callTool({ name: 'echo_all', arguments: { password: 'hunter2', note: 'Authorization: Bearer abc.def.ghi' } });
      await client.callTool({ name: 'echo_all', arguments: { big: 'y'.repeat(5000) } });
    } finally {
      await server.stop();
    }
    const entries = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const calls = entries.filter((e) => e.method === 'tools/call');
    expect(calls.map((e) => e.kind)).toEqual(['request', 'response', 'request', 'response']);
    const [req1, res1, req2, res2] = calls as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any -- parsed JSON lines
    expect(req1!.params.arguments.password).toBe('***');
    expect(req1!.params.arguments.note).toBe('Authorization: Bearer ***');
    expect(JSON.stringify(entries)).not.toContain('hunter2');
    expect(JSON.stringify(entries)).not.toContain('abc.def.ghi');
    expect(res1).toMatchObject({ outcome: 'ok', requestId: req1!.requestId, durationMs: expect.any(Number) });
    expect(req2!.params).toMatchObject({ truncated: true, bytes: expect.any(Number) });
    expect(req2!.params.bytes).toBeGreaterThan(5000);
    expect(Buffer.byteLength(req2!.params.preview)).toBeLessThanOrEqual(512);
    expect(res2!.result).toMatchObject({ truncated: true });
    for (const e of entries) expect(typeof e.ts).toBe('string');
  });
});

const SHAPE_TARGETS: TestTarget[] = [
  { transport: 'http', era: '2025', label: 'http-session/2025' },
  { transport: 'stdio', era: '2026', label: 'stdio/2026' },
];

describe.each(SHAPE_TARGETS)('debug_tool on $label', (target) => {
  it('returns every CallToolResult shape', async () => {
    const server = await startTestServer({}, { target, config: { mcp: { debug: { builtinTools: true }, limits: { maxToolResultBytes: 4096 } } } });
    try {
      const client = await server.connect();
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('debug_tool');
      const call = (shape: string, extra: Record<string, unknown> = {}) => client.callTool({ name: 'debug_tool', arguments: { shape, ...extra } });
      expect((await call('text')).content).toEqual([{ type: 'text', text: 'Plain text content from debug_tool.' }]);
      const image = (await call('image')).content as Array<{ type: string; data: string; mimeType: string }>;
      expect(image[0]).toMatchObject({ type: 'image', mimeType: 'image/png' });
      expect(Buffer.from(image[0]!.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
      const audio = (await call('audio')).content as Array<{ type: string; data: string; mimeType: string }>;
      expect(audio[0]).toMatchObject({ type: 'audio', mimeType: 'audio/wav' });
      expect(Buffer.from(audio[0]!.data, 'base64').subarray(0, 4).toString()).toBe('RIFF');
      expect((await call('resource')).content).toEqual([
        { type: 'resource', resource: { uri: 'debug://embedded/note.txt', mimeType: 'text/plain', text: 'An embedded text resource.' } },
      ]);
      expect((await call('resource_link')).content).toMatchObject([{ type: 'resource_link', uri: 'debug://linked/report.json', name: 'report.json' }]);
      const structured = await call('structured');
      expect(structured.structuredContent).toMatchObject({ shape: 'structured', items: [{ id: 1 }, { id: 2 }] });
      const failed = await call('error');
      expect(failed.isError).toBe(true);
      const progress: number[] = [];
      const slow = await client.callTool({ name: 'debug_tool', arguments: { shape: 'slow', delayMs: 80 } }, { onprogress: (p) => progress.push(p.progress) });
      expect(slow.content).toEqual([{ type: 'text', text: 'slow call finished after 80 ms' }]);
      expect(progress.length).toBeGreaterThanOrEqual(1);
      const big = await call('oversized');
      const blocks = big.content as Array<{ type: string; text: string }>;
      expect(blocks.at(-1)!.text).toBe(TRUNCATION_MARKER);
      const all = await call('all');
      expect((all.content as Array<{ type: string }>).map((b) => b.type)).toEqual(['text', 'image', 'audio', 'resource', 'resource_link']);
    } finally {
      await server.stop();
    }
  });
});

describe('debug tool switches', () => {
  it('is absent by default', async () => {
    const server = await startTestServer(outcomeServer());
    try {
      const { tools } = await (await server.connect()).listTools();
      expect(tools.map((t) => t.name)).not.toContain('debug_tool');
    } finally {
      await server.stop();
    }
  });

  it('is refused in production unless forced', async () => {
    const config = { webServer: { port: 0 }, logger: { level: 'silent' }, mcp: { debug: { builtinTools: true } } };
    const refused = initMcpServer({}, { handleSignals: false, nodeEnv: 'production', config });
    await expect(refused).rejects.toBeInstanceOf(ConfigError);
    await expect(refused).rejects.toThrow(/mcp\.debug\.builtinTools/);
    const forced = await initMcpServer({}, { handleSignals: false, nodeEnv: 'production', config: { ...config, mcp: { debug: { builtinTools: true, allowInProduction: true } } } });
    await forced.stop();
  });
});

describe('maskSensitive', () => {
  const user = {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    contact: 'Call +44 20 7946 0958 or write to ada@example.com',
    card: '4111 1111 1111 1111',
    order: '1234 5678 9012 3456',
    ssn: '078-05-1120',
    apiKey: 'k-123',
    address: { street: '12 St James Sq', city: 'London' },
    accounts: [{ iban: 'GB82WEST12345698765432', balance: 10 }],
  };

  it('masks by key, path and pattern, keeps the input unchanged', () => {
    const copy = structuredClone(user);
    const masked = maskSensitive(user, { keys: ['ssn', /^card$/], paths: ['address.street', 'accounts.*.iban'], patterns: ['email', 'phone'] });
    expect(masked).toEqual({
      name: 'Ada Lovelace',
      email: '***',
      contact: 'Call *** or write to ***',
      card: '***',
      order: '1234 5678 9012 3456',
      ssn: '***',
      apiKey: '***',
      address: { street: '***', city: 'London' },
      accounts: [{ iban: '***', balance: 10 }],
    });
    expect(user).toEqual(copy);
  });

  it('checks card numbers with Luhn, keeps the last digits on request, and can leave secrets alone', () => {
    const text = { note: 'paid with 4111-1111-1111-1111, ref 1234 5678 9012 3456' };
    expect(maskSensitive(text, { patterns: ['card'], keepLast: 4 })).toEqual({ note: 'paid with ***1111, ref 1234 5678 9012 3456' });
    expect(maskSensitive({ token: 'abc' }, { secrets: false })).toEqual({ token: 'abc' });
    // A secret keeps nothing of its value, whatever keepLast says.
    expect(maskSensitive({ apiKey: 'k-123456', note: 'card 4111-1111-1111-1111' }, { patterns: ['card'], keepLast: 4 })).toEqual({ apiKey: '***', note: 'card ***1111' });
    expect(maskSensitive({ token: 'abc', jwt: 'x eyJhbGciOiJI.eyJzdWIiOiIx.sig y' }, { patterns: ['jwt'], mask: '[hidden]' })).toEqual({
      token: '[hidden]',
      jwt: 'x [hidden] y',
    });
    expect(() => maskSensitive({}, { patterns: ['nope' as never] })).toThrow(/unknown pattern/);
  });
});
