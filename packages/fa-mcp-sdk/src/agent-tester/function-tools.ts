/**
 * MCP tools as Chat Completions function tools. Function names must match
 * `^[A-Za-z0-9_-]{1,64}$`, so other names are rewritten and mapped back; tools
 * only a view may call (`_meta.ui.visibility` without "model") are not offered.
 */
import type { ChatFunctionTool } from './chat-types.js';

/** The fields of a tools/list entry the conversion reads. */
export interface McpToolLike {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

export interface FunctionToolSet {
  tools: ChatFunctionTool[];
  /** Function name -> MCP tool name. */
  mcpName(functionName: string): string | undefined;
}

const VALID = /^[A-Za-z0-9_-]{1,64}$/;

function baseName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  return cleaned === '' ? 'tool' : cleaned;
}

function uniqueName(name: string, taken: Set<string>): string {
  if (VALID.test(name) && !taken.has(name)) return name;
  const base = baseName(name);
  let candidate = base;
  for (let i = 2; taken.has(candidate); i++) candidate = `${base.slice(0, 64 - String(i).length - 1)}_${i}`;
  return candidate;
}

export function isModelVisible(tool: McpToolLike): boolean {
  const ui = tool._meta?.ui;
  const visibility = typeof ui === 'object' && ui !== null ? (ui as { visibility?: unknown }).visibility : undefined;
  return !Array.isArray(visibility) || visibility.length === 0 || visibility.includes('model');
}

/** The parameters object of a function: the input schema without `$schema` (some endpoints refuse it). */
function parametersOf(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!schema || typeof schema !== 'object') return { type: 'object', properties: {} };
  const { $schema: _ignored, ...rest } = schema;
  return rest.type === undefined ? { type: 'object', ...rest } : rest;
}

export function toFunctionTools(mcpTools: readonly McpToolLike[]): FunctionToolSet {
  const byFunction = new Map<string, string>();
  const tools: ChatFunctionTool[] = [];
  // Valid names first, so a rewritten name never takes a name a real tool has.
  const visible = mcpTools.filter(isModelVisible);
  const ordered = [...visible.filter((t) => VALID.test(t.name)), ...visible.filter((t) => !VALID.test(t.name))];
  const taken = new Set<string>();
  const fnNames = new Map<McpToolLike, string>();
  for (const tool of ordered) {
    const fn = uniqueName(tool.name, taken);
    taken.add(fn);
    fnNames.set(tool, fn);
    byFunction.set(fn, tool.name);
  }
  for (const tool of visible) {
    const description = tool.description ?? tool.title;
    tools.push({
      type: 'function',
      function: { name: fnNames.get(tool) as string, ...(description ? { description } : {}), parameters: parametersOf(tool.inputSchema) },
    });
  }
  return { tools, mcpName: (fn) => byFunction.get(fn) };
}
