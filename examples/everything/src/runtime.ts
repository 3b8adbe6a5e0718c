/**
 * What the tools share beyond their arguments, one per server (no module-level state): the
 * running server (2026-07-28 notifications go to subscriptions/listen streams through it), the
 * example's settings, the per-session toggles and the URL-elicitation retry markers.
 */
import type { McpServerHandle } from 'fa-mcp-sdk';
import { settingsOf, type EverythingSettings } from './settings.js';
import { SessionToggles } from './tools/session-toggles.js';
import { UrlRetryMarkers } from './tools/url-retry-markers.js';

export interface EverythingRuntime {
  /** The running server; a call that arrives while initMcpServer is still resolving waits for it. */
  handle(): Promise<McpServerHandle>;
  settings(): Promise<EverythingSettings>;
  readonly toggles: SessionToggles;
  readonly urlRetries: UrlRetryMarkers;
  /** server.ts calls it once the server runs. */
  started(handle: McpServerHandle): void;
}

export function createRuntime(): EverythingRuntime {
  let resolveHandle: (handle: McpServerHandle) => void = () => undefined;
  const running = new Promise<McpServerHandle>((resolve) => {
    resolveHandle = resolve;
  });
  const toggles = new SessionToggles((sessionId, toggle, reason) => {
    void running.then((h) => h.logger.info({ sessionId, toggle, reason }, 'toggle stopped'));
  });
  return {
    handle: () => running,
    settings: async () => settingsOf((await running).config),
    toggles,
    urlRetries: new UrlRetryMarkers(),
    started: (handle) => resolveHandle(handle),
  };
}
