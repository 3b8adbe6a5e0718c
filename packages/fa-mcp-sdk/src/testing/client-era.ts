/** The official client, set up for one protocol era. */
import { Client, type ClientOptions } from '../protocol/sdk-client.js';

export type ClientEra = '2025' | '2026';

export const TEST_CLIENT_INFO = { name: 'fa-mcp-test-client', version: '1.0.0' };

/** A client that speaks 2025-11-25 (initialize, sessions) or pins 2026-07-28 (per-request). */
export function createEraClient(era: ClientEra = '2025', options: ClientOptions = {}): Client {
  return new Client(TEST_CLIENT_INFO, {
    ...options,
    versionNegotiation: { mode: era === '2026' ? { pin: '2026-07-28' } : 'legacy' },
  });
}
