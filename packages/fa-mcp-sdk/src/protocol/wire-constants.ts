/**
 * Constants of the wire protocol, read where the SDK is not loaded yet (stdio's
 * cold front answers the 2025-era handshake before it, see transport/stdio.ts).
 * The same values as the SDK's exports of these names: test/spec/wire-constants.test.ts
 * pins them, so an SDK update that changes one fails there.
 */

/** The SDK's SUPPORTED_PROTOCOL_VERSIONS without the 2026-07-28 revisions: what `initialize` negotiates, newest first. */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];

/** The 2026-07-28 `_meta` keys of the client's capabilities and info. */
export const CLIENT_CAPABILITIES_META_KEY = 'io.modelcontextprotocol/clientCapabilities';
export const CLIENT_INFO_META_KEY = 'io.modelcontextprotocol/clientInfo';
