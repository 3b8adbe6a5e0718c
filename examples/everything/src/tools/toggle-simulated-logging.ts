/**
 * toggle-simulated-logging (2025-era): starts or stops log messages of random levels for this
 * connection, sent through its session handle after the call has ended. The session's
 * logging/setLevel decides which arrive; the interval stops when the session ends.
 */
import { formatToolResult, ToolExecutionError, type LogLevel } from 'fa-mcp-sdk';
import type { EverythingRuntime } from '../runtime.js';
import { defineTool, DEPRECATED } from './define.js';

export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

export function toggleSimulatedLogging(rt: EverythingRuntime) {
  return defineTool('2025', {
    name: 'toggle-simulated-logging',
    title: 'Toggle simulated logging',
    description: `Starts or stops simulated, random-levelled logging for this connection; the level set with logging/setLevel decides which messages arrive. ${DEPRECATED}`,
    annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    handler: async ({ session }) => {
      if (!session) throw new ToolExecutionError('This connection has no session (a stateless endpoint): nothing to send simulated logs to.');
      const { simulatedLoggingMs } = await rt.settings();
      const state = rt.toggles.toggle(session, 'simulated-logging', simulatedLoggingMs, () => {
        const level = LOG_LEVELS[Math.floor(Math.random() * LOG_LEVELS.length)] as LogLevel;
        return session.log(level, `Simulated ${level} message`, 'simulated-logging');
      });
      return formatToolResult(`Simulated logging ${state} for session ${session.id}.`);
    },
  });
}
