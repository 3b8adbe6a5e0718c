/**
 * The registry check of the interactive flow (src/registry-probe.ts): the real `npm view`,
 * pointed at loopback registry doubles, tells found from missing from unreachable.
 */
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmRegistryProbe, parseNpmView } from '../src/registry-probe.js';
import { tempDir } from './helpers.js';
import { startRegistryDouble, type RegistryDouble } from './registry-double.js';

const tmp = tempDir('create-fa-mcp-registry-');
let withSdk: RegistryDouble;
let withoutSdk: RegistryDouble;
beforeAll(async () => {
  [withSdk, withoutSdk] = await Promise.all([startRegistryDouble(true), startRegistryDouble(false)]);
});
afterAll(async () => {
  await Promise.all([withSdk?.close(), withoutSdk?.close()]);
  tmp.cleanup();
});
const env = (registry: string) => ({ ...process.env, npm_config_registry: registry, npm_config_cache: join(tmp.dir, 'cache'), npm_config_fetch_retries: '0' });

describe('the registry check', () => {
  it('finds fa-mcp-sdk on a registry that has a matching version', async () => {
    expect(await npmRegistryProbe({ env: env(withSdk.url) })('^0.1.0')).toEqual({ status: 'found', version: '0.1.0' });
    expect(withSdk.requests).toContain('/fa-mcp-sdk');
  }, 60_000);

  it('reports missing when the registry has no such package, or no matching version', async () => {
    expect(await npmRegistryProbe({ env: env(withoutSdk.url) })('^0.1.0')).toMatchObject({ status: 'missing' });
    expect(await npmRegistryProbe({ env: env(withSdk.url) })('^9.0.0')).toMatchObject({ status: 'missing' });
  }, 60_000);

  it('reports unknown, within its timeout, when the registry does not answer', async () => {
    // a listener that accepts and never answers
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as { port: number };
      const started = Date.now();
      const probed = await npmRegistryProbe({ env: env(`http://127.0.0.1:${port}/`), timeoutMs: 1500 })('^0.1.0');
      expect(probed).toEqual({ status: 'unknown', detail: 'no answer within 2 s' });
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      silent.close();
    }
  }, 60_000);

  it('reads npm view output', () => {
    expect(parseNpmView(0, '"0.1.0"\n', '')).toEqual({ status: 'found', version: '0.1.0' });
    expect(parseNpmView(0, '["0.1.0","0.1.2"]', '')).toEqual({ status: 'found', version: '0.1.2' });
    expect(parseNpmView(0, '', '')).toEqual({ status: 'missing', detail: 'no version matches' });
    expect(parseNpmView(1, '{"error":{"code":"E404","summary":"Not Found"}}', '')).toEqual({ status: 'missing', detail: 'not in the registry' });
    expect(parseNpmView(1, '{"error":{"code":"ECONNREFUSED","summary":"request to x failed"}}', '')).toEqual({ status: 'unknown', detail: 'request to x failed' });
  });
});
