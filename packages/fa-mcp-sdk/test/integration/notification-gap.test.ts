/**
 * Notifications leave before the response that follows them (stdio and legacy
 * SSE): the response is written at least one event-loop turn after the last
 * progress notification, so SDK clients that read both in one chunk do not drop it.
 */
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { PassThrough, Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { formatToolResult, initMcpServer, type McpServerHandle } from '../../src/index.js';
import { LegacySseTransport } from '../../src/protocol/legacy-sse-transport.js';

/** What was written, in order; a `turn` marks the event-loop turn after each notification write. */
type Entry = 'progress' | 'response' | 'turn';
function classify(text: string, seen: Entry[]): void {
  for (const line of text.split('\n')) {
    const json = line.startsWith('data: ') ? line.slice(6) : line;
    if (!json.trim().startsWith('{')) continue;
    const msg = JSON.parse(json) as Record<string, unknown>;
    if (msg.method === 'notifications/progress') {
      seen.push('progress');
      setImmediate(() => seen.push('turn'));
    } else if ('id' in msg && 'result' in msg) seen.push('response');
  }
}
const lastProgressToResponse = (seen: Entry[]) => seen.slice(seen.lastIndexOf('progress'), seen.indexOf('response', seen.lastIndexOf('progress')) + 1);

describe('notification gap', () => {
  let handle: McpServerHandle | undefined;
  afterEach(async () => {
    await handle?.stop('test done');
    handle = undefined;
  });

  it('legacy SSE: a response sent right after a notification is written a turn later', async () => {
    const seen: Entry[] = [];
    const res = Object.assign(new EventEmitter(), {
      writableEnded: false,
      writeHead: () => res,
      flushHeaders: () => undefined,
      write: (chunk: string) => (classify(chunk, seen), true),
      end: () => undefined,
    });
    const transport = new LegacySseTransport(res as unknown as ServerResponse, '/messages', 0);
    await transport.start();
    const progress: JSONRPCMessage = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1, total: 1 } };
    const response: JSONRPCMessage = { jsonrpc: '2.0', id: 1, result: { content: [] } };
    await Promise.all([transport.send(progress), transport.send(response)]);
    expect(lastProgressToResponse(seen)).toEqual(['progress', 'turn', 'response']);
  });

  it('stdio: the last progress of a call leaves a turn before its result', async () => {
    const seen: Entry[] = [];
    let pending = '';
    const stdout = new Writable({
      write(chunk: Buffer, _enc, done) {
        pending += chunk.toString();
        const cut = pending.lastIndexOf('\n');
        if (cut >= 0) {
          classify(pending.slice(0, cut), seen);
          pending = pending.slice(cut + 1);
        }
        done();
      },
    });
    const stdin = new PassThrough();
    const tool = {
      name: 'quick_progress',
      description: 'Reports progress and returns at once.',
      inputSchema: { type: 'object' as const },
      handler: ({ sendProgress }: { sendProgress: (p: number, t?: number) => void }) => {
        sendProgress(1, 2);
        sendProgress(2, 2);
        return formatToolResult('done');
      },
    };
    handle = await initMcpServer({ serverInfo: { name: 'gap', version: '1.0.0' }, tools: [tool] }, {
      handleSignals: false,
      stdin,
      stdout,
      config: { logger: { level: 'silent' }, mcp: { transportType: 'stdio' } },
    });
    const line = (m: Record<string, unknown>) => stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
    line({ id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    line({ method: 'notifications/initialized' });
    line({ id: 1, method: 'tools/call', params: { name: 'quick_progress', arguments: {}, _meta: { progressToken: 'p' } } });
    const deadline = Date.now() + 10_000;
    const responses = () => seen.filter((e) => e === 'response').length;
    while (responses() < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(seen.filter((e) => e === 'progress').length, JSON.stringify(seen)).toBeGreaterThanOrEqual(1);
    const gap = lastProgressToResponse(seen);
    expect(gap[gap.length - 1]).toBe('response');
    expect(gap).toContain('turn');
  });
});
