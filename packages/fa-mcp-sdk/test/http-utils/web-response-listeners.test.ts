/**
 * A long-lived streamed answer (an events/stream, a GET stream) waits for `drain` many times on
 * one response: each wait must take its listeners off again. Before, every wait left a `close`
 * listener behind, so an open stream to a slow reader grew one listener per wait (and Node
 * printed MaxListenersExceededWarning).
 */
import { createServer, get, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { writeWebResponse } from '../../src/transport/http/web-response.js';

describe('writeWebResponse on a slow reader', () => {
  it('keeps the listeners of the response bounded however often it waits for drain', async () => {
    let response: ServerResponse | undefined;
    let peak = 0;
    let waits = 0;
    const chunk = new Uint8Array(128 * 1024);
    const server = createServer((_req, res) => {
      response = res;
      res.on('drain', () => void waits++);
      let n = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          peak = Math.max(peak, res.listenerCount('close'), res.listenerCount('drain'));
          if (n++ < 80) controller.enqueue(chunk);
          else controller.close();
        },
      });
      void writeWebResponse(res, new Response(body, { headers: { 'content-type': 'text/event-stream' } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      await new Promise<void>((resolve, reject) => {
        get(`http://127.0.0.1:${port}/`, (res) => {
          // A slow reader: pause after every chunk and resume on the next turn of the loop.
          res.on('data', () => {
            res.pause();
            setImmediate(() => res.resume());
          });
          res.on('end', resolve);
          res.on('error', reject);
        }).on('error', reject);
      });
      expect(response).toBeDefined();
      // Waited for drain at least once for each of several chunks, yet never held more than a few listeners.
      expect(waits).toBeGreaterThanOrEqual(10);
      // (one of them is this test's own drain counter)
      expect(peak).toBeLessThanOrEqual(4);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
