/**
 * Timeouts against slow clients over raw sockets: a header trickle, a body
 * trickle and an idle keep-alive connection are each cut within their
 * configured time, while long responses (SSE streams, slow tool calls) are not.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/index.js';
import { fixtureServerData } from '../fixtures/server-data.js';
import { connectHttpClient, LEGACY_PROTOCOL_VERSION, openRawSession, serverUrl, startTestServer, stopAllServers, waitFor } from '../integration/helpers.js';

afterAll(stopAllServers);

interface Peer {
  socket: Socket;
  received: () => string;
  /** Resolves with the ms from connect to the server closing the socket. */
  closed: Promise<number>;
}

function open(port: number): Promise<Peer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const started = Date.now();
    const closed = new Promise<number>((done) => socket.once('close', () => done(Date.now() - started)));
    socket.on('data', (c: Buffer) => (text += c.toString('utf8')));
    socket.on('error', () => undefined); // the server hanging up mid-write is the point
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
    socket.once('error', reject);
  });
}

/** Writes `chunk` every `everyMs` until the socket closes; returns a stopper. */
function trickle(socket: Socket, chunk: string, everyMs: number): () => void {
  const timer = setInterval(() => {
    if (!socket.destroyed && socket.writable) socket.write(chunk);
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
  return () => clearInterval(timer);
}

const TIMEOUTS = { headersMs: 400, bodyMs: 400, requestMs: 1_500, keepAliveMs: 400 };

describe('slow clients', () => {
  it('cuts a client that trickles its headers: 408 within headersMs', async () => {
    const handle = await startTestServer(fixtureServerData(), { webServer: { timeouts: TIMEOUTS } });
    const peer = await open(Number(serverUrl(handle).port));
    peer.socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
    const stop = trickle(peer.socket, 'X-Slow: a\r\n', 100);
    const ms = await peer.closed;
    stop();
    expect(peer.received()).toMatch(/^HTTP\/1\.1 408/);
    expect(ms).toBeGreaterThanOrEqual(TIMEOUTS.headersMs - 50);
    expect(ms).toBeLessThan(TIMEOUTS.headersMs + 2_000); // generous: a loaded machine delays timers
  });

  it('cuts a client that trickles its body: 408 with a JSON-RPC error within bodyMs', async () => {
    const handle = await startTestServer(fixtureServerData(), { webServer: { timeouts: TIMEOUTS } });
    const peer = await open(Number(serverUrl(handle).port));
    const body = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"' + 'x'.repeat(200) + '"}}';
    peer.socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    let sent = 10;
    const timer = setInterval(() => {
      if (sent < body.length - 1 && !peer.socket.destroyed) peer.socket.write(body[sent++] as string);
    }, 50);
    const ms = await peer.closed;
    clearInterval(timer);
    const text = peer.received();
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    expect(text.toLowerCase()).toContain('connection: close');
    const json = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { error: { code: number; message: string }; id: null };
    expect(json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32004 } });
    expect(json.error.message).toMatch(/body not received within 400 ms/);
    expect(ms).toBeGreaterThanOrEqual(TIMEOUTS.bodyMs - 50);
    expect(ms).toBeLessThan(TIMEOUTS.bodyMs + 2_000); // generous: a loaded machine delays timers
  });

  it('bounds the whole request with requestMs even when bodyMs is longer', async () => {
    const timeouts = { headersMs: 300, bodyMs: 10_000, requestMs: 700, keepAliveMs: 400 };
    const handle = await startTestServer(fixtureServerData(), { webServer: { timeouts } });
    const peer = await open(Number(serverUrl(handle).port));
    peer.socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{`);
    trickle(peer.socket, ' ', 50);
    const ms = await peer.closed;
    expect(peer.received()).toMatch(/^HTTP\/1\.1 408/);
    expect(ms).toBeGreaterThanOrEqual(timeouts.requestMs - 50);
    expect(ms).toBeLessThan(timeouts.requestMs + 2_000); // generous: a loaded machine delays timers
  });

  it('closes an idle keep-alive connection after keepAliveMs', async () => {
    const handle = await startTestServer(fixtureServerData(), { webServer: { timeouts: TIMEOUTS } });
    const peer = await open(Number(serverUrl(handle).port));
    peer.socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
    const ms = await peer.closed;
    expect(peer.received()).toMatch(/^HTTP\/1\.1 200/);
    expect(ms).toBeGreaterThanOrEqual(TIMEOUTS.keepAliveMs - 50);
    expect(ms).toBeLessThan(TIMEOUTS.keepAliveMs + 2_000); // generous: a loaded machine delays timers
  });

  it('does not cut long responses: an SSE stream and a slow tool call outlive requestMs', async () => {
    // keepAliveMs stays long: a client reusing a connection the server is closing is a race of its own.
    const timeouts = { headersMs: 500, bodyMs: 500, requestMs: 500, keepAliveMs: 5_000 };
    const handle = await startTestServer(fixtureServerData(), { webServer: { timeouts }, mcp: { responseMode: 'sse' } });
    // A standalone GET stream, idle for three times requestMs, still delivers a notification.
    const url = serverUrl(handle);
    const sessionId = await openRawSession(url);
    const stream = new AbortController();
    const res = await fetch(url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY_PROTOCOL_VERSION },
      signal: stream.signal,
    });
    expect(res.status).toBe(200);
    let text = '';
    let ended = false;
    void (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) text += decoder.decode(chunk);
      } catch {
        // aborted at the end of the test
      }
      ended = true;
    })();
    await new Promise((r) => setTimeout(r, 3 * timeouts.requestMs));
    expect(ended).toBe(false);
    await handle.notifyListChanged('tools');
    await waitFor(() => text.includes('notifications/tools/list_changed'), 3_000, 'the notification on the idle stream');
    stream.abort();

    // A tool call whose answer takes more than twice requestMs.
    const { client } = await connectHttpClient(url, { era: '2025' });
    const result = await client.callTool({ name: 'sleep', arguments: { ms: 1_200 } });
    expect(result.structuredContent).toEqual({ slept: 1_200, aborted: false });
  });

  it('refuses requestMs shorter than headersMs at start', async () => {
    const start = startTestServer(fixtureServerData(), { webServer: { timeouts: { headersMs: 5_000, requestMs: 1_000 } } });
    await expect(start).rejects.toBeInstanceOf(ConfigError);
    await expect(start).rejects.toThrow(/webServer\.timeouts\.requestMs/);
  });
});
