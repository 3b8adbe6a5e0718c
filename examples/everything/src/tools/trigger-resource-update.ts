/**
 * trigger-resource-update (both eras): notifications/resources/updated for a URI. 2025-era: to
 * this connection, once it subscribed to the URI (resources/subscribe). 2026-07-28: to every
 * subscriptions/listen stream whose resourceSubscriptions name it (on every instance on the bus).
 */
import { formatToolResult } from 'fa-mcp-sdk';
import type { EverythingRuntime } from '../runtime.js';
import { defineTool } from './define.js';

export function triggerResourceUpdate(rt: EverythingRuntime) {
  return defineTool('both', {
    name: 'trigger-resource-update',
    title: 'Trigger resource update',
    description: 'Sends notifications/resources/updated for a URI: to listen streams that name it (2026-07-28), or to this connection when it subscribed to it (2025-era).',
    annotations: { readOnlyHint: true, openWorldHint: false },
    inputSchema: {
      type: 'object',
      properties: { uri: { type: 'string', minLength: 1, default: 'demo://resource/dynamic/text/1', description: 'The URI of the resource that changed' } },
      additionalProperties: false,
    },
    handler: async ({ arguments: args, session }) => {
      const uri = typeof args.uri === 'string' ? args.uri : 'demo://resource/dynamic/text/1';
      if (session) {
        const sent = await session.resourceUpdated(uri);
        return formatToolResult({ uri, sent, ...(sent ? {} : { reason: 'this connection has not subscribed to the URI (resources/subscribe)' }) });
      }
      const notified = await (await rt.handle()).notifyResourceUpdated(uri);
      return formatToolResult({ uri, sent: true, listenStreamsHere: notified });
    },
  });
}
