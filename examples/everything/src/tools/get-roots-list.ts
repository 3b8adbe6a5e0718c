/**
 * get-roots-list (both eras): asks the client for its roots and lists them. 2025-era: roots/list;
 * 2026-07-28: an input_required round (listRoots). Needs the roots capability.
 */
import { formatToolResult } from 'fa-mcp-sdk';
import { defineTool, DEPRECATED } from './define.js';

export const getRootsList = defineTool('both', {
  name: 'get-roots-list',
  title: 'Get roots list',
  description: `Asks the client for its roots and lists them. ${DEPRECATED}`,
  annotations: { readOnlyHint: true, openWorldHint: false },
  execution: { requiredClientCapabilities: { roots: {} } },
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  handler: async ({ client }) => {
    const reply = await client.listRoots({ key: 'roots' });
    const roots = Array.isArray(reply.roots) ? (reply.roots as Array<{ uri?: unknown; name?: unknown }>) : [];
    const lines = roots.map((r, i) => `${i + 1}. ${typeof r.name === 'string' ? r.name : '(unnamed)'}: ${String(r.uri)}`);
    return formatToolResult({
      count: roots.length,
      roots: roots.map((r) => ({ uri: String(r.uri), ...(typeof r.name === 'string' ? { name: r.name } : {}) })),
      text: roots.length ? `The client has ${roots.length} root(s):\n${lines.join('\n')}` : 'The client declared roots but listed none.',
    });
  },
});
