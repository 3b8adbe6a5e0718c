/** The wire shape of a tool in tools/list: the definition without the framework's own fields. */
import type { ITool } from '../core/types.js';

export function describeTool(tool: ITool): Record<string, unknown> {
  const { handler: _h, deprecated: _d, timeoutMs: _t, ...wire } = tool;
  return wire;
}
