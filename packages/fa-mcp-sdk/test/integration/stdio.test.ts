/**
 * The stdio transport, run as a real child process (test/fixtures/child-server.mjs
 * on the built library): the SDK's StdioClientTransport in both eras, and a raw
 * run proving stdout carries nothing but JSON-RPC while logs go to stderr.
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { assertLibraryBuilt, CHILD_FIXTURE, childEnv, exitWithin, killChildFixtures, spawnChildFixture } from './child-fixture.js';
import { ERAS, LEGACY_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSION, waitFor } from './helpers.js';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
});
afterAll(killChildFixtures);

describe('stdio transport', () => {
  it.each(ERAS)('serves the SDK StdioClientTransport, era %s: list and call', async (era) => {
    assertLibraryBuilt();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CHILD_FIXTURE],
      env: childEnv({ FIXTURE_TRANSPORT: 'stdio' }),
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const client = new Client(
      { name: `stdio-${era}`, version: '1.0.0' },
      { versionNegotiation: { mode: era === '2026' ? { pin: MODERN_PROTOCOL_VERSION } : 'legacy' } },
    );
    await client.connect(transport);
    clients.push(client);

    expect(client.getNegotiatedProtocolVersion()).toBe(era === '2026' ? MODERN_PROTOCOL_VERSION : LEGACY_PROTOCOL_VERSION);
    expect(client.getServerVersion()).toMatchObject({ name: 'child-fixture', version: '1.0.0' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['echo', 'sleep']);
    const result = await client.callTool({ name: 'echo', arguments: { text: `stdio ${era}` } });
    expect(result.structuredContent).toEqual({ echoed: `stdio ${era}` });

    await waitFor(() => stderr.includes('fixture tool called'), 3_000, 'the tool log on stderr');
  });

  it('writes only JSON-RPC lines to stdout; info logs go to stderr', async () => {
    const fixture = spawnChildFixture('stdio');
    fixture.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: LEGACY_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    await waitFor(() => fixture.stdoutLines.length >= 1, 10_000, 'the initialize result');
    fixture.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    fixture.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    fixture.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'raw' } } });
    fixture.send({ jsonrpc: '2.0', id: 4, method: 'no/such/method' });

    const messages = () => fixture.stdoutLines.map((line) => JSON.parse(line) as { jsonrpc?: string; id?: number; result?: unknown; error?: unknown });
    await waitFor(() => [1, 2, 3, 4].every((id) => messages().some((m) => m.id === id)), 5_000, 'responses 1..4');

    // Every single stdout line is a JSON-RPC 2.0 message, nothing else.
    for (const line of fixture.stdoutLines) {
      const message = JSON.parse(line) as Record<string, unknown>;
      expect(message.jsonrpc).toBe('2.0');
      expect('result' in message || 'error' in message || 'method' in message).toBe(true);
    }
    const byId = new Map(messages().map((m) => [m.id, m]));
    expect(byId.get(1)?.result).toMatchObject({ protocolVersion: LEGACY_PROTOCOL_VERSION, serverInfo: { name: 'child-fixture' } });
    expect(byId.get(2)?.result).toMatchObject({ tools: [{ name: 'echo' }, { name: 'sleep' }] });
    expect(byId.get(3)?.result).toMatchObject({ structuredContent: { echoed: 'raw' } });
    expect(byId.get(4)?.error).toMatchObject({ code: -32601 });

    // The info-level logs exist, as JSON lines on stderr.
    const logLines = fixture
      .stderr()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level?: number; msg?: string });
    expect(logLines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ level: 30, msg: 'fixture started' }),
        expect.objectContaining({ level: 30, msg: 'fixture tool called' }),
      ]),
    );

    fixture.child.kill('SIGTERM');
    expect(await exitWithin(fixture, 5_000)).toBe(0);
    // Nothing but JSON-RPC, up to the very end.
    for (const line of fixture.stdoutLines) expect(() => JSON.parse(line)).not.toThrow();
  });
});
