/**
 * fa-mcp-sdk/testing: helpers for consumers' tests. Start a server on any
 * transport, connect the official client on either protocol era, read results.
 */
export { getJsonFromResult } from '../core/results.js';
export { ALL_TARGETS, startTestServer, type StartTestServerOptions, type TestEra, type TestServer, type TestTarget, type TestTransport } from './test-server.js';
export { StreamClientTransport } from './stream-client-transport.js';
export { expectToolError } from './expect-tool-error.js';
