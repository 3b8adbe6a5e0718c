/**
 * fa-mcp-sdk/testing: helpers for consumers' tests. Start a server on any
 * transport, connect the official client on either protocol era, read results.
 */
export { getJsonFromResult } from '../core/results.js';
export { ALL_TARGETS, startTestServer, type StartTestServerOptions, type TestEra, type TestServer, type TestTarget, type TestTransport } from './test-server.js';
export { StreamClientTransport } from './stream-client-transport.js';
export { expectToolError } from './expect-tool-error.js';
export { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver, type WebhookReceiverOptions, type WebhookResponse } from './webhook-receiver.js';
export { connectWire2026, REVISION_2026, WireError, type WireClient2026, type WireClient2026Options, type WireTarget2026 } from './wire-client-2026.js';
export { createEraClient, type ClientEra } from './client-era.js';
export { connectInMemory, type InMemoryConnection, type InMemoryOptions } from './in-memory-client.js';
export { connectHttp, connectLegacySse, connectStdio, type RemoteClientOptions, type StdioProcessClient, type StdioProcessOptions } from './remote-clients.js';
export { DEFAULT_SERVER_EXPORTS, loadServerModule, type LoadedServerModule, type LoadServerModuleOptions } from './load-server-module.js';
export {
  getFreePort,
  startServerOnFreePort,
  startServerProcess,
  type RunningServerProcess,
  type RunningTestServer,
  type ServerProcessOptions,
  type ServerSource,
} from './start-server.js';
export { checkSurfacePage, renderSurfacePage, writeSurfacePage, type SurfacePageOptions } from './surface-page.js';
export type { SurfaceCheck } from '../contract/surface-page.js';
