/** The wire shape of a tool in tools/list: the definition without the framework's own fields. */
import { withDeprecation } from '../core/deprecation.js';
import type { ITool } from '../core/types.js';

export function describeTool(tool: ITool): Record<string, unknown> {
  const { handler: _h, deprecated, timeoutMs: _t, requiredScopes: _s, requiredGroups: _g, ...wire } = tool;
  if (wire.execution?.taskStart !== undefined || wire.execution?.requiredClientCapabilities !== undefined) {
    // When a task starts, and what the framework checks before a call runs, are not the wire's.
    const { taskStart: _ts, requiredClientCapabilities: _rc, ...execution } = wire.execution;
    wire.execution = execution;
  }
  if (!deprecated) return wire;
  return { ...wire, description: withDeprecation(wire.description, deprecated) };
}
