/**
 * The wire constants stdio's cold front reads without loading the SDK
 * (src/protocol/wire-constants.ts) are the SDK's own: an SDK update that
 * changes one fails here, not on a client's first handshake.
 */
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import * as wire from '../../src/protocol/wire-constants.js';

describe('wire constants read before the SDK is loaded', () => {
  it('negotiate the 2025-era versions the SDK negotiates, in its order', () => {
    expect(wire.LEGACY_PROTOCOL_VERSIONS).toEqual(SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v < '2026-'));
  });

  it('name the 2026-07-28 client envelope keys as the SDK does', () => {
    expect(wire.CLIENT_CAPABILITIES_META_KEY).toBe(CLIENT_CAPABILITIES_META_KEY);
    expect(wire.CLIENT_INFO_META_KEY).toBe(CLIENT_INFO_META_KEY);
  });
});
