/**
 * A loopback npm registry for the scaffolder's registry check: answers `npm view fa-mcp-sdk`
 * with a packument (`has`) or a 404, and counts what it was asked. Point npm at it with
 * `npm_config_registry`, so no test reaches a real registry.
 */
import { createServer, type Server } from 'node:http';

export interface RegistryDouble {
  url: string;
  /** Paths requested, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startRegistryDouble(has: boolean): Promise<RegistryDouble> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const url = `http://${req.headers.host}`;
    if (has && /^\/fa-mcp-sdk\/?$/.test(req.url ?? '')) {
      const version = { name: 'fa-mcp-sdk', version: '0.1.0', dist: { tarball: `${url}/fa-mcp-sdk/-/fa-mcp-sdk-0.1.0.tgz`, shasum: '0'.repeat(40) } };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ name: 'fa-mcp-sdk', 'dist-tags': { latest: '0.1.0' }, versions: { '0.1.0': version } }));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'Not found' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}/`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
