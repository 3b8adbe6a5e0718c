/**
 * A loopback HTTP server gzip-file-as-resource fetches from in the tests (the only network it
 * reaches): /file.txt answers FILE_TEXT, /big answers BIG_BYTES bytes, /never answers nothing.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FILE_TEXT = 'The quick brown fox jumps over the lazy dog.\n'.repeat(20);
export const BIG_BYTES = 4096;

export interface LoopbackFiles {
  base: string;
  close(): Promise<void>;
}

export async function startLoopbackFiles(): Promise<LoopbackFiles> {
  const hanging = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer((req, res) => {
    if (req.url === '/file.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(FILE_TEXT);
    if (req.url === '/big') return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(BIG_BYTES, 7));
    if (req.url === '/never') return void hanging.add(res);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
