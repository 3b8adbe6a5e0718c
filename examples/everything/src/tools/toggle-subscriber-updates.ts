/**
 * toggle-subscriber-updates (2025-era): starts or stops a per-connection interval that sends
 * notifications/resources/updated for each URI this connection subscribed to
 * (resources/subscribe), through its session handle. The interval stops when the session ends.
 */
import { formatToolResult, ToolExecutionError } from 'fa-mcp-sdk';
import type { EverythingRuntime } from '../runtime.js';
import { defineTool, DEPRECATED } from './define.js';

export function toggleSubscriberUpdates(rt: EverythingRuntime) {
  return defineTool('2025', {
    name: 'toggle-subscriber-updates',
    title: 'Toggle subscriber updates',
    description: `Starts or stops simulated resource update notifications for the URIs this connection subscribed to with resources/subscribe. ${DEPRECATED}`,
    annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    handler: async ({ session }) => {
      if (!session) throw new ToolExecutionError('This connection has no session (a stateless endpoint): open a subscriptions/listen stream instead.');
      const { subscriberUpdatesMs } = await rt.settings();
      const state = rt.toggles.toggle(session, 'subscriber-updates', subscriberUpdatesMs, async () => {
        for (const uri of await session.subscriptions()) await session.resourceUpdated(uri);
      });
      return formatToolResult(`Subscriber updates ${state} for session ${session.id}.`);
    },
  });
}
