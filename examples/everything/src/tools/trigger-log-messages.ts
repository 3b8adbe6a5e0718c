/**
 * trigger-log-messages (both eras): one log message at each level during the call. A 2026-07-28
 * request receives those at or above the level its _meta names (none when it names none); a
 * 2025-era connection those at or above its logging/setLevel level. The framework filters.
 */
import { formatToolResult } from 'fa-mcp-sdk';
import { defineTool, DEPRECATED } from './define.js';
import { LOG_LEVELS } from './toggle-simulated-logging.js';

export const triggerLogMessages = defineTool('both', {
  name: 'trigger-log-messages',
  title: 'Trigger log messages',
  description: `Sends one log message at each level (debug to emergency) during the call; the client's level decides which arrive. ${DEPRECATED}`,
  annotations: { readOnlyHint: true, openWorldHint: false },
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  handler: async ({ client }) => {
    for (const level of LOG_LEVELS) await client.log(level, `A ${level} message from trigger-log-messages`, 'trigger-log-messages');
    return formatToolResult(`Sent one log message at each of ${LOG_LEVELS.length} levels.`);
  },
});
