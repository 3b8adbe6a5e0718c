/**
 * trigger-list-changed (both eras): notifications/<list>/list_changed for tools, prompts or
 * resources. 2025-era: to this connection, unsolicited. 2026-07-28: to every
 * subscriptions/listen stream whose filter asked for that list (on every instance on the bus).
 */
import { formatToolResult, type ListKind } from 'fa-mcp-sdk';
import type { EverythingRuntime } from '../runtime.js';
import { defineTool } from './define.js';

export function triggerListChanged(rt: EverythingRuntime) {
  return defineTool('both', {
    name: 'trigger-list-changed',
    title: 'Trigger list changed',
    description: 'Sends notifications/<list>/list_changed for tools, prompts or resources: to listen streams that asked for it (2026-07-28), to this connection (2025-era).',
    annotations: { readOnlyHint: true, openWorldHint: false },
    inputSchema: {
      type: 'object',
      properties: { list: { type: 'string', enum: ['tools', 'prompts', 'resources'], default: 'tools', description: 'The list that changed' } },
      additionalProperties: false,
    },
    handler: async ({ arguments: args, session }) => {
      const list = (args.list ?? 'tools') as ListKind;
      if (session) {
        const sent = await session.listChanged(list);
        return formatToolResult({ list, sent });
      }
      await (await rt.handle()).notifyListChanged(list);
      return formatToolResult({ list, sent: true });
    },
  });
}
